"""A function that splits its key only to hand the pieces to methods of the items of a collection
(`keys = split(key, n); for layer, k in zip(self.layers, keys): layer.init(x, key=k)`): the
items' classes are not known, so whether the pieces reach any draw is not either. Its caller's
key is then consumed by what the analysis cannot see, a `--preview` consumption, as a key given
to a method of an object held in an attribute is (`key_given.py`).

generax 0.1.2 (`flows/base.py` 921-922, FP by run): `Sequential.data_dependent_init` splits the
key for its layers' `data_dependent_init`, which the demo's layers (`ShiftScale`) do not read:
two such calls with one key, or after `normal(key, ...)`, repeat no random number.

Proven still: a function with any draw the analysis sees besides the split, a split whose keys
are read in any other way (returned, stored, given to a function or a library), or not bound to
names first.
"""

from __future__ import annotations

import libcst as cst

from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.key_syntax import body_of, target_names
from optlint.analysis.prng_keys import Consumption
from optlint.analysis.walk import nodes_below

UNSEEN = ("`{function}` splits the key only for methods of the items it loops over, whose "
          "classes the analysis cannot see draw from the keys")
# A function that splits its key only to hand the pieces to a function its caller gives (a
# parameter), as a key handed whole to one is unseen (`Consumption.unseen`). representax 0.0.2
# (`tests/models/jina_v5/test_grad_cache.py:137`, FP by run): `MNRTask.representations` splits
# the key for `encode_fn(model, ..., key=k)`, and the model the test encodes with deletes it.
UNSEEN_GIVEN = ("`{function}` splits the key only for {given}, given by its caller, which the "
                "analysis cannot see draw from the keys")


def split_for_unseen_items(function: cst.FunctionDef, flow: KeyFlow, inner: Consumption) -> str:
    """Why `inner`, `function`'s consumption of a parameter, is unseen ("" when it is not)."""
    if not inner.library or inner.kind != "split" or inner.unseen or any(
            use.call is not inner.call and not use.unseen for use in flow.every):
        return ""
    nodes = [node for statement in body_of(function) for node in nodes_below(statement)]
    split_keys = _bound_from(nodes, inner.call)
    if split_keys is None:
        return ""
    items, tainted = _loop_bindings(nodes, split_keys)
    if _reads_allowed(nodes, tainted, items, inner.call):
        return UNSEEN.format(function=function.name.value)
    given = _given_callables(function, inner.call)
    if not _reads_allowed(nodes, split_keys, set(), inner.call, given):
        return ""
    called = sorted({node.func.value for node in nodes if isinstance(node, cst.Call)
                     and isinstance(node.func, cst.Name) and node.func.value in given
                     and any(_mentions(arg.value, split_keys) for arg in node.args)})
    return UNSEEN_GIVEN.format(function=function.name.value,
                               given=", ".join(f"`{name}`" for name in called))


def _given_callables(function: cst.FunctionDef, split: cst.Call) -> set[str]:
    """The parameters `function` calls (`encode_fn(model, x, key=k)`): functions its callers
    give, other than the key the split reads."""
    params = function.params
    names = {param.name.value for param in (*params.posonly_params, *params.params,
                                            *params.kwonly_params)}
    return names - {node.value for node in nodes_below(split) if isinstance(node, cst.Name)}


def _bound_from(nodes: list[cst.CSTNode], call: cst.Call) -> set[str] | None:
    """The plain names `names = call` binds (None: the call is no such value)."""
    for node in nodes:
        if isinstance(node, cst.Assign) and node.value is call:
            names: set[str] = set()
            for target in node.targets:
                bound = target_names(target.target)
                if not bound or not _plain(target.target):
                    return None
                names |= set(bound)
            return names
    return None


def _loop_bindings(nodes: list[cst.CSTNode], split_keys: set[str]) -> tuple[set[str], set[str]]:
    """The names bound to the loop items beside the keys (`layer` of `for layer, k in
    zip(self.layers, keys)`, under `enumerate` too), and the key names (the split's and the
    loop's `k`)."""
    items: set[str] = set()
    tainted = set(split_keys)
    for node in nodes:
        if isinstance(node, cst.For) and _mentions(node.iter, split_keys):
            zipped = _zipped(node.iter, node.target)
            for element, arg in zipped:
                if isinstance(element, cst.Name):
                    (tainted if _mentions(arg, split_keys) else items).add(element.value)
    return items, tainted


def _zipped(iterated: cst.BaseExpression, target: cst.BaseExpression
            ) -> list[tuple[cst.BaseExpression, cst.BaseExpression]]:
    """(target, what it iterates) of a loop over `zip(a, b)`, `enumerate(zip(a, b))`."""
    if not isinstance(iterated, cst.Call) or not isinstance(iterated.func, cst.Name) or not (
            isinstance(target, cst.Tuple)):
        return []
    elements = [element.value for element in target.elements]
    # Not `python_calls.paired_iterables`: with `zip(..., strict=True)` read as `zip(...)`, the
    # recall case pc_scan_combinator (two files defining `Serial`, strict zips) turns preview,
    # as its positional form already is in a project (strict29's report).
    if (iterated.func.value == "enumerate" and len(iterated.args) == 1
            and len(elements) == 2):
        return _zipped(iterated.args[0].value, elements[1])
    if iterated.func.value == "zip" and len(elements) == len(iterated.args):
        return list(zip(elements, [arg.value for arg in iterated.args], strict=True))
    return []


def _reads_allowed(nodes: list[cst.CSTNode], tainted: set[str], items: set[str],
                   split: cst.Call, given: frozenset[str] | set[str] = frozenset()) -> bool:
    """Every read of a key name is the split's own argument, the loop's `zip`, or an argument
    of a method of an item (`layer.init(x, key=k)`) or of a function the caller gives (`given`,
    called by name); at least one such call."""
    allowed = {id(node) for node in nodes_below(split)}
    calls = 0
    for node in nodes:
        if isinstance(node, cst.Arg) and node.keyword is not None:
            allowed.add(id(node.keyword))  # `key=` names no variable
        elif isinstance(node, cst.Attribute):
            allowed.add(id(node.attr))
        if isinstance(node, cst.Assign):
            allowed.update(id(inner) for target in node.targets for inner in nodes_below(target))
        elif isinstance(node, cst.For):
            allowed.update(id(inner) for inner in nodes_below(node.target))
            if items and _mentions(node.iter, tainted):
                allowed.update(id(inner) for inner in nodes_below(node.iter))
        elif isinstance(node, cst.Call) and (_item_method(node.func, items) or isinstance(
                node.func, cst.Name) and node.func.value in given):
            for arg in node.args:
                if isinstance(arg.value, cst.Name) and arg.value.value in tainted:
                    allowed.add(id(arg.value))
                    calls += 1
    return calls > 0 and not any(isinstance(node, cst.Name) and node.value in tainted
                                 and id(node) not in allowed for node in nodes)


def _item_method(func: cst.BaseExpression, items: set[str]) -> bool:
    return isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and (
        func.value.value in items)


def _plain(target: cst.BaseExpression) -> bool:
    if isinstance(target, cst.Name):
        return True
    return isinstance(target, (cst.Tuple, cst.List)) and all(
        _plain(element.value) for element in target.elements)


def _mentions(expr: cst.CSTNode, names: set[str]) -> bool:
    return any(isinstance(node, cst.Name) and node.value in names for node in nodes_below(expr))


