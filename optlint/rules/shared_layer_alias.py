"""OPT022 shared-layer-alias: one module object stored in two fields of an Equinox model (tied
weights) without `eqx.nn.Shared`.

A pytree has no notion of two nodes being one object: flattening the model gives each field its own
copy of every leaf. Gradients, optimizer state and `eqx.apply_updates` then treat the two copies
separately, so after the first update they differ and the weights are silently untied (measured on
equinox 0.13.8: an `eqx.nn.Linear` stored as `enc` and `dec`, one SGD step of 0.01, the two weight
matrices differ by up to 0.018; Equinox gives no warning). One field used twice keeps one copy;
`eqx.nn.Shared` (equinox >= 0.11.0) ties parts of two layers and puts the shared part back in place
at call time.

The same object is seen through `self.a = layer; self.b = layer`, `self.b = self.a`,
`self.a = self.b = Linear(...)`, and `Model(enc=layer, dec=layer)` for a module without its own
`__init__`. Only layers (modules with `__call__`) are reported: a module of weights without one,
stored twice, is as often a snapshot of its starting value. Arrays stored twice are not reported: they untie the same way, but one array used to
initialise two independent parameters (`zeros = jnp.zeros(n)`) is a common, intended pattern.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import libcst as cst

from optlint.analysis import apis
from optlint.analysis.evaluator import Evaluator
from optlint.analysis.binding import argument
from optlint.analysis.index import Binding, CallSite, ClassInfo, Scope
from optlint.analysis.library_names import (
    EQUINOX_FIELD,
    EQUINOX_MODULE,
    EQUINOX_NN_PREFIX,
    EQUINOX_STATIC_FIELD,
    EQUINOX_TREE_AT,
)
from optlint.analysis.values import ArrayValue, ClassRef, ModuleValue, Value
from optlint.context import RuleContext
from optlint.records import record
from optlint.rules.base import Finding, Rule, RuntimeCheck

# Branches an assignment sits in: (id of the if statement, which branch) from the outside in.
Path = tuple[tuple[int, int], ...]


@record(eq=False)
class _Store:
    field: str
    value: cst.BaseExpression
    order: int
    scope: Scope
    path: Path


class SharedLayerAlias(Rule):
    code = "OPT022"
    runtime_check = RuntimeCheck(builds="instance", probe="model_fields:aliased_fields_untie")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for info in ctx.index.classes.values():
            yield from self._in_init(ctx, info)
        for site in ctx.calls():
            if _repeats_a_name(site.node) or _passes_an_alias(site):
                yield from self._at_construction(ctx, site)
            elif ctx.qualify(site.node.func) == EQUINOX_TREE_AT:
                yield from self._tied_by_tree_at(ctx, site)

    def _tied_by_tree_at(self, ctx: RuleContext, site: CallSite) -> Iterator[Finding]:
        """`eqx.tree_at(lambda m: m.right, model, model.left)`: the layer of one field put in
        another, so the model holds one object twice."""
        where, pytree = argument(site.node, 0, "where"), argument(site.node, 1, "pytree")
        replace = argument(site.node, 2, "replace")
        if where is None or pytree is None or replace is None or not isinstance(
                where.value, cst.Lambda) or len(where.value.params.params) != 1:
            return
        target = _attribute_path(where.value.body, where.value.params.params[0].name.value)
        source = _attribute_path(replace.value, pytree.value)
        if not target or not source or target == source:
            return
        model = ctx.value(pytree.value, site)
        if not (isinstance(model, ModuleValue) and model.derived_by is None):
            return
        value = ctx.value(replace.value, site)
        finding = _finding(ctx, site.node, model.class_name, ".".join(source), ".".join(target),
                           value)
        if finding is not None:
            yield finding

    def _in_init(self, ctx: RuleContext, info: ClassInfo) -> Iterator[Finding]:
        init = next((item for item in info.node.body.body if isinstance(item, cst.FunctionDef)
                     and item.name.value == "__init__"), None)
        if init is None:
            return
        paths = _branch_paths(init)
        stores = sorted((_Store(name, binding.value, binding.order, binding.scope,
                                paths.get(id(binding.value), ()))
                         for name, bindings in info.attributes.items() for binding in bindings
                         if binding.value is not None and binding.scope is not None
                         and binding.scope.node is init and not binding.path
                         and not _is_static(ctx, info, name)),
                        key=lambda store: store.order)
        identities = {store: _identity(store, stores) for store in stores}
        # Whether the class is a module is asked only when two fields may share an object: its
        # bases may be in other files.
        if (len(set(identities.values())) == len(stores)
                and not any(_repeated_element(store.value) is not None for store in stores)
                or not ctx.inference.is_equinox_module(info)):
            return
        for store in stores:
            repeated = _repeated_element(store.value)
            if repeated is not None and not _overwritten(store, stores):
                value = ctx.inference.value_of(repeated, store.scope, store.order)
                finding = _finding(ctx, store.value, info.name, f"{store.field}[0]",
                                   f"{store.field}[1]", value)
                if finding is not None:
                    yield finding
        for position, later in enumerate(stores):
            if _overwritten(later, stores):
                continue
            for earlier in stores[:position]:
                if (earlier.field == later.field
                        or _exclusive(earlier.path, later.path) or _overwritten(earlier, stores)
                        or identities[earlier] != identities[later]):
                    continue
                value = ctx.inference.value_of(earlier.value, earlier.scope, earlier.order)
                finding = _finding(ctx, later.value, info.name, earlier.field, later.field, value)
                if finding is not None:
                    yield finding
                break

    def _at_construction(self, ctx: RuleContext, site: CallSite) -> Iterator[Finding]:
        """`Model(enc=layer, dec=layer)` for a module whose `__init__` is Equinox's own."""
        callee = ctx.value(site.node.func, site)
        if not (isinstance(callee, ClassRef) and ctx.inference.is_module(callee)
                and _dataclass_init(ctx, callee)):
            return
        fields = list(callee.info.fields)
        seen: dict[object, str] = {}
        for position, arg in enumerate(site.node.args):
            if arg.star:
                return
            field = arg.keyword.value if arg.keyword is not None else (
                fields[position] if position < len(fields) else None)
            if field is None or not isinstance(arg.value, cst.Name):
                continue
            identity = _name_identity(arg.value.value, site.scope, site.order)
            if identity is None:
                continue
            if identity in seen:
                value = ctx.value(arg.value, site)
                finding = _finding(ctx, arg.value, callee.info.name, seen[identity], field, value)
                if finding is not None:
                    yield finding
                continue
            seen[identity] = field


