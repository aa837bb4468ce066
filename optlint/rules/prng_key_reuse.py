"""OPT020 prng-key-reuse: one `jax.random` key consumed twice.

A JAX key is a value, not a generator: every sampler given the same key returns the same bits. Two
samplers (or a sampler and `split`, or two dropout layers) given one key draw identical or
correlated numbers; a key consumed in a loop body that never re-splits it draws the same numbers
on every iteration; a key stored on an Equinox (or Flax) module in `__init__` and consumed in
`__call__` gives the same dropout mask or noise on every training step. Nothing raises: training
just gets the wrong randomness. The key-flow analysis is `optlint.analysis.key_calls` (and the
modules `optlint.analysis.prng_keys` lists); a key passed to a function the analysis cannot see
is never a finding. This module says which reuses are reported, and how.
"""

from __future__ import annotations

import re
from dataclasses import replace
from collections.abc import Iterator

import libcst as cst

from optlint.analysis.index import FunctionInfo
from optlint.analysis.key_calls import FileKeyCalls
from optlint.analysis.key_texts import called_text, shown
from optlint.analysis.key_consumers import BATCHING, ITEM_MAPS, TREE_MAPS
from optlint.analysis.key_fields import compiled_step, set_on_class, set_when_built
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.library_names import JAX_RANDOM
from optlint.analysis.prng_keys import Consumption, Reuse, folded_text
from optlint.context import RuleContext
from optlint.edits import source_lines
from optlint.rule_helpers.key_folds import folded_reuse_text
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck
from optlint.analysis.walk import child_nodes

# Samplers given one key on purpose to draw the same indices for several arrays.
ALIGNING = frozenset({"permutation", "choice", "shuffle"})


