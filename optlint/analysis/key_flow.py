"""The walk of one function body that follows `jax.random` keys (`KeyFlow`), collecting reuses.

The flow is per function body, statement by statement: each plain name holds either a fresh key or
the call that consumed it. Assigning the name makes it fresh. `if`/`else` branches are separate
paths (a consumption in each is no reuse; one in a branch and one after it is, on that branch's
path); a branch that returns, raises, breaks or continues does not flow on. A loop body is walked
twice, so that a key consumed in the body and not reassigned there is seen consumed again in the
next iteration; comprehensions are loops. Exception handlers start from the state before `try`.

A key is followed under its name, or `name.attr` for a key held by an object (`state.key`;
binding `name` again forgets its attributes). A walk of a function body is also its summary for
callers: the parameters it consumes, the enclosing function's keys it consumes (a closure), the
consumed keys it returns (by their place in the returned tuple), and the consumed keys it hands
back stored in the returned object (`state.replace(params=p)` after `split(state.key)`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import libcst as cst

from optlint.analysis.key_aliases import forwarded_params, link_assigned
from optlint.analysis.key_default_branches import (
    DefaultTest,
    given_key_fallback,
    settle_default_branch,
)
from optlint.analysis.key_deferred import UnreadDrawFound
from optlint.analysis.key_expressions import KeyExpressions
from optlint.analysis.key_copied_state import CopyOf, carried_fields, restore
from optlint.analysis.key_handed_back import note_kept, note_returned, note_stored
from optlint.analysis.key_holder_calls import HolderCalls
from optlint.analysis.key_name_reads import FileReads
from optlint.analysis.key_reads import UnreadResults
from optlint.analysis.key_state import KeyState, mentions, merge_states
from optlint.analysis.key_syntax import (
    constant_test,
    once_branch,
    taken_branch,
    target_names,
)
from optlint.analysis.key_updated_entries import updated_entries
from optlint.analysis.prng_keys import FOLDED_WITH, Consumer, Consumption, Returns, key_name


class KeyFlow(KeyExpressions):
    """One walk of a function body (or a module's statements), collecting reuses.

    `params`: the function's parameters, to tell which of them the body consumes (before any
    reassignment) for the summaries of helper functions. `consumer` says which keys a call
    consumes, `returns` which keys a call hands back already consumed."""

    def __init__(self, consumer: Consumer, params: Sequence[str] = (),
                 returns: Returns | None = None,
                 constants: Mapping[str, bool] | None = None,
                 made_key: Callable[[cst.BaseExpression], str | None] | None = None,
                 read_caches: FileReads | None = None) -> None:
        super().__init__(params, made_key)
        # What statements read, cached by node for every walk of the file.
        self.read_caches = read_caches
        self.consumer = consumer
        self.returns = returns
        # Module names bound once to `True`/`False`: an `if` on one takes one branch only.
        self.constants: Mapping[str, bool] = constants or {}
        # Decides `if` tests on a configuration's field left at its default (both branches
        # are still walked; `key_default_branches.py`).
        self.default_test: DefaultTest | None = None
        # What the function returns already consumed, by its place in the returned value.
        self.returned: dict[tuple[int, ...], Consumption] = {}
        self.returned_at: dict[tuple[int, ...], cst.CSTNode] = {}  # the returned names
        # Parameters some path returns without consuming (`if shots is None: return probs`).
        self.not_surely: set[str] = set()
        # Calls whose result is assigned to a name they are also given (`state = step(state,
        # key)`): a step threading state, not an evaluation.
        self.threaded: set[int] = set()
        # Keys the function returns stored in an object after consuming them (`state.replace(
        # params=p)` after `split(state.key)`), with the returned expression that holds them.
        self.stored: list[tuple[Consumption, cst.BaseExpression]] = []
        # Keys kept in an attribute after consuming them (`self.state = State(key=key)`), with
        # the attribute and the expression holding the key.
        self.kept: list[tuple[Consumption, cst.Attribute, cst.BaseExpression]] = []
        # The calls of each parameter that surely run (`act(obs)` twice): a function given as
        # that parameter runs once per call.
        self.param_calls: dict[str, set[int]] = {}
        self._loops: list[tuple[list[KeyState], list[KeyState]]] = []  # (breaks, continues)
        # The counters of each loop being walked, innermost last (`i` of `for i in range(n)`).
        self._counters: list[set[str]] = []
        self._first_walk: list[bool] = []  # per loop being walked: in its first walk
        # What the value a call returns holds of its arguments as given (where it holds it ->
        # the argument): `Loader(data, key)` keeps `key` as `.key` (see `key_holders.py`).
        self.holds: Callable[[cst.Call], Mapping[str, cst.BaseExpression]] | None = None
        # What a call returns a copy of (`state.replace(mean=m)`; `key_copied_state.py`), and
        # which method calls may set the keys of the object they are called on.
        self.copies: CopyOf | None = None
        self.holder_calls: HolderCalls | None = None
        self.alternatives = None  # `key_selections.alternatives` for the file, where set
        # The parameters this function returns as given, by where its value holds them
        # (`""`, `.key`, `.[1]`; see `key_aliases.forwarded_params`).
        self.forwarded: dict[str, str] = {}
        # Calls whose result is thrown away (`f(key)` as a statement, `_ = f(key)`): a warm-up
        # or a debugging call, which reuses a key without effect.
        self.discarded: set[int] = set()
        # Of those, the calls whose result is assigned to `_`: thrown away on purpose (a
        # warm-up), where a call as a bare statement may be made for what it does.
        self.assigned_away: set[int] = set()

    def run(self, body: Sequence[cst.BaseStatement],
            origins: dict[str, cst.CSTNode] | None = None, module: bool = False) -> None:
        """`module`: `body` is a module's: its names outlive it (but a `__main__` block's end
        is the program's)."""
        results = self._results = UnreadResults(body, module, self.constants, self.read_caches)
        self._body = body
        self.unread.results = results
        try:
            self._walk(body, origins)
        except UnreadDrawFound as found:
            if found.flow is not self:
                raise
            # A draw put off reaches nothing: walked again from the start, every draw asked
            # as it comes (the answers so far are kept with `results`).
            given = (self.raises, self.raising_call, self.holds, self.copies,
                     self.holder_calls)
            KeyFlow.__init__(self, self.consumer, tuple(self.params), self.returns,
                             self.constants, self.made_key, self.read_caches)
            (self.raises, self.raising_call, self.holds, self.copies,
             self.holder_calls) = given
            self._results, self._body, self.unread.results = results, body, results
            self.defers = False
            self._walk(body, origins)

    def _walk(self, body: Sequence[cst.BaseStatement],
              origins: dict[str, cst.CSTNode] | None) -> None:
        end = self._block_walk(body, KeyState(origin=dict(origins or {})))
        if end is not None:
            self._note_exit(end)

    def _note_exit(self, state: KeyState) -> None:
        """A path leaving the function: the parameters it leaves unconsumed."""
        self.not_surely |= {name for name in self.params if name not in state.spent
                            and (name not in state.consumed or name in state.maybe)}

    def run_expression(self, expression: cst.BaseExpression) -> None:
        """A lambda's body: one expression."""
        self._expr(expression, KeyState())

    def _block_walk(self, body: Sequence[cst.BaseStatement], state: KeyState | None) -> KeyState | None:
        outer_block, outer_statement = self._block, self._statement
        self._block = body
        try:
            for statement in body:
                if state is None:
                    return None
                self._statement = statement
                state = self._statement_walk(statement, state)
            return state
        finally:
            self._block, self._statement = outer_block, outer_statement

    def _suite(self, suite: cst.BaseSuite, state: KeyState | None) -> KeyState | None:
        if isinstance(suite, cst.IndentedBlock):
            return self._block_walk(suite.body, state)
        assert isinstance(suite, cst.SimpleStatementSuite)
        for small in suite.body:
            if state is None:
                return None
            state = self._small(small, state)
        return state

    def _statement_walk(self, node: cst.BaseStatement, state: KeyState) -> KeyState | None:
        if isinstance(node, cst.SimpleStatementLine):
            current: KeyState | None = state
            for small in node.body:
                if current is None:
                    return None
                current = self._small(small, current)
            return current
        if isinstance(node, cst.If):
            self._expr(node.test, state)
            once = once_branch(node.test, self._counters[-1]) if self._counters else None
            if once is not None:
                return self._once_if(node, once, state)
            if constant_test(node.test, self.constants) is not None:
                taken_suite = taken_branch(node, self.constants)
                if taken_suite is None:
                    return state
                if isinstance(taken_suite, cst.If):
                    return self._statement_walk(taken_suite, state)
                return self._suite(taken_suite, state)
            taken = self._suite(node.body, state.copy())
            if node.orelse is None:
                other: KeyState | None = state
            elif isinstance(node.orelse, cst.If):
                other = self._statement_walk(node.orelse, state.copy())
            else:
                other = self._suite(node.orelse.body, state.copy())
            merged = merge_states([taken, other])
            settle_default_branch(self.default_test, node, (taken, other), merged)
            return merged
        if isinstance(node, (cst.For, cst.While)):
            return self._loop(node, state)
        if isinstance(node, cst.With):
            for item in node.items:
                self._expr(item.item, state)
                if item.asname is not None:
                    for name in target_names(item.asname.name):
                        self._bind(state, name)
            return self._suite(node.body, state)
        if isinstance(node, cst.Try):
            entry = state.copy()
            after = self._suite(node.body, state)
            if node.orelse is not None:
                after = self._suite(node.orelse.body, after)
            ends = [after]
            for handler in node.handlers:
                start = entry.copy()
                if handler.name is not None:
                    for name in target_names(handler.name.name):
                        self._bind(start, name)
                ends.append(self._suite(handler.body, start))
            joined = merge_states(ends)
            if node.finalbody is not None:
                joined = self._suite(node.finalbody.body, joined or entry.copy())
            return joined
        if isinstance(node, cst.Match):
            self._expr(node.subject, state)
            ends = [self._suite(case.body, state.copy()) for case in node.cases]
            return merge_states([*ends, state])
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            for decorator in node.decorators:
                self._expr(decorator.decorator, state)
            self._bind(state, node.name.value)
            return state
        return state  # anything else: nothing this analysis follows

    def _once_if(self, node: cst.If, once: bool, state: KeyState) -> KeyState | None:
        """An `if` on the innermost loop's counter that one iteration at most takes one way
        (`if i == 0: ... else: ...`): the other branch is what every other iteration runs, so
        only its state flows on to the next iteration (a draw there is drawn again on each).
        The once-taken branch is walked for what it meets, from a copy; its end is dropped
        (what it consumes would only be consumed on some paths, never reported)."""
        orelse = node.orelse
        special, usual = (node.body, orelse) if once else (orelse, node.body)
        if special is not None and self._first_walk[-1]:
            # Not on the second walk: the once-taken branch has no previous iteration.
            self._branch(special, state.copy())
        return state if usual is None else self._branch(usual, state)

    def _branch(self, branch: cst.BaseSuite | cst.If | cst.Else, state: KeyState) -> KeyState | None:
        if isinstance(branch, cst.If):
            return self._statement_walk(branch, state)
        if isinstance(branch, cst.Else):
            return self._suite(branch.body, state)
        return self._suite(branch, state)

    def _refolds_param(self, folded: str, target: cst.BaseExpression, fresh: set[str]) -> bool:
        """`key = fold_in(key, 3)` outside any loop, `key` a parameter as given: what is drawn
        from it is the parameter folded (`key_project_calls.fixed_fold_uses`)."""
        if (not isinstance(target, cst.Name) or self._loop_depth or target.value not in fresh
                or folded.partition(FOLDED_WITH)[0] != target.value):
            return False
        self.refolded.add(id(target))
        return True

    def _small(self, node: cst.BaseSmallStatement, state: KeyState) -> KeyState | None:
        if self.raises is not None and self.raises(node):
            raising = self.raising_call(node) if self.raising_call is not None else None
            if raising is None and isinstance(getattr(node, "value", None), cst.Call):
                raising = node.value  # type: ignore[attr-defined]
            if raising is not None:  # its arguments run first
                for arg in raising.args:
                    self._expr(arg.value, state)
            return None
        if isinstance(node, cst.Assign):
            fallback = given_key_fallback(node, self.params, state.rebound)
            if fallback is not None:  # `key = key if key is not None else PRNGKey(0)`
                self._expr(fallback, state)
                return state
            if isinstance(node.value, cst.Call) and all(
                    isinstance(target.target, cst.Name) and target.target.value == "_"
                    for target in node.targets):
                self.discarded.add(id(node.value))
                self.assigned_away.add(id(node.value))
            before = len(self.every)
            fresh = self.params - state.rebound  # (parameters as given, before this statement)
            self._expr(node.value, state)
            # Keys the value consumes itself (`self.linear = Linear(..., key=key)`) are given
            # to it, not kept.
            given = {key_name(use.key) for use in self.every[before:]}
            copied = carried_fields(node.value, [target.target for target in node.targets],
                                    state, self.copies)
            for target in node.targets:
                note_kept(target.target, node.value, state, self.kept, given)
                self._bind_target(target.target, state)
                link_assigned(target.target, node.value, state, given,
                              self.holds(node.value) if self.holds is not None
                              and isinstance(node.value, cst.Call) else {})
                seed = self._seeded_calls.get(id(node.value))
                folded = self.folded_calls.get(id(node.value))
                if (folded is not None and isinstance(target.target, cst.Name)
                        and not mentions(folded, target.target.value)):
                    seed = folded  # not `key = fold_in(key, i)`: the old `key` is gone
                elif folded is not None and self._refolds_param(folded, target.target, fresh):
                    seed = folded  # `key = fold_in(key, 3)` of a parameter: still its key
                if seed is not None and isinstance(target.target, cst.Name):
                    state.seeded[target.target.value] = (seed, id(node.value))
            restore(copied, state)  # `state = state.replace(mean=m)` keeps `state.key`
            if isinstance(node.value, cst.Call):
                self._assigned_call(node.value, [target.target for target in node.targets], state)
                self._note_derived(node.value, [target.target for target in node.targets],
                                   self.every[before:])
            return state
        if isinstance(node, (cst.AnnAssign, cst.AugAssign)):
            if node.value is not None:
                self._expr(node.value, state)
            self._bind_target(node.target, state)
            if isinstance(node, cst.AnnAssign) and node.value is not None:
                link_assigned(node.target, node.value, state)
            return state
        if isinstance(node, cst.Expr):
            if isinstance(node.value, cst.Call):
                self.discarded.add(id(node.value))
            self._expr(node.value, state)
            if isinstance(node.value, cst.Call):  # `carry.update(key=key)` sets `carry["key"]`
                for dotted in updated_entries(node.value):
                    state.bind(dotted, node.value)
            return state
        if isinstance(node, (cst.Return, cst.Raise)):
            value = node.value if isinstance(node, cst.Return) else node.exc
            if value is not None:
                before = len(self.every)
                self._expr(value, state)
                if isinstance(node, cst.Return):
                    # What the returned expression consumes itself (`return Model(key=key)`)
                    # is a consumption, not a key handed back.
                    own = {id(use) for use in self.every[before:]}
                    note_returned(value, state, (), self.returned, self.returned_at)
                    self._note_exit(state)
                    note_stored(value, state, own, self.stored)
                    forwarded_params(value, state, self.params, self.forwarded)
            elif isinstance(node, cst.Return):
                self._note_exit(state)
            return None
        if isinstance(node, (cst.Break, cst.Continue)):
            if self._loops:
                breaks, continues = self._loops[-1]
                (breaks if isinstance(node, cst.Break) else continues).append(state)
            return None
        if isinstance(node, cst.Del):
            for name in target_names(node.target):
                self._bind(state, name)
            return state
        if isinstance(node, (cst.Import, cst.ImportFrom)) and not isinstance(node.names,
                                                                            cst.ImportStar):
            for alias in node.names:
                self._bind(state, (alias.evaluated_alias or alias.evaluated_name).split(".")[0])
        if isinstance(node, (cst.Global, cst.Nonlocal)):
            self.bound.update(item.name.value for item in node.names)
        return state
