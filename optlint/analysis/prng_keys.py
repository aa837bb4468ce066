"""Where a `jax.random` key is consumed, and where one key value is consumed twice.

A key is consumed by a call that turns it into random bits: a `jax.random` sampler (`normal`,
`bernoulli`, ...), `jax.random.split` itself, an `equinox.nn` layer built or called with `key=`, a
`jax.nn.initializers` initializer, and a function of the checked file whose parameter is consumed
on some path. `fold_in(key, data)` derives a new key and does not consume. A key passed anywhere
else is not followed: no finding rests on it.

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

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

import libcst as cst

from optlint.analysis.binding import argument, bind_arguments
from optlint.analysis.walk import child_nodes

# jax.random functions that turn their key into random bits (split included: using the key again
# after splitting it repeats bits the split outputs hold).
SAMPLERS = frozenset({
    "ball", "bernoulli", "beta", "binomial", "bits", "categorical", "cauchy", "chisquare",
    "choice", "dirichlet", "double_sided_maxwell", "exponential", "f", "gamma",
    "generalized_normal", "geometric", "gumbel", "laplace", "loggamma", "logistic", "lognormal",
    "maxwell", "multinomial", "multivariate_normal", "normal", "orthogonal", "pareto",
    "permutation", "poisson", "rademacher", "randint", "rayleigh", "shuffle", "split", "t",
    "triangular", "truncated_normal", "uniform", "wald", "weibull_min",
})


@dataclass(frozen=True, eq=False)
class Consumption:
    call: cst.Call
    key: cst.BaseExpression  # the key expression the call consumes
    how: str  # what consumes it, for messages: "jax.random.normal", "helper"
    library: bool = True  # a jax.random or equinox.nn call, not a function of the checked code
    # "draw": random bits; "split": `jax.random.split`; "fold": `fold_in`, which consumes
    # nothing by itself but gives `split(key, n)[i]` again (threefry: fold_in(k, i) ==
    # split(k, n)[i]), so it conflicts only with a split of the same key.
    kind: str = "draw"
    # Consumes the same key again and again: a `scan` / `fori_loop` body drawing from a key it
    # closes over or carries unchanged, a function vmapped with the key broadcast (`None` axis).
    # `call` and `key` are then the draw inside the body; `over` says what repeats it.
    repeated: bool = False
    over: str = ""
    # A jitted project function: a training step, which a loop calls with a fresh key each step.
    stepping: bool = False
    # A key a project function returned after consuming it: the consumption inside it.
    via: Consumption | None = None
    # Draws from a library's implicit rng stream (`hk.next_rng_key()`), `key` the function.
    stream: bool = False


def key_name(expr: cst.BaseExpression, literal: bool = False) -> str | None:
    """The name the flow follows a key under: `key`, or `state.key` for an attribute of a
    name; with `literal`, an int seed (`make(0)`) as `0`, for project functions seeding a key."""
    if isinstance(expr, cst.Name):
        return expr.value
    if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name):
        return f"{expr.value.value}.{expr.attr.value}"
    if literal and isinstance(expr, cst.Integer):
        return f"int:{expr.value}"
    return None


# Methods that copy an object with some fields replaced: the other fields keep their keys.
REPLACING = frozenset({"replace", "_replace"})


# The names under which `fold_in` consumptions are kept, beside the key's own name.
FOLDED = "\x00fold"


@dataclass(frozen=True)
class Reuse:
    first: Consumption
    second: Consumption
    # The second consumption is the first one again, in the next iteration of a loop (or a
    # comprehension) that never reassigns the key.
    in_loop: bool
    # The statement of the first consumption, when it and the second's are two statements of one
    # block, outside any loop: the only shape a fix is offered for.
    first_statement: cst.BaseStatement | None = None
    # For a loop reuse: the loop counts steps (`while`, `for ... in range(...)`, a `_` target)
    # rather than going over settings (`for beta in betas`, often meant to reuse one key).
    counting: bool = False
    # Where the key's name was bound before the first consumption (None: not in this walk).
    origin: cst.CSTNode | None = None
    # With `first_statement`: the statements from the first consumption's to the second's.
    span: tuple[cst.BaseStatement, ...] = ()


# (call) -> the keys it consumes; None when it consumes nothing the analysis can tell.
Consumer = Callable[[cst.Call], list[Consumption]]
# (call) -> the keys the call returns already consumed, by their place in its result (`()`: the
# result itself, `(1,)`: its second item), each as the consumption inside the callee.
Returns = Callable[[cst.Call], dict[tuple[int, ...], Consumption]]


@dataclass
class _State:
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

    def copy(self) -> _State:
        return _State(dict(self.consumed), set(self.rebound), dict(self.where), set(self.maybe),
                      dict(self.origin), dict(self.unread))

    def bind(self, name: str, node: cst.CSTNode | None = None) -> None:
        self.maybe.discard(name)
        self.consumed.pop(name, None)
        self.consumed.pop(name + FOLDED, None)
        # A new object under the name: its attributes (`state.key`) are new too.
        for dotted in [known for known in self.consumed if known.startswith(name + ".")]:
            del self.consumed[dotted]
        self.where.pop(name, None)
        self.unread.pop(name, None)
        self.rebound.add(name)
        if node is not None:
            self.origin[name] = node
        else:
            self.origin.pop(name, None)


def _merge(states: list[_State | None]) -> _State | None:
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
    merged.maybe |= {name for name in merged.consumed
                     if any(name not in state.consumed for state in live)}
    # Where a consumption happened is kept only when every path agrees on it.
    merged.where = {name: where for name, where in merged.where.items()
                    if all(_same_place(state.where.get(name), where)
                           and state.consumed.get(name) is merged.consumed.get(name)
                           for state in live)}
    return merged


def _same_place(a: tuple[int, int, cst.BaseStatement] | None,
                b: tuple[int, int, cst.BaseStatement] | None) -> bool:
    return a is not None and b is not None and a[:2] == b[:2]


def target_names(target: cst.BaseExpression | cst.CSTNode) -> Iterator[str]:
    """The plain names an assignment target binds."""
    if isinstance(target, cst.Name):
        yield target.value
    elif isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from target_names(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from target_names(target.value)


COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)


class KeyFlow:
    """One walk of a function body (or a module's statements), collecting reuses.

    `params`: the function's parameters, to tell which of them the body consumes (before any
    reassignment) for the summaries of helper functions. `on_consume` sees every consumption
    with the state of its key name (for checks on attributes such as `self.key`)."""

    def __init__(self, consumer: Consumer, params: Sequence[str] = (),
                 returns: Returns | None = None) -> None:
        self.consumer = consumer
        self.returns = returns
        self.params = set(params)
        self.consumed_params: set[str] = set()
        # The first consumption of each parameter, and of each name the body neither binds
        # nor receives (a key of the enclosing function, for a nested function).
        self.param_uses: dict[str, Consumption] = {}
        self.free_uses: dict[str, Consumption] = {}
        self.bound: set[str] = set()  # every name the walk saw bound
        # What the function returns already consumed, by its place in the returned value.
        self.returned: dict[tuple[int, ...], Consumption] = {}
        # Calls whose result is assigned to a name they are also given (`state = step(state,
        # key)`): a step threading state, not an evaluation.
        self.threaded: set[int] = set()
        # Keys the function returns stored in an object after consuming them (`state.replace(
        # params=p)` after `split(state.key)`), with the returned expression that holds them.
        self.stored: list[tuple[Consumption, cst.BaseExpression]] = []
        self.every: list[Consumption] = []
        self.reuses: dict[tuple[int, str], Reuse] = {}
        self._loops: list[tuple[list[_State], list[_State]]] = []  # (breaks, continues)
        self._loop_depth = 0
        self._again = 0  # inside the second walk of a loop body
        self._walking_again: list[bool] = []  # per enclosing loop: counts steps, in 2nd walk
        # Calls whose result is thrown away (`f(key)` as a statement, `_ = f(key)`): a warm-up
        # or a debugging call, which reuses a key without effect.
        self.discarded: set[int] = set()
        self._block: Sequence[cst.BaseStatement] | None = None
        self._statement: cst.BaseStatement | None = None
        self._root: Sequence[cst.BaseStatement] | None = None
        self._module = False
        self._reads_cache: dict[int, frozenset[str]] = {}
        self._strict_reads: dict[int, frozenset[str]] = {}  # `.shape` reads included
        # Consumptions whose result nothing reads: no draw for a reuse.
        self.unread: set[int] = set()

    def run(self, body: Sequence[cst.BaseStatement],
            origins: dict[str, cst.CSTNode] | None = None, module: bool = False) -> None:
        """`module`: `body` is a module's: its names outlive it (but a `__main__` block's end
        is the program's)."""
        self._root = body
        self._module = module
        self._block_walk(body, _State(origin=dict(origins or {})))

    # draws whose result nothing reads ------------------------------------------------------
    def _unread(self, call: cst.Call) -> bool:
        """The current statement is `names = ...call...` and nothing reads those names
        afterwards (or only their `.shape`/`.dtype`/`.ndim`): the draw reaches no result."""
        statement, block, root = self._statement, self._block, self._root
        if (statement is None or block is None or root is None
                or not isinstance(statement, cst.SimpleStatementLine)
                or len(statement.body) != 1):
            return False
        small = statement.body[0]
        if not isinstance(small, (cst.Assign, cst.AnnAssign)) or small.value is None:
            return False
        targets = ([target.target for target in small.targets]
                   if isinstance(small, cst.Assign) else [small.target])
        if not all(_plain_target(target) for target in targets) or not _inside(
                small.value, call):
            return False
        names = {name for target in targets for name in target_names(target)}
        return bool(names) and all(self._dead(name, statement, block) for name in names)

    def _dead(self, name: str, statement: cst.BaseStatement,
              block: Sequence[cst.BaseStatement], depth: int = 0) -> bool:
        """Nothing reads `name` after `statement`: it is bound anew first (reads of its
        `.shape` before that do not count: `y = None` after `n = y.shape[0]`), or the function
        (or `__main__` script) ends without any read, its shape's included."""
        root = self._root
        assert root is not None
        strict, loose = self._strict_reads, self._reads_cache
        everywhere = _reads_in(root, strict, shapes=True)
        if "locals" in everywhere or "vars" in everywhere:
            return False
        if not self._module and name not in everywhere:
            return True
        position = next((i for i, known in enumerate(block) if known is statement), None)
        if position is None:
            return False
        shaped = False
        for later in block[position + 1:]:
            if name in _reads_in(later, loose) and not (
                    depth < 2 and self._feeds_unread(name, later, block, depth)):
                return False
            if name in _kills(later):
                return True
            shaped = shaped or name in _reads_in(later, strict, shapes=True)
        if shaped:
            return False
        # The end of the block: the function's end, or a `__main__` script's.
        if block is root and not self._module:
            main = False
        elif self._module and any(isinstance(top, cst.If) and _is_main(top.test)
                                  and isinstance(top.body, cst.IndentedBlock)
                                  and top.body.body is block for top in root):
            main = True
        else:
            return False
        if name in _closure_reads(root, strict):
            return False
        if main:
            index = next(i for i, top in enumerate(root) if isinstance(top, cst.If)
                         and isinstance(top.body, cst.IndentedBlock) and top.body.body is block)
            return not any(name in _reads_in(top, strict, shapes=True)
                           for top in root[index + 1:])
        return True

    def _feeds_unread(self, name: str, statement: cst.BaseStatement,
                      block: Sequence[cst.BaseStatement], depth: int) -> bool:
        """`statement` reads `name` only to assign names nothing reads (`z = net(x)` with `z`
        bound anew before any read): `name` reaches nothing through it."""
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            return False
        small = statement.body[0]
        if not isinstance(small, cst.Assign) or not all(
                _plain_target(target.target) for target in small.targets):
            return False
        names = {bound for target in small.targets for bound in target_names(target.target)}
        return bool(names) and name not in names and all(
            self._dead(bound, statement, block, depth + 1) for bound in names)

    def run_expression(self, expression: cst.BaseExpression) -> None:
        """A lambda's body: one expression."""
        self._expr(expression, _State())

    def free_consumed(self) -> dict[str, Consumption]:
        """The names the body consumes without ever binding them: its enclosing scope's."""
        return {name: use for name, use in self.free_uses.items()
                if name.split(".", 1)[0] not in self.bound}

    # statements ---------------------------------------------------------------------------
    def _block_walk(self, body: Sequence[cst.BaseStatement], state: _State | None) -> _State | None:
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

    def _suite(self, suite: cst.BaseSuite, state: _State | None) -> _State | None:
        if isinstance(suite, cst.IndentedBlock):
            return self._block_walk(suite.body, state)
        assert isinstance(suite, cst.SimpleStatementSuite)
        for small in suite.body:
            if state is None:
                return None
            state = self._small(small, state)
        return state

    def _statement_walk(self, node: cst.BaseStatement, state: _State) -> _State | None:
        if isinstance(node, cst.SimpleStatementLine):
            current: _State | None = state
            for small in node.body:
                if current is None:
                    return None
                current = self._small(small, current)
            return current
        if isinstance(node, cst.If):
            self._expr(node.test, state)
            taken = self._suite(node.body, state.copy())
            if node.orelse is None:
                other: _State | None = state
            elif isinstance(node.orelse, cst.If):
                other = self._statement_walk(node.orelse, state.copy())
            else:
                other = self._suite(node.orelse.body, state.copy())
            return _merge([taken, other])
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
            joined = _merge(ends)
            if node.finalbody is not None:
                joined = self._suite(node.finalbody.body, joined or entry.copy())
            return joined
        if isinstance(node, cst.Match):
            self._expr(node.subject, state)
            ends = [self._suite(case.body, state.copy()) for case in node.cases]
            return _merge([*ends, state])
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            for decorator in node.decorators:
                self._expr(decorator.decorator, state)
            self._bind(state, node.name.value)
            return state
        return state  # anything else: nothing this analysis follows

    def _small(self, node: cst.BaseSmallStatement, state: _State) -> _State | None:
        if isinstance(node, cst.Assign):
            if isinstance(node.value, cst.Call) and all(
                    isinstance(target.target, cst.Name) and target.target.value == "_"
                    for target in node.targets):
                self.discarded.add(id(node.value))
            self._expr(node.value, state)
            for target in node.targets:
                self._bind_target(target.target, state)
            if isinstance(node.value, cst.Call):
                self._assigned_call(node.value, [target.target for target in node.targets], state)
            return state
        if isinstance(node, (cst.AnnAssign, cst.AugAssign)):
            if node.value is not None:
                self._expr(node.value, state)
            self._bind_target(node.target, state)
            return state
        if isinstance(node, cst.Expr):
            if isinstance(node.value, cst.Call):
                self.discarded.add(id(node.value))
            self._expr(node.value, state)
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
                    self._note_returned(value, state, ())
                    self._note_stored(value, state, own)
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

    def _bind(self, state: _State, name: str, node: cst.CSTNode | None = None) -> None:
        self.bound.add(name)
        state.bind(name, node)

    def _bind_target(self, target: cst.BaseExpression, state: _State) -> None:
        if isinstance(target, (cst.Attribute, cst.Subscript)):
            self._expr(target, state)
            dotted = key_name(target)
            if dotted is not None:
                state.bind(dotted, target)
        for name_node in _target_name_nodes(target):
            self._bind(state, name_node.value, name_node)

    def _assigned_call(self, call: cst.Call, targets: list[cst.BaseExpression],
                       state: _State) -> None:
        """After `targets = call(...)`: a step threading state, and keys the call returned
        already consumed (`noise, key = draw(key)` where `draw` consumed `key` and returns it)."""
        given = {arg.value.value for arg in call.args if isinstance(arg.value, cst.Name)}
        if any(name in given for target in targets for name in target_names(target)):
            self.threaded.add(id(call))
        copied = _replaced_from(call)
        if copied is not None:
            # `new = state.replace(params=p)`: `new.key` is `state.key`, consumed or not.
            source, replaced = copied
            for dotted, use in list(state.consumed.items()):
                base, _, attr = dotted.partition(".")
                if base != source or not attr or attr in replaced or dotted in state.maybe:
                    continue
                for target in targets:
                    if isinstance(target, cst.Name):
                        state.consumed[f"{target.value}.{attr}"] = use
        if self.returns is None:
            return
        for path, use in self.returns(call).items():
            for target in targets:
                name = _at_path(target, path)
                if name is not None:
                    state.consumed[name.value] = replace(use, key=name)
                    state.maybe.discard(name.value)
                    state.where.pop(name.value, None)

    def _note_stored(self, value: cst.BaseExpression, state: _State, own: set[int],
                     depth: int = 0) -> None:
        """Consumed keys the returned object carries on: `state` itself or `state.replace(...)`
        whose `state.key` was consumed, a constructor given a consumed key."""
        if isinstance(value, (cst.Tuple, cst.List)) and depth < 2:
            for element in value.elements:
                self._note_stored(element.value, state, own, depth + 1)
            return
        carried: list[str] = []
        if isinstance(value, cst.Name):
            carried = [dotted for dotted in state.consumed
                       if dotted.startswith(value.value + ".")]
        elif isinstance(value, cst.Call):
            copied = _replaced_from(value)
            if copied is not None:
                carried = [dotted for dotted in state.consumed
                           if dotted.startswith(copied[0] + ".")
                           and dotted.partition(".")[2] not in copied[1]]
            if copied is not None or _constructs(value):
                # A constructor or a copy given a consumed key: `State(params, state.key)`.
                for arg in value.args:
                    name = key_name(arg.value)
                    if name is not None and name in state.consumed:
                        carried.append(name)
        for dotted in carried:
            use = state.consumed.get(dotted)
            if (use is not None and dotted not in state.maybe and use.kind != "fold"
                    and "\x00" not in dotted and id(use) not in own):
                self.stored.append((use, value))

    def _note_returned(self, value: cst.BaseExpression, state: _State,
                       path: tuple[int, ...]) -> None:
        if isinstance(value, cst.Name):
            use = state.consumed.get(value.value)
            if use is not None and value.value not in state.maybe:
                self.returned.setdefault(path, use)
        elif isinstance(value, (cst.Tuple, cst.List)) and len(path) < 3:
            for position, element in enumerate(value.elements):
                if isinstance(element, cst.StarredElement):
                    return
                self._note_returned(element.value, state, (*path, position))

    def _loop(self, node: cst.For | cst.While, state: _State) -> _State | None:
        if isinstance(node, cst.For):
            self._expr(node.iter, state)
        else:
            self._expr(node.test, state)
        entry = state.copy()
        ends: list[_State | None] = []
        breaks: list[_State] = []
        start: _State | None = state
        self._loop_depth += 1
        outer_again = self._again
        counting = isinstance(node, cst.While) or _counting(node.iter, node.target)
        self._walking_again.append(False)
        try:
            for walk in range(2):  # twice: what one iteration consumes, the next consumes again
                assert start is not None
                self._again = outer_again + walk
                self._walking_again[-1] = counting and walk == 1
                start = start.copy()
                if isinstance(node, cst.For):
                    self._bind_target(node.target, start)
                else:
                    self._expr(node.test, start)
                continues: list[_State] = []
                self._loops.append((breaks, continues))
                end = self._suite(node.body, start)
                self._loops.pop()
                ends = [end, *continues]
                # The next iteration starts where this one ended.
                start = _merge(ends)
                if start is None:
                    break
        finally:
            self._walking_again.pop()
            self._loop_depth -= 1
            self._again = outer_again
        after = _merge([entry, *ends])
        if node.orelse is not None:
            after = self._suite(node.orelse.body, after)
        return _merge([after, *breaks])

    # expressions --------------------------------------------------------------------------
    def _expr(self, node: cst.CSTNode, state: _State) -> None:
        """Walks `node` in evaluation order: arguments before the call that receives them."""
        if isinstance(node, cst.Lambda):
            return  # its body runs later, when it is called
        if isinstance(node, cst.Call):
            self._expr(node.func, state)
            for arg in node.args:
                self._expr(arg.value, state)
            uses = self.consumer(node)
            for use in uses:
                self._consume(use, state)
            if not uses and state.unread:
                for arg in node.args:
                    name = key_name(arg.value)
                    if name is not None and name in state.unread:
                        state.consumed.setdefault(name, state.unread.pop(name))
            return
        if isinstance(node, cst.IfExp):
            self._expr(node.test, state)
            body, orelse = state.copy(), state.copy()
            self._expr(node.body, body)
            self._expr(node.orelse, orelse)
            self._replace(state, _merge([body, orelse]))
            return
        if isinstance(node, cst.BooleanOperation):
            self._expr(node.left, state)
            right = state.copy()
            self._expr(node.right, right)
            self._replace(state, _merge([state, right]))
            return
        if isinstance(node, cst.NamedExpr):
            self._expr(node.value, state)
            self._bind_target(node.target, state)
            return
        if isinstance(node, COMPREHENSIONS):
            self._comprehension(node, state)
            return
        for child in child_nodes(node):
            self._expr(child, state)

    def _comprehension(self, node: cst.ListComp | cst.SetComp | cst.GeneratorExp | cst.DictComp,
                       state: _State) -> None:
        entry = state.copy()
        self._expr(node.for_in.iter, state)
        start = state.copy()
        self._loop_depth += 1
        outer_again = self._again
        counting = all(_counting(clause.iter, clause.target) for clause in _clauses(node))
        self._walking_again.append(False)
        try:
            for walk in range(2):
                self._again = outer_again + walk
                self._walking_again[-1] = counting and walk == 1
                inner = start.copy()
                clause: cst.CompFor | None = node.for_in
                first = True
                while clause is not None:
                    if not first:
                        self._expr(clause.iter, inner)
                    first = False
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
                    if name in _comprehension_names(node):
                        inner.consumed.pop(name)
                start = inner
        finally:
            self._walking_again.pop()
            self._loop_depth -= 1
            self._again = outer_again
        merged = _merge([entry, start])
        assert merged is not None
        self._replace(state, merged)

    def _record(self, before: Consumption, use: Consumption, name: str, state: _State) -> None:
        key = (id(use.call), name)
        if key in self.reuses:
            return
        # Seen only when a loop body is walked again: the earlier use is the last iteration's.
        in_loop = self._again > 0
        statement = None
        span: tuple[cst.BaseStatement, ...] = ()
        where = state.where.get(name)
        if (self._loop_depth == 0 and where is not None and where[0] == id(self._block)
                and where[1] != id(self._statement)):
            statement = where[2]
            block = list(self._block or ())
            if statement in block and self._statement in block:
                span = tuple(block[block.index(statement):block.index(self._statement) + 1])
        self.reuses[key] = Reuse(before, use, in_loop, statement,
                                 in_loop and any(self._walking_again), state.origin.get(name),
                                 span)

    @staticmethod
    def _replace(state: _State, new: _State | None) -> None:
        if new is not None:
            state.consumed, state.rebound, state.where = new.consumed, new.rebound, new.where
            state.maybe, state.origin = new.maybe, new.origin
            state.unread = new.unread

    def _consume(self, use: Consumption, state: _State) -> None:
        self.every.append(use)
        if (not use.repeated and use.kind in ("draw", "split")
                and (id(use.call) in self.unread or self._unread(use.call))):
            # Its result reaches nothing: the key stays as it was for the reuse check (the
            # summaries for callers still see the parameter consumed).
            self.unread.add(id(use.call))
            name = key_name(use.key, literal=not use.library)
            if name is not None:
                if name in self.params and name not in state.rebound:
                    self.consumed_params.add(name)
                    self.param_uses.setdefault(name, use)
                state.unread[name] = use
            return
        if use.repeated:
            # The same key on every step: a reuse by itself, the draw against itself.
            self.reuses.setdefault((id(use.call), "\x00repeated"),
                                   Reuse(use, use, True, None, True))
            return
        name = key_name(use.key, literal=not use.library)
        if name is None:
            return
        base = name.split(".", 1)[0]
        if use.kind == "seed":
            # A key made from a seed parameter: the function draws the same for the same seed.
            if name in self.params and name not in state.rebound:
                self.consumed_params.add(name)
                self.param_uses.setdefault(name, use)
            return
        if use.kind == "fold":
            split = state.consumed.get(name)
            if split is not None and split.kind == "split" and name not in state.maybe:
                self._record(split, use, name, state)
            state.consumed[name + FOLDED] = use
            return
        if name in self.params and name not in state.rebound:
            self.consumed_params.add(name)
            self.param_uses.setdefault(name, use)
        elif (base not in self.params and base not in state.rebound
              and name not in state.rebound and not name.startswith("int:")):
            self.free_uses.setdefault(name, use)
        folded = state.consumed.get(name + FOLDED)
        if use.kind == "split" and folded is not None and name + FOLDED not in state.maybe:
            self._record(folded, use, name, state)
        before = state.consumed.get(name)
        if before is not None and name not in state.maybe:
            self._record(before, use, name, state)
        state.consumed[name] = use
        state.maybe.discard(name)
        if self._statement is not None and self._block is not None:
            state.where[name] = (id(self._block), id(self._statement), self._statement)
        else:
            state.where.pop(name, None)


