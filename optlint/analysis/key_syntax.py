"""The syntax the key-flow walk reads: the names an assignment binds, loops that count steps,
copies of an object with fields replaced, comprehensions and `__main__` guards."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

import libcst as cst

from optlint.analysis.index import CallSite, ClassInfo, FileIndex, Scope
from optlint.analysis.key_known_names import KnownNames, known_test
from optlint.analysis.project_kinds import method_kinds
from optlint.analysis.walk import Kinds, child_nodes

# Methods that copy an object with some fields replaced: the other fields keep their keys.
REPLACING = frozenset({"replace", "_replace"})
# Names that read as a key (`rng`, `subkey`, `init_key`): calls given one are resolved.
_KEYISH = re.compile(r"(key|rng|prng)s?(_?\d+)?$|^(key|rng)_", re.IGNORECASE)
# Whether each name met reads as one: files name the same few hundred names again and again.
_KEYISH_NAMES: dict[str, bool] = {}


def reads_as_key(name: str) -> bool:
    """`name` reads as a key (`rng`, `subkey`, `dropout_key`, `key_1`)."""
    known = _KEYISH_NAMES.get(name)
    if known is None:
        if len(_KEYISH_NAMES) > 100_000:  # a bound for a long-lived process
            _KEYISH_NAMES.clear()
        known = _KEYISH_NAMES[name] = bool(_KEYISH.search(name))
    return known


def parameter_names(params: cst.Parameters) -> set[str]:
    """Every name a function's parameters bind, `*args` and `**kwargs` included."""
    found = {param.name.value for param in (*params.posonly_params, *params.params,
                                            *params.kwonly_params)}
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            found.add(star.name.value)
    return found


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
# The expressions the key-flow walk (`KeyFlow._expr`) walks in their own way, comprehensions
# last; it walks any other through its children (a name has none).
EXPRESSION_KINDS = Kinds(("lambda", cst.Lambda), ("special", (
    cst.Call, cst.IfExp, cst.BooleanOperation, cst.NamedExpr, *COMPREHENSIONS)))


def target_name_nodes(target: cst.BaseExpression | cst.CSTNode) -> Iterator[cst.Name]:
    """The name nodes an assignment target binds."""
    if isinstance(target, cst.Name):
        yield target
    elif isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from target_name_nodes(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from target_name_nodes(target.value)


def constructs(call: cst.Call) -> bool:
    """A class called (by the naming convention): it builds an object holding its arguments."""
    func = call.func
    name = func.value if isinstance(func, cst.Name) else (
        func.attr.value if isinstance(func, cst.Attribute) else "")
    return name[:1].isupper()


def replaced_from(call: cst.Call) -> tuple[str, set[str]] | None:
    """`state.replace(params=p)` / `state._replace(...)`: the copied name and the fields given."""
    func = call.func
    if (isinstance(func, cst.Attribute) and func.attr.value in REPLACING
            and isinstance(func.value, cst.Name)):
        return func.value.value, {arg.keyword.value for arg in call.args
                                  if arg.keyword is not None}
    return None


def name_at_path(target: cst.BaseExpression, path: tuple[int, ...]) -> cst.Name | None:
    """The name an assignment target binds to the item at `path` of the value."""
    for position in path:
        if not isinstance(target, (cst.Tuple, cst.List)) or position >= len(target.elements):
            return None
        element = target.elements[position]
        if isinstance(element, cst.StarredElement):
            return None
        target = element.value
    return target if isinstance(target, cst.Name) else None


def counts_steps(iterable: cst.BaseExpression, target: cst.BaseExpression) -> bool:
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


def surely_runs(iterable: cst.BaseExpression, constants: Mapping[str, bool]) -> bool:
    """A `for` over this runs its body at least once: a non-empty list, tuple or set display,
    `range(3)`, a module name bound once to a non-empty display (true in `constants`), or
    `enumerate`/`zip`/`tqdm` of such."""
    while isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name):
        name, args = iterable.func.value, iterable.args
        if name == "range":
            bounds = [arg.value for arg in args]
            if not bounds or len(bounds) > 2 or any(arg.keyword or arg.star for arg in args) \
                    or not all(isinstance(bound, cst.Integer) for bound in bounds):
                return False
            numbers = [int(bound.value, 0) for bound in bounds]  # type: ignore[attr-defined]
            return (numbers[0] > 0) if len(numbers) == 1 else numbers[1] > numbers[0]
        if name not in ("enumerate", "zip", "tqdm") or not args or args[0].star:
            return False
        iterable = args[0].value
    if isinstance(iterable, cst.Name):
        return constants.get(iterable.value) is True
    return isinstance(iterable, (cst.List, cst.Tuple, cst.Set)) and bool(iterable.elements) \
        and not any(isinstance(element, cst.StarredElement) for element in iterable.elements)


def comprehension_clauses(node: cst.ListComp | cst.SetComp | cst.GeneratorExp | cst.DictComp
             ) -> list[cst.CompFor]:
    found = []
    clause: cst.CompFor | None = node.for_in
    while clause is not None:
        found.append(clause)
        clause = clause.inner_for_in
    return found


