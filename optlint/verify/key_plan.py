"""Harness plans for a PRNG key consumed twice: run the statements that make and split the key, up
to its second consumer, with each consumer recording the key it is given.

The hazard is in the key's data flow alone: two consumers given the same key draw the same bits,
whatever else they do. So the slice keeps what the key needs (where it is made, every statement
that reassigns or splits a key name it comes from, the parameters' stand-ins) and the two
consumers, each rewritten as `__optlint_consume__(tag, key, lambda: call)`: the recorder keeps
the key it is given, then makes the real call. Arguments a consumer needs besides its key are not
sliced (they would make most findings unbuildable for nothing): a real call that cannot run here
is noted, not fatal.

A reuse across loop iterations (the first consumer at or after the second in the loop body) runs
the loop body twice, the second time up to the second consumer; a `for` loop's target is 0, then
1. A consumer inside a comprehension records twice, as two iterations would. The fixed source
(the fix inserts one `split` before the first consumer) is planned the same way: its statements
from the first consumer's on are one further down.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import libcst as cst

from optlint.analysis.key_syntax import COMPREHENSIONS, target_names
from optlint.diagnostics import Diagnostic
from optlint.records import record
from optlint.rules.base import Finding
from optlint.verify.parameters import settle
from optlint.verify.slicing import (
    Statement,
    calls_in,
    flatten,
    reads_of,
    slice_for,
    writes_of,
)

if TYPE_CHECKING:
    from optlint.verify.parsed_source import Source
    from optlint.verify.planning import Planning as Planner

RECORDS = "__optlint_keys__"
CONSUME = "__optlint_consume__"
_OWN = frozenset({RECORDS, CONSUME})
# The recorder runs before the slice's statements: it keeps every key a consumer is given, and
# whether the consumer's real call could run here (its other arguments are not sliced).
# Each consumer call runs under JAX's own key-reuse checker (`jax_debug_key_reuse`), switched
# on for that call only: with typed keys (`jax.random.key`, the stand-in key) the second consumer
# of a consumed key raises KeyReuseError, JAX's definition of the hazard; raw uint32 keys are not
# checked, and the recorded keys decide.
_RECORDER = (f"{RECORDS}.records = []\n"
             f"{RECORDS}.calls = []\n"
             f"def {CONSUME}(tag, key, call):\n"
             f"    import jax\n"
             f"    {RECORDS}.records.append((tag, key))\n"
             f"    checking = jax.config.jax_debug_key_reuse\n"
             f"    jax.config.update('jax_debug_key_reuse', True)\n"
             f"    try:\n"
             f"        result = call()\n"
             f"    except Exception as error:\n"
             f"        {RECORDS}.calls.append((tag, type(error).__name__))\n"
             f"        return None\n"
             f"    finally:\n"
             f"        jax.config.update('jax_debug_key_reuse', checking)\n"
             f"    {RECORDS}.calls.append((tag, None))\n"
             f"    return result\n")


@record
class Consumer:
    tag: str  # "first" or "second"
    call: cst.Call
    key: cst.BaseExpression


@record(frozen=False)
class _Entry:
    """A statement of the scope in order; `consumers` are the recorded calls it holds."""

    at: tuple[int, int]  # where it starts (imports have no statement number)
    statement: Statement
    consumers: list[Consumer]
    # A reuse across the iterations of a comprehension: its one consumer records twice.
    twice: bool = False


def key_variants(planner: Planner, original: Source, fixed: Source | None,
                 diagnostic: Diagnostic, finding: Finding) -> dict[str, dict[str, Any]]:
    consumers = _consumers(finding)
    if consumers is None:
        return {"original": {"unbuildable": "the finding names no earlier consumer of its key"}}
    variants = {"original": _variant(planner, original, consumers)}
    if fixed is not None and diagnostic.fix is not None:
        again = _again(original, fixed, consumers)
        variants["fixed"] = (_variant(planner, fixed, again) if again is not None
                             else {"unbuildable": "the fixed source has no matching consumers"})
    return variants


def _consumers(finding: Finding) -> list[Consumer] | None:
    roles = finding.roles
    first, second = roles.get("first_call"), roles.get("call")
    first_key, key = roles.get("first_key"), roles.get("key")
    if not (isinstance(first, cst.Call) and isinstance(second, cst.Call)
            and isinstance(first_key, cst.BaseExpression) and isinstance(key, cst.BaseExpression)):
        return None
    return [Consumer("first", first, first_key), Consumer("second", second, key)]


def _again(original: Source, fixed: Source, consumers: list[Consumer]) -> list[Consumer] | None:
    """The consumers in the fixed source: the statement the original's aligns with, the call
    with the same ordinal in it, the key at the same argument."""
    aligned = _aligned(original, fixed)
    found = []
    for consumer in consumers:
        statement = original.statement_of(consumer.call)
        number = aligned.get(original.number[id(statement)])
        ordinal = calls_in(statement).index(consumer.call)
        place = next((i for i, arg in enumerate(consumer.call.args) if arg.value is consumer.key),
                     None)
        if number is None or place is None:
            return None
        calls = calls_in(fixed.statements[number])
        if ordinal >= len(calls) or place >= len(calls[ordinal].args):
            return None
        call = calls[ordinal]
        if _callee(original, consumer.call) != _callee(fixed, call):
            return None
        found.append(Consumer(consumer.tag, call, call.args[place].value))
    return found


def _callee(source: Source, call: cst.Call) -> str:
    return source.code(call.func)


def _aligned(original: Source, fixed: Source) -> dict[int, int]:
    """Original statement number -> fixed statement number. The fixed text holds every fix of
    the file, each inserting a `split` before a statement it changes: statements are matched by
    their text (a compound statement by its first line), and in a stretch that differs, each to
    the most alike of the fixed statements after the last one matched."""
    def text(source: Source, node: cst.CSTNode) -> str:
        # Without its comments: a fix's inserted statement takes over the comment lines above.
        bare = node.with_changes(leading_lines=()) if hasattr(node, "leading_lines") else node
        code = source.code(bare).strip()
        return code if isinstance(node, cst.SimpleStatementLine) else code.splitlines()[0]

    def texts(source: Source) -> list[str]:
        return [text(source, node) for node in source.statements]

    before, after = texts(original), texts(fixed)
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    aligned = {}
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            aligned.update({i1 + k: j1 + k for k in range(i2 - i1)})
            continue
        start = j1
        for i in range(i1, i2):
            if start >= j2:
                break
            best = max(range(start, j2), key=lambda j: difflib.SequenceMatcher(
                None, before[i], after[j], autojunk=False).ratio())
            aligned[i] = best
            start = best + 1
    return aligned


def _variant(planner: Planner, source: Source, consumers: list[Consumer]) -> dict[str, Any]:
    second_statement = source.statement_of(consumers[1].call)
    layers, values = planner.layers(source, second_statement, None)
    function = next((a for a in source.ancestors(second_statement)
                     if isinstance(a, cst.FunctionDef)), None)
    if function is not None and isinstance(function.body, cst.IndentedBlock):
        body: list[cst.CSTNode] = list(function.body.body)
        outer = layers[1:]
        parameters = layers[0][1]
        assignments = layers[0][0][:len(values)]
    else:
        # At module level the slice's own layer is the module: imports and definitions the
        # key statements need are found there (the planner's layer of statements before).
        body, outer, parameters, assignments = list(source.module.body), layers, [], []
        values = {}
    chosen, needed = _backward(_entries(source, body, second_statement, consumers))
    # The key itself, where the function is given it: a stand-in key, whatever its name.
    key_names = {c.key.value for c in consumers if isinstance(c.key, cst.Name)}
    parameter_names = {p.name.value for p in parameters}
    standin_keys = needed & (key_names | _split_keys(chosen)) & parameter_names
    needed -= standin_keys
    # The modules a consumer call names (`jax.random.normal`): imports run as they are, and let
    # the real call run; its other arguments are not sliced.
    needed |= {name for c in consumers for name in reads_of(c.call)} & _imported(source)
    sliced = slice_for([_read(name) for name in sorted(needed)],
                       [([*assignments], parameters), *outer])
    sliced.statements.extend(chosen)
    notes = settle(sliced, assignments, [], values)
    if sliced.missing:
        return {"unbuildable": "missing " + ", ".join(sliced.missing)}
    bindings = {**sliced.bindings, **{name: "key" for name in sorted(standin_keys)}}
    if "key" in bindings.values():
        notes.append("stand-in key")
    if "model" in bindings.values():
        notes.append("stand-in model")
    bindings[RECORDS] = "self"  # a fresh namespace per variant: nothing of it is shared
    recorder = {"code": _RECORDER, "writes": [CONSUME], "head": f"def {CONSUME}(...)",
                "finding": False}
    shown = {c.tag: " ".join(source.code(c.call).split()) for c in consumers}
    return {"statements": [recorder, *[_spec(s) for s in sliced.statements]],
            "bindings": bindings, "roles": {"keys": RECORDS}, "model_names": [],
            "probe": {"consumers": shown, "same_call": consumers[0].call is consumers[1].call},
            "notes": sorted(set(notes))}


def _read(key: str) -> cst.BaseExpression:
    """The expression a slicing key reads (`key_of`'s inverse): `x`, or `self.x` (a key a method
    draws from its object: `jax.random.normal(self.next_key(), ...)`)."""
    if key.startswith("self."):
        return cst.Attribute(cst.Name("self"), cst.Name(key[len("self."):]))
    return cst.Name(key)


def _split_keys(statements: list[Statement]) -> set[str]:
    """Names the kept statements split or fold (`jax.random.split(seed, 2)`): keys as well."""
    found = set()
    for statement in statements:
        if isinstance(statement.node, cst.SimpleStatementLine):
            for call in calls_in(statement.node):
                func = call.func
                name = func.attr.value if isinstance(func, cst.Attribute) else (
                    func.value if isinstance(func, cst.Name) else "")
                if name in ("split", "fold_in") and call.args and isinstance(
                        call.args[0].value, cst.Name):
                    found.add(call.args[0].value.value)
    return found


def _imported(source: Source) -> set[str]:
    return {name for node in source.module.body if isinstance(node, cst.SimpleStatementLine)
            and isinstance(node.body[0], (cst.Import, cst.ImportFrom)) for name in writes_of(node)}


def _spec(statement: Statement) -> dict[str, Any]:
    return {"code": statement.code, "writes": sorted(statement.writes),
            "head": statement.code.strip().splitlines()[0] if statement.code.strip() else "",
            "finding": False}


# the scope's statements, in the order they run ---------------------------------------------------
def _entries(source: Source, body: list[cst.CSTNode], second_statement: cst.CSTNode,
             consumers: list[Consumer]) -> list[_Entry]:
    """The statements that run up to the second consumer (a reuse across iterations: the loop
    body twice)."""
    placed: dict[int, _Entry] = {}
    for statement in flatten(body, keep=second_statement):
        placed[id(statement.node)] = _Entry(_at(source, statement.node), statement, [])
    for consumer in consumers:
        node = source.statement_of(consumer.call)
        entry = placed.get(id(node))
        if entry is None:  # a `return`, or the header of an `if`/`for`/`with`
            entry = _Entry(_at(source, node), _statement(source, node), [])
            placed[id(node)] = entry
        if all(c.call is not consumer.call for c in entry.consumers):
            entry.consumers.append(consumer)
        elif in_comprehension(source, consumer.call):
            entry.twice = True
    entries = sorted(placed.values(), key=lambda e: e.at)
    loops = []
    for ancestor in source.ancestors(second_statement):
        if isinstance(ancestor, cst.FunctionDef):
            break
        if isinstance(ancestor, (cst.For, cst.While)):
            loops.append(ancestor)
    keys = {c.key.value for c in consumers if isinstance(c.key, cst.Name)}
    limit = _at(source, second_statement)
    first, second = consumers[0].call, consumers[1].call
    again = _at(source, first) >= _at(source, second)
    loop = next((a for a in loops if any(b is a for b in source.ancestors(first))), None)
    if not again or loop is None:
        return [*_targets(source, loops, 0, keys), *[e for e in entries if e.at <= limit]]
    inside = [e for e in entries
              if any(a is loop for a in source.ancestors(_real(source, e.statement.node)))]
    before = [e for e in entries if e.at < _at(source, loop)]
    outer_loops = [a for a in loops if any(b is a for b in source.ancestors(loop))]
    return [*_targets(source, outer_loops, 0, keys), *before, *_targets(source, [loop], 0, keys),
            *inside, *_targets(source, [loop], 1, keys), *[e for e in inside if e.at <= limit]]


def _at(source: Source, node: cst.CSTNode) -> tuple[int, int]:
    start = source.positions[_real(source, node)].start
    return start.line, start.column


def _real(source: Source, node: cst.CSTNode) -> cst.CSTNode:
    """A node of the source's tree: `flatten` makes a line of its own of `if c: x = f(key)`."""
    if node not in source.positions and isinstance(node, cst.SimpleStatementLine):
        return node.body[0]
    return node


