"""The methods of the file a call of an object of unknown class may run (every `__call__` of
the file accepting `block(h, key=k)`), summarised as one group: which of the call's arguments
each of them draws from (`key_methods.py` says which methods, and what a call then consumes).

Each such method's own calls of that kind run the same methods: a model file whose composites
call their layers makes one cycle through every `__call__` of the file. Summarised one by one,
each member met while another is being summarised heads a cycle of its own
(`key_summary_cycles.py`), and every member is summarised again for each such head: a cost that
grows with the square of the file's classes, summaries included. The group is one node of that
machinery instead, summarised in rounds as a function is: a member's call met while the group is
being summarised reads the group's last round (nothing drawn, on the first), what was summarised
during a round that is not the last is forgotten, and the rounds stop when no member's draws
change. A call then reads the group's draws in time independent of its size (counts of the
members drawing each argument)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import field

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.index import CallSite, Scope
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.key_summary_cycles import ROUNDS, SummaryCycles
from optlint.records import record

Summarise = Callable[[cst.FunctionDef], KeyFlow | None]  # the key flow's `summary`


def call_shape(call: cst.Call) -> tuple[tuple[str, str | None], ...]:
    """What binding the call's arguments to a method's parameters reads of the call: each
    argument's star and keyword, in order (`bind_arguments` reads nothing else)."""
    return tuple((str(arg.star), arg.keyword.value if arg.keyword is not None else None)
                 for arg in call.args)


@record(eq=False, frozen=False)
class MethodGroup:
    """Methods of one name a call of one shape may run. `call`: one such call, whose argument
    positions stand for those of every call of its shape; `classes`: the methods' classes, by
    name, sorted (what a message says proved a call's draw)."""

    methods: list[cst.FunctionDef]
    call: cst.Call
    classes: list[str]
    positions: dict[int, int] = field(init=False)  # of `call`'s arguments, by id of the value
    members: dict[int, int] = field(init=False)  # the index of each method, by its id

    def __post_init__(self) -> None:
        self.positions = {id(arg.value): index for index, arg in enumerate(self.call.args)}
        self.members = {id(method): index for index, method in enumerate(self.methods)}


@record
class GroupDraws:
    """One round of a group: the positions of the call's arguments each member draws from
    (None: a member with no summary), the same counted over the members, and the members
    being summarised meanwhile (their summaries so far: read by a call, they are met again)."""

    draws: tuple[frozenset[int] | None, ...]
    unsummarised: int
    drawing: Counter[int]
    pending: tuple[int, ...]

    @classmethod
    def of(cls, group: MethodGroup, flows: list[KeyFlow | None], pending: list[int]
           ) -> GroupDraws:
        draws = tuple(None if flow is None else frozenset(
            group.positions[id(expr)] for param, expr in bind_arguments(method, group.call, True)
            if param.name.value in flow.consumed_params
            and not flow.param_uses[param.name.value].unseen)
            for method, flow in zip(group.methods, flows, strict=True))
        return cls(draws, sum(drawn is None for drawn in draws),
                   Counter(position for drawn in draws for position in drawn or ()),
                   tuple(pending))

    def drawn_by_others(self, excluded: list[int]) -> set[int]:
        """The positions every member but the `excluded` ones draws from (none: a member
        unsummarised, or no member left)."""
        others = len(self.draws) - len(excluded)
        if others == 0 or self.unsummarised > sum(self.draws[index] is None
                                                  for index in excluded):
            return set()
        drawing = Counter(self.drawing)
        for index in excluded:
            drawing.subtract(self.draws[index] or ())
        return {position for position, count in drawing.items() if count == others}


class GroupSummaries:
    """The draws of the groups of one file's key flow, made with its summaries and cycles."""

    def __init__(self, summaries: dict[int, KeyFlow | None], cycles: SummaryCycles) -> None:
        self.summaries = summaries
        self.cycles = cycles
        self._open: dict[int, GroupDraws | None] = {}  # groups being summarised: their last round
        self._made: dict[int, GroupDraws] = {}  # groups summarised

    def drawn(self, group: MethodGroup, site: CallSite, summary: Summarise) -> set[int]:
        """The positions of the arguments of a call at `site`, of the group's shape, that
        every member not enclosing the call draws from (a composite calling the method on its
        parts: what the parts do)."""
        draws = self._draws(group, summary)
        if draws is None:  # met in its first round: nothing drawn yet
            return set()
        excluded = _enclosing(group, site.scope)
        for index in draws.pending:
            if index not in excluded:  # read as the summary of a method called again
                self.cycles.met_again(id(group.methods[index]))
        return draws.drawn_by_others(excluded)

    def forget(self) -> None:
        """Drops the groups summarised: a member's summary is made again."""
        self._made.clear()

    def _draws(self, group: MethodGroup, summary: Summarise) -> GroupDraws | None:
        key = id(group)
        if key in self._open:  # met again while summarised: its last round stands
            self.cycles.met_again(key)
            return self._open[key]
        made = self._made.get(key)
        # (the group's entry in `summaries` marks it made: forgotten with the summaries made in
        # a round of a cycle's head that is not the last, as its draws then must be)
        if made is not None and key in self.summaries:
            return made
        self._open[key] = None
        try:
            for _ in range(ROUNDS):
                mark = self.cycles.start(key)
                try:
                    draws = self._round(group, summary)
                finally:
                    since = self.cycles.finish(key, mark)
                if since is None or draws == self._open[key]:  # (a first round: never equal)
                    break
                self._open[key] = draws
                for done in since:  # made assuming the last round: asked again when needed
                    self.summaries.pop(done, None)
        finally:
            del self._open[key]
        if not draws.pending:  # (else it rests on summaries not made yet: asked again)
            self._made[key] = draws
            self.summaries[key] = None
        return draws

    def _round(self, group: MethodGroup, summary: Summarise) -> GroupDraws:
        """The members' summaries: a member being summarised (the one whose call asks, or one
        that called it) by its summary so far, met again only when a call of another reads
        it, as a method's own call of itself is not read (`drawn_by_others`)."""
        flows: list[KeyFlow | None] = []
        pending: list[int] = []
        for index, method in enumerate(group.methods):
            if id(method) in self.cycles.stack:
                flows.append(self.summaries.get(id(method)))
                pending.append(index)
            else:
                flows.append(summary(method))
        return GroupDraws.of(group, flows, pending)


def _enclosing(group: MethodGroup, scope: Scope | None) -> list[int]:
    """The members whose bodies hold `scope` (or a function nested there)."""
    found = []
    while scope is not None:
        index = group.members.get(id(scope.node))
        if index is not None:
            found.append(index)
        scope = scope.parent
    return found

