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
from pathlib import PurePath

import libcst as cst

from optlint.analysis.index import CallSite, ClassInfo, FunctionInfo, Scope
from optlint.analysis.prng_keys import (
    SAMPLERS,
    Consumption,
    KeyFlow,
    Reuse,
    bound_consumed,
    key_argument,
)
from optlint.analysis.values import FunctionValue, ModuleValue, TransformedFunction
from optlint.context import RuleContext
from optlint.edits import source_lines
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck

# equinox.nn layers whose `__call__` draws from its `key` (the others ignore it).
RANDOM_LAYERS = frozenset({"Dropout", "MultiheadAttention"})
_SHOWN = 60
# Samplers given one key on purpose to draw the same indices for several arrays.
ALIGNING = frozenset({"permutation", "choice", "shuffle"})
TEST_FOLDERS = frozenset({"tests", "test", "testing"})  # characters of the earlier call quoted in a message


class PrngKeyReuse(Rule):
    code = "OPT020"
    name = "prng-key-reuse"
    summary = "One jax.random key consumed twice: identical samples or dropout masks"
    fix_availability = "sometimes"
    trigger_words = ("random",)
    runtime_check = RuntimeCheck("keys", probe="prng_keys:keys_differ")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        if is_test_code(ctx.filename):
            return
        analysis = _Analysis(ctx)
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
        if reuse.in_loop and reuse.first.call is reuse.second.call:
            message = (f"`{key}` is consumed by `{reuse.second.how}` in every iteration of the "
                       f"loop, and the loop never reassigns it: every iteration draws the same "
                       f"random numbers")
            return Finding(reuse.second.call, message, roles=_roles(reuse), fix_title=(
                f"Split it in the loop ({split}) or fold in the step "
                f"(`jax.random.fold_in({key}, i)`)"))
        if reuse.in_loop:
            message = (f"`{key}` is consumed by `{reuse.second.how}` after `{first}` consumed "
                       f"the same key in the previous iteration of the loop, with no split in "
                       f"between: both derive their random numbers from one key")
            return Finding(reuse.second.call, message, roles=_roles(reuse),
                           fix_title=f"Split it ({split})")
        message = (f"`{key}` was already consumed by `{first}` and is consumed again by "
                   f"`{reuse.second.how}` without a split: both derive their random numbers "
                   f"from one key (identical or correlated samples, the same dropout mask)")
        return Finding(reuse.second.call, message, _fix(ctx, reuse), roles=_roles(reuse),
                       fix_title=f"Split it first ({split})")

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
            if (not isinstance(key, cst.Attribute) or not isinstance(key.value, cst.Name)
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
    """Both consumers and the key each is given: what `optlint verify` records keys at."""
    return {"call": reuse.second.call, "key": reuse.second.key,
            "first_call": reuse.first.call, "first_key": reuse.first.key}


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
    if id(first.call) in flow.discarded or id(second.call) in flow.discarded:
        return False
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
        self.summaries: dict[int, set[str]] = {}
        self.walks: dict[int, KeyFlow] = {}
        # Calls that consume a key by themselves, or may (a layer or model called with `key=`).
        self.candidates: set[int] = set()
        for site in ctx.calls():
            if _passes_key(site.node) or self._direct(site.node):
                self.candidates.add(id(site.node))
        self.helpers = self._helpers()

    # which calls consume ------------------------------------------------------------------
    def _direct(self, call: cst.Call) -> list[Consumption]:
        ctx = self.ctx
        qualified = ctx.qualify(call.func)
        if qualified is not None:
            if qualified.startswith("jax.random."):
                name = qualified.rsplit(".", 1)[1]
                key = key_argument(call, 0, "key") if name in SAMPLERS else None
                return [] if key is None else [Consumption(call, key, _callee(ctx, call))]
            if qualified.startswith("equinox.nn."):
                key = key_argument(call, None, "key")
                return [] if key is None else [Consumption(call, key, _callee(ctx, call))]
            return []
        func = call.func
        if isinstance(func, cst.Call):
            inner = ctx.qualify(func.func) or ""
            if inner.rsplit(".", 1)[-1] in RANDOM_LAYERS and inner.startswith("equinox.nn."):
                key = key_argument(call, None, "key")
                return [] if key is None else [Consumption(call, key, _callee(ctx, call))]
            if inner.startswith("jax.nn.initializers."):
                key = key_argument(call, 0, "key")
                return [] if key is None else [Consumption(call, key, _callee(ctx, call))]
        return []

    def consumer(self, call: cst.Call) -> list[Consumption]:
        direct = self._direct(call)
        if direct:
            return direct
        last = _last_name(call.func)
        if last is None or (last not in self.helpers and not _passes_key(call)):
            return []
        site = self.sites.get(id(call))
        if site is None:
            return []
        value = self.ctx.value(call.func, site)
        if isinstance(value, TransformedFunction) and "jit" in value.transform:
            value = value.func
        if isinstance(value, ModuleValue) and value.derived_by is None:
            if value.cls is None:
                if value.class_name in RANDOM_LAYERS:
                    key = key_argument(call, None, "key")
                    return [] if key is None else [Consumption(call, key, _callee(self.ctx, call))]
                return []
            if value.cls.owner is not self.ctx.inference:
                return []
            method = _method(value.cls.info, "__call__")
            if method is None:
                return []
            value = FunctionValue(method, bound=True)
        if not isinstance(value, FunctionValue) or value.node not in self.ctx.index.functions:
            return []
        consumed = self.summary(value.node)
        how = _callee(self.ctx, call)
        return [Consumption(call, expr, how, library=False)
                for expr in bound_consumed(value.node, call, value.bound, consumed)]

    def summary(self, node: cst.FunctionDef | cst.Lambda) -> set[str]:
        """The parameters the function's body consumes (on some path) before reassigning them."""
        if id(node) in self.summaries:
            return self.summaries[id(node)]
        self.summaries[id(node)] = set()  # a recursive call consumes nothing we can tell
        if isinstance(node, cst.Lambda) or not self._worth_walking(node):
            return set()
        params = [param.name.value for param in (
            *node.params.posonly_params, *node.params.params, *node.params.kwonly_params)]
        flow = KeyFlow(self.consumer, params)
        flow.run(_body(node))
        self.summaries[id(node)] = flow.consumed_params
        return flow.consumed_params

    def _helpers(self) -> set[str]:
        """Names of the file's functions that consume a key, directly or through one another
        (a cheap gate: only calls by these names are resolved and summarised)."""
        by_function: dict[str, list[tuple[bool, set[str]]]] = {}
        for info in self.ctx.index.functions.values():
            if isinstance(info.node, cst.FunctionDef):
                by_function.setdefault(info.node.name.value, [])
        calls_in: dict[str, set[str]] = {name: set() for name in by_function}
        consuming: set[str] = set()
        for site in self.ctx.calls():
            function = _enclosing_def(site)
            if function is None:
                continue
            if id(site.node) in self.candidates:
                consuming.add(function)
            last = _last_name(site.node.func)
            if last is not None:
                calls_in.setdefault(function, set()).add(last)
        changed = True
        while changed:
            changed = False
            for function, called in calls_in.items():
                if function not in consuming and called & consuming:
                    consuming.add(function)
                    changed = True
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
            flow = KeyFlow(self.consumer)
            assert isinstance(info.node, cst.FunctionDef)
            flow.run(_body(info.node))
            self.walks[id(info.node)] = flow
        return self.walks[id(info.node)]

    def walk_module(self) -> KeyFlow | None:
        if not any(site.scope.kind == "module" and (
                id(site.node) in self.candidates or _last_name(site.node.func) in self.helpers)
                for site in self.ctx.calls()):
            return None
        flow = KeyFlow(self.consumer)
        flow.run(self.ctx.module.body)
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


def _passes_key(call: cst.Call) -> bool:
    return any(arg.keyword is not None and arg.keyword.value == "key" for arg in call.args)


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
