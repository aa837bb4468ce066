"""How `KeyFlow` walks an expression: in evaluation order, arguments before the call that
receives them; each call asked which keys it consumes; conditional expressions and `and`/`or`
as branches; a lambda's body left for when it is called.

A base of `KeyFlow` (`key_flow.py`), which supplies the walks of statements.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar, cast

import libcst as cst

from optlint.analysis.key_bindings import KeyBindings
from optlint.analysis.key_deferred import settle
from optlint.analysis.key_holder_calls import HolderCalls
from optlint.analysis.key_state import KeyState, merge_states
from optlint.analysis.key_syntax import COMPREHENSIONS, EXPRESSION_KINDS, chains
from optlint.analysis.prng_keys import Consumption, key_name
from optlint.analysis.walk import Kinds, child_nodes

# A branch of a `lax.cond` (what it draws) or an argument of a `lax.select` (an expression).
_Alternative = TypeVar("_Alternative")


class KeyExpressions(KeyBindings):
    """The expression walk of `KeyFlow`; the statement walks are its."""

    param_calls: dict[str, set[int]]
    holder_calls: HolderCalls | None
    # What each branch of a `lax.cond` / `switch` draws from keys of this scope (None: not
    # such a call; `key_cond_branches.py`).
    branches: Callable[[cst.Call], list[list[Consumption]] | None] | None = None
    # The arguments a call keeps one of per element (`jax.lax.select`; `key_selections.py`).
    alternatives: Callable[[cst.Call], tuple[cst.BaseExpression, ...]] | None
    _body: Sequence[cst.BaseStatement] | None

    def _expr(self, node: cst.CSTNode, state: KeyState) -> None:
        """Walks `node` in evaluation order: arguments before the call that receives them."""
        if type(node) is cst.Name:  # the commonest node, and a leaf to this walk
            if state.pending and cast(cst.Name, node).value in state.pending:
                # A key whose draw was put off, read: whether the draw reached anything may
                # change what follows (`key_deferred.py`).
                settle(state, (cast(cst.Name, node).value,), self._results, self)
            return
        kind = EXPRESSION_KINDS(node)
        if kind == Kinds.OTHER:
            for child in child_nodes(node):
                self._expr(child, state)
            return
        if kind == "lambda":
            assert isinstance(node, cst.Lambda)
            self._lambda_loops(node, state)  # the rest of its body runs when it is called
            return
        if isinstance(node, cst.Call):
            self._expr(node.func, state)
            chosen = self.alternatives(node) if self.alternatives is not None else ()
            for arg in node.args:
                if not chosen or arg.value is not chosen[0]:
                    self._expr(arg.value, state)
                    continue
                # The arguments of a choice, as the branches of an `if` (`key_selections.py`),
                # but every one of them runs: a key drawn in one is drawn surely.
                self._join_alternatives(state, chosen, self._expr, every_one_runs=True)
                break
            self._note_param_call(node, state)
            drawn = self.branches(node) if self.branches is not None else None
            if drawn:  # one branch runs, as one of an `if` does
                self._join_alternatives(state, drawn, self._consume_each, every_one_runs=False)
            uses = self.consumer(node)
            if (state.unread and all(use.unseen for use in uses)
                    and not self._result_unread(node, read_only=True)):
                # A call that may consume the key (none the analysis can see): the unread
                # draw before it stands in for it; unless nothing reads its own result either
                # (`layer1 = Layer(key=key)` only feeding names never read).
                for arg in node.args:
                    name = key_name(arg.value)
                    if name is not None and name in state.seeded and name not in state.unread:
                        name = state.seeded[name][0]  # a key made from a literal seed
                    if name is not None and name in state.unread:
                        state.consumed.setdefault(name, state.unread.pop(name))
            for use in uses:
                self._consume(use, state)
            if self.holder_calls is not None and state.consumed:
                self.holder_calls.forget(node, state)  # `self.policy.reset_noise()`
            return
        if isinstance(node, cst.IfExp):
            self._expr(node.test, state)
            body, orelse = state.copy(), state.copy()
            self._expr(node.body, body)
            self._expr(node.orelse, orelse)
            state.take(merge_states([body, orelse]))
            return
        if isinstance(node, cst.BooleanOperation):
            self._expr(node.left, state)
            right = state.copy()
            self._expr(node.right, right)
            state.take(merge_states([state, right]))
            return
        if isinstance(node, cst.NamedExpr):
            self._expr(node.value, state)
            self._bind_target(node.target, state)
            return
        if isinstance(node, COMPREHENSIONS):  # the last of EXPRESSION_KINDS
            self._comprehension(node, state)

    def _join_alternatives(self, state: KeyState, alternatives: Sequence[_Alternative],
                           walk: Callable[[_Alternative, KeyState], None], *,
                           every_one_runs: bool) -> None:
        """Walks each alternative from its own copy of `state`, and makes `state` their join:
        the branches of a `lax.cond` (one of them runs: a key drawn in one is drawn maybe) or
        the arguments of a `lax.select` (all of them run: a key drawn in any is drawn surely)."""
        ends: list[KeyState | None] = []
        for alternative in alternatives:
            ends.append(end := state.copy())
            walk(alternative, end)
        joined = merge_states(ends)
        if every_one_runs and joined is not None:
            joined.maybe -= {name for end in ends if end is not None
                             for name in end.consumed if name not in end.maybe}
        state.take(joined)

    def _consume_each(self, uses: Sequence[Consumption], state: KeyState) -> None:
        for use in uses:
            self._consume(use, state)

    def _note_param_call(self, call: cst.Call, state: KeyState) -> None:
        """A parameter called (`act(obs)`) where it surely runs: a statement of the body
        itself, or any iteration of a loop that counts steps or threads a value through the
        call (seen twice)."""
        func = call.func
        if (not isinstance(func, cst.Name) or func.value not in self.params
                or func.value in state.rebound):
            return
        calls = self.param_calls.setdefault(func.value, set())
        if self._loop_depth == 0 and self._block is self._body:
            calls.add(id(call))
        elif self._loop_depth > 0 and (any(self._walking_again) or (
                self._statement is not None and chains(self._statement, call))):
            # A loop threading a value through the call (`carry, y = f(carry, x)`, a scan
            # written in Python) runs it once per item, whatever it loops over.
            calls.update((id(call), -id(call)))
