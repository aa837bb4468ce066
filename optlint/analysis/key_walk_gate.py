"""Whether a function's own walk can find anything, decided before walking it (a gate).

OPT020 walks every function of a file that may consume a key (`FileKeyCalls.functions_to_walk`),
for its own findings; most such walks find nothing. A walk records a consumption only where
`consumer` says a call consumes, or `returns` that a call hands back a key it consumed (a call of
the body, or of a lambda in it), so the consumptions a walk can meet are known without walking:
both asked of each of those calls once. A walk
can report:
- a reuse: two consumptions on one path (a call handing back a key it consumed counts as
  one, `key_bindings.py`), or one that repeats (`repeated`: a loop, a `scan`
  body, a broadcast), or one met twice in a loop or comprehension (walked twice) or in a
  lambda (run when called);
- a key consumed, then handed back in the returned value or kept in an attribute
  (`key_handed_back.py`), or a key the object holds (`self.key`) consumed in a method: one
  consumption is enough, but only with a `return` of a value, an attribute assigned, or a
  consumed attribute key.
A consumption of kind "seed" (`PRNGKey(seed)`) only names the key later draws follow; it never
records a reuse by itself. So a function whose body has no consumption, or only one with none
of the above around it, is not walked for itself: its walk could report nothing. Nor is a
function whose consumptions are each given a key of their own (`k1, k2 = split(key)`, a draw
from each: `key_distinct_draws.py`), with none of the above around them. Its summary is still
made whenever a caller asks (`FileKeyCalls.summary`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import libcst as cst

from optlint.analysis.index import CallSite, Scope
from optlint.analysis.key_distinct_draws import distinct_keys
from optlint.analysis.key_syntax import COMPREHENSIONS
from optlint.analysis.prng_keys import Consumer, Consumption, Returns
from optlint.analysis.walk import child_nodes

# Switched off, every function that may consume a key is walked (for the tests comparing both).
GATED = True

# Where the walk meets an expression more than once, or later than where it is written. By
# exact type, as below: every node of a body is tested, and `isinstance` on libcst's classes
# (ABCs) costs a Python-level call each; these classes have no subclasses.
_REPEATING = frozenset({cst.For, cst.While, cst.Lambda, *COMPREHENSIONS})
_DEFINITIONS = frozenset({cst.FunctionDef, cst.ClassDef})


class WalkGate:
    """The calls of each scope of one file, and the question whether a walk of a scope's body
    (a function's, or the module's) can report anything."""

    def __init__(self, sites: Iterable[CallSite], scopes: Iterable[Scope],
                 consumer: Consumer, returns: Returns) -> None:
        self.consumer = consumer
        self.returns = returns
        # The calls a walk of each scope may meet: its own, those of the lambdas in it, and
        # those of the decorators of the functions and classes defined in it (which the index
        # puts in the scopes they decorate).
        self._calls: dict[int, list[cst.Call]] = {}
        for site in sites:
            self._calls.setdefault(id(_walked_scope(site.scope).node), []).append(site.node)
        for scope in scopes:
            if isinstance(scope.node, (cst.FunctionDef, cst.ClassDef)) and scope.parent:
                calls = self._calls.setdefault(id(_walked_scope(scope.parent).node), [])
                for decorator in scope.node.decorators:
                    calls.extend(node for node, _ in _nodes(decorator.decorator)
                                 if type(node) is cst.Call)

    def may_find(self, scope: Scope, body: cst.CSTNode, returns: bool = False) -> bool:
        """Whether the walk of `scope`'s `body` can report anything (`returns`: its body
        returns a value). Always True when the gate is off."""
        if not GATED:
            return True
        uses: list[Consumption] = []
        seeds: list[Consumption] = []
        for call in self._calls.get(id(scope.node), ()):
            if self.returns(call):
                return True  # a key handed back consumed: drawn again or kept, by itself
            for use in self.consumer(call):
                if use.repeated:
                    return True
                (seeds if use.kind == "seed" else uses).append(use)
        if not uses:
            return False
        calls = {id(use.call) for use in uses}
        if scope.kind == "function" and distinct_keys(uses, seeds, scope, body):
            # Each consumption given a key of its own that nothing else mentions: no two
            # meet one key, and none is handed on; only a loop or a lambda repeats one.
            return _repeated_or_kept(body, calls, kept=False)
        if len(uses) > 1:
            return True  # two consumptions that may meet one key
        if returns or (scope.self_name is not None and isinstance(uses[0].key, cst.Attribute)):
            return True
        return _repeated_or_kept(body, calls)


def _walked_scope(scope: Scope) -> Scope:
    """The scope whose walk meets a call of `scope`: a lambda's body is the enclosing
    function's (or the module's) to walk."""
    while isinstance(scope.node, cst.Lambda) and scope.parent is not None:
        scope = scope.parent
    return scope


def _repeated_or_kept(body: cst.CSTNode, calls: set[int], kept: bool = True) -> bool:
    """One of `calls` (by id) is in a loop, a comprehension or a lambda of `body`, or (with
    `kept`) `body` assigns an attribute (where a consumed key may be kept). Nested functions
    and classes are left out (their bodies are not the walk's), but for their decorators."""
    for node, repeating in _nodes(body):
        if repeating and id(node) in calls:
            return True
        if kept and type(node) is cst.AssignTarget and type(node.target) is cst.Attribute:
            return True
    return False


def _nodes(body: cst.CSTNode) -> Iterator[tuple[cst.CSTNode, bool]]:
    """The nodes of `body` that its walk meets, each with whether it is met repeatedly."""
    pending: list[tuple[cst.CSTNode, bool]] = [(body, False)]
    while pending:
        node, repeating = pending.pop()
        yield node, repeating
        kind = type(node)
        if kind in _DEFINITIONS and node is not body:
            pending.extend((decorator, repeating)
                           for decorator in node.decorators)  # type: ignore[attr-defined]
            continue
        inner = repeating or kind in _REPEATING
        pending.extend((child, inner) for child in child_nodes(node))