def _attribute_path(expr: cst.BaseExpression, root: str | cst.BaseExpression) -> list[str]:
    """The attribute names from `root` to `expr` (`m.enc.lin` from `m`: enc, lin); empty when
    `expr` is not such a chain. `root` is a name, or an expression compared by its code."""
    path: list[str] = []
    while isinstance(expr, cst.Attribute):
        path.insert(0, expr.attr.value)
        expr = expr.value
        if not isinstance(root, str) and expr.deep_equals(root):
            return path
    return path if isinstance(root, str) and isinstance(expr, cst.Name) and (
        expr.value == root) else []


def _repeated_element(value: cst.BaseExpression) -> cst.Name | None:
    """The name a list repeats: `[block] * depth`, `[block for _ in range(depth)]`,
    `[block, block]`: one object in several places of the model."""
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply):
        for side in (value.left, value.right):
            if (isinstance(side, cst.List) and len(side.elements) == 1
                    and isinstance(side.elements[0], cst.Element)
                    and isinstance(side.elements[0].value, cst.Name)):
                return side.elements[0].value
    if isinstance(value, cst.ListComp) and isinstance(value.elt, cst.Name):
        bound: set[str] = set()
        comp: cst.CompFor | None = value.for_in
        while comp is not None:
            bound.update(node.value for node in _names_in(comp.target))
            comp = comp.inner_for_in
        return value.elt if value.elt.value not in bound else None
    if isinstance(value, (cst.List, cst.Tuple)):
        names = [element.value.value for element in value.elements
                 if isinstance(element, cst.Element) and isinstance(element.value, cst.Name)]
        for element in value.elements:
            if (isinstance(element, cst.Element) and isinstance(element.value, cst.Name)
                    and names.count(element.value.value) > 1):
                return element.value
    return None


def _names_in(target: cst.BaseExpression) -> list[cst.Name]:
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [name for element in target.elements for name in _names_in(element.value)]
    return []


def _passes_an_alias(site: CallSite) -> bool:
    """Two name arguments, one of them bound to another name (`other = proj if tie else
    Linear(...)`): they may be one object (before any inference)."""
    names = [arg.value.value for arg in site.node.args if isinstance(arg.value, cst.Name)]
    if len(names) < 2:
        return False
    for name in names:
        earlier = [b for b in site.scope.bindings.get(name, []) if b.order < site.order]
        if earlier and _aliased_name(earlier[-1]) is not None:
            return True
    return False


