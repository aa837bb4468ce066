"""What the key-flow walk knows at one point of a function body: which keys are consumed, on
which paths, where, and where each name was bound. Paths join with `merge_states`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field

import libcst as cst

from optlint.analysis.prng_keys import FOLDED, FOLDED_WITH, SEEDED, Consumption
from optlint.records import record

# A draw whose result may reach nothing, not yet asked (`key_record.py`): its call, and the
# statement and block it is in.
PendingDraw = tuple[cst.Call, cst.BaseStatement, Sequence[cst.BaseStatement]]

@record(frozen=False)
class KeyState:
    """The keys consumed so far on the paths that reach one statement."""

    consumed: dict[str, Consumption] = field(default_factory=dict)
    rebound: set[str] = field(default_factory=set)  # names assigned since the function began
    # Where each consumption happened: the block and statement (for the straight-line fix).
    where: dict[str, tuple[int, int, cst.BaseStatement]] = field(default_factory=dict)
    # Names consumed on some of the paths that led here only (in one branch of an `if`, in a
    # loop that may not run): a later consumption is a reuse only on a path the analysis cannot
    # prove runs (`if kind == "a": ...` then `if kind == "b": ...`), so it is not reported.
    maybe: set[str] = field(default_factory=set)

    # Where each name was last bound (an assignment's target, a parameter): the start of a
    # key's path in messages.
    origin: dict[str, cst.CSTNode] = field(default_factory=dict)
    # The last consumption of each key whose result nothing reads, not counted as a draw; a
    # call the analysis cannot tell given the key afterwards (`Layer(..., key=key)`) may
    # consume it there, and the unread draw then stands in for that call.
    unread: dict[str, Consumption] = field(default_factory=dict)
    # Names bound to a key made from a literal seed (`key = jax.random.PRNGKey(0)`), with the
    # name every key of that seed is followed under (`int:0`) and the id of the call that made
    # it: two such keys are one key.
    seeded: dict[str, tuple[str, int]] = field(default_factory=dict)
    # The other names holding the same key value (`k = key`, `carry = (params, key)`; see
    # `key_aliases.py`): a draw from one draws from all.
    same: dict[str, frozenset[str]] = field(default_factory=dict)
    # The draws from each local key taken as drawn before asking whether their result reaches
    # anything (the costly question): asked once the key is met again on this path, where the
    # answer could change what follows. Binding the name again ends the question.
    pending: dict[str, tuple[PendingDraw, ...]] = field(default_factory=dict)
    # Names whose first value (a parameter's) was consumed on every path before the name was
    # bound anew (`this_key, key = split(key)`): the value given was consumed, though the name
    # now holds another.
    spent: set[str] = field(default_factory=set)

    def copy(self) -> KeyState:
        return KeyState(dict(self.consumed), set(self.rebound), dict(self.where), set(self.maybe),
                        dict(self.origin), dict(self.unread), dict(self.seeded), dict(self.same),
                        dict(self.pending), set(self.spent))

    def take(self, new: KeyState | None) -> None:
        """Becomes `new` (the join of paths an expression splits into); None changes nothing."""
        if new is not None:
            self.consumed, self.rebound, self.where = new.consumed, new.rebound, new.where
            self.maybe, self.origin = new.maybe, new.origin
            self.unread, self.seeded = new.unread, new.seeded
            self.same, self.pending, self.spent = new.same, new.pending, new.spent

    def bind(self, name: str, node: cst.CSTNode | None = None) -> None:
        if name not in self.rebound and name in self.consumed and name not in self.maybe:
            self.spent.add(name)
        self.maybe.discard(name)
        self.consumed.pop(name, None)
        self.consumed.pop(name + FOLDED, None)
        # A new object under the name: its attributes (`state.key`) are new too, and so are
        # the keys folded from it or with it (`fold_in(key, step)` after `step` changes).
        for dotted in [known for known in self.consumed if known.startswith(name + ".")
                       or mentions(known, name) or known == SEEDED + name
                       or known.startswith(f"{SEEDED}{name}.")]:
            del self.consumed[dotted]
        if self.same:
            self._unlink(name)
        self.where.pop(name, None)
        self.unread.pop(name, None)
        self.pending.pop(name, None)
        self.seeded.pop(name, None)
        for held in [held for held, (followed, _) in self.seeded.items()
                     if (FOLDED_WITH in followed and mentions(followed, name))
                     or followed == name or followed.startswith(name + ".")]:
            # `k = fold_in(key, step)`, then `step` changes; `k = PRNGKey(seed)`, then `seed`
            del self.seeded[held]
        self.rebound.add(name)
        if node is not None:
            self.origin[name] = node
        else:
            self.origin.pop(name, None)


    def _unlink(self, name: str) -> None:
        """`name` (and its attributes and items) holds a new value: linked to nothing."""
        for held in [held for held in self.same if held == name or held.startswith(name + ".")]:
            for other in self.same.pop(held, frozenset()):
                rest = self.same.get(other, frozenset()) - {held}
                if rest:
                    self.same[other] = rest
                else:
                    self.same.pop(other, None)


def mentions(followed: str, name: str) -> bool:
    """`followed` is a key folded from `name` or with it (see `prng_keys.folded_name`)."""
    base, marker, data = followed.partition(FOLDED_WITH)
    return bool(marker) and (data == name or base == name or base.startswith(name + "."))


def merge_states(states: list[KeyState | None]) -> KeyState | None:
    """The state after paths join: a key consumed on any of them is consumed (on that path)."""
    live = [state for state in states if state is not None]
    if not live:
        return None
    merged = live[0].copy()
    for other in live[1:]:
        for name, use in other.consumed.items():
            merged.consumed.setdefault(name, use)
        merged.rebound |= other.rebound
        merged.maybe |= other.maybe
        for name, use in other.unread.items():
            merged.unread.setdefault(name, use)
        for name, node in other.origin.items():
            merged.origin.setdefault(name, node)
        for name, draws in other.pending.items():
            known = merged.pending.get(name, ())
            calls = {id(draw[0]) for draw in known}
            merged.pending[name] = known + tuple(draw for draw in draws
                                                 if id(draw[0]) not in calls)
    merged.same = {name: others for name, others in (
        (name, frozenset.intersection(others, *(state.same.get(name, frozenset())
                                                for state in live[1:])))
        for name, others in merged.same.items()) if others}
    merged.seeded = {name: seed for name, seed in merged.seeded.items()
                     if all(state.seeded.get(name) == seed for state in live)}
    merged.maybe |= {name for name in merged.consumed
                     if any(name not in state.consumed for state in live)}
    # Spent on every path: bound anew after its first value was consumed, or that value still
    # consumed under its name.
    merged.spent = {name for name in set().union(*(state.spent for state in live))
                    if all(name in state.spent or (name in state.consumed
                                                   and name not in state.maybe
                                                   and name not in state.rebound)
                           for state in live)}
    # Where a consumption happened is kept only when every path agrees on it.
    merged.where = {name: where for name, where in merged.where.items()
                    if all(_same_place(state.where.get(name), where)
                           and state.consumed.get(name) is merged.consumed.get(name)
                           for state in live)}
    return merged


def _same_place(a: tuple[int, int, cst.BaseStatement] | None,
                b: tuple[int, int, cst.BaseStatement] | None) -> bool:
    return a is not None and b is not None and a[:2] == b[:2]


