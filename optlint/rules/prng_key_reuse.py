"""OPT020 prng-key-reuse: one `jax.random` key consumed twice.

A JAX key is a value, not a generator: every sampler given the same key returns the same bits. Two
samplers (or a sampler and `split`, or two dropout layers) given one key draw identical or
correlated numbers; a key consumed in a loop body that never re-splits it draws the same numbers
on every iteration; a key stored on an Equinox (or Flax) module in `__init__` and consumed in
`__call__` gives the same dropout mask or noise on every training step. Nothing raises: training
just gets the wrong randomness. The flow analysis is `optlint.analysis.prng_keys`; a key passed to
a function the analysis cannot see is never a finding.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import PurePath

import libcst as cst

from optlint.analysis.index import CallSite, ClassInfo, FunctionInfo, Scope
from optlint.analysis.key_consumers import (
    BATCHING,
    FUNCTION_CONSUMERS,
    KEY_WRAPPERS,
    LOOP_BODIES,
    METHOD_CONSUMERS,
    NO_DRAW_SWITCHES,
    REPLICATING,
    REPLICATING_NAMES,
    STATEFUL_BATCHING,
    STREAM_BROADCASTS,
    STREAM_LAYERS,
    TREE_MAPS,
    STREAM_DRAWS,
    KeyConsumer,
)
from optlint.analysis.prng_keys import (
    SAMPLERS,
    Consumption,
    KeyFlow,
    Reuse,
    key_argument,
)
from optlint.analysis.values import (
    ClassRef,
    FunctionValue,
    InstanceValue,
    ModuleValue,
    TransformedFunction,
)
from optlint.analysis.binding import argument, bind_arguments
from optlint.analysis.walk import child_nodes
from optlint.context import RuleContext
from optlint.edits import source_lines
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck

# Transformations (by a part of their qualified name) whose function runs as written, once per
# training step: `jax.jit`, `eqx.filter_value_and_grad`, `jax.checkpoint`.
STEPPING_TRANSFORMS = ("jit", "grad", "checkpoint", "remat")
# equinox.nn layers whose `__call__` draws from its `key` (the others ignore it).
RANDOM_LAYERS = frozenset({"Dropout", "MultiheadAttention"})
_SHOWN = 60
# Samplers given one key on purpose to draw the same indices for several arrays.
ALIGNING = frozenset({"permutation", "choice", "shuffle"})
_KEYISH = re.compile(r"(key|rng|prng)s?(_?\d+)?$|^(key|rng)_", re.IGNORECASE)
TEST_FOLDERS = frozenset({"tests", "test", "testing"})  # characters of the earlier call quoted in a message


class PrngKeyReuse(Rule):
    code = "OPT020"
    name = "prng-key-reuse"
    summary = "One jax.random key consumed twice: identical samples or dropout masks"
    fix_availability = "sometimes"
    trigger_words = ("random", "rng", "seed")
    runtime_check = RuntimeCheck("keys", probe="prng_keys:keys_differ")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        if is_test_code(ctx.filename):
            return
        analysis = _Analysis(ctx)
        try:
            yield from self._check(ctx, analysis)
        finally:  # its walks hold its bound methods: a cycle that would keep the file's tree
            analysis.__dict__.clear()  # alive until the garbage collector's next full pass

    def _check(self, ctx: RuleContext, analysis: _Analysis) -> Iterator[Finding]:
        if not analysis.has_consumers():
            return
        reported: set[int] = set()
        for info in analysis.functions_to_walk():
            if isinstance(info.node, cst.FunctionDef) and info.node.name.value.startswith("test"):
                continue
            flow = analysis.walk(info)
            for reuse in flow.reuses.values():
                if id(reuse.second.call) not in reported and _reported(reuse, flow):
                    reported.add(id(reuse.second.call))
                    yield self._reuse_finding(ctx, reuse)
            yield from self._field_findings(ctx, analysis, info, flow, reported)
            yield from self._stored_findings(ctx, flow, reported)
        module_flow = analysis.walk_module()
        if module_flow is not None:
            for reuse in module_flow.reuses.values():
                if id(reuse.second.call) not in reported and _reported(reuse, module_flow):
                    reported.add(id(reuse.second.call))
                    yield self._reuse_finding(ctx, reuse)

    def _reuse_finding(self, ctx: RuleContext, reuse: Reuse) -> Finding:
        key = ctx.code(reuse.second.key)
        first = _shown(ctx, reuse.first.call)
        split = f"`{key}, subkey = jax.random.split({key})`"
        second = reuse.second
        if second.stream:
            message = (f"`{key}` draws from the rng stream in every row of `{second.over}`, "
                       f"which gives every row the same stream: every row draws the same random "
                       f"numbers (the same dropout mask)")
            return Finding(second.call, message, roles=_roles(reuse), fix_title=(
                "Give each row its own stream (`split_rng=True`)"))
        if second.repeated:
            batched = second.over.split(" ", 1)[0] in {*BATCHING, *TREE_MAPS}
            where = ("leaf" if second.over.split(" ", 1)[0] in TREE_MAPS else "row") if (
                batched) else "step"
            message = (f"`{key}` is consumed by `{second.how}` in every {where} of "
                       f"`{second.over}`, and the {where.replace('leaf', 'leave')}s are not "
                       f"given keys of their own "
                       f"(it is {'broadcast' if batched else 'closed over or carried back'} "
                       f"unchanged): every {where} draws the same random numbers")
            fix_title = (f"Split it into one key per {where} (`jax.random.split({key}, n)`), "
                         f"mapped or carried" if batched else
                         f"Split it in the body and carry the new key, or fold in the step "
                         f"(`jax.random.fold_in({key}, i)`)")
            return Finding(second.call, message, roles=_roles(reuse), fix_title=fix_title)
        via = reuse.first.via
        if via is not None:
            # Reported where the callee consumes the key it returns: the cause.
            message = (f"`{ctx.code(via.key)}` is consumed by `{_shown(ctx, via.call)}` and "
                       f"then returned by `{_callee(ctx, reuse.first.call)}`; the returned key "
                       f"is consumed again by `{second.how}` (line "
                       f"{ctx.positions()[second.call].start.line}): both draw from one key")
            return Finding(via.call, message, roles=_roles(reuse), fix_title=(
                f"Return a fresh key: split it (`{ctx.code(via.key)}, subkey = "
                f"jax.random.split({ctx.code(via.key)})`) and consume only `subkey`"))
        if reuse.in_loop and reuse.first.call is second.call:
            message = (f"`{key}` is consumed by `{second.how}` in every iteration of the "
                       f"loop, and the loop never reassigns it: every iteration draws the same "
                       f"random numbers")
            return Finding(second.call, message, roles=_roles(reuse), fix_title=(
                f"Split it in the loop ({split}) or fold in the step "
                f"(`jax.random.fold_in({key}, i)`)"))
        path = _path(ctx, reuse)
        if reuse.in_loop:
            message = (f"`{key}`{path} is consumed by `{second.how}` after `{first}` consumed "
                       f"the same key in the previous iteration of the loop, with no split in "
                       f"between: both derive their random numbers from one key")
            return Finding(second.call, message, roles=_roles(reuse),
                           fix_title=f"Split it ({split})")
        kinds = {reuse.first.kind, second.kind}
        if kinds == {"split", "fold"}:
            message = (f"`{key}`{path} is split by `{first}` and folded by `{second.how}` "
                       if reuse.first.kind == "split" else
                       f"`{key}`{path} is folded by `{first}` and split by `{second.how}` ")
            message += ("too: `fold_in(key, i)` equals `split(key, n)[i]` (threefry), so the "
                        "folded key repeats one of the split keys")
            return Finding(second.call, message, roles=_roles(reuse), fix_title=(
                f"Split off a key for folding (`{key}, fold_key = jax.random.split({key})`)"))
        effect = ("identical or correlated samples, the same dropout mask"
                  if "split" not in kinds or kinds == {"split"} else
                  "the draws are correlated, not identical: the sample comes from the same "
                  "bits as the split keys")
        shown_key = f"the seed `{key}`" if isinstance(second.key, cst.Integer) else f"`{key}`"
        message = (f"{shown_key}{path} was already consumed by `{first}` and is consumed again by "
                   f"`{second.how}` without a split: both derive their random numbers "
                   f"from one key ({effect})")
        if isinstance(second.key, cst.Integer):
            return Finding(second.call, message, roles=_roles(reuse), fix_title=(
                "Give each call its own seed, or make one key and split it"))
        return Finding(second.call, message, _fix(ctx, reuse), roles=_roles(reuse),
                       fix_title=f"Split it first ({split})")

    def _stored_findings(self, ctx: RuleContext, flow: KeyFlow,
                         reported: set[int]) -> Iterator[Finding]:
        """A key consumed, then handed back in the returned state (`state.replace(params=p)`
        after `split(state.key)`): the next step consumes it again."""
        for use, returned in flow.stored:
            if id(use.call) in reported or id(use.call) in flow.discarded:
                continue
            reported.add(id(use.call))
            key = ctx.code(use.key)
            message = (f"`{key}` is consumed by `{_shown(ctx, use.call)}` and then handed back "
                       f"unchanged in `{_shown(ctx, returned)}`: the next step given the "
                       f"returned value consumes the same key again and draws the same "
                       f"random numbers")
            yield Finding(use.call, message, roles={"call": use.call, "key": use.key,
                                                    "returned": returned},
                          fix_title=(f"Split it and return the new key (`{key}, subkey = "
                                     f"jax.random.split({key})`, then store `{key}`)"))

    def _field_findings(self, ctx: RuleContext, analysis: _Analysis, info: FunctionInfo,
                        flow: KeyFlow, reported: set[int]) -> Iterator[Finding]:
        node = info.node
        scope = info.scope
        owner = scope.owner
        if (not isinstance(node, cst.FunctionDef) or node.name.value != "__call__"
                or owner is None or scope.self_name is None or not analysis.is_module(owner)):
            return
        for use in flow.every:
            key = use.key
            if (use.kind in ("fold", "seed") or use.repeated
                    or not isinstance(key, cst.Attribute) or not isinstance(key.value, cst.Name)
                    or key.value.value != scope.self_name or id(use.call) in reported):
                continue
            field = key.attr.value
            if not _stored_once(owner, field):
                continue
            reported.add(id(use.call))
            message = (f"`{ctx.code(key)}` is a key stored on module `{owner.name}` and consumed "
                       f"by `{use.how}` in `__call__`: every call (every training step) draws "
                       f"the same random numbers, e.g. the same dropout mask")
            yield Finding(use.call, message, fix_title=(
                f"Pass a fresh key to `__call__`, or fold in a per-call value "
                f"(`jax.random.fold_in({ctx.code(key)}, step)`)"))


def _roles(reuse: Reuse) -> dict[str, cst.CSTNode]:
    """Both consumers and the key each is given (what `optlint verify` records keys at), and
    where the key was made."""
    roles: dict[str, cst.CSTNode] = {"call": reuse.second.call, "key": reuse.second.key,
             "first_call": reuse.first.call, "first_key": reuse.first.key}
    if reuse.origin is not None:
        roles["key_origin"] = reuse.origin
    return roles


def _path(ctx: RuleContext, reuse: Reuse) -> str:
    """` (made at line 3, first consumed at line 5)`: the key's path, for the message."""
    if ctx.filename.endswith(".ipynb"):
        return ""  # the program's lines are not the cells' (the roles carry the positions)
    positions = ctx.positions()
    first = positions[reuse.first.call].start.line
    if reuse.origin is None:
        return f" (first consumed at line {first})"
    return f" (made at line {positions[reuse.origin].start.line}, first consumed at line {first})"