def _aliased_name(binding: Binding) -> str | None:
    """The name a binding copies: `a = b`, or `a = b if flag else Linear(...)` (an alias in one
    branch: that configuration unties, as an alias under an `if` does)."""
    if binding.kind != "assign" or binding.path:
        return None
    value = binding.value
    if isinstance(value, cst.IfExp):
        value = next((side for side in (value.body, value.orelse) if isinstance(side, cst.Name)
                      and side.value not in ("None", "True", "False")), None)
    return value.value if isinstance(value, cst.Name) else None


def _repeats_a_name(call: cst.Call) -> bool:
    """Two arguments that are the same name: `Pair(layer, layer)` (before any inference)."""
    names = [arg.value.value for arg in call.args if isinstance(arg.value, cst.Name)]
    return len(names) != len(set(names))


def _finding(ctx: RuleContext, node: cst.CSTNode, model: str, first: str, second: str,
             value: Value) -> Finding | None:
    if not isinstance(value, ModuleValue) or value.derived_by is not None:
        return None
    holds = _holds_arrays(ctx.inference, value)
    if holds is False or value.is_callable is False:
        # Not a layer: a module of weights without `__call__` stored twice is a snapshot of its
        # starting value as often as a tie (jinns keeps `loss_weight_scales = loss_weights`).
        return None
    message = (f"`{model}.{second}` and `{model}.{first}` are the same {value.class_name} object "
               "(tied weights), but the model's pytree holds two copies of its arrays: each gets "
               "its own gradient and update, so they silently untie after the first step")
    unproven = None if holds and value.is_callable else (
        f"whether {value.class_name} is a layer holding arrays could not be seen")
    return Finding(node, message, unproven=unproven, fix_title=(
        "Store it once and use it in both places, or tie it with "
        f"`{ctx.import_alias('equinox', 'eqx')}.nn.Shared`"),
        # The runtime probe reads the two fields by name: only plain field names.
        values={"field": second, "other_field": first} if (first + second).isidentifier()
        else {})


def _holds_arrays(evaluator: Evaluator, module: ModuleValue, depth: int = 0) -> bool | None:
    """Whether the module has array leaves (what training updates); None when unknown."""
    if module.cls is None:
        if module.class_name in apis.EQUINOX_NN_WITHOUT_ARRAYS:
            return False
        return True if module.class_name in apis.EQUINOX_NN_LEAVES else None
    return _class_holds_arrays(evaluator.evaluator_for(module.cls.path), module.cls, depth)


def _class_holds_arrays(owner: Evaluator, cls: ClassRef, depth: int) -> bool | None:
    """`owner`: the evaluator of the class's file."""
    if depth > 4:
        return None
    info = cls.info
    for field in info.fields.values():
        if field.default is not None and _static_call(owner.qualify, field.default):
            continue
        for binding in info.attributes.get(field.name, []):
            if binding.value is None or binding.scope is None or binding.path:
                continue
            value = owner.value_of(binding.value, binding.scope, binding.order)
            if isinstance(value, ArrayValue):
                return True
            if isinstance(value, ModuleValue) and _holds_arrays(owner, value, depth + 1):
                return True
        if field.annotation is not None and _array_annotation(owner.qualify, field.annotation):
            return True
    return None


def _array_annotation(qualify: Callable[[cst.BaseExpression], str | None],
                      annotation: cst.BaseExpression) -> bool:
    """`jax.Array`, `Float[Array, "n"]`, or an `eqx.nn` layer that holds arrays."""
    head = annotation.value if isinstance(annotation, cst.Subscript) else annotation
    name = qualify(head) or ""
    layer = name.removeprefix(EQUINOX_NN_PREFIX)
    return name in apis.ARRAY_ANNOTATIONS or (
        name.startswith(EQUINOX_NN_PREFIX) and layer in apis.EQUINOX_NN_LEAVES
        and layer not in apis.EQUINOX_NN_WITHOUT_ARRAYS)


def _static_call(qualify: Callable[[cst.BaseExpression], str | None],
                 default: cst.BaseExpression) -> bool:
    if not isinstance(default, cst.Call):
        return False
    name = qualify(default.func)
    static = argument(default, None, "static")
    return name == EQUINOX_STATIC_FIELD or (
        name == EQUINOX_FIELD and static is not None and isinstance(static.value, cst.Name)
        and static.value.value == "True")


def _is_static(ctx: RuleContext, info: ClassInfo, name: str) -> bool:
    field = info.fields.get(name)
    return field is not None and field.default is not None and _static_call(ctx.qualify,
                                                                            field.default)


