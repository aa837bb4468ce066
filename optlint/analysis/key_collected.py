"""Draws a loop keeps together: `for circuit in circuits: pred = predictive(key, x);
preds.append(pred)` draws from one key on every iteration and keeps every iteration's draw in one
collection (or a generator yields each to its caller). A loop over settings (`for beta in
betas`) may mean to draw each setting from one key (to compare them on the same numbers), but
once the draws are gathered into one result, that result holds the same numbers again and
again: a reuse by JAX's rule whatever was meant."""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst

from optlint.analysis.imports import dotted_name
from optlint.analysis.key_syntax import evaluated_within, target_names
from optlint.analysis.walk import child_nodes

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
    # `draws[name] = call`, `draws.append(call)`, `agents[i].pos = call`, `agent.pos = call`
    direct = _collected_in_place(small, call, loop)
    if direct is not None:
        return not _binds(loop, {direct})
    kept = _kept_names(small, call)
    if not kept:
        return False
    found, collections = _gathered(loop.body, kept)
    return found and not _binds(loop, collections)


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


def _collected_in_place(small: cst.BaseSmallStatement, call: cst.Call,
                        loop: cst.For | cst.While) -> str | None:
    """The collection `call`'s draw goes into in its own statement: `draws[i] = <call>`,
    `draws.append(<call>)`, a field of an item (`agents[i].state.pos = <call>`, or `agent.pos =
    <call>` for the items a `for` loop runs over: Mava d7f9f4f put every agent at one place)
    (None: none)."""
    if isinstance(small, cst.Assign) and evaluated_within(small.value, call):
        for target in small.targets:
            if isinstance(target.target, cst.Subscript) and isinstance(target.target.value,
                                                                       cst.Name):
                return target.target.value.value
            item = _item_field(target.target, loop)
            if item is not None:
                return item
    if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
        func = small.value.func
        if (isinstance(func, cst.Attribute) and func.attr.value in _ADDING
                and isinstance(func.value, cst.Name)
                and any(evaluated_within(arg.value, call) for arg in small.value.args)):
            return func.value.value
    return None


def _item_field(target: cst.BaseExpression, loop: cst.For | cst.While) -> str | None:
    """`agents[i].state.pos`: the collection (`agents`) whose item gets the field; `agent.pos`
    where the `for` loop binds `agent`: the iterable (its dotted name, or `<items>`)."""
    if not isinstance(target, cst.Attribute):
        return None
    while isinstance(target, cst.Attribute):
        target = target.value
    if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
        return target.value.value
    if (isinstance(target, cst.Name) and isinstance(loop, cst.For)
            and target.value in target_names(loop.target)):
        return dotted_name(loop.iter) or "<items>"
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


def _gathered(body: cst.CSTNode, kept: set[str]) -> tuple[bool, set[str]]:
    """(whether the loop body adds a value of `kept` to a collection or yields one, those
    collections). What holds a draw spreads through the body's assignments first: the
    names bound to a value made from one (`flat = np.asarray(process(actions)).flatten()`)
    hold it too (MultiNet e170d5c keeps `flat_predictions.tolist()` of every batch's actions
    in `results.all_preds`)."""
    statements = [node for node in _nodes(body) if type(node) is cst.Assign]
    names = set(kept)
    for _ in range(3):  # a few links of a chain of names; each pass in source order
        grown = False
        for small in statements:
            # Through conversions and calls given the draw, not through arithmetic mixing it
            # with other values: a loss on fixed noise is how code compares settings on purpose.
            if _holds(small.value, names, mixing=False):  # type: ignore[attr-defined]
                for target in small.targets:  # type: ignore[attr-defined]
                    new = set(target_names(target.target)) - names
                    names |= new
                    grown = grown or bool(new)
        if not grown:
            break
    found = False
    collections: set[str] = set()
    for node in _nodes(body):
        if type(node) is cst.Yield and isinstance(node.value, cst.BaseExpression) \
                and _holds(node.value, names):  # type: ignore[attr-defined]
            found = True
        elif type(node) is cst.Call:
            func = node.func  # type: ignore[attr-defined]
            holder = dotted_name(func.value) if type(func) is cst.Attribute else None
            if (holder is not None and func.attr.value in _ADDING  # type: ignore[attr-defined]
                    and any(_holds(arg.value, names) for arg in node.args)):  # type: ignore[attr-defined]
                found = True
                collections.add(holder)
        elif type(node) is cst.Assign and _holds(node.value, names):  # type: ignore[attr-defined]
            for target in node.targets:  # type: ignore[attr-defined]
                if type(target.target) is cst.Subscript:
                    holder = dotted_name(target.target.value)
                    if holder is not None:
                        found = True
                        collections.add(holder)
    return found, collections


def _holds(value: cst.BaseExpression, names: set[str], mixing: bool = True) -> bool:
    """`value` is made from what one of `names` holds: the name, `np.asarray(noise)`,
    `noise.reshape(-1, 8)`, `noise * scale`, `noise[0]`, `a if c else noise`,
    `[int(x) for x in noise.tolist()]`; not `noise.shape`, which is the same for every key.
    Without `mixing`, not `noise * scale` either (arithmetic with other values)."""
    if isinstance(value, cst.Name):
        return value.value in names
    if isinstance(value, (cst.Tuple, cst.List)):
        return any(_holds(element.value, names, mixing) for element in value.elements)
    if (isinstance(value, cst.Call) and value.args and value.args[0].keyword is None
            and _holds(value.args[0].value, names, mixing)):
        return True  # `np.asarray(noise)`
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
        return _holds(value.func.value, names, mixing)  # `noise.reshape(-1, 8)`: its numbers
    if isinstance(value, cst.BinaryOperation):  # `noise * scale`
        return mixing and (_holds(value.left, names) or _holds(value.right, names))
    if isinstance(value, cst.UnaryOperation):
        return _holds(value.expression, names, mixing)
    if isinstance(value, cst.Subscript):
        return _holds(value.value, names, mixing)
    if isinstance(value, cst.IfExp):
        return _holds(value.body, names, mixing) or _holds(value.orelse, names, mixing)
    if isinstance(value, (cst.ListComp, cst.GeneratorExp, cst.SetComp)):
        return _holds(value.for_in.iter, names, mixing)
    return False


def _nodes(root: cst.CSTNode) -> list[cst.CSTNode]:
    """`root` and every node under it in source order, functions and lambdas left out (they
    run later, if at all)."""
    found: list[cst.CSTNode] = []
    pending: list[cst.CSTNode] = [root]
    while pending:
        node = pending.pop()
        found.append(node)
        if node is not root and isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            continue
        pending.extend(reversed(child_nodes(node)))
    return found


def _binds(loop: cst.For | cst.While, names: set[str]) -> bool:
    """The loop binds one of `names` itself (a collection made anew on every iteration)."""
    if isinstance(loop, cst.For) and names & set(target_names(loop.target)):
        return True
    for node in _nodes(loop.body):
        if type(node) is cst.AssignTarget:
            target = node.target  # type: ignore[attr-defined]
            if names & set(target_names(target)) or dotted_name(target) in names:
                return True
    return False