def _reported(reuse: Reuse, flow: KeyFlow) -> bool:
    """Leaves out the reuses real code makes on purpose.

    The same key to `permutation`/`choice`/`shuffle` twice keeps arrays aligned (`x` and `y`
    shuffled alike); one method called on two objects with one key compares them on the same
    draw (`layer.init(x, key=key)`, `layer2.init(x, key=key)`); a helper that consumes its key,
    called on every iteration of a loop with one key, is usually an evaluation meant to see the
    same draw each time (a fixed validation key). A loop over settings (`for beta in betas`)
    rather than steps often means to use one key for each; a call whose result is thrown away
    (a warm-up, `_ = sample(key)`) has no effect."""
    first, second = reuse.first, reuse.second
    if second.repeated:
        return True
    if _overwritten(reuse):
        return False
    if id(first.call) in flow.discarded or id(second.call) in flow.discarded:
        return False
    if (reuse.in_loop and not second.library and first.call is second.call
            and (second.stepping or id(second.call) in flow.threaded)):
        return True  # a training step threading its state, given one key on every step
    if reuse.in_loop and not reuse.counting:
        return False
    if first.library and second.library and {first.how.rsplit(".", 1)[-1],
                                              second.how.rsplit(".", 1)[-1]} <= ALIGNING:
        return False
    if reuse.in_loop and not (first.library and second.library):
        return False
    a, b = first.call.func, second.call.func
    return not (not first.library and isinstance(a, cst.Attribute) and isinstance(b, cst.Attribute)
                and a.attr.value == b.attr.value and not a.value.deep_equals(b.value))