class PrngKeyReuse(Rule):
    code = "OPT020"
    runtime_check = RuntimeCheck("keys", probe="prng_keys:keys_differ")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        analysis = FileKeyCalls(ctx)
        try:
            yield from self._check(ctx, analysis)
        finally:  # its walks hold its bound methods: a cycle that would keep the file's tree
            analysis.__dict__.clear()  # alive until the garbage collector's next full pass

    def _check(self, ctx: RuleContext, analysis: FileKeyCalls) -> Iterator[Finding]:
        if not analysis.has_consumers():
            return
        reported: set[int] = set()
        for info in analysis.functions_to_walk():
            flow = analysis.walk(info)
            for reuse in flow.reuses.values():
                if id(_where(reuse.second)) not in reported and _reported(reuse, flow, ctx, analysis):
                    reported.add(id(_where(reuse.second)))
                    yield self._reuse_finding(ctx, reuse, analysis, flow)
            yield from self._field_findings(ctx, analysis, info, flow, reported)
            yield from self._class_key_findings(ctx, info, flow, reported)
            yield from self._stored_findings(ctx, flow, reported)
            yield from self._kept_findings(ctx, flow, reported)
        module_flow = analysis.walk_module()
        if module_flow is not None:
            for reuse in module_flow.reuses.values():
                if id(_where(reuse.second)) not in reported and _reported(reuse, module_flow, ctx, analysis):
                    reported.add(id(_where(reuse.second)))
                    yield self._reuse_finding(ctx, reuse, analysis, module_flow)

    def _reuse_finding(self, ctx: RuleContext, reuse: Reuse, analysis: FileKeyCalls,
                       flow: KeyFlow) -> Finding:
        finding = self._proven_reuse_finding(ctx, reuse, analysis, flow)
        unseen = next((use.unseen for use in (reuse.first, reuse.second, reuse.second.closed)
                       if use is not None and use.unseen), "")
        # A reuse resting on a function the analysis cannot see draw: `--preview` only.
        if unseen and finding.unproven is None:
            return replace(finding, unproven=unseen)
        proof = next((use.proof for use in (reuse.first, reuse.second) if use.proof), "")
        return replace(finding, message=f"{finding.message} ({proof})") if proof else finding

    def _proven_reuse_finding(self, ctx: RuleContext, reuse: Reuse,
                              analysis: FileKeyCalls, flow: KeyFlow) -> Finding:
        key = _key_text(ctx, reuse.second)
        first = shown(ctx, reuse.first.call)
        split = f"`{key}, subkey = jax.random.split({key})`"
        second = reuse.second
        inside = ""
        if second.closed is not None and not second.repeated:
            # Reported at the closure's draw: say which call runs it.
            called = _at_line(ctx, second.call).replace(" (line", " at line").rstrip(")")
            called = f", called{called}," if called else ""
            inside = f" (inside `{second.how}`{called} which closes over `{key}`)"
            second = replace(second, how=second.closed.how)
        if second.stream:
            message = (f"`{key}` draws from the rng stream in every row of `{second.over}`, "
                       f"which gives every row the same stream: every row draws the same random "
                       f"numbers (the same dropout mask)")
            return Finding(_where(second), message, roles=_roles(reuse), fix_title=(
                "Give each row its own stream (`split_rng=True`)"))
        if second.repeated and second.over.startswith("calls of "):
            message = (f"`{key}` is closed over by a function that draws from it "
                       f"(`{second.how}`); that function is given"
                       f"{_at_line(ctx, second.repeated_by or second.call)} where the "
                       f"{second.over} run it more than once: every call draws the same "
                       f"random numbers")
            return Finding(_where(second), message, roles=_roles(reuse), fix_title=(
                "Give the function a key argument and pass a fresh key to each call"))
        if second.repeated:
            over = second.over.split(" ", 1)[0]
            batched = over in {*BATCHING, *TREE_MAPS, *ITEM_MAPS}
            where = ("leaf" if over in TREE_MAPS else "item" if over in ITEM_MAPS
                     else "row") if batched else "step"
            message = (f"`{key}` is consumed by `{second.how}` in every {where} of "
                       f"`{second.over}`, and the {where.replace('leaf', 'leave')}s are not "
                       f"given keys of their own "
                       f"(it is {'broadcast' if batched else 'closed over or carried back'} "
                       f"unchanged): every {where} draws the same random numbers")
            fix_title = (f"Split it into one key per {where} (`jax.random.split({key}, n)`), "
                         f"mapped or carried" if batched else
                         f"Split it in the body and carry the new key, or fold in the step "
                         f"(`jax.random.fold_in({key}, i)`)")
            return Finding(_where(second), message, roles=_roles(reuse), fix_title=fix_title)
        via = reuse.first.via
        if via is not None:
            # Reported where the returned key is consumed again, like every reuse; the roles
            # hold the callee's consumption, the cause.
            message = (f"`{key}` was returned by `{called_text(ctx, reuse.first.call)}` after "
                       f"`{shown(ctx, via.call)}` consumed it there{_at_line(ctx, via.call)}, and is consumed again by "
                       f"`{second.how}`: both draw from one key")
            return Finding(_where(second), message, roles={**_roles(reuse), "returned_consumed":
                                                        via.call}, fix_title=(
                f"Return a fresh key: split it (`{ctx.code(via.key)}, subkey = "
                f"jax.random.split({ctx.code(via.key)})`) and consume only `subkey`"))
        if reuse.folded:
            message, fix_title = folded_reuse_text(ctx, reuse, key, _at_line)
            return Finding(_where(second), message, roles=_roles(reuse), fix_title=fix_title)
        if reuse.in_loop and reuse.first.call is second.call:
            message = (f"`{key}` is consumed by `{second.how}` in every iteration of the "
                       f"loop, and the loop never reassigns it: every iteration draws the same "
                       f"random numbers")
            return Finding(_where(second), message, roles=_roles(reuse), fix_title=(
                f"Split it in the loop ({split}) or fold in the step "
                f"(`jax.random.fold_in({key}, i)`)"))
        path = _path(ctx, reuse)
        if reuse.in_loop:
            message = (f"`{key}`{path} is consumed by `{second.how}`{inside} after `{first}` "
                       f"consumed "
                       f"the same key in the previous iteration of the loop, with no split in "
                       f"between: both derive their random numbers from one key")
            return Finding(_where(second), message, roles=_roles(reuse),
                           fix_title=f"Split it ({split})")
        kinds = {reuse.first.kind, second.kind}
        if kinds == {"split", "fold"}:
            message = (f"`{key}`{path} is split by `{first}` and folded by `{second.how}` "
                       if reuse.first.kind == "split" else
                       f"`{key}`{path} is folded by `{first}` and split by `{second.how}` ")
            message += ("too: `fold_in(key, i)` equals `split(key, n)[i]` (threefry), so the "
                        "folded key repeats one of the split keys")
            return Finding(_where(second), message, roles=_roles(reuse),
                           unproven=_drawn_apart(reuse, flow), fix_title=(
                f"Split off a key for folding (`{key}, fold_key = jax.random.split({key})`)"))
        effect = ("identical or correlated samples, the same dropout mask"
                  if "split" not in kinds or kinds == {"split"} else
                  "the draws are correlated, not identical: the sample comes from the same "
                  "bits as the split keys")
        # Two keys made from one seed are two objects to JAX's checker: a draw and a split of
        # them give correlated values, never identical ones.
        apart = ("the key is made from the seed twice and one is drawn from, the other "
                 "split: the values are correlated, not identical"
                 if reuse.seed and kinds == {"draw", "split"} else None)
        if isinstance(second.key, cst.Call) and second.given_as is None:
            message = (f"`{key}` makes the same key at every call: the key "
                       f"`{first}` consumed{_at_line(ctx, reuse.first.call)} is the key "
                       f"`{second.how}` consumes, so both draw the same random numbers "
                       f"({effect})")
            return Finding(_where(second), message, roles=_roles(reuse), unproven=apart,
                           fix_title="Make the key once and split it for each use")
        if reuse.seed and not isinstance(second.key, cst.Integer):
            message = (f"`{key}` is made from the seed {reuse.seed}, like the key "
                       f"`{ctx.code(reuse.first.key)}` that `{first}` consumed"
                       f"{_at_line(ctx, reuse.first.call)}: keys made from one "
                       f"seed are one key, so `{second.how}` draws the same random numbers "
                       f"({effect})")
            return Finding(_where(second), message, roles=_roles(reuse), unproven=apart,
                           fix_title="Make one key from the seed and split it for each use")
        shown_key = f"the seed `{key}`" if isinstance(second.key, cst.Integer) else f"`{key}`"
        message = (f"{shown_key}{path} was already consumed by `{first}` and is consumed again by "
                   f"`{second.how}`{inside} without a split: both derive their random numbers "
                   f"from one key ({effect})")
        if isinstance(second.key, cst.Integer):
            return Finding(_where(second), message, roles=_roles(reuse), fix_title=(
                "Give each call its own seed, or make one key and split it"))
        return Finding(_where(second), message, _fix(ctx, reuse, analysis), roles=_roles(reuse),
                       fix_title=f"Split it first ({split})")

    def _stored_findings(self, ctx: RuleContext, flow: KeyFlow,
                         reported: set[int]) -> Iterator[Finding]:
        """A key consumed, then handed back in the returned state (`state.replace(params=p)`
        after `split(state.key)`): the next step consumes it again."""
        for use, returned in flow.stored:
            if id(use.call) in reported or id(use.call) in flow.discarded or use.unseen:
                continue
            reported.add(id(use.call))
            key = ctx.code(use.key)
            message = (f"`{key}` is consumed by `{shown(ctx, use.call)}` and then handed back "
                       f"unchanged in `{shown(ctx, returned)}`: the next step given the "
                       f"returned value consumes the same key again and draws the same "
                       f"random numbers")
            yield Finding(use.call, message, roles={"call": use.call, "key": use.key,
                                                    "returned": returned},
                          fix_title=(f"Split it and return the new key (`{key}, subkey = "
                                     f"jax.random.split({key})`, then store `{key}`)"))

    def _kept_findings(self, ctx: RuleContext, flow: KeyFlow,
                       reported: set[int]) -> Iterator[Finding]:
        """A key consumed, then kept in an attribute the file reads elsewhere (`self.state =
        State(key=key)` after `split(key)`): what later draws from the kept key draws again."""
        for use, target, held in flow.kept:
            if id(use.call) in reported or use.unseen or not _read_elsewhere(ctx, target):
                continue
            reported.add(id(use.call))
            key = ctx.code(use.key)
            message = (f"`{key}` is consumed by `{shown(ctx, use.call)}`{_at_line(ctx, use.call)} and then kept unchanged in "
                       f"`{ctx.code(target)}`: whatever later draws from the kept key draws "
                       f"the same random numbers again")
            yield Finding(held, message, roles={"call": use.call, "key": use.key,
                                                "kept_in": target},
                          fix_title=(f"Split it and keep the new key (`{key}, subkey = "
                                     f"jax.random.split({key})`, then keep `{key}`)"))

    def _field_findings(self, ctx: RuleContext, analysis: FileKeyCalls, info: FunctionInfo,
                        flow: KeyFlow, reported: set[int]) -> Iterator[Finding]:
        node = info.node
        scope = info.scope
        owner = scope.owner
        if not isinstance(node, cst.FunctionDef) or owner is None or scope.self_name is None:
            return
        # A module's `__call__` runs once per step; so does any method compiled as a step
        # (`@partial(jax.jit, static_argnums=(0,))`), whatever its class.
        module = node.name.value == "__call__" and analysis.is_module(owner)
        if not module and not compiled_step(node, ctx.qualify):
            return
        for use in flow.every:
            key = use.key
            if (use.kind in ("fold", "seed") or use.repeated or use.unseen
                    or not isinstance(key, cst.Attribute) or not isinstance(key.value, cst.Name)
                    or key.value.value != scope.self_name or id(use.call) in reported):
                continue
            field = key.attr.value
            if not set_when_built(owner, field) or (
                    module and not analysis.holds_fixed_key(owner, field)):
                continue
            reported.add(id(use.call))
            step = "every training step" if module else f"`{node.name.value}` is compiled as a step"
            message = (f"`{ctx.code(key)}` is a key stored on {'module' if module else 'class'} "
                       f"`{owner.name}` and consumed by `{use.how}` in `{node.name.value}`: "
                       f"every call ({step}) draws the same random numbers, e.g. the same "
                       f"dropout mask")
            yield Finding(use.call, message, fix_title=(
                f"Pass a fresh key to `__call__`, or fold in a per-call value "
                f"(`jax.random.fold_in({ctx.code(key)}, step)`)"))

    def _class_key_findings(self, ctx: RuleContext, info: FunctionInfo, flow: KeyFlow,
                            reported: set[int]) -> Iterator[Finding]:
        """A method consuming `self.<field>` where the key is the class's (a classmethod sets
        `cls.<field>`, no constructor sets one per instance) and the method stores the next key
        on the instance: every new instance consumes the class's key again."""
        owner, self_name = info.scope.owner, info.scope.self_name
        if owner is None or self_name is None:
            return
        for use in flow.every:
            key = use.key
            if (use.kind not in ("draw", "split") or use.repeated or use.unseen
                    or not isinstance(key, cst.Attribute) or not isinstance(key.value, cst.Name)
                    or key.value.value != self_name or id(use.call) in reported
                    or not any(binding.scope is info.scope
                               for binding in owner.attributes.get(key.attr.value, []))):
                continue
            setter = set_on_class(owner, key.attr.value)
            if setter is None:
                continue
            reported.add(id(use.call))
            message = (f"`{ctx.code(key)}` reads the key `{setter.name.value}` keeps on class "
                       f"`{owner.name}` until this instance stores its own: every new instance "
                       f"consumes the class's key again in `{use.how}`, so instances draw the "
                       f"same random numbers")
            yield Finding(use.call, message, fix_title=(
                f"Split the class's key and store it back on the class (`cls = type(self)`, "
                f"`cls.{key.attr.value}, subkey = jax.random.split(cls.{key.attr.value})`)"))