def _target_name_nodes(target: cst.BaseExpression | cst.CSTNode) -> Iterator[cst.Name]:
    if isinstance(target, cst.Name):
        yield target
    elif isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from _target_name_nodes(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from _target_name_nodes(target.value)


def _constructs(call: cst.Call) -> bool:
    """A class called (by the naming convention): it builds an object holding its arguments."""
    func = call.func
    name = func.value if isinstance(func, cst.Name) else (
        func.attr.value if isinstance(func, cst.Attribute) else "")
    return name[:1].isupper()


def _replaced_from(call: cst.Call) -> tuple[str, set[str]] | None:
    """`state.replace(params=p)` / `state._replace(...)`: the copied name and the fields given."""
    func = call.func
    if (isinstance(func, cst.Attribute) and func.attr.value in REPLACING
            and isinstance(func.value, cst.Name)):
        return func.value.value, {arg.keyword.value for arg in call.args
                                  if arg.keyword is not None}
    return None


def _at_path(target: cst.BaseExpression, path: tuple[int, ...]) -> cst.Name | None:
    """The name an assignment target binds to the item at `path` of the value."""
    for position in path:
        if not isinstance(target, (cst.Tuple, cst.List)) or position >= len(target.elements):
            return None
        element = target.elements[position]
        if isinstance(element, cst.StarredElement):
            return None
        target = element.value
    return target if isinstance(target, cst.Name) else None


def _counting(iterable: cst.BaseExpression, target: cst.BaseExpression) -> bool:
    """Whether a loop counts steps: `range(...)`, `enumerate(range(...))`, or a `_` target."""
    if isinstance(target, cst.Name) and target.value.startswith("_"):
        return True
    while isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name):
        if iterable.func.value == "range":
            return True
        if iterable.func.value not in ("enumerate", "tqdm", "trange") or not iterable.args:
            return iterable.func.value == "trange"
        iterable = iterable.args[0].value
    return False


