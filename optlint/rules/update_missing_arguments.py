"""OPT007 update-missing-arguments: `update` called without the params or `value=` the optimizer needs.

Some transformations read the current params in `update` (decoupled weight decay in `adamw`,
`add_decayed_weights`, trust ratios, `lookahead`, the parameter-free optimizers): called as
`update(grads, state)` they raise on the first call (ValueError "You are using a transformation
that requires the current value of parameters", or TypeError "missing 1 required positional
argument: 'params'"). Others need the loss as a keyword (`reduce_on_plateau`, `polyak_sgd`, `momo`:
`value=`; `sophia`: `obj_fn=`): without it TypeError. `chain`, `MultiSteps`, `inject_hyperparams`,
`masked` and the other wrappers forward what they are given, so the error comes through them
(measured on optax 0.2.8). Line searches' `value`/`grad`/`value_fn` are OPT005's.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.index import CallSite
from optlint.analysis.library_names import EQUINOX_APPLY_UPDATES, OPTAX_APPLY_UPDATES
from optlint.analysis.linesearch import linesearch_part, runs_linesearch
from optlint.analysis.optax_model import added_only_if, update_reaches
from optlint.analysis.optax_table import Transform, behaviour, canonical
from optlint.analysis.values import OneOf, TrainStateValue, TransformValue, Value
from optlint.context import RuleContext
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck

# Keyword-only arguments of `update` that hold the loss (`loss=` is reduce_on_plateau's before
# optax 0.2.2): without them `update` raises TypeError.
_LOSS_KEYWORDS = ("value", "loss")
_NO_PARAMS = "You are using a transformation that requires the current value of parameters"


class UpdateMissingArguments(Rule):
    code = "OPT007"
    runtime_check = RuntimeCheck("params", probe="update_arguments:update_as_written")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        version = ctx.versions.get("optax").version
        # `update(*args)` / `**kwargs` are left out: what is passed cannot be told.
        for site, optimizer in ctx.method_invocations("update"):
            if not isinstance(optimizer, (TransformValue, OneOf)):
                continue
            yield from self._check_params(ctx, site, optimizer, version)
            yield from self._check_keywords(ctx, site, optimizer, version)
        # Flax's `state.apply_gradients(grads=g)` runs `tx.update(g, opt_state, params)`: params
        # given, no keyword (its own keywords go to `replace`).
        for site in ctx.method_calls("apply_gradients"):
            assert isinstance(site.node.func, cst.Attribute)
            state = ctx.value(site.node.func.value, site)
            if isinstance(state, TrainStateValue) and isinstance(
                    state.optimizer, (TransformValue, OneOf)):
                yield from self._check_keywords(ctx, site, state.optimizer, version,
                                                through="`apply_gradients` calls `tx.update`")

    def _check_params(self, ctx: RuleContext, site: CallSite, optimizer: Value,
                      version: str | None) -> Iterator[Finding]:
        call = site.node
        given = argument(call, 2, "params")
        if given is not None and not _is_none(given.value):
            return
        proven, part = update_reaches(optimizer, lambda row: row.reads_params, version)
        if proven is False or part is None:
            return
        how = "without params" if given is None else "with `params=None`"
        message = (f"`update` is called {how}, but `{canonical(part.name)}` in this optimizer "
                   f"reads them: {_params_error(optimizer, given is None)}")
        newest = behaviour(part.name)
        if newest is not None and not newest.reads_params:  # it read them on older releases
            message += f" ({ctx.versions.describe('optax')})"
        fix = _params_fix(ctx, site, given)
        advice = "Pass the params the updates are applied to" if fix is None else None
        unproven = None if proven else "whether every way this optimizer is built reads params"
        added_if = added_only_if(optimizer, part) if not proven else None
        if added_if is not None:
            unproven = (f"whether the configuration makes `{added_if}` hold, under which "
                        f"`{canonical(part.name)}` is added (it does not with the defaults the "
                        f"analysis sees)")
        yield Finding(call, message, fix, unproven, fix_title=advice, roles={"call": call})

    def _check_keywords(self, ctx: RuleContext, site: CallSite, optimizer: Value,
                        version: str | None, through: str | None = None) -> Iterator[Finding]:
        call = site.node
        linesearch = linesearch_part(optimizer) if isinstance(optimizer, TransformValue) else None
        if linesearch is not None and runs_linesearch(linesearch):
            return  # OPT005 reports the line search's value/grad/value_fn
        given = set() if through else {arg.keyword.value for arg in call.args
                                       if arg.keyword is not None}
        missing: dict[str, tuple[str, ...]] = {}

        def needs(row: Transform) -> bool:
            if "value_fn" in row.update_requires:
                return False  # a line search: OPT005's
            lacking = _lacking(row, given, version)
            if lacking:
                missing[row.name] = lacking
            return bool(lacking)

        proven, part = update_reaches(optimizer, needs, version)
        if proven is False or part is None:
            return
        name = canonical(part.name)
        lacking = missing[name]
        names = ", ".join(f"`{name}=`" for name in lacking)
        plural = len(lacking) > 1
        if all(name in _LOSS_KEYWORDS for name in lacking):
            harm = (f"it raises TypeError (missing {len(lacking)} required keyword-only "
                    f"argument{'s' if plural else ''})")
        else:
            harm = "every call raises"
        called = f"{through}" if through else "`update` is called"
        message = (f"{called} without {names}, which `{name}` in this optimizer "
                   f"requires: {harm}")
        older = _older_spelling(name, version)
        if older:
            message += f" ({older})"
        loss = next((name for name in lacking if name in _LOSS_KEYWORDS), None)
        advice = f"Pass the loss at the current params, e.g. `{loss}=loss`" if loss else None
        if through and loss:
            advice = (f"Call `tx.update(grads, opt_state, params, {loss}=loss)` yourself and "
                      f"`state.replace(...)` the results")
        unproven = None if proven else ("whether every way this optimizer is built needs "
                                        + names)
        yield Finding(call, message, unproven=unproven, fix_title=advice, roles={"call": call})


def _lacking(row: Transform, given: set[str], version: str | None) -> tuple[str, ...]:
    """The required extra arguments of `row` the call does not give, on `version`; with the
    version unknown, nothing when the call gives what some release requires (`loss=` before
    optax 0.2.2, `value=` since)."""
    if any(arg in given for arg in row.update_requires_unless):
        return ()  # the table's only such case is a line search, excluded above
    lacking = tuple(name for name in row.update_requires if name not in given)
    if version is not None or not lacking:
        return lacking
    raw = behaviour(row.name)
    for _, changes in raw.older if raw is not None else ():
        spelled = dict(changes).get("update_requires")
        if spelled is not None and all(name in given for name in spelled):
            return ()
    return lacking


def _older_spelling(name: str, version: str | None) -> str:
    """'named `loss=` before optax 0.2.2' where the table knows an older spelling."""
    raw = behaviour(name)
    if raw is None or version is not None:
        return ""
    for versions, changes in raw.older:
        spelled = dict(changes).get("update_requires")
        if spelled is not None and spelled != raw.update_requires:
            return f"named {', '.join(f'`{item}=`' for item in spelled)} on {versions}"
    return ""


def _params_error(optimizer: Value, omitted: bool) -> str:
    row = behaviour(optimizer.name) if isinstance(optimizer, TransformValue) else None
    if omitted and row is not None and row.params_positional_required:
        return "every call raises TypeError (missing 1 required positional argument: 'params')"
    return f"every call raises ValueError (for most parts: \"{_NO_PARAMS}\")"


def _is_none(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def _params_fix(ctx: RuleContext, site: CallSite, given: cst.Arg | None) -> FixPlan | None:
    """Pass the tree the updates are applied to: `x` of `optax.apply_updates(x, updates)` later
    in the same function, or `eqx.filter(m, eqx.is_array)` of `eqx.apply_updates(m, updates)`."""
    applied = _applied_to(ctx, site)
    if applied is None:
        return None
    target, through_equinox = applied
    code = ctx.code(target)
    imports: list[tuple[str, str]] = []
    if through_equinox:
        eqx = ctx.import_alias("equinox", "eqx")
        code = f"{eqx}.filter({code}, {eqx}.is_array)"
        imports.append(("equinox", eqx))
    call = site.node
    if given is not None:
        replacement: list[tuple[cst.CSTNode, str]] = [(given.value, code)]
    else:
        positional = [arg for arg in call.args if arg.keyword is None]
        if len(positional) != 2:
            return None  # grads or state given by keyword: no place to add a positional
        # After the state (keywords such as `value=loss` keep their place after it).
        state = positional[1].value
        replacement = [(state, f"{ctx.code(state)}, {code}")]
    return FixPlan("safe", f"Pass `{code}` as params", replacement, imports)


def _applied_to(ctx: RuleContext, site: CallSite) -> tuple[cst.BaseExpression, bool] | None:
    """The params the result of this `update` is applied to, and whether through Equinox."""
    updates = _first_result_name(site)
    if updates is None:
        return None
    for later in ctx.calls_where((), (OPTAX_APPLY_UPDATES, EQUINOX_APPLY_UPDATES).__contains__):
        if later.scope is not site.scope or later.order <= site.order:
            continue
        qualified = ctx.qualify(later.node.func)
        if qualified not in (OPTAX_APPLY_UPDATES, EQUINOX_APPLY_UPDATES):
            continue
        applied = argument(later.node, 1, "updates")
        target = argument(later.node, 0, "params" if qualified == OPTAX_APPLY_UPDATES
                          else "model")
        if (applied is None or target is None or not isinstance(applied.value, cst.Name)
                or applied.value.value != updates):
            continue
        if not _stable_between(site, later, target.value):
            return None
        return target.value, qualified == EQUINOX_APPLY_UPDATES
    return None


def _first_result_name(site: CallSite) -> str | None:
    """`updates` in `updates, state = opt.update(...)`."""
    for name, bindings in site.scope.bindings.items():
        for binding in bindings:
            if binding.value is site.node and binding.path == (0,):
                return name
    return None


def _stable_between(site: CallSite, later: CallSite, target: cst.BaseExpression) -> bool:
    """Whether `target` (a name, or `self.x`) names the same value at the `update` call as where
    the updates are applied: it is not rebound in between."""
    if isinstance(target, cst.Attribute):
        return isinstance(target.value, cst.Name) and target.value.value == site.scope.self_name
    if not isinstance(target, cst.Name):
        return False
    bindings = site.scope.bindings.get(target.value, [])
    if not any(binding.order < site.order for binding in bindings) and not _visible_outside(
            site, target.value):
        return False
    return not any(site.order < binding.order < later.order for binding in bindings)


def _visible_outside(site: CallSite, name: str) -> bool:
    scope = site.scope.parent
    while scope is not None:
        if scope.kind != "class" and name in scope.bindings:
            return True
        scope = scope.parent
    return False