def _drawn_apart(reuse: Reuse, flow: KeyFlow) -> str | None:
    """Why a folded key equal to a split key may still draw nothing the split keys draw
    (None: nothing says so). JAX's key-reuse checker does not see `fold_in`: the pair is a
    reuse only where the equal keys are consumed alike, giving identical values."""
    fold, split = ((reuse.first, reuse.second) if reuse.first.kind == "fold"
                   else (reuse.second, reuse.first))
    folded = flow.derived_uses.get(id(fold.call), [])
    if folded and all(use.kind == "split" for use in folded):
        return ("the folded key is split again, so its draws repeat the split keys' only "
                "where one of those is split the same way")
    split_off = flow.derived_uses.get(id(split.call), [])
    if folded and split_off and not {use.how for use in folded} & {
            use.how for use in split_off}:
        return (f"the folded key is consumed by `{folded[0].how}`, the split keys by "
                f"`{split_off[0].how}`: the equal keys draw different things")
    return None


def _key_text(ctx: RuleContext, use: Consumption) -> str:
    """The key as the code names it: `key`, or `common["key"]` for a key given in a mapping
    splatted into the call (`**common`)."""
    if use.given_as is not None:
        mapping, entry = use.given_as
        return f'{mapping}["{entry}"]'
    if use.followed:
        return folded_text(use.followed) or use.followed
    if use.held_by and isinstance(use.key, cst.Attribute):
        return f"{use.held_by}.{use.key.attr.value}"
    return ctx.code(use.key)