def _clauses(node: cst.ListComp | cst.SetComp | cst.GeneratorExp | cst.DictComp
             ) -> list[cst.CompFor]:
    found = []
    clause: cst.CompFor | None = node.for_in
    while clause is not None:
        found.append(clause)
        clause = clause.inner_for_in
    return found


def _comprehension_names(node: cst.ListComp | cst.SetComp | cst.GeneratorExp | cst.DictComp
                         ) -> set[str]:
    names: set[str] = set()
    clause: cst.CompFor | None = node.for_in
    while clause is not None:
        names.update(target_names(clause.target))
        clause = clause.inner_for_in
    return names


def key_argument(call: cst.Call, position: int | None, keyword: str) -> cst.BaseExpression | None:
    arg = argument(call, position, keyword)
    return None if arg is None else arg.value


def bound_consumed(function: cst.FunctionDef | cst.Lambda, call: cst.Call, bound: bool,
                   consumed: set[str]) -> list[cst.BaseExpression]:
    """The expressions `call` passes to the parameters of `function` its body consumes."""
    return [expr for param, expr in bind_arguments(function, call, bound)
            if param.name.value in consumed]


SHAPE_ATTRIBUTES = frozenset({"shape", "dtype", "ndim"})


def _plain_target(target: cst.BaseExpression) -> bool:
    if isinstance(target, cst.Name):
        return True
    if isinstance(target, (cst.Tuple, cst.List)):
        return all(_plain_target(element.value) for element in target.elements)
    if isinstance(target, cst.StarredElement):
        return _plain_target(target.value)
    return False


