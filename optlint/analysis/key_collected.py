"""Draws a loop keeps together: `for circuit in circuits: pred = predictive(key, x);
preds.append(pred)` draws from one key on every iteration and keeps every iteration's draw in one
collection (or a generator yields each to its caller). A loop over settings (`for beta in
betas`) may mean to draw each setting from one key (to compare them on the same numbers), but
once the draws are gathered into one result, that result holds the same numbers again and
again: a reuse by JAX's rule whatever was meant."""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst

from optlint.analysis.key_syntax import evaluated_within, target_names

# Methods that add their argument to the collection they are called on.
_ADDING = frozenset({"append", "extend", "add", "insert", "appendleft"})


def collected_per_iteration(call: cst.Call, parents: Mapping[int, cst.CSTNode]) -> bool:
    """`call` runs in a `for`/`while` body as `name = call` (or `obj.method(...)` as a
    statement, kept in `obj`), and a later statement of that body adds `name` to a
    collection (`names.append(name)`, `names[i] = name`) it does not bind itself."""
    small, loop = _statement_and_loop(call, parents)
    if small is None or loop is None:
        return False
    if _yielded(small, call):  # `yield call`: every iteration's draw goes to the caller
        return True
    direct = _collected_in_place(small, call)  # `draws[name] = call`, `draws.append(call)`
    if direct is not None:
        return not _binds(loop, {direct})
    kept = _kept_names(small, call)
    if not kept:
        return False
    finder = _Collected(kept)
    loop.body.visit(finder)
    return (finder.found or finder.yielded) and not _binds(loop, finder.collections)


def _statement_and_loop(call: cst.Call, parents: Mapping[int, cst.CSTNode]
                        ) -> tuple[cst.BaseSmallStatement | None, cst.For | cst.While | None]:
    node: cst.CSTNode = call
    small: cst.BaseSmallStatement | None = None
    while True:
        parent = parents.get(id(node))
        if parent is None or isinstance(parent, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return small, None
        if small is None and isinstance(parent, cst.BaseSmallStatement):
            small = parent
        if isinstance(parent, (cst.For, cst.While)) and node is parent.body:
            return small, parent
        node = parent


def _collected_in_place(small: cst.BaseSmallStatement, call: cst.Call) -> str | None:
    """The collection `call`'s draw goes into in its own statement: `draws[i] = <call>`,
    `draws.append(<call>)` (None: none)."""
    if isinstance(small, cst.Assign) and evaluated_within(small.value, call):
        for target in small.targets:
            if isinstance(target.target, cst.Subscript) and isinstance(target.target.value,
                                                                       cst.Name):
                return target.target.value.value
    if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
        func = small.value.func
        if (isinstance(func, cst.Attribute) and func.attr.value in _ADDING
                and isinstance(func.value, cst.Name)
                and any(evaluated_within(arg.value, call) for arg in small.value.args)):
            return func.value.value
    return None


def _yielded(small: cst.BaseSmallStatement, call: cst.Call) -> bool:
    """`yield <expression of call>`: a generator hands the draw of every iteration on, as a
    list gathering them would keep them."""
    value = small.value if isinstance(small, cst.Expr) else None
    return (isinstance(value, cst.Yield) and isinstance(value.value, cst.BaseExpression)
            and evaluated_within(value.value, call))


def _kept_names(small: cst.BaseSmallStatement, call: cst.Call) -> set[str]:
    """The names that hold what `call` drew: `name = <expression of call>`, the names of
    `actions, noise = <call>` (where the draw is among them), or `obj` of `obj.run(key)` made
    as a statement (an object keeping its draws)."""
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        target = small.targets[0].target
        if isinstance(target, cst.Name) and evaluated_within(small.value, call):
            return {target.value}
        if isinstance(target, (cst.Tuple, cst.List)) and small.value is call:
            return set(target_names(target))
    if (isinstance(small, cst.Expr) and small.value is call
            and isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name)):
        return {call.func.value.value}
    return set()


class _Collected(cst.CSTVisitor):
    """Finds `<collection>.append(<name>)` and `<collection>[...] = <name>` (also of a value
    made from it in place: `noises.append(np.asarray(noise))`, `noise.reshape(-1, 8)`,
    `noise * scale`; not `noise.shape`, which is the same for every key)."""

    def __init__(self, names: set[str]) -> None:
        self.names = names
        self.found = False
        self.yielded = False  # `yield name`: handed to the generator's caller
        self.collections: set[str] = set()

    def visit_Yield(self, node: cst.Yield) -> None:
        if isinstance(node.value, cst.BaseExpression) and self._holds(node.value):
            self.yielded = True

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if (isinstance(func, cst.Attribute) and func.attr.value in _ADDING
                and isinstance(func.value, cst.Name)
                and any(self._holds(arg.value) for arg in node.args)):
            self.found = True
            self.collections.add(func.value.value)

    def visit_Assign(self, node: cst.Assign) -> None:
        if not self._holds(node.value):
            return
        for target in node.targets:
            if isinstance(target.target, cst.Subscript) and isinstance(target.target.value,
                                                                       cst.Name):
                self.found = True
                self.collections.add(target.target.value.value)

    def _holds(self, value: cst.BaseExpression) -> bool:
        if isinstance(value, cst.Name):
            return value.value in self.names
        if isinstance(value, (cst.Tuple, cst.List)):
            return any(self._holds(element.value) for element in value.elements)
        if (isinstance(value, cst.Call) and value.args and value.args[0].keyword is None
                and self._holds(value.args[0].value)):
            return True  # `np.asarray(noise)`
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
            return self._holds(value.func.value)  # `noise.reshape(-1, 8)`: its numbers
        if isinstance(value, cst.BinaryOperation):
            return self._holds(value.left) or self._holds(value.right)  # `noise * scale`
        if isinstance(value, cst.UnaryOperation):
            return self._holds(value.expression)
        return False


def _binds(loop: cst.For | cst.While, names: set[str]) -> bool:
    """The loop binds one of `names` itself (a collection made anew on every iteration)."""
    if isinstance(loop, cst.For) and names & set(target_names(loop.target)):
        return True
    binder = _Binds(names)
    loop.body.visit(binder)
    return binder.found


class _Binds(cst.CSTVisitor):
    def __init__(self, names: set[str]) -> None:
        self.names = names
        self.found = False

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        if self.names & set(target_names(node.target)):
            self.found = True