def comprehension_names(node: cst.ListComp | cst.SetComp | cst.GeneratorExp | cst.DictComp
                         ) -> set[str]:
    names: set[str] = set()
    clause: cst.CompFor | None = node.for_in
    while clause is not None:
        names.update(target_names(clause.target))
        clause = clause.inner_for_in
    return names




def enclosing_comprehension(call: cst.Call, parents: Mapping[int, cst.CSTNode]
                            ) -> tuple[cst.ListComp | cst.SetComp | cst.GeneratorExp
                                       | cst.DictComp, cst.CSTNode] | None:
    """The nearest comprehension `call` is evaluated in (not through a lambda or a statement),
    with the part of it that holds the call."""
    node: cst.CSTNode = call
    while True:
        parent = parents.get(id(node))
        if parent is None or isinstance(parent, (cst.Lambda, cst.BaseStatement,
                                                 cst.BaseSmallStatement)):
            return None
        if isinstance(parent, COMPREHENSIONS):
            return parent, node  # type: ignore[return-value]
        node = parent


def builds_item(call: cst.Call, parents: Mapping[int, cst.CSTNode]) -> bool:
    """`call` is evaluated for each item a comprehension builds (in its element, or a dict
    comprehension's key or value, not in a lambda there): `[draw(key, x) for x in xs]`."""
    found = enclosing_comprehension(call, parents)
    if found is None:
        return False
    comprehension, part = found
    built = ((comprehension.key, comprehension.value) if isinstance(comprehension, cst.DictComp)
             else (comprehension.elt,))
    return any(part is item for item in built)


def plain_target(target: cst.BaseExpression) -> bool:
    """A target of plain names only (`a`, `a, (b, *c)`), no attribute or item."""
    if isinstance(target, cst.Name):
        return True
    if isinstance(target, (cst.Tuple, cst.List)):
        return all(plain_target(element.value) for element in target.elements)
    if isinstance(target, cst.StarredElement):
        return plain_target(target.value)
    return False


def evaluated_within(node: cst.CSTNode, call: cst.CSTNode) -> bool:
    """`call` (or any node) is part of `node`, outside any lambda (which runs later)."""
    if node is call:
        return True
    if isinstance(node, cst.Lambda):
        return False
    return any(evaluated_within(child, call) for child in child_nodes(node))


def tested_none(test: cst.BaseExpression) -> str | None:
    """`x` of the test `x is None` (a parameter's fallback: `if key is None: ...`)."""
    if (isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name)
            and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, cst.Is)
            and isinstance(test.comparisons[0].comparator, cst.Name)
            and test.comparisons[0].comparator.value == "None"):
        return test.left.value
    return None


def is_main_guard(test: cst.BaseExpression) -> bool:
    """`if __name__ == "__main__":`'s test."""
    return (isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name)
            and test.left.value == "__name__")


def names_rebound(statement: cst.BaseStatement,
                  constants: Mapping[str, bool] | None = None) -> set[str]:
    """The names a simple statement binds anew (or deletes); for an `if` whose test is a
    constant of the module (`constants`), those its taken branch's simple statements bind."""
    if isinstance(statement, cst.If) and constants:
        taken = taken_branch(statement, constants)
        if isinstance(taken, cst.IndentedBlock):
            return {name for inner in taken.body for name in names_rebound(inner, constants)}
        return set()
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


def own_method(info: ClassInfo, name: str) -> cst.FunctionDef | None:
    """The undecorated method `name` a class of the file defines itself."""
    for item in info.node.body.body:
        if isinstance(item, cst.FunctionDef) and item.name.value == name and not item.decorators:
            return item
    return None


def classmethod_owner(name: str, scope: Scope | None) -> ClassInfo | None:
    """The class `name` is inside a `@classmethod` that takes it first (`cls`), also from a
    function nested in that method (None: `name` is something else there)."""
    while scope is not None and scope.kind == "function":
        node = scope.node
        if (isinstance(node, cst.FunctionDef) and scope.owner is not None
                and "classmethod" in method_kinds(node)):
            first = node.params.params[0].name.value if node.params.params else None
            return scope.owner if first == name else None
        if name in scope.bindings:
            return None
        scope = scope.parent
    return None


def constant_test(test: cst.BaseExpression, constants: Mapping[str, bool]) -> bool | None:
    """The value of an `if` test made of known names (`DEBUG`, `not USE_DROPOUT`, a parameter
    no call gives `is not None`; `key_known_names.py`), or None when it is not one."""
    return known_test(test, constants)


def taken_branch(node: cst.If, constants: Mapping[str, bool]) -> cst.BaseSuite | cst.If | None:
    """The branch an `if` on a module constant always takes (None: not known, or no `else`)."""
    known = constant_test(node.test, constants)
    if known is None:
        return None
    if known:
        return node.body
    if isinstance(node.orelse, cst.Else):
        return node.orelse.body
    return node.orelse


