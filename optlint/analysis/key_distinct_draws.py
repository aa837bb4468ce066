"""Whether the consumptions one walk would meet can share a key at all, told from what the gate
already asked (`key_walk_gate.py`): a function drawing several times, each time from a key of its
own (`k1, k2 = split(key)`, then one draw from each; or one draw from a parameter it mentions
nowhere else), cannot report anything by itself.

A walk records a reuse only where one name it follows a key under is consumed twice (a key made
from one seed, folded with the same data, aliased or held by an object is followed under the
name of the key it is). It hands a consumed key on (returns it, stores or keeps it) only by
reading its name again. So the walk can report nothing when each consumption is given, as an
argument of its own call, a plain name that
- no other consumption is given,
- the function mentions nowhere else but where it binds it (as a parameter, or once in the
  body by a call that itself splits, folds or seeds a key: `k1, k2 = split(key)`,
  `k = fold_in(key, i)`, `key = PRNGKey(0)`, each place of it bound to one name only),
and every consumption is a plain draw, split or fold (a library's or a project function's; or
one library seed at most), nothing else known of it (not repeated, held by an object, handed back by a callee, closed over, made from a seed
inside the callee, or followed under a name its consumer gives). Each name is then one key, made
where it is bound, that one call consumes. Whether a consumption repeats (a loop, a lambda) is
the gate's question.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

import libcst as cst

from optlint.analysis.index import Binding, Scope
from optlint.analysis.prng_keys import Consumption
from optlint.analysis.project_values import names_in
from optlint.analysis.walk import child_nodes

# Consumptions whose result is a new key: what they bind is no other key's name.
_MAKING = frozenset({"split", "fold", "seed"})
_PLAIN = frozenset({"draw", "split", "fold"})


def distinct_keys(uses: Sequence[Consumption], seeds: Sequence[Consumption], scope: Scope,
                  function: cst.CSTNode) -> bool:
    """Every consumption in `uses` (the function `function`'s, of scope `scope`, but for the
    keys it makes from seeds, `seeds`) is given a key no other one is given, which the function
    mentions nowhere else (see the module's docstring)."""
    if len(seeds) > 1 or not all(_plain(seed, seeding=True) for seed in seeds):
        return False  # two keys of one seed are one key under two names
    making = {id(use.call) for use in (*uses, *seeds) if use.library and use.kind in _MAKING}
    names: set[str] = set()
    places: set[tuple[int, tuple[int, ...]]] = set()  # where each name's key comes from
    for use in uses:
        key = use.key
        if not _plain(use) or type(key) is not cst.Name or not any(
                arg.value is key for arg in use.call.args):
            return False
        name = key.value  # type: ignore[attr-defined]
        if name in names:
            return False
        names.add(name)
        bindings = scope.bindings.get(name, ())
        if len(bindings) != 1:
            return False
        binding = bindings[0]
        if binding.kind == "param":
            continue
        value = binding.value
        if binding.kind != "assign" or value is None:
            return False
        made = value.value if type(value) is cst.Subscript else value  # type: ignore[attr-defined]
        place = (id(value), binding.path)
        if id(made) not in making or place in places:
            return False  # `a = b = split(key)[0]`: one key under two names
        places.add(place)
    # Each name twice: where it is bound (the parameter, or the assigned target) and where
    # its consumption is given it. Any other mention may alias, return or keep it.
    mentions = Counter(node.value for node in names_in(function) if node.value in names)
    return all(mentions[name] == 2 for name in names)


def _plain(use: Consumption, seeding: bool = False) -> bool:
    """A draw, split or fold (with `seeding`, a library's seed) of the key it is given, that
    nothing else is known of. A project function's call may be one: the walk records it as it
    does a library's draw (the key under the name given, no key of its result linked to it:
    `link_assigned` leaves out what a call consumes); one handing a consumed key back is the
    gate's question before this (`returns`)."""
    return ((use.kind == "seed" and use.library) if seeding else (use.kind in _PLAIN)) and (
        not use.repeated and not use.stream and not use.derives
        and use.closed is None and use.via is None and use.given_as is None
        and use.seeded_in is None and not use.held_by and not use.followed
        and not use.carried_on and use.repeated_by is None and not use.unseen)


def rebound_apart(uses: Sequence[Consumption], seeds: Sequence[Consumption], scope: Scope,
                  function: cst.CSTNode) -> bool:
    """Every key value the consumptions in `uses` are given is consumed once at most, for keys
    bound again (`key, sub = split(key)` after `sub = ...`, `key = fold_in(key, i)`): what
    `distinct_keys` proves for keys bound once, told in statement order.

    Each consumption is a plain draw, split or fold (one library seed at most) given a plain
    name, as for `distinct_keys`. Every mention of those names is in a statement of the
    function's own body (not a branch, loop, `with` or `try`: straight-line code, one path)
    that is one assignment, expression or `return`, and is a parameter, a consumption's
    argument, a target of an assignment of a split, fold or seed (`key, sub = split(key)`: one
    name to each place of a one-level tuple), or a name returned. Followed in order, a name is
    consumed only while it holds a value nothing consumed (a parameter, or bound since by such
    an assignment, the value read before the target binds), and returned only then. Each value
    is then one key, made where it is bound (no two names hold one: one target, one seed), that
    one call consumes, never read besides, handed back only unconsumed. Whether a consumption
    repeats (a loop, a comprehension, a lambda) is the gate's question."""
    if (type(function) is not cst.FunctionDef or len(seeds) > 1
            or not all(_plain(seed, seeding=True) for seed in seeds)):
        return False
    body = function.body  # type: ignore[attr-defined]
    if type(body) is not cst.IndentedBlock:
        return False
    making = {id(use.call) for use in (*uses, *seeds) if use.library and use.kind in _MAKING}
    given: dict[int, str] = {}  # the name node each consumption is given, to its name
    for use in uses:
        key = use.key
        if not _plain(use) or type(key) is not cst.Name or not any(
                arg.value is key for arg in use.call.args):
            return False
        given[id(key)] = key.value  # type: ignore[attr-defined]
    names = set(given.values())
    # Bound only as parameters or by assignments of what a split, fold or seed makes, told
    # first from the scope's bindings (no walk): most functions fail here.
    if not all(_made_or_given(scope.bindings.get(name, ()), making) for name in names):
        return False
    params = function.params  # type: ignore[attr-defined]
    # By name: True while it holds a value nothing consumed, False once consumed, None unbound.
    fresh: dict[str, bool | None] = {name: None for name in names}
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        if param.name.value in names:
            fresh[param.name.value] = True
    # Outside the body, only the parameters themselves (no default, annotation, decorator).
    if sum(1 for part in (params, *function.decorators, function.returns)  # type: ignore[attr-defined]
           if part is not None for node in _names(part) if node.value in names) != sum(
            1 for name in names if fresh[name]):
        return False
    for statement in body.body:
        mentions = [node for node in _names(statement) if node.value in names]
        if mentions and not _statement_apart(statement, mentions, given, making, fresh):
            return False
    return True


def _made_or_given(bindings: Sequence[Binding], making: set[int]) -> bool:
    return bool(bindings) and all(binding.kind == "param" or (
        binding.kind == "assign" and binding.value is not None and id(
            binding.value.value if type(binding.value) is cst.Subscript  # type: ignore[attr-defined]
            else binding.value) in making) for binding in bindings)


def _statement_apart(statement: cst.CSTNode, mentions: list[cst.Name], given: dict[int, str],
                     making: set[int], fresh: dict[str, bool | None]) -> bool:
    """Follows `statement`, which mentions the followed names (`mentions`), updating `fresh`
    (see `rebound_apart`): False where it cannot."""
    if type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1:  # type: ignore[attr-defined]
        return False
    small = statement.body[0]  # type: ignore[attr-defined]
    kind = type(small)
    bound: list[cst.BaseExpression] = []
    if kind is cst.Assign:
        targets = small.targets  # type: ignore[attr-defined]
        if len(targets) != 1:
            return False  # `a = b = split(key)`: one key under two names
        target = targets[0].target
        if type(target) is cst.Name:
            bound = [target]
        elif type(target) in (cst.Tuple, cst.List) and all(
                type(element) is cst.Element for element in target.elements):
            bound = [element.value for element in target.elements]
        else:
            return False
        if any(type(name) is not cst.Name for name in bound):
            return False
    elif kind not in (cst.Expr, cst.Return):
        return False
    targets_of = {id(name) for name in bound}
    consumed = [given[id(node)] for node in mentions if id(node) in given]
    made = [node.value for node in mentions if id(node) in targets_of]
    if len(consumed) + len(made) != len(mentions) and kind is not cst.Return:
        return False  # read besides
    for name in consumed:  # (the value first, in order)
        if fresh[name] is not True:
            return False  # consumed before (or never bound here): perhaps twice
        fresh[name] = False
    if any(fresh[node.value] is not True for node in mentions
           if id(node) not in given and id(node) not in targets_of):
        return False  # a consumed key returned
    if made:
        value = small.value  # type: ignore[attr-defined]
        if id(value.value if type(value) is cst.Subscript else value) not in making:
            return False  # a key bound to what no split, fold or seed made
        for name in made:
            fresh[name] = True
    return True


def _names(node: cst.CSTNode) -> Iterator[cst.Name]:
    """The names `node` mentions as names: not an attribute's (`state.key`) nor a keyword
    argument's (`key=sub`)."""
    pending = [node]
    while pending:
        current = pending.pop()
        kind = type(current)
        if kind is cst.Name:
            yield current  # type: ignore[misc]
            continue
        if kind is cst.Attribute:
            pending.append(current.value)  # type: ignore[attr-defined]
            continue
        if kind is cst.Arg:
            pending.append(current.value)  # type: ignore[attr-defined]
            continue
        pending.extend(child_nodes(current))