def _statement(source: Source, node: cst.CSTNode) -> Statement:
    """A consumer's statement that `flatten` leaves out; only its consumers are run."""
    return Statement(node, source.code(node), set(), set())


def _targets(source: Source, loops: Sequence[cst.CSTNode], iteration: int,
             keys: set[str]) -> list[_Entry]:
    """`step = 0` for each `for` loop around (a key folded with the step differs per iteration
    as it would); a target that is the consumed key (`for key in keys`): a key per iteration."""
    entries = []
    for loop in loops:
        if isinstance(loop, cst.For):
            names = list(target_names(loop.target))
            code = "".join(
                f"{name} = __import__('jax').random.PRNGKey({iteration})\n" if name in keys
                else f"{name} = {iteration}\n" for name in names)
            if names:
                entries.append(_Entry(_at(source, loop),
                                      Statement(loop, code, set(), set(names)), []))
    return entries


# the backward slice, with the consumers kept ---------------------------------------------------
def _backward(entries: list[_Entry]) -> tuple[list[Statement], set[str]]:
    """The statements the keys need, and each consumer recording its key; what is left to find
    in the outer scopes (the function's parameters, the module)."""
    needed: set[str] = set()
    chosen: list[Statement] = []
    for entry in reversed(entries):
        statement = entry.statement
        if entry.consumers:
            # What a consumer's statement assigns is never what the key needs: the key is
            # not reassigned between its two consumers, nor (in a loop) after them.
            made = _calls(entry.consumers * (2 if entry.twice else 1))
            needed |= made.reads
            chosen.append(made)
        elif statement.writes & needed:
            chosen.append(statement)
            needed = (needed - statement.writes) | statement.reads
    chosen.reverse()
    return chosen, needed


def _wrapped(consumer: Consumer, call_code: str) -> str:
    key = cst.Module([]).code_for_node(consumer.key)
    return f"{CONSUME}({consumer.tag!r}, {key}, lambda: {call_code})"


def _calls(consumers: list[Consumer]) -> Statement:
    """The consumers alone, in the order they run (an inner call ends first)."""
    module = cst.Module([])
    lines = []
    reads: set[str] = set()
    for consumer in consumers:
        line = _wrapped(consumer, module.code_for_node(consumer.call)) + "\n"
        lines.append(line)
        reads |= reads_of(consumer.key)
    code = "".join(lines)
    return Statement(consumers[0].call, code, reads - _OWN, set())


def in_comprehension(source: Source, call: cst.Call) -> bool:
    return any(isinstance(a, COMPREHENSIONS) for a in source.ancestors(call))