def _overwritten(reuse: Reuse) -> bool:
    """The first draw's result is assigned to names that are reassigned before anything reads
    them (`x = normal(key); x = uniform(key)`): the first draw has no effect."""
    if len(reuse.span) < 2:
        return False
    first, *between, last = reuse.span
    targets = _assigned_names(first, reuse.first.call)
    if not targets or not targets <= _assigned_names(last, None):
        return False
    assert isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[0], cst.Assign)
    return not any(_reads(node, targets) for node in (*between, last.body[0].value))


def _assigned_names(statement: cst.BaseStatement, value: cst.Call | None) -> set[str]:
    """The plain names `statement` assigns, when it is one `names = value` (any value if None)."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return set()
    small = statement.body[0]
    if not isinstance(small, cst.Assign) or (value is not None and small.value is not value):
        return set()
    names = [target.target for target in small.targets]
    return {name.value for name in names if isinstance(name, cst.Name)} if all(
        isinstance(name, cst.Name) for name in names) else set()


def _reads(node: cst.CSTNode, names: set[str]) -> bool:
    if isinstance(node, cst.Name):
        return node.value in names
    return any(_reads(child, names) for child in child_nodes(node))


def is_test_code(filename: str) -> bool:
    """Tests reuse keys on purpose (two implementations compared on the same draw, a fixed key
    per parametrised case): files in a `tests` folder or named like pytest's test files."""
    path = PurePath(filename)
    return (any(part in TEST_FOLDERS for part in path.parts[:-1])
            or path.name.startswith("test_") or path.name.endswith("_test.py")
            or path.name == "conftest.py")


