"""Whether a function's own walk can find anything, decided before walking it (a gate; the
walks themselves are `key_file_walks.FileWalks`).

OPT020 walks every function of a file that may consume a key (`FileWalks.functions_to_walk`),
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

The gate asks its questions of a call of a function of the file without that function's
summary where no call its walk meets consumes a key or hands one back (`WalkGate.silent`):
its walk then records no consumption, and a call of it consumes nothing. Most functions
called by the name of a helper (`key_helpers.py`) are such (levanter: 334 of 434 summaries).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import libcst as cst

from optlint.analysis.index import CallSite, Scope
from optlint.analysis.key_distinct_draws import distinct_keys, rebound_apart
from optlint.analysis.key_syntax import COMPREHENSIONS
from optlint.analysis.prng_keys import Consumer, Consumption, Returns
from optlint.analysis.walk import child_nodes

# Switched off, every function that may consume a key is walked (for the tests comparing both).
GATED = True
# Switched off, the gate makes the summary of every function called (for the tests comparing).
SILENT_UNSUMMARISED = True


# Where the walk meets an expression more than once, or later than where it is written. By
# exact type, as below: every node of a body is tested, and `isinstance` on libcst's classes
# (ABCs) costs a Python-level call each; these classes have no subclasses.
_REPEATING = frozenset({cst.For, cst.While, cst.Lambda, *COMPREHENSIONS})
_DEFINITIONS = frozenset({cst.FunctionDef, cst.ClassDef})
# How a consumption is given a key made in place that no other is given (`_made_in_place`).
_UNFOLLOWED, _SEEDED = "unfollowed", "seeded"


class WalkGate:
    """The calls of each scope of one file, and the question whether a walk of a scope's body
    (a function's, or the module's) can report anything."""

    def __init__(self, sites: Iterable[CallSite], scopes: Iterable[Scope],
                 consumer: Consumer, returns: Returns,
                 made_key: Callable[[cst.BaseExpression], str | None] | None = None,
                 records: Callable[[cst.Call], bool] | None = None) -> None:
        self.consumer = consumer
        self.returns = returns
        self.made_key = made_key  # the name a call making a key from constants goes under
        # A call a walk may record a consumption at that neither `consumer` nor `returns`
        # tells (the branches of a `lax.cond`); None: `silent` is not asked.
        self.records = records
        self._silent: dict[int, bool] = {}  # by function: `silent`'s answer
        self.answered: list[int] = []  # the functions `silent` answered, in order
        self._asking: set[int] = set()  # the functions `silent` is being asked of
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
        # Keys made in place that no other consumption is given: what they draw meets no
        # other draw, but a loop, comprehension or lambda repeating it (a seed's) still may.
        made = {id(use): self._made_in_place(use, uses, seeds) for use in uses}
        calls = {id(use.call) for use in uses if made[id(use)] != _UNFOLLOWED}
        uses = [use for use in uses if not made[id(use)]]
        if not uses:
            return bool(calls) and _repeated_or_kept(body, calls, kept=False)
        if scope.kind == "function" and (distinct_keys(uses, seeds, scope, body)
                                         or rebound_apart(uses, seeds, scope, body)):
            # Each consumption given a key of its own that nothing else mentions (or that is
            # bound again before anything else reads it): no two meet one key, and none is
            # handed on consumed; only a loop or a lambda repeats one.
            return _repeated_or_kept(body, calls, kept=False)
        if len(uses) > 1:
            return True  # two consumptions that may meet one key
        if returns or (scope.self_name is not None and isinstance(uses[0].key, cst.Attribute)):
            return True
        return _repeated_or_kept(body, calls)

    def silent(self, function: cst.FunctionDef) -> bool:
        """No call the walk of `function` meets consumes a key (by `consumer`, asked so in
        turn), hands one back consumed, records a draw otherwise (`records`) or is a call of
        a parameter (a closure its caller gives may draw: `param_calls`): the walk records no
        consumption, and a call of `function` consumes nothing. False while being asked
        (a call of itself): the caller then makes the summary, as it would have."""
        known = self._silent.get(id(function))
        if known is not None:
            return known
        if self.records is None or id(function) in self._asking:
            return False
        params = {param.name.value for param in (
            *function.params.posonly_params, *function.params.params,
            *function.params.kwonly_params)}
        self._asking.add(id(function))
        try:
            known = not any(
                (type(call.func) is cst.Name and call.func.value in params)  # type: ignore[attr-defined]
                or self.records(call) or self.returns(call) or self.consumer(call)
                for call in self._calls.get(id(function), ()))
        finally:
            self._asking.discard(id(function))
        self._silent[id(function)] = known
        self.answered.append(id(function))
        return known

    def said_silent(self, function: cst.FunctionDef) -> bool:
        """`silent` has said so of `function` (and not been told to forget it since)."""
        return self._silent.get(id(function), False)

    def forget_silent(self) -> None:
        """Drops `silent`'s answers: a summary they rest on is made again."""
        self._silent.clear()

    def forget(self, function: int) -> None:
        """Drops `silent`'s answer for `function` (by id)."""
        self._silent.pop(function, None)

    def _made_in_place(self, use: Consumption, uses: list[Consumption],
                       seeds: list[Consumption]) -> str:
        """How `use` is given a key made in place by a call that no other consumption can be
        given (`""`: not so): one the walk does not follow (`_UNFOLLOWED`: not a fold, a seed or
        a call making a key from constants, as `normal(getkey())`), which records nothing; or
        one seeded from a literal no other seed or consumption of the function names
        (`_SEEDED`: `normal(PRNGKey(3))`, followed as `int:3`), which only a repeat meets."""
        key = use.key
        if type(key) is not cst.Call or use.followed or use.given_as is not None:
            return ""
        made = next((other for other in (*uses, *seeds) if other.call is key), None)
        if made is None or made.kind in ("draw", "split"):  # (a split's result: many keys)
            return _UNFOLLOWED if self.made_key is None or self.made_key(key) is None else ""
        if made.kind != "seed" or type(made.key) is not cst.Integer:
            return ""
        literal = made.key.value  # type: ignore[attr-defined]
        if any(other is not made and type(other.key) is cst.Integer
               and other.key.value == literal for other in (*uses, *seeds)) or any(
                other is not use and (other.key is key or other.followed == f"int:{literal}")
                for other in uses):
            return ""
        return _SEEDED


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
