"""OPT015 hyperparams-path: `opt_state.hyperparams` on a state that has none, or written where a
schedule overwrites it.

Only the state of `optax.inject_hyperparams(...)(...)` itself holds `hyperparams`. Wrapped in a
`chain`, `MultiSteps` or any other transformation, the state is a tuple or that wrapper's own
state, and `opt_state.hyperparams` raises `AttributeError: 'tuple' object has no attribute
'hyperparams'`; `optax.tree.get(opt_state, "learning_rate")` finds the value wherever it is
(optax >= 0.2.5; `optax.tree_utils.tree_get` from 0.2.2). A hyperparameter given as a schedule is
recomputed from the step count on every update, so writing it is silently ignored.

The optimizer a state comes from is followed through `opt.init(...)`, `opt.update(...)`, the
callers of a step function and `self.opt_state`; where it cannot be seen, nothing is reported.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.brains.optax_calls import static_arg_names
from optlint.analysis.index import AttributeSite
from optlint.analysis.library_names import (
    OPTAX_CHAIN,
    OPTAX_INJECT_FACTORIES as _INJECT,
    OPTAX_PREFIX,
    OPTAX_TREE_GET,
    OPTAX_TREE_UTILS_TREE_GET,
)
from optlint.analysis.optax_model import state_path
from optlint.analysis.optax_table import behaviour
from optlint.analysis.values import (
    FunctionValue,
    OneOf,
    PartialValue,
    ScheduleValue,
    StateValue,
    TransformValue,
    Value,
)
from optlint.analysis.walk import walk
from optlint.context import RuleContext
from optlint.records import record
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck


@record
class _Use:
    """`<state>.hyperparams[<key>]`: the subscript (None when not subscripted by a string), and
    the statement writing it (None for a read)."""

    site: AttributeSite
    key: str | None
    subscript: cst.Subscript | None
    write: cst.Assign | None
    other_target: bool  # deleted, augmented or unpacked into: a target we do not rewrite


class HyperparamsPath(Rule):
    code = "OPT015"
    runtime_check = RuntimeCheck("expression", probe="optimizer_states:hyperparams_reachable")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        sites = ctx.index.attributes.get("hyperparams", [])
        if not sites:
            return
        targets = _Targets()
        walk(ctx.module, targets)
        for site in sites:
            use = _use(site, targets)
            state = ctx.inference.value_of(site.node.value, site.scope, site.order)
            if not isinstance(state, StateValue):
                continue
            options = _options(state.optimizer)
            if options is None:
                continue
            version = ctx.versions.get("optax").version
            rows = [behaviour(option.name, version) for option in options]
            if any(row is None for row in rows):
                continue
            has = ["hyperparams" in row.state_attributes for row in rows if row is not None]
            by_caller = isinstance(state.optimizer, OneOf) and state.optimizer.by_caller
            if not any(has):
                yield self._missing(ctx, use, options)
            elif by_caller and not all(has):
                # Callers that pass different optimizers: the one whose state has no
                # hyperparams raises where its state arrives here.
                lacking = [option for option, held in zip(options, has, strict=True)
                           if not held]
                yield self._missing(ctx, use, lacking, one_path=False)
            elif all(has) and use.write is not None and use.key is not None:
                finding = self._schedule_write(ctx, use, options)
                if finding is not None:
                    yield finding

    # a state without hyperparams ---------------------------------------------------------
    def _missing(self, ctx: RuleContext, use: _Use, options: list[TransformValue],
                 one_path: bool = True) -> Finding:
        """`one_path`: the state always has the shape of `options` (False where other callers
        pass other optimizers: no single index reaches the hyperparams, `tree.get` does)."""
        state_code = ctx.code(use.site.node.value)
        outer = _names(options)
        injects = [part for option in options for part in option.walk()
                   if part.name in _INJECT]
        key = use.key or "learning_rate"
        getter = _getter(ctx)
        kind = " is a tuple and" if all(option.name == OPTAX_CHAIN for option in options) else ""
        message = (f"`{state_code}.hyperparams` raises AttributeError: the state of {outer}"
                   f"{kind} has no `hyperparams` (only inject_hyperparams' own state has them)")
        path = state_path(options[0], lambda part: part.name in _INJECT) if len(
            options) == 1 and one_path else None
        if injects and path:
            advice = (f"Read the inject_hyperparams state at `{state_code}{path}`: "
                      f"`{state_code}{path}.hyperparams`")
            if getter is not None:
                advice += f" (or `{getter}({state_code}, \"{key}\")`)"
        elif injects:
            shown = getter or OPTAX_TREE_GET
            if use.write is None:
                advice = f"Read it with `{shown}({state_code}, \"{key}\")`"
            else:
                setter = shown.replace("tree.get", "tree.set").replace("tree_get", "tree_set")
                advice = f"Write it with `{state_code} = {setter}({state_code}, {key}=...)`"
            if getter is None:
                advice += (f" (optax >= 0.2.5; optax.tree_utils.{'tree_get' if use.write is None else 'tree_set'} "
                           f"from 0.2.2; {ctx.versions.describe('optax')})")
        else:
            message += "; the optimizer has no inject_hyperparams"
            advice = ("Build it with `optax.inject_hyperparams(...)(...)` to change its "
                      "hyperparameters")
        fix = None
        if path:
            fix = FixPlan("safe", f"Read the inject_hyperparams state at {state_code}{path}",
                          [(use.site.node.value, f"{state_code}{path}")])
        elif len(options) == 1:
            fix = self._fix(ctx, use, injects, getter)
        return Finding(use.site.node.value, message, fix, fix_title=advice)

    def _fix(self, ctx: RuleContext, use: _Use, injects: list[TransformValue],
             getter: str | None) -> FixPlan | None:
        """`tree.get(state, "key")` for a read; `state = tree.set(state, key=value)` for a
        plain write; only where exactly one inject_hyperparams holds the key."""
        if getter is None or use.key is None or use.subscript is None or use.other_target:
            return None
        if len(injects) != 1 or not _holds(injects[0], use.key):
            return None
        state = use.site.node.value
        if not _simple(state):
            return None
        optax = ctx.import_alias("optax", "optax")
        getter = getter.replace(OPTAX_PREFIX, f"{optax}.", 1)
        state_code = ctx.code(state)
        if use.write is None:
            code = f'{getter}({state_code}, "{use.key}")'
            return FixPlan("safe", f"Read it with {getter}", [(use.subscript, code)],
                           [("optax", optax)])
        if not use.key.isidentifier() or not _rebindable(ctx, use):
            return None
        setter = getter.replace("tree.get", "tree.set").replace("tree_get", "tree_set")
        value = ctx.code(use.write.value)
        code = f"{state_code} = {setter}({state_code}, {use.key}={value})"
        return FixPlan("unsafe", f"Write it with {setter}", [(use.write, code)],
                       [("optax", optax)])

    # a write a schedule overwrites ------------------------------------------------------
    def _schedule_write(self, ctx: RuleContext, use: _Use,
                        options: list[TransformValue]) -> Finding | None:
        assert use.key is not None
        schedules = [_schedule_argument(ctx, option, use.key) for option in options]
        if any(schedule is None for schedule in schedules):
            return None
        shown = schedules[0]
        message = (f"writing `hyperparams[\"{use.key}\"]` is silently ignored: '{use.key}' was "
                   f"given to inject_hyperparams as a schedule (`{shown}`), which is evaluated "
                   f"at the step count and written over it on every update")
        return Finding(use.site.node.value, message, fix_title=(
            "Pass a number instead, to set it by hand (and write it before each update)"))


def _options(optimizer: Value) -> list[TransformValue] | None:
    options = optimizer.options if isinstance(optimizer, OneOf) else (optimizer,)
    if not options or not all(isinstance(option, TransformValue) for option in options):
        return None
    return [option for option in options if isinstance(option, TransformValue)]


def _names(options: list[TransformValue]) -> str:
    names = list(dict.fromkeys(f"`{option.name}(...)`" for option in options))
    return names[0] if len(names) == 1 else "each of " + ", ".join(names)


def _getter(ctx: RuleContext) -> str | None:
    """The reader the user's optax has: `optax.tree.get` (>= 0.2.5), `optax.tree_utils.tree_get`
    (0.2.2 ... 0.2.4); None when the version is unknown or older."""
    if ctx.versions.in_range("optax", ">=0.2.5") is True:
        return OPTAX_TREE_GET
    if ctx.versions.in_range("optax", ">=0.2.2") is True:
        return OPTAX_TREE_UTILS_TREE_GET
    return None


def _holds(inject: TransformValue, key: str) -> bool:
    """Whether the inject_hyperparams state surely holds `key` among its hyperparams: given as a
    number (or, for the learning rate, as anything but a static argument) by keyword."""
    call = inject.call
    if call is None or not isinstance(call.func, cst.Call):
        return False
    static = static_arg_names(argument(call.func, 1, "static_args"))
    if static is None or key in static:
        return False
    given = argument(call, None, key)
    if given is None and key == "learning_rate" and call.args and call.args[0].keyword is None \
            and not call.args[0].star:
        row = behaviour(inject.parts[0].name) if inject.parts and isinstance(
            inject.parts[0], TransformValue) else None
        given = call.args[0] if row is not None and row.learning_rate_arg == (
            0, "learning_rate") else None
    if given is None:
        return False
    return key == "learning_rate" or _is_number(given.value)


def _is_number(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.UnaryOperation):
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float))


def _simple(expr: cst.BaseExpression) -> bool:
    """A name or a dotted attribute (`opt_state`, `self.opt_state`): safe to write twice."""
    while isinstance(expr, cst.Attribute):
        expr = expr.value
    return isinstance(expr, cst.Name)


def _rebindable(ctx: RuleContext, use: _Use) -> bool:
    """Whether `state = tree.set(state, ...)` keeps the write visible: the state is a name of
    the function or module writing it (not a parameter, whose caller would not see it) or
    `self.<attribute>`."""
    state = use.site.node.value
    if isinstance(state, cst.Attribute):
        return isinstance(state.value, cst.Name) and state.value.value == (
            use.site.scope.self_name or _enclosing_self(use.site))
    if not isinstance(state, cst.Name):
        return False
    bindings = use.site.scope.bindings.get(state.value, [])
    return bool(bindings) and all(binding.kind == "assign" for binding in bindings)


def _enclosing_self(site: AttributeSite) -> str | None:
    scope = site.scope
    while scope is not None and scope.self_name is None:
        scope = scope.parent  # type: ignore[assignment]
    return scope.self_name if scope is not None else None


def _schedule_argument(ctx: RuleContext, inject: TransformValue, key: str) -> str | None:
    """The code of the schedule `key` was given as, in this inject_hyperparams call."""
    call = inject.call
    if call is None:
        return None
    given = argument(call, None, key)
    if given is None:
        return None
    site = ctx.site_of(call)
    if site is None:
        return None
    value = ctx.value(given.value, site)
    if isinstance(value, (ScheduleValue, FunctionValue, PartialValue)):
        code = ctx.code(given.value)
        return code if len(code) <= 60 else code[:57] + "..."
    return None


class _Targets:
    """Assignment targets of the file, by the id of the subscript they write, and the one-key
    subscripts `x.hyperparams[...]` by the id of their attribute (the index keeps no parents)."""

    def __init__(self) -> None:
        self.writes: dict[int, cst.Assign] = {}
        self.others: set[int] = set()
        self.subscripts: dict[int, cst.Subscript] = {}

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if isinstance(node.value, cst.Attribute) and len(node.slice) == 1:
            self.subscripts[id(node.value)] = node

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Subscript) and len(node.targets) == 1:
                self.writes[id(target.target)] = node
            else:
                self._other(target.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._other(node.target)

    def visit_Del(self, node: cst.Del) -> None:
        self._other(node.target)

    def _other(self, target: cst.BaseExpression) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._other(element.value)
        else:
            self.others.add(id(target))


def _use(site: AttributeSite, targets: _Targets) -> _Use:
    subscript = targets.subscripts.get(id(site.node))
    key = None
    if subscript is not None:
        index = subscript.slice[0].slice
        if isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString):
            evaluated = index.value.evaluated_value
            key = evaluated if isinstance(evaluated, str) else None
    write = targets.writes.get(id(subscript)) if subscript is not None else None
    other = subscript is not None and id(subscript) in targets.others
    return _Use(site, key, subscript if key is not None else None, write, other)