class _Analysis:
    """The file's consumers, helper summaries and walks, shared by the checks of one file."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.sites: dict[int, CallSite] = {id(site.node): site for site in ctx.calls()}
        self.summaries: dict[int, KeyFlow | None] = {}
        self.callees: dict[int, str] = {}
        self.resolved: dict[int, tuple[cst.FunctionDef, bool, bool] | list[Consumption]
                            | None] = {}
        self.walks: dict[int, KeyFlow] = {}
        # Calls that consume a key by themselves, or may (a layer or model called with `key=`).
        self.candidates: set[int] = set()
        for site in ctx.calls():
            if (_passes_key(site.node) or self._direct(site.node)
                    or _transforms(self.ctx, site.node)):
                self.candidates.add(id(site.node))
        self.stream_drawers: set[str] = set()
        self.helpers = self._helpers()

    def callee(self, call: cst.Call) -> str:
        """What a call calls, as the messages show it; made once per call (walks repeat)."""
        text = self.callees.get(id(call))
        if text is None:
            text = self.callees[id(call)] = _callee(self.ctx, call)
        return text

    # which calls consume ------------------------------------------------------------------
    def _direct(self, call: cst.Call) -> list[Consumption]:
        ctx = self.ctx
        qualified = ctx.qualify(call.func)
        if qualified is not None:
            if qualified.startswith("jax.random."):
                name = qualified.rsplit(".", 1)[1]
                kind = {"split": "split", "fold_in": "fold", "PRNGKey": "seed",
                        "key": "seed"}.get(name, "draw")
                key = key_argument(call, 0, "key" if kind != "seed" else "seed") if (
                    name in SAMPLERS or kind != "draw") else None
                return [] if key is None else [Consumption(call, key, self.callee(call),
                                                           kind=kind)]
            if qualified.startswith("equinox.nn."):
                key = key_argument(call, None, "key")
                return [] if key is None else [Consumption(call, key, self.callee(call))]
            row = FUNCTION_CONSUMERS.get(qualified)
            return [] if row is None else self._library(call, row)
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in METHOD_CONSUMERS:
            site = self.sites.get(id(call))
            made = self._made_by(func.value, site) if site is not None else set()
            for row in METHOD_CONSUMERS[func.attr.value]:
                if made & set(row.made_by) or ("*" in row.made_by and self._imports(row.library)):
                    uses = self._library(call, row)
                    if uses:
                        return uses
        if isinstance(func, cst.Call):
            inner = ctx.qualify(func.func) or ""
            if inner.rsplit(".", 1)[-1] in RANDOM_LAYERS and inner.startswith("equinox.nn."):
                key = key_argument(call, None, "key")
                return [] if key is None else [Consumption(call, key, self.callee(call))]
            if inner.startswith("jax.nn.initializers."):
                key = key_argument(call, 0, "key")
                return [] if key is None else [Consumption(call, key, self.callee(call))]
        return []

    def _library(self, call: cst.Call, row: KeyConsumer) -> list[Consumption]:
        """The keys `call` gives where `row` says its library draws from them."""
        given: list[cst.BaseExpression] = []
        arg = argument(call, row.position, row.keyword or "")
        if arg is not None:
            given.append(arg.value)
        if row.all_keywords:
            given += [a.value for a in call.args if a.keyword is not None and a is not arg]
        keys = []
        for expr in given:
            if row.in_dict and isinstance(expr, cst.Dict):
                keys += [element.value for element in expr.elements
                         if isinstance(element, cst.DictElement)]
            else:
                keys.append(self._unwrapped(expr))
        how = self.callee(call)
        return [Consumption(call, key, how) for key in keys if isinstance(key, cst.Name)]

    def _unwrapped(self, expr: cst.BaseExpression) -> cst.BaseExpression:
        """The key inside calls that only convert it (`np.asarray(jax.random.key_data(key))`)."""
        while (isinstance(expr, cst.Call) and len(expr.args) >= 1
               and (self.ctx.qualify(expr.func) or _last_name(expr.func) or "") in KEY_WRAPPERS):
            expr = expr.args[0].value
        return expr

    def _imports(self, library: str) -> bool:
        return any(full == library or full.startswith(library + ".")
                   for full in self.ctx.index.imports.aliases.values())

    def _made_by(self, receiver: cst.BaseExpression, site: CallSite) -> set[str]:
        """What made the object a method is called on: the qualified name of the call, of its
        decorators, and of the bases of the class it instantiates (from this file)."""
        made: set[str] = set()
        if isinstance(receiver, cst.Name):
            binding = self.ctx.binding(receiver.value, site)
            if binding is None:
                return made
            if isinstance(binding.node, (cst.FunctionDef, cst.ClassDef)):
                made |= {self.ctx.qualify(d.decorator if not isinstance(d.decorator, cst.Call)
                                          else d.decorator.func) or ""
                         for d in binding.node.decorators}
            annotation = getattr(binding.node, "annotation", None)
            if isinstance(annotation, cst.Annotation) and isinstance(annotation.annotation,
                                                                     cst.Name):
                # `model: MLP`: an instance of that class.
                return made | self._bases(annotation.annotation.value, set())
            if binding.path == () and isinstance(binding.value, cst.Call):
                receiver = binding.value
            elif isinstance(binding.value, cst.Call) and binding.path:
                return made
        elif isinstance(receiver, cst.Attribute) and isinstance(receiver.value, cst.Name):
            owner = site.scope.owner if site.scope.self_name == receiver.value.value else None
            bindings = owner.attributes.get(receiver.attr.value, []) if owner else []
            values = [b.value for b in bindings if isinstance(b.value, cst.Call) and not b.path]
            if len(values) != 1:
                return made
            receiver = values[0]
        if isinstance(receiver, cst.Call):
            made.add(self.ctx.qualify(receiver.func) or "")
            for inner in receiver.args[:1]:  # `hk.without_apply_rng(hk.transform(f))`
                if isinstance(inner.value, cst.Call):
                    made.add("wrapped:" + (self.ctx.qualify(inner.value.func) or ""))
            if isinstance(receiver.func, cst.Name):
                made |= self._bases(receiver.func.value, set())
        made.discard("")
        return made

    def _bases(self, class_name: str, seen: set[str]) -> set[str]:
        info = self.ctx.index.classes.get(class_name)
        if info is None or class_name in seen:
            return set()
        seen.add(class_name)
        found = set()
        for base in info.bases:
            found.add(self.ctx.qualify(base) or "")
            if isinstance(base, cst.Name):
                found |= self._bases(base.value, seen)
        return found

    def consumer(self, call: cst.Call) -> list[Consumption]:
        if _draws_nothing(call):
            return []
        direct = self._direct(call)
        if direct:
            return direct
        transformed = self._transformed(call)
        if transformed is not None:
            return transformed
        resolved = self._resolve(call)
        if resolved is None:
            return []
        if isinstance(resolved, list):
            return resolved
        function, bound, stepping = resolved
        flow = self.summary(function)
        if flow is None:
            return []
        how = self.callee(call)
        # A helper that splits its key first splits the caller's (it conflicts with `fold_in`).
        uses = [Consumption(call, expr, how, library=False, stepping=stepping,
                            kind="split" if flow.param_uses[param.name.value].kind == "split"
                            else "draw")
                for param, expr in bind_arguments(function, call, bound)
                if param.name.value in flow.consumed_params]
        if self._nested(function):
            # A closure consuming a key of the enclosing function: each call consumes it.
            uses += [Consumption(call, inner.key, how, library=False, stepping=stepping)
                     for inner in flow.free_consumed().values()]
        return uses

    def _resolve(self, call: cst.Call
                 ) -> tuple[cst.FunctionDef, bool, bool] | list[Consumption] | None:
        """The project function `call` runs (bound: a method; stepping: jitted), or what a
        library layer it calls consumes."""
        if id(call) in self.resolved:
            return self.resolved[id(call)]
        self.resolved[id(call)] = None
        result = self._resolve_uncached(call)
        self.resolved[id(call)] = result
        return result

    def _resolve_uncached(self, call: cst.Call
                          ) -> tuple[cst.FunctionDef, bool, bool] | list[Consumption] | None:
        last = _last_name(call.func)
        if isinstance(call.func, cst.Call):  # `jax.grad(loss)(params)`: the helper it wraps
            last = next((arg.value.value for arg in call.func.args[:1]
                         if isinstance(arg.value, cst.Name)), None)
        if last is None or (last not in self.helpers and not _passes_key(call)):
            return None
        site = self.sites.get(id(call))
        if site is None:
            return None
        value = self.ctx.value(call.func, site)
        stepping = False
        while isinstance(value, TransformedFunction) and any(
                part in value.transform for part in STEPPING_TRANSFORMS):
            # Jitted or differentiated: a training step, run once per step with new keys.
            value, stepping = value.func, True
        if isinstance(value, ModuleValue) and value.derived_by is None:
            if value.cls is None:
                if value.class_name in RANDOM_LAYERS and not self._built_off(value, call):
                    key = key_argument(call, None, "key")
                    return [] if key is None else [Consumption(call, key, self.callee(call))]
                return None
            value = InstanceValue(value.cls.info, value.cls.owner)
        if isinstance(value, (InstanceValue, ClassRef)):
            # An instance called runs `__call__`; a class called builds one with `__init__`.
            if value.owner is not self.ctx.inference:
                return None
            method = _method(value.info, "__call__" if isinstance(value, InstanceValue)
                             else "__init__")
            if method is None:
                return None
            value = FunctionValue(method, bound=True)
        if not isinstance(value, FunctionValue) or value.node not in self.ctx.index.functions:
            return None
        if not isinstance(value.node, cst.FunctionDef):
            return None
        return value.node, value.bound, stepping

    def _built_off(self, value: ModuleValue, call: cst.Call) -> bool:
        """A layer built to draw nothing (`eqx.nn.Dropout(0.1, inference=True)`), seen where it
        was made, or for `x.field(...)`, where every class of the file sets that field."""
        if value.made_by is not None:
            return _draws_nothing(value.made_by)
        if not isinstance(call.func, cst.Attribute):
            return False
        made = [binding.value for info in self.ctx.index.classes.values()
                for binding in info.attributes.get(call.func.attr.value, [])]
        return bool(made) and all(isinstance(value, cst.Call) and _draws_nothing(value)
                                  for value in made)

    def _function_arg(self, call: cst.Call, position: int, keyword: str
                      ) -> cst.FunctionDef | None:
        arg = argument(call, position, keyword)
        site = self.sites.get(id(call))
        if arg is None or site is None:
            return None
        value = self.ctx.value(arg.value, site)
        if isinstance(value, TransformedFunction):
            value = value.func
        if isinstance(value, ModuleValue) and value.cls is not None:
            value = InstanceValue(value.cls.info, value.cls.owner)
        if isinstance(value, InstanceValue) and value.owner is self.ctx.inference:
            method = _method(value.info, "__call__")  # a model vmapped: its `__call__`
            if method is not None:
                value = FunctionValue(method, bound=True)
        if (isinstance(value, FunctionValue) and isinstance(value.node, cst.FunctionDef)
                and value.node in self.ctx.index.functions):
            return value.node
        return None

    def _tree_mapped(self, call: cst.Call, qualified: str) -> list[Consumption]:
        """`tree_map(lambda leaf: ... normal(key, ...), tree)`: a key the mapped function closes
        over is drawn from once per leaf, the same numbers for every leaf."""
        arg = argument(call, 0, "f")
        function: cst.CSTNode | None = arg.value if arg is not None else None
        site = self.sites.get(id(call))
        if isinstance(function, cst.Name) and site is not None:
            binding = self.ctx.binding(function.value, site)
            function = (binding.value if binding is not None and not binding.path
                        and isinstance(binding.value, cst.Lambda) else
                        binding.node if binding is not None
                        and isinstance(binding.node, cst.FunctionDef) else None)
        if isinstance(function, cst.Lambda):
            flow: KeyFlow | None = KeyFlow(self.consumer, [
                param.name.value for param in function.params.params])
            assert flow is not None
            flow.run_expression(function.body)
        elif isinstance(function, cst.FunctionDef) and self._nested(function):
            flow = self.summary(function)
        else:
            return []
        if flow is None:
            return []
        uses = []
        for inner in flow.free_consumed().values():
            if inner.repeated or inner.kind == "fold":
                continue
            uses.append(Consumption(call, inner.key, self.callee(call), library=False))
            uses.append(Consumption(call, inner.key, self.callee(inner.call), library=False,
                                    repeated=True, over=f"{qualified} (a key closed over)"))
        return uses

    def _transformed(self, call: cst.Call) -> list[Consumption] | None:
        """A `jax.lax` loop or a batching transformation applied to a project function: the
        keys its body consumes once per step or per row (None: not such a call)."""
        qualified = self.ctx.qualify(call.func)
        if qualified in TREE_MAPS:
            return self._tree_mapped(call, qualified)
        if qualified in LOOP_BODIES:
            position, carry = LOOP_BODIES[qualified]
            body = self._function_arg(call, position, "body_fun" if position else "f")
            flow = self.summary(body) if body is not None else None
            if body is None or flow is None:
                return []
            uses = self._closure_uses(call, body, flow, qualified)
            if carry is not None:
                # The carry handed back with a key the step consumed: the next step draws again.
                uses += [replace(inner, repeated=True, over=qualified)
                         for path, inner in flow.returned.items()
                         if path[:len(carry)] == carry and not inner.repeated]
            return uses
        stream = self._stream_broadcast(call)
        if stream is not None:
            return stream
        made = self._batching(call)
        if made is None:
            return None
        batching, transform = made
        function = self._function_arg(transform, 0, "fun")
        flow = self.summary(function) if function is not None else None
        if function is None or flow is None:
            return []
        # Reported at the batched call, where the key is handed to every row.
        uses = [replace(use, call=call, how=use.how if not use.repeated else self.callee(
            use.call)) for use in self._closure_uses(call, function, flow, batching)]
        axes = argument(transform, BATCHING[batching], "in_axes")
        broadcast = _broadcast_positions(axes.value if axes is not None else None,
                                         len(call.args))
        info = self.ctx.index.functions.get(function)
        method = info is not None and info.scope.owner is not None
        for param, expr in bind_arguments(function, call, method):
            inner = flow.param_uses.get(param.name.value)
            index = next((i for i, a in enumerate(call.args) if a.value is expr), None)
            if inner is None or index is None:
                continue
            replicated = self._replicated(expr, call)
            if index not in broadcast and replicated is None:
                continue
            uses.append(Consumption(call, replicated or expr, self.callee(call),
                                    library=False))
            uses.append(Consumption(call, replicated or expr, self.callee(inner.call),
                                    library=False, repeated=True, over=f"{batching} " + (
                                        "(in_axes=None)" if replicated is None
                                        else "(a replicated key)")))
        return uses

    def _stream_broadcast(self, call: cst.Call) -> list[Consumption] | None:
        """`hk.vmap(f, split_rng=False)(x)` where `f` draws from the rng stream: every row is
        given the same stream (None: not such a call)."""
        if not isinstance(call.func, cst.Call):
            return None
        batching = self.ctx.qualify(call.func.func)
        if batching in STATEFUL_BATCHING:
            return self._module_broadcast(call, batching)
        switch = STREAM_BROADCASTS.get(batching or "")
        if switch is None:
            return None
        keyword, broadcasting = switch
        given = argument(call.func, None, keyword)
        function = argument(call.func, 0, "fun")
        if (given is None or not isinstance(given.value, cst.Name)
                or given.value.value != str(broadcasting) or function is None
                or _last_name(function.value) not in self.stream_drawers):
            return []
        return [Consumption(call, function.value, self.callee(call), library=True,
                            repeated=True, over=f"{batching} ({keyword}={broadcasting})",
                            stream=True)]

    def _module_broadcast(self, call: cst.Call, batching: str) -> list[Consumption]:
        """`nnx.vmap(f, in_axes=(None, 0))(model, xs)` where `model` holds an rng stream
        (`nnx.Dropout(..., rngs=rngs)`): broadcast, every row draws from the same stream."""
        transform = call.func
        assert isinstance(transform, cst.Call)
        axes = argument(transform, STATEFUL_BATCHING[batching], "in_axes")
        broadcast = _broadcast_positions(axes.value if axes is not None else None,
                                         len(call.args))
        site = self.sites.get(id(call))
        for index in sorted(broadcast):
            if site is None or index >= len(call.args):
                break
            value = self.ctx.value(call.args[index].value, site)
            if isinstance(value, ModuleValue) and value.cls is not None:
                value = InstanceValue(value.cls.info, value.cls.owner)
            if isinstance(value, InstanceValue) and self._holds_stream(value.info):
                return [Consumption(call, call.args[index].value, self.callee(call),
                                    repeated=True, over=f"{batching} (in_axes=None)",
                                    stream=True)]
        return []

    def _holds_stream(self, info: ClassInfo) -> bool:
        """A class of the file that builds a layer drawing from an rng stream it is given."""
        return any(
            isinstance(binding.value, cst.Call)
            and self.ctx.qualify(binding.value.func) in STREAM_LAYERS
            and any(arg.keyword is not None and arg.keyword.value == "rngs"
                    for arg in binding.value.args)
            for bindings in info.attributes.values() for binding in bindings)

    def _batching(self, call: cst.Call) -> tuple[str, cst.Call] | None:
        """`jax.vmap(f, ...)(...)`, or a name bound to it called: the transformation's name and
        its call."""
        if isinstance(call.func, cst.Call):
            batching = self.ctx.qualify(call.func.func)
            return (batching, call.func) if batching in BATCHING else None
        if not isinstance(call.func, cst.Name) or call.func.value not in self.helpers:
            return None
        site = self.sites.get(id(call))
        value = self.ctx.value(call.func, site) if site is not None else None
        if (isinstance(value, TransformedFunction) and value.transform in BATCHING
                and value.call is not None):
            return value.transform, value.call
        binding = self.ctx.binding(call.func.value, site) if site is not None else None
        if binding is not None and not binding.path and isinstance(binding.value, cst.Call):
            batching = self.ctx.qualify(binding.value.func)  # `draw = jax.pmap(f)`
            if batching in BATCHING:
                return batching, binding.value
        return None

    def _replicated(self, expr: cst.BaseExpression, call: cst.Call
                    ) -> cst.BaseExpression | None:
        """The key a `replicate(key)` copies to every device (also through a name)."""
        if isinstance(expr, cst.Name):
            site = self.sites.get(id(call))
            binding = self.ctx.binding(expr.value, site) if site is not None else None
            if binding is None or binding.path or not isinstance(binding.value, cst.Call):
                return None
            expr = binding.value
        if (isinstance(expr, cst.Call) and expr.args
                and (self.ctx.qualify(expr.func) in REPLICATING
                     or _last_name(expr.func) in REPLICATING_NAMES)):
            return expr.args[0].value
        return None

    def _closure_uses(self, call: cst.Call, function: cst.FunctionDef, flow: KeyFlow,
                      over: str) -> list[Consumption]:
        """A key of the enclosing function drawn from by a body run once per step or row."""
        if not self._nested(function):
            return []
        uses = []
        for inner in flow.free_consumed().values():
            uses.append(Consumption(call, inner.key, self.callee(call), library=False))
            if not inner.repeated:
                uses.append(replace(inner, repeated=True, over=over))
        return uses

    def _nested(self, function: cst.FunctionDef | cst.Lambda) -> bool:
        info = self.ctx.index.functions.get(function)
        parent = info.scope.parent if info is not None else None
        return parent is not None and parent.kind == "function"

    def summary(self, node: cst.FunctionDef | cst.Lambda) -> KeyFlow | None:
        """The walk of a function's body: the parameters it consumes (on some path) before
        reassigning them, the enclosing keys it consumes, the consumed keys it returns."""
        if id(node) in self.summaries:
            return self.summaries[id(node)]
        self.summaries[id(node)] = None  # a recursive call consumes nothing we can tell
        if isinstance(node, cst.Lambda) or not self._worth_walking(node):
            return None
        params = [param.name for param in (
            *node.params.posonly_params, *node.params.params, *node.params.kwonly_params)]
        flow = KeyFlow(self.consumer, [param.value for param in params], self.returned_keys)
        flow.run(_body(node), {param.value: param for param in params})
        self.summaries[id(node)] = flow
        return flow

    def returned_keys(self, call: cst.Call) -> dict[tuple[int, ...], Consumption]:
        """The keys a project function returns after consuming them, as consumed by `call`."""
        resolved = self._resolve(call)
        if not isinstance(resolved, tuple):
            return {}
        flow = self.summary(resolved[0])
        if flow is None:
            return {}
        how = self.callee(call)
        return {path: Consumption(call, inner.key, f"{how} (which returns it consumed)",
                                  library=False, via=inner.via or inner)
                for path, inner in flow.returned.items() if not inner.repeated}

    def _helpers(self) -> set[str]:
        """Names of the file's functions that consume a key, directly or through one another
        (a cheap gate: only calls by these names are resolved and summarised)."""
        by_function: dict[str, list[tuple[bool, set[str]]]] = {}
        for info in self.ctx.index.functions.values():
            if isinstance(info.node, cst.FunctionDef):
                by_function.setdefault(info.node.name.value, [])
        calls_in: dict[str, set[str]] = {name: set() for name in by_function}
        consuming: set[str] = set()
        drawing: set[str] = set()  # functions drawing from an rng stream (`hk.next_rng_key()`)
        for site in self.ctx.calls():
            function = _enclosing_def(site)
            if function is None:
                continue
            if id(site.node) in self.candidates:
                consuming.add(function)
            if self.ctx.qualify(site.node.func) in STREAM_DRAWS:
                drawing.add(function)
            last = _last_name(site.node.func)
            called = calls_in.setdefault(function, set())
            if last is not None:
                called.add(last)
            # A helper handed to a transformation or loop (`jax.grad(loss)`, `scan(body, ...)`).
            called.update(arg.value.value for arg in site.node.args
                          if isinstance(arg.value, cst.Name))
        # Names bound to a transformed helper (`grad_fn = eqx.filter_value_and_grad(loss)`).
        wrapping = [(name, {arg.value.value for arg in binding.value.args
                            if isinstance(arg.value, cst.Name)})
                    for scope in self.ctx.index.every_scope
                    for name, bindings in scope.bindings.items() for binding in bindings
                    if isinstance(binding.value, cst.Call) and not binding.path]
        for found in (consuming, drawing):
            changed = True
            while changed:
                changed = False
                for function, called in calls_in.items():
                    if function not in found and called & found:
                        found.add(function)
                        changed = True
                for name, wrapped in wrapping:
                    if name not in found and wrapped & found:
                        found.add(name)
                        changed = True
        self.stream_drawers = drawing
        return consuming

    # walking ------------------------------------------------------------------------------
    def has_consumers(self) -> bool:
        return bool(self.candidates)

    def _worth_walking(self, node: cst.FunctionDef) -> bool:
        return node.name.value in self.helpers

    def functions_to_walk(self) -> Iterator[FunctionInfo]:
        for info in self.ctx.index.functions.values():
            if isinstance(info.node, cst.FunctionDef) and self._worth_walking(info.node):
                yield info

    def walk(self, info: FunctionInfo) -> KeyFlow:
        if id(info.node) not in self.walks:
            flow = KeyFlow(self.consumer, returns=self.returned_keys)
            assert isinstance(info.node, cst.FunctionDef)
            flow.run(_body(info.node), {param.name.value: param.name for param in (
                *info.node.params.posonly_params, *info.node.params.params,
                *info.node.params.kwonly_params)})
            self.walks[id(info.node)] = flow
        return self.walks[id(info.node)]

    def walk_module(self) -> KeyFlow | None:
        if not any(site.scope.kind == "module" and (
                id(site.node) in self.candidates or _last_name(site.node.func) in self.helpers)
                for site in self.ctx.calls()):
            return None
        flow = KeyFlow(self.consumer, returns=self.returned_keys)
        flow.run(self.ctx.module.body, module=True)
        return flow

    def is_module(self, info: ClassInfo) -> bool:
        """An Equinox module: built once, then called on every step. (Not a Flax module: Flax
        rebuilds submodules on every `apply`, often from a fresh `self.make_rng(...)` key.)"""
        return self.ctx.inference.is_equinox_module(info)


def _body(node: cst.FunctionDef) -> list[cst.BaseStatement]:
    body = node.body
    if isinstance(body, cst.IndentedBlock):
        return list(body.body)
    assert isinstance(body, cst.SimpleStatementSuite)
    return [cst.SimpleStatementLine(body=list(body.body))]


def _draws_nothing(call: cst.Call) -> bool:
    """A call switched to draw nothing (`inference=True`, `deterministic=True`, `train=False`)."""
    for arg in call.args:
        if arg.keyword is None or arg.keyword.value not in NO_DRAW_SWITCHES:
            continue
        if isinstance(arg.value, cst.Name) and arg.value.value in ("True", "False"):
            return (arg.value.value == "True") is NO_DRAW_SWITCHES[arg.keyword.value]
    return False


def _transforms(ctx: RuleContext, call: cst.Call) -> bool:
    """A `jax.lax` loop, or a batching transformation's result called."""
    if ctx.qualify(call.func) in LOOP_BODIES:
        return True
    if ctx.qualify(call.func) in TREE_MAPS:
        return bool(call.args) and isinstance(call.args[0].value, (cst.Lambda, cst.Name))
    return isinstance(call.func, cst.Call) and (
        ctx.qualify(call.func.func) in BATCHING or ctx.qualify(call.func.func) in STREAM_BROADCASTS
        or ctx.qualify(call.func.func) in STATEFUL_BATCHING)


