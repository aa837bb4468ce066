"""Which reuses of a key OPT020 reports: the flow analysis finds every key consumed twice on
one path, and real code makes some of those on purpose (arrays shuffled alike, a fixed
evaluation key, a warm-up whose result is thrown away); `worth_reporting` leaves those out."""

from __future__ import annotations

import libcst as cst

from optlint.analysis.key_calls import FileKeyCalls
from optlint.analysis.key_collected import collected_per_iteration
from optlint.analysis.key_constant_items import aligned_by_the_loop, same_item_each_time
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.key_literal_seeds import made_in_callee
from optlint.analysis.key_syntax import builds_item, evaluated_within
from optlint.analysis.library_names import JAX_RANDOM
from optlint.analysis.key_callee_uses import callee_use
from optlint.analysis.prng_keys import Consumption, Reuse, key_name
from optlint.analysis.walk import child_nodes
from optlint.context import RuleContext

# Samplers given one key on purpose to draw the same indices for several arrays.
ALIGNING = frozenset({"permutation", "choice", "shuffle"})


def _returns_all_it_draws(analysis: FileKeyCalls, call: cst.Call) -> bool:
    returned = analysis.read_caches.returned
    return returned is not None and returned.only_returned(call)


def worth_reporting(reuse: Reuse, flow: KeyFlow, ctx: RuleContext, analysis: FileKeyCalls) -> bool:
    """Leaves out the reuses real code makes on purpose.

    The same key to `permutation`/`choice`/`shuffle` twice keeps arrays aligned (`x` and `y`
    shuffled alike); one method called on two objects with one key compares them on the same
    draw (`layer.init(x, key=key)`, `layer2.init(x, key=key)`), unless the two are parts of one
    object (`self.hidden`, `self.output`); a helper that consumes its key,
    called on every iteration of a loop with one key, is usually an evaluation meant to see the
    same draw each time (a fixed validation key). A loop over settings (`for beta in betas`)
    rather than steps often means to use one key for each; a call whose result is thrown away
    (a warm-up, `_ = sample(key)`) has no effect; a last call thrown away has none when it
    is assigned to `_` or only draws (`jax.random.normal(key)` as a statement, a project
    function whose draws reach only what it returns), but any other call made as a bare
    statement is made for what it does (`f_logged.apply(params, state,
    rng)` recording the modules it runs)."""
    first, second = reuse.first, reuse.second
    if second.repeated:
        return True
    if (reuse.in_loop and first.call is second.call
            and (not (second.library and second.how.rsplit(".", 1)[-1] in ALIGNING)
                 or same_item_each_time(second.call, second.key, second.how,
                                        ctx.index.parents()))
            and builds_item(second.call, ctx.index.parents())):
        # `[draw(key, x) for x in xs]`: every item is drawn from one key (but arrays are
        # permuted alike on purpose: `[permutation(key, a) for a in arrays]`, unless nothing
        # but the key is given: `[permutation(key, n) for _ in tasks]`)
        return True
    if _overwritten(reuse):
        return False
    if id(first.call) in flow.discarded and id(first.call) not in analysis.library.keeping:
        return False  # a warm-up: the first draw's result is thrown away
    if id(second.call) in flow.assigned_away or (id(second.call) in flow.discarded and (
            (ctx.qualify(second.call.func) or "").startswith(JAX_RANDOM + ".")
            or _returns_all_it_draws(analysis, second.call))):
        return False  # a last draw thrown away (`_ = run(key)`, a warm-up): no effect
    if (reuse.in_loop and not second.library and first.call is second.call
            and (second.stepping or id(second.call) in flow.threaded)):
        return True  # a training step threading its state, given one key on every step
    if made_in_callee(second):
        return True  # a literal seed's key: proven or `--preview` by `key_literal_seeds`
    if reuse.in_loop and first.call is second.call and second.seeded_in is not None and (
            reuse.counting or not evaluated_within(second.call, second.key)):
        # A callee making its key from the seed the call leaves at its default, or from one
        # seed given on every step: the caller gives no key it could mean to keep fixed.
        return True
    if reuse.in_loop and reuse.counting and first.call is second.call and (
            second.held_by or analysis.constructs(second.call)):
        # A class of the file built on every step (`[Block(key=key) for _ in range(n)]`:
        # identical layers), or a method drawing from a key its object holds on every step
        # (the caller passes no key it could have meant to keep fixed).
        return True
    if reuse.in_loop and first.call is second.call and collected_per_iteration(
            second.call, ctx.index.parents()) and analysis.surely_consumes(second):
        return True  # every iteration's draw kept in one collection: the same numbers in it
    if (reuse.in_loop and second.library and second.kind == "split" and not first.library
            and first.call is not second.call):
        # `_, key = split(key); step(key, state)`: the loop advances the key it consumed,
        # splitting it again in the next iteration; no key stays fixed on purpose.
        return True
    if reuse.in_loop and not reuse.counting:
        return False
    if reuse.in_loop and first.call is second.call and _reorders_data(analysis, second):
        return True  # every step's batches in the same order: no evaluation keeps one on purpose
    if first.library and second.library and {first.how.rsplit(".", 1)[-1],
                                              second.how.rsplit(".", 1)[-1]} <= ALIGNING and (
            first.call is not second.call
            or aligned_by_the_loop(second.call, second.how, ctx.index.parents())):
        return False  # arrays ordered alike, not one order on every step
    if first.generator and second.generator and first.generator != second.generator:
        return False  # NumPy generators of two kinds seeded alike: no value in common
    if reuse.in_loop and not (first.library and second.library):
        return False
    if first.held_by and second.held_by:
        return True  # two objects built holding one key: no call passes it to compare them
    a, b = first.call.func, second.call.func
    return not (not first.library and isinstance(a, cst.Attribute) and isinstance(b, cst.Attribute)
                and a.attr.value == b.attr.value and not a.value.deep_equals(b.value)
                and not _parts_of_one(a.value, b.value)
                and not _split_left_unread(reuse, flow))


# Samplers that reorder data: an order kept on purpose is one key for several arrays, never one
# key on every step of a loop that counts.
REORDERING = frozenset({"permutation", "shuffle"})


def _reorders_data(analysis: FileKeyCalls, use: Consumption) -> bool:
    """`use` calls a function of the file that hands the key it is given straight to a sampler
    reordering data (a2c-jax 99eeca2: `get_batches(data, size, key)` permuting every array with
    it, called once per epoch with one key: every epoch's batches the same)."""
    inner = callee_use(analysis, use)
    return (inner is not None and inner.library and not inner.unseen
            and inner.how.rsplit(".", 1)[-1] in REORDERING)


def _split_left_unread(reuse: Reuse, flow: KeyFlow) -> bool:
    """The key was split before its first consumption into keys nothing reads (`ka, kb =
    split(key)`, then `a.sample(key)`, `b.sample(key)`): the code meant the two to draw from
    keys of their own."""
    name = key_name(reuse.first.key)
    for use in flow.every:
        if use is reuse.first:
            return False
        if (use.kind == "split" and id(use.call) in flow.unread and name is not None
                and key_name(use.key) == name):
            return True
    return False


def _parts_of_one(a: cst.BaseExpression, b: cst.BaseExpression) -> bool:
    """`self.hidden` and `self.output`: two parts of one object (the layers of one model), whose
    draws both go into it, not two objects compared on one draw."""
    return (isinstance(a, cst.Attribute) and isinstance(b, cst.Attribute)
            and isinstance(a.value, cst.Name) and a.value.deep_equals(b.value))


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