def _where(use: Consumption) -> cst.Call:
    """Where a consumption is reported: the call, or for a function drawing from a key it
    closes over, the draw inside it (where the key must change)."""
    return use.closed.call if use.closed is not None else use.call


def _at_line(ctx: RuleContext, node: cst.CSTNode) -> str:
    """` (line 12)` for a message; nothing in a notebook, whose program lines are not the
    cells' (the roles carry the positions)."""
    if ctx.filename.endswith(".ipynb"):
        return ""
    return f" (line {ctx.positions()[node].start.line})"


def _read_elsewhere(ctx: RuleContext, target: cst.Attribute) -> bool:
    """The file reads the attribute `target` sets somewhere else (`self._state.key`)."""
    return any(site.node is not target
               for site in ctx.index.attributes.get(target.attr.value, []))


def _roles(reuse: Reuse) -> dict[str, cst.CSTNode]:
    """Both consumers and the key each is given (what `optlint verify` records keys at), and
    where the key was made."""
    roles: dict[str, cst.CSTNode] = {"call": reuse.second.call, "key": reuse.second.key,
             "first_call": reuse.first.call, "first_key": reuse.first.key}
    if reuse.origin is not None:
        roles["key_origin"] = reuse.origin
    if reuse.second.repeated_by is not None:
        roles["repeated_by"] = reuse.second.repeated_by
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