def _broadcast_positions(axes: cst.BaseExpression | None, count: int) -> set[int]:
    """The argument positions `in_axes` gives no axis (`None`): broadcast to every row."""
    if axes is None:
        return set()
    if isinstance(axes, cst.Name) and axes.value == "None":
        return set(range(count))
    if isinstance(axes, (cst.Tuple, cst.List)):
        return {i for i, element in enumerate(axes.elements)
                if isinstance(element.value, cst.Name) and element.value.value == "None"}
    return set()


def _passes_key(call: cst.Call) -> bool:
    """Given `key=`, or a name that reads as a key (`rng`, `subkey`, `init_key`): worth
    resolving (a cheap gate; what the callee does with it decides)."""
    return any((arg.keyword is not None and arg.keyword.value == "key")
               or (isinstance(arg.value, cst.Name) and _KEYISH.search(arg.value.value))
               for arg in call.args)


def _last_name(func: cst.BaseExpression) -> str | None:
    if isinstance(func, cst.Name):
        return func.value
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return None


def _enclosing_def(site: CallSite) -> str | None:
    scope: Scope | None = site.scope
    while scope is not None and not isinstance(scope.node, cst.FunctionDef):
        scope = scope.parent
    return scope.node.name.value if scope is not None and isinstance(
        scope.node, cst.FunctionDef) else None