def chains(statement: cst.BaseStatement, call: cst.Call) -> bool:
    """`statement` is `x = ...call(..., x)...`: the call transforms a value the loop carries
    from one iteration to the next (`x = hk.dropout(key, rate, x)` over layers), so each
    iteration is a step of one computation, not a setting tried on the same draw."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return False
    small = statement.body[0]
    if not isinstance(small, cst.Assign):
        return False
    bound = {name for target in small.targets for name in target_names(target.target)}
    return any(isinstance(node, cst.Name) and node.value in bound
               for arg in call.args for node in _names_in(arg.value))


def _names_in(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    yield node
    for child in child_nodes(node):
        yield from _names_in(child)


def loop_counters(node: cst.For) -> set[str]:
    """The names a loop binds to a counter, which takes each value once: `i` of `for i in
    range(n)` and of `for i, x in enumerate(xs)`."""
    iterable, target = node.iter, node.target
    if not isinstance(iterable, cst.Call) or not isinstance(iterable.func, cst.Name):
        return set()
    if iterable.func.value in ("range", "trange") and isinstance(target, cst.Name):
        return {target.value}
    if (iterable.func.value == "enumerate" and isinstance(target, (cst.Tuple, cst.List))
            and target.elements and isinstance(target.elements[0].value, cst.Name)):
        return {target.elements[0].value.value}
    return set()


def once_branch(test: cst.BaseExpression, counters: set[str]) -> bool | None:
    """For an `if` on a loop counter that holds on one iteration at most (`i == 0`, `not i`):
    True; for one that fails on one iteration at most (`i > 0`, `i != 0`, `i`): False; None
    otherwise. The other branch is the one every other iteration takes."""
    if isinstance(test, cst.Name):
        return False if test.value in counters else None
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = once_branch(test.expression, counters)
        return None if inner is None else not inner
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    left, right = test.left, test.comparisons[0].comparator
    operator = test.comparisons[0].operator
    swapped = isinstance(right, cst.Name) and right.value in counters
    if swapped:
        left, right = right, left
    if not (isinstance(left, cst.Name) and left.value in counters and isinstance(right, cst.Integer)):
        return None
    if isinstance(operator, cst.Equal):
        return True
    if isinstance(operator, cst.NotEqual):
        return False
    if not swapped and ((isinstance(operator, cst.GreaterThan) and right.value == "0") or (
            isinstance(operator, cst.GreaterThanEqual) and right.value == "1")):
        return False  # with the counter on the left (`i > 0`), it fails at `i == 0` only
    return None


def module_constants(index: FileIndex) -> KnownNames:
    """Names the module binds once, to `True` or `False`, and nothing else binds: switches
    (`USE_DROPOUT = False`) whose `if` always takes one branch; and names bound so to a
    non-empty list or tuple display (true: `feature_sets = [a, b]`, a loop over it runs)."""
    found = KnownNames()
    for name, bindings in index.module_scope.bindings.items():
        value = bindings[0].value if len(bindings) == 1 else None
        if bindings[0].kind != "assign" or bindings[0].path:
            continue
        if isinstance(value, cst.Name) and value.value in ("True", "False"):
            found[name] = value.value == "True"
        elif isinstance(value, (cst.List, cst.Tuple)) and surely_runs(value, {}):
            found[name] = True
    for scope in index.every_scope if found else ():
        if scope is not index.module_scope:
            for name in set(found) & set(scope.bindings):
                del found[name]
    return found


def body_of(node: cst.FunctionDef) -> list[cst.BaseStatement]:
    body = node.body
    if isinstance(body, cst.IndentedBlock):
        return list(body.body)
    assert isinstance(body, cst.SimpleStatementSuite)
    return [cst.SimpleStatementLine(body=list(body.body))]


def small_statements(function: cst.FunctionDef) -> Iterator[cst.BaseSmallStatement]:
    """The simple statements of a function's own body (not of blocks or nested functions)."""
    body = function.body
    lines = body.body if isinstance(body, cst.IndentedBlock) else [body]
    for line in lines:
        if isinstance(line, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            yield from line.body


def param_owner(scope: Scope | None, name: cst.Name) -> str | None:
    """The function whose parameter `name` is, seen from `scope` (None: not a parameter)."""
    while scope is not None and name.value not in scope.bindings:
        scope = scope.parent
    if scope is None or not isinstance(scope.node, cst.FunctionDef) or not any(
            binding.kind == "param" for binding in scope.bindings[name.value]):
        return None
    return scope.node.name.value


def enclosing_def(site: CallSite) -> str | None:
    """The name of the function a call is in (None: at module level or in a class body)."""
    scope: Scope | None = site.scope
    while scope is not None and not isinstance(scope.node, cst.FunctionDef):
        scope = scope.parent
    return scope.node.name.value if scope is not None and isinstance(
        scope.node, cst.FunctionDef) else None


def calls_in(node: cst.CSTNode) -> Iterator[cst.Call]:
    """Every call in `node`, itself included."""
    if isinstance(node, cst.Call):
        yield node
    for child in child_nodes(node):
        yield from calls_in(child)


def keyword_dict(call: cst.Call) -> bool:
    """`dict(dropout=key)`: the builtin called with keywords only, a mapping written out."""
    return (isinstance(call.func, cst.Name) and call.func.value == "dict" and bool(call.args)
            and all(arg.keyword is not None and not arg.star for arg in call.args))