def _reported(reuse: Reuse, flow: KeyFlow, ctx: RuleContext, analysis: FileKeyCalls) -> bool:
    """Leaves out the reuses real code makes on purpose.

    The same key to `permutation`/`choice`/`shuffle` twice keeps arrays aligned (`x` and `y`
    shuffled alike); one method called on two objects with one key compares them on the same
    draw (`layer.init(x, key=key)`, `layer2.init(x, key=key)`); a helper that consumes its key,
    called on every iteration of a loop with one key, is usually an evaluation meant to see the
    same draw each time (a fixed validation key). A loop over settings (`for beta in betas`)
    rather than steps often means to use one key for each; a call whose result is thrown away
    (a warm-up, `_ = sample(key)`) has no effect; a last call thrown away has none when it
    is assigned to `_` or only draws (`jax.random.normal(key)` as a statement), but any other
    call made as a bare statement is made for what it does (`f_logged.apply(params, state,
    rng)` recording the modules it runs)."""
    first, second = reuse.first, reuse.second
    if second.repeated:
        return True
    if _overwritten(reuse):
        return False
    if id(first.call) in flow.discarded and id(first.call) not in analysis.library.keeping:
        return False  # a warm-up: the first draw's result is thrown away
    if id(second.call) in flow.assigned_away or (id(second.call) in flow.discarded and (
            ctx.qualify(second.call.func) or "").startswith(JAX_RANDOM + ".")):
        return False  # a last draw thrown away (`_ = run(key)`, a warm-up): no effect
    if (reuse.in_loop and not second.library and first.call is second.call
            and (second.stepping or id(second.call) in flow.threaded)):
        return True  # a training step threading its state, given one key on every step
    if reuse.in_loop and reuse.counting and first.call is second.call and (
            second.held_by or analysis.constructs(second.call)):
        # A class of the file built on every step (`[Block(key=key) for _ in range(n)]`:
        # identical layers), or a method drawing from a key its object holds on every step
        # (the caller passes no key it could have meant to keep fixed).
        return True
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




# the fix --------------------------------------------------------------------------------------
def _fix(ctx: RuleContext, reuse: Reuse, analysis: FileKeyCalls) -> FixPlan | None:
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
    code = analysis.module_code()
    line = source_lines(code)[start.line - 1]
    indent = line[:start.column]
    if indent.strip():
        return None
    fresh = _fresh_name(code, key.value)
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
    direct = ctx.index.imports.local_alias_for(JAX_RANDOM)
    if direct is not None:
        return direct, []
    jax = ctx.import_alias("jax", "jax")
    return f"{jax}.random", [("jax", jax)]
