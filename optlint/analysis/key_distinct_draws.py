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
from collections.abc import Sequence

import libcst as cst

from optlint.analysis.index import Scope
from optlint.analysis.prng_keys import Consumption
from optlint.analysis.project_values import names_in

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
