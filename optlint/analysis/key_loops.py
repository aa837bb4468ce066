"""How `KeyFlow` walks loops and comprehensions: the body twice, so that a key consumed in one
iteration and not made anew is seen consumed again by the next.

A base of `KeyFlow` (`key_flow.py`); the walks of statements and expressions are `KeyFlow`'s
and `KeyExpressions`' (`key_expressions.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace

import libcst as cst

from optlint.analysis.key_late_binding import (
    BUILDING_COMPREHENSIONS,
    LATE_BOUND,
    kept_lambdas_of_comprehension,
    kept_lambdas_of_loop,
)
from optlint.analysis.key_mapping_loops import iterates_own_keys
from optlint.analysis.key_record import KeyRecorder
from optlint.analysis.key_state import KeyState, merge_states
from optlint.analysis.key_step_loops import carries_state
from optlint.analysis.prng_keys import Consumer, key_name
from optlint.analysis.walk import child_nodes
from optlint.analysis.key_syntax import (
    comprehension_clauses,
    comprehension_names,
    counts_steps,
    loop_counters,
    surely_runs,
)


class KeyLoops(KeyRecorder):
    """The loop walks of `KeyFlow`; the statement and expression walks are its."""

    constants: Mapping[str, bool]
    # Whether a `for` iterates a data loader, one step per batch (`key_batch_loops.py`).
    batch_loop: Callable[[cst.For], bool] | None = None
    consumer: Consumer
    _loops: list[tuple[list[KeyState], list[KeyState]]]
    _counters: list[set[str]]
    _first_walk: list[bool]
    _loop_nodes: list[cst.CSTNode]

    def _expr(self, node: cst.CSTNode, state: KeyState) -> None:
        raise NotImplementedError

    def _suite(self, suite: cst.BaseSuite, state: KeyState | None) -> KeyState | None:
        raise NotImplementedError

    def _bind_target(self, target: cst.BaseExpression, state: KeyState) -> None:
        raise NotImplementedError

    def _lambda_loops(self, node: cst.Lambda, state: KeyState) -> None:
        """A lambda's body runs when it is called, not where it is written; but a `jax.lax`
        loop or a batching in it (`lambda s: lax.scan(step, s, None, n)`) that draws from
        one key on every step or row does so whenever it runs: a reuse by itself, recorded
        here (nothing else of the body is, nor changes `state`)."""
        pending: list[cst.CSTNode] = [node.body]
        while pending:
            current = pending.pop()
            if isinstance(current, cst.Call):
                for use in self.consumer(current):
                    if use.repeated:
                        self._consume(use, state)
            pending.extend(child_nodes(current))

    def _late_bound(self, lambdas: Iterable[tuple[cst.Lambda, frozenset[str]]],
                    state: KeyState) -> None:
        """Lambdas a loop keeps, each drawing from a key of the loop it reads when called
        (`key_late_binding.py`): all draw from the last key, a reuse by itself."""
        for function, names in lambdas:
            pending: list[cst.CSTNode] = [function.body]
            while pending:
                current = pending.pop()
                if isinstance(current, cst.Call):
                    for use in self.consumer(current):
                        if not use.repeated and key_name(use.key) in names:
                            self._consume(replace(use, repeated=True, over=LATE_BOUND), state)
                pending.extend(child_nodes(current))

    @contextmanager
    def _looping(self, counters: set[str], node: cst.CSTNode
                 ) -> Iterator[Callable[[int, bool], None]]:
        """Inside one loop's (or comprehension's) walks: its counters and the flags of the
        enclosing loops' stacks, restored after; what it gives starts walk `walk` (0 or 1)
        of a loop that counts steps or not."""
        self._loop_depth += 1
        outer_again = self._again
        self._walking_again.append(False)
        self._step_loops.append(False)
        self._counters.append(counters)
        self._loop_nodes.append(node)
        self._first_walk.append(True)

        def again(walk: int, counting: bool) -> None:
            self._first_walk[-1] = walk == 0
            self._again = outer_again + walk
            self._walking_again[-1] = counting and walk == 1

        try:
            yield again
        finally:
            self._counters.pop()
            self._loop_nodes.pop()
            self._first_walk.pop()
            self._walking_again.pop()
            self._step_loops.pop()
            self._loop_depth -= 1
            self._again = outer_again

    def _loop(self, node: cst.For | cst.While, state: KeyState) -> KeyState | None:
        if isinstance(node, cst.For):
            self._expr(node.iter, state)
            self.fixed_indices |= range_index(node)
        else:
            self._expr(node.test, state)
        entry = state.copy()
        ends: list[KeyState | None] = []
        breaks: list[KeyState] = []
        start: KeyState | None = state
        counting = isinstance(node, cst.While) or counts_steps(node.iter, node.target) or (
            isinstance(node, cst.For) and self.batch_loop is not None and self.batch_loop(node))
        with self._looping(loop_counters(node) if isinstance(node, cst.For) else set(),
                           node) as again:
            self._step_loops[-1] = carries_state(node)
            for walk in range(2):  # twice: what one iteration consumes, the next consumes again
                assert start is not None
                again(walk, counting)
                start = start.copy()
                if isinstance(node, cst.For):
                    if not iterates_own_keys(node):  # `for key in batch: batch[key]`
                        self._bind_target(node.target, start)
                else:
                    self._expr(node.test, start)
                continues: list[KeyState] = []
                self._loops.append((breaks, continues))
                end = self._suite(node.body, start)
                self._loops.pop()
                ends = [end, *continues]
                # The next iteration starts where this one ended.
                start = merge_states(ends)
                if start is None:
                    break
        if isinstance(node, cst.For):
            self._late_bound(kept_lambdas_of_loop(node), state)
        surely = isinstance(node, cst.For) and surely_runs(node.iter, self.constants)
        after = merge_states(ends if surely else [entry, *ends])  # `for x in [a, b]` runs
        if node.orelse is not None:
            after = self._suite(node.orelse.body, after)
        return merge_states([after, *breaks])

    def _comprehension(self, node: cst.ListComp | cst.SetComp | cst.GeneratorExp | cst.DictComp,
                       state: KeyState) -> None:
        # The first iterable is evaluated once, before any item: what it consumes is consumed
        # whether or not the comprehension builds anything.
        self._expr(node.for_in.iter, state)
        entry = state.copy()
        start = state.copy()
        counting = all(counts_steps(clause.iter, clause.target) for clause in comprehension_clauses(node))
        with self._looping(set(), node) as again:
            for walk in range(2):
                again(walk, counting)
                inner = start.copy()
                clause: cst.CompFor | None = node.for_in
                while clause is not None:
                    if clause is not node.for_in:
                        self._expr(clause.iter, inner)
                    self._bind_target(clause.target, inner)
                    for condition in clause.ifs:
                        self._expr(condition.test, inner)
                    clause = clause.inner_for_in
                if isinstance(node, cst.DictComp):
                    self._expr(node.key, inner)
                    self._expr(node.value, inner)
                else:
                    self._expr(node.elt, inner)
                # The comprehension's own names do not leak out.
                for name in set(inner.consumed) - set(start.consumed):
                    if name in comprehension_names(node):
                        inner.consumed.pop(name)
                start = inner
        if isinstance(node, BUILDING_COMPREHENSIONS):
            self._late_bound(kept_lambdas_of_comprehension(node), start)
        merged = merge_states([entry, start])
        assert merged is not None
        state.take(merged)


def range_index(loop: cst.For) -> set[str]:
    """`{"step"}` for `for step in range(n)` or `range(0, n)` (a literal start): the loop's
    index takes the same values at every call of the function."""
    iterable = loop.iter
    if (not isinstance(loop.target, cst.Name) or not isinstance(iterable, cst.Call)
            or not isinstance(iterable.func, cst.Name) or iterable.func.value != "range"
            or not iterable.args or any(arg.keyword is not None for arg in iterable.args)):
        return set()
    if len(iterable.args) > 1 and not isinstance(iterable.args[0].value, cst.Integer):
        return set()
    return {loop.target.value}