def _identity(store: _Store, stores: list[_Store], depth: int = 0) -> object:
    """What object a store puts in its field, as far as can be told: a local name's binding,
    another field's store (`self.b = self.a`), else the value expression itself (a call builds a
    new object; `self.a = self.b = Linear(...)` shares one expression)."""
    value = store.value
    if isinstance(value, cst.Name):
        identity = _name_identity(value.value, store.scope, store.order)
        if identity is not None:
            return identity
    if (isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name)
            and value.value.value == store.scope.self_name and depth < 8):
        source = [other for other in stores if other.field == value.attr.value
                  and other.order < store.order and not _exclusive(other.path, store.path)]
        if source:
            return _identity(source[-1], stores, depth + 1)
    return id(value)


def _name_identity(name: str, scope: Scope, order: int, depth: int = 0) -> object | None:
    """The binding a local name refers to at `order`, following `a = b` between names; None when
    the name is not bound in this scope."""
    earlier = [binding for binding in scope.bindings.get(name, []) if binding.order < order]
    if not earlier:
        return None
    binding: Binding = earlier[-1]
    aliased = _aliased_name(binding)
    if aliased is not None and depth < 8:
        inner = _name_identity(aliased, scope, binding.order, depth + 1)
        if inner is not None:
            return inner
    return id(binding)


def _overwritten(store: _Store, stores: list[_Store]) -> bool:
    """Another store to the same field after it, on a path that can follow it."""
    return any(other.field == store.field and other.order > store.order
               and not _exclusive(other.path, store.path) for other in stores)


def _exclusive(first: Path, second: Path) -> bool:
    """Two assignments in different branches of one `if`: never both run."""
    for (node_a, branch_a), (node_b, branch_b) in zip(first, second, strict=False):  # paths of any lengths: their common prefix
        if node_a != node_b:
            return False
        if branch_a != branch_b:
            return True
    return False


def _branch_paths(init: cst.FunctionDef) -> dict[int, Path]:
    """For each assigned value expression in `__init__`, the `if` branches it sits in."""
    found: dict[int, Path] = {}

    def visit_small(statements: Sequence[cst.BaseSmallStatement], path: Path) -> None:
        for small in statements:
            if isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is not None:
                found[id(small.value)] = path

    def visit(suite: cst.BaseSuite, path: Path) -> None:
        if isinstance(suite, cst.SimpleStatementSuite):  # `if tie: self.head = self.embed`
            visit_small(suite.body, path)
            return
        assert isinstance(suite, cst.IndentedBlock)
        for statement in suite.body:
            if isinstance(statement, cst.SimpleStatementLine):
                visit_small(statement.body, path)
            elif isinstance(statement, cst.If):
                visit_if(statement, path)
            elif isinstance(statement, (cst.For, cst.While, cst.With, cst.Try)):
                for block in _blocks(statement):
                    visit(block, path)

    def visit_if(statement: cst.If, path: Path) -> None:
        visit(statement.body, (*path, (id(statement), 0)))
        orelse = statement.orelse
        if isinstance(orelse, cst.If):
            visit_if(orelse, (*path, (id(statement), 1)))
        elif isinstance(orelse, cst.Else):
            visit(orelse.body, (*path, (id(statement), 1)))

    visit(init.body, ())
    return found


def _blocks(statement: cst.For | cst.While | cst.With | cst.Try) -> list[cst.BaseSuite]:
    """The bodies of a loop, `with` or `try`; they run or not as a whole (no `if` between them
    and the code around them)."""
    blocks: list[cst.BaseSuite] = [statement.body]
    orelse = getattr(statement, "orelse", None)
    if isinstance(orelse, cst.Else):
        blocks.append(orelse.body)
    if isinstance(statement, cst.Try):
        blocks.extend(handler.body for handler in statement.handlers)
        if statement.finalbody is not None:
            blocks.append(statement.finalbody.body)
    return blocks


def _dataclass_init(ctx: RuleContext, cls: ClassRef) -> bool:
    """The class takes its fields as arguments: no `__init__` of its own, only `eqx.Module` as
    base, no field left out of the generated `__init__`."""
    info = cls.info
    if any(isinstance(item, cst.FunctionDef) and item.name.value in ("__init__", "__post_init__")
           for item in info.node.body.body):
        return False
    owner = ctx.inference.evaluator_for(cls.path)
    if [owner.qualify(base) for base in info.bases] != [EQUINOX_MODULE]:
        return False
    return all(field.default is None or not isinstance(field.default, cst.Call)
               or argument(field.default, None, "init") is None for field in info.fields.values())