def _inside(node: cst.CSTNode, call: cst.Call) -> bool:
    """`call` is part of `node`, outside any lambda (which runs later)."""
    if node is call:
        return True
    if isinstance(node, cst.Lambda):
        return False
    return any(_inside(child, call) for child in child_nodes(node))


def _is_main(test: cst.BaseExpression) -> bool:
    return (isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name)
            and test.left.value == "__name__")


def _kills(statement: cst.BaseStatement) -> set[str]:
    """The names a simple statement binds anew (or deletes)."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return set()
    killed: set[str] = set()
    for small in statement.body:
        if isinstance(small, cst.Assign):
            for target in small.targets:
                killed.update(target_names(target.target))
        elif isinstance(small, cst.AnnAssign) and small.value is not None or isinstance(small, cst.Del):
            killed.update(target_names(small.target))
    return killed


def _reads_in(node: cst.CSTNode | Sequence[cst.BaseStatement],
              cache: dict[int, frozenset[str]], shapes: bool = False) -> frozenset[str]:
    """The names `node` reads (without `shapes`, a name only read for `.shape`/`.dtype`/
    `.ndim` is not); `cache` is for one `shapes` only."""
    known = cache.get(id(node))
    if known is None:
        found: set[str] = set()
        if isinstance(node, cst.CSTNode):
            _collect_reads(node, found, shapes)
        else:
            for statement in node:
                _collect_reads(statement, found, shapes)
        known = cache[id(node)] = frozenset(found)
    return known


def _target_reads(target: cst.CSTNode, found: set[str], shapes: bool) -> None:
    if isinstance(target, cst.Name):
        return
    if isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            _target_reads(element.value, found, shapes)
    elif isinstance(target, cst.StarredElement):
        _target_reads(target.value, found, shapes)
    else:
        _collect_reads(target, found, shapes)


def _collect_reads(node: cst.CSTNode, found: set[str], shapes: bool = False) -> None:
    if isinstance(node, cst.Name):
        found.add(node.value)
    elif isinstance(node, cst.Attribute):
        if shapes or not (isinstance(node.value, cst.Name)
                          and node.attr.value in SHAPE_ATTRIBUTES):
            _collect_reads(node.value, found, shapes)
    elif isinstance(node, cst.Arg):
        _collect_reads(node.value, found, shapes)
    elif isinstance(node, cst.Assign):
        for target in node.targets:
            _target_reads(target.target, found, shapes)
        _collect_reads(node.value, found, shapes)
    elif isinstance(node, cst.AnnAssign):
        _target_reads(node.target, found, shapes)
        if node.value is not None:
            _collect_reads(node.value, found, shapes)
    elif isinstance(node, (cst.For, cst.CompFor)):
        _target_reads(node.target, found, shapes)
        for child in child_nodes(node):
            if child is not node.target:
                _collect_reads(child, found, shapes)
    elif isinstance(node, cst.NamedExpr):
        _collect_reads(node.value, found, shapes)
    elif isinstance(node, cst.AsName):
        _target_reads(node.name, found, shapes)
    elif isinstance(node, (cst.FunctionDef, cst.Lambda)):
        # A nested function's own locals (`k1` assigned in it) are not the enclosing names.
        inner: set[str] = set()
        for child in child_nodes(node):
            if not isinstance(node, cst.FunctionDef) or child is not node.name:
                _collect_reads(child, inner, shapes)
        found.update(inner - _locals(node))
    elif isinstance(node, cst.ClassDef):
        for child in child_nodes(node):
            if child is not node.name:
                _collect_reads(child, found, shapes)
    elif isinstance(node, cst.Param):
        for part in (node.default, node.annotation):
            if part is not None:
                _collect_reads(part, found, shapes)
    elif isinstance(node, (cst.Import, cst.ImportFrom, cst.Del)):
        return
    elif isinstance(node, (cst.Global, cst.Nonlocal)):
        found.update(item.name.value for item in node.names)
    else:
        for child in child_nodes(node):
            _collect_reads(child, found, shapes)


def _locals(function: cst.FunctionDef | cst.Lambda) -> set[str]:
    """The names a function binds itself: its parameters and what its body assigns (not
    what it declares `global`/`nonlocal`, nor what its nested functions bind)."""
    bound = {param.name.value for param in (
        *function.params.posonly_params, *function.params.params,
        *function.params.kwonly_params)}
    for star in (function.params.star_arg, function.params.star_kwarg):
        if isinstance(star, cst.Param):
            bound.add(star.name.value)
    declared: set[str] = set()

    def visit(node: cst.CSTNode) -> None:
        if isinstance(node, (cst.Assign,)):
            for target in node.targets:
                bound.update(target_names(target.target))
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor,
                               cst.NamedExpr)):
            bound.update(target_names(node.target))
        elif isinstance(node, cst.AsName):
            bound.update(target_names(node.name))
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            bound.add(node.name.value)
            return
        elif isinstance(node, cst.Lambda):
            return
        elif isinstance(node, (cst.Global, cst.Nonlocal)):
            declared.update(item.name.value for item in node.names)
        for child in child_nodes(node):
            visit(child)
    visit(function.body)
    return bound - declared


def _closure_reads(root: Sequence[cst.BaseStatement],
                   cache: dict[int, frozenset[str]]) -> frozenset[str]:
    """The names the functions, lambdas and classes defined anywhere in `root` read (or declare
    global), which they may do after `root` ends."""
    key = -id(root)
    known = cache.get(key)
    if known is None:
        found: set[str] = set()

        def visit(node: cst.CSTNode) -> None:
            if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Global,
                                 cst.Nonlocal)):
                _collect_reads(node, found, shapes=True)
                return
            for child in child_nodes(node):
                visit(child)
        for statement in root:
            visit(statement)
        known = cache[key] = frozenset(found)
    return known