def _method(info: ClassInfo, name: str) -> cst.FunctionDef | None:
    for item in info.node.body.body:
        if isinstance(item, cst.FunctionDef) and item.name.value == name and not item.decorators:
            return item
    return None


def _stored_once(info: ClassInfo, field: str) -> bool:
    """Whether `self.<field>` is set only when the module is built (a field, or `__init__`)."""
    bindings = info.attributes.get(field, [])
    if not bindings and field not in info.fields:
        return False
    return all(binding.scope is not None and isinstance(binding.scope.node, cst.FunctionDef)
               and binding.scope.node.name.value in ("__init__", "__post_init__")
               for binding in bindings)


def _callee(ctx: RuleContext, call: cst.Call) -> str:
    return _shown(ctx, call.func) if not isinstance(call.func, cst.Call) else _shown(
        ctx, call.func) + "(...)"


def _shown(ctx: RuleContext, node: cst.CSTNode) -> str:
    text = " ".join(ctx.code(node).split())
    return text if len(text) <= _SHOWN else text[:_SHOWN - 4] + "...)"


# the fix --------------------------------------------------------------------------------------
def _fix(ctx: RuleContext, reuse: Reuse) -> FixPlan | None:
    """`key, subkey = jax.random.split(key)` before the first consumption, which then takes
    `subkey`: only for two plain statements of one block, outside loops."""
    statement = reuse.first_statement
    key = reuse.first.key
    if (statement is None or not isinstance(key, cst.Name)
            or not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1):
        return None
    site = ctx.site_of(reuse.first.call)
    if site is not None and site.scope.kind == "function" and key.value not in site.scope.bindings:
        return None  # a key of an enclosing scope: assigning it would make it local (unbound)
    small = statement.body[0]
    start = ctx.positions()[small].start
    # The parser's lines (a form feed or U+2028 does not end a line, `str.splitlines` says it
    # does), and the file's own line ending for the inserted line.
    line = source_lines(ctx.module.code)[start.line - 1]
    indent = line[:start.column]
    if indent.strip():
        return None
    fresh = _fresh_name(ctx.module.code, key.value)
    replaced = small.deep_replace(key, cst.Name(fresh))
    assert isinstance(replaced, cst.BaseSmallStatement)
    random_module, imports = _random_module(ctx)
    code = (f"{key.value}, {fresh} = {random_module}.split({key.value})"
            f"{ctx.module.default_newline}"
            f"{indent}{ctx.module.code_for_node(replaced)}")
    return FixPlan("unsafe", f"Split `{key.value}` before its first use", [(small, code)], imports)


def _fresh_name(text: str, key: str) -> str:
    for candidate in ("subkey", f"{key}_sub", *(f"subkey{n}" for n in range(1, 100))):
        if not re.search(rf"\b{re.escape(candidate)}\b", text):
            return candidate
    return f"{key}_subkey_unused"


def _random_module(ctx: RuleContext) -> tuple[str, list[tuple[str, str]]]:
    """How this file names `jax.random`, and the import a fix needs for it."""
    direct = ctx.index.imports.local_alias_for("jax.random")
    if direct is not None:
        return direct, []
    jax = ctx.import_alias("jax", "jax")
    return f"{jax}.random", [("jax", jax)]
