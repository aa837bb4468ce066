"""One walk over a parsed file that records what the rules and the inference need.

The walk records scopes and their bindings (in source order), classes with their fields and
`self.x = ...` attributes, the return expressions of functions, and every call. Rules then look at
the recorded calls; nothing walks the tree a second time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from typing import Literal

import libcst as cst

from optlint.analysis.imports import ImportTable
from optlint.analysis.walk import parent_map, walk
from optlint.records import record

BindingKind = Literal["assign", "def", "class", "param", "opaque"]


# "After everything": the order at which a function body's returns are read.
LATER = 10**9
# pytest's context managers that expect the code inside to raise or warn (`pytest.raises`).
EXPECTATION_MANAGERS = frozenset({"raises", "warns", "deprecated_call"})


@record(frozen=False)
class Binding:
    kind: BindingKind
    order: int
    value: cst.BaseExpression | None = None
    # Index path into `value` for tuple unpacking: `a, (b, c) = v` gives c the path (1, 1).
    path: tuple[int, ...] = ()
    node: cst.CSTNode | None = None  # the FunctionDef / ClassDef / Param / loop / CompFor
    scope: Scope | None = None  # the scope `value` is evaluated in
    # A comprehension's target is seen only inside it: up to this order (its last).
    until: int | None = None


@record(frozen=False)
class Scope:
    kind: Literal["module", "class", "function"]
    node: cst.CSTNode
    parent: Scope | None
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    # For methods: the class they belong to and the name of their first parameter.
    owner: ClassInfo | None = None
    self_name: str | None = None

    # The targets of comprehensions written in this scope, apart from `bindings` (Python gives a
    # comprehension a scope of its own): `[f(m) for m in models]` binds `m` for `f(m)` only.
    comprehension_targets: dict[str, list[Binding]] = field(default_factory=dict)

    def bind(self, name: str, binding: Binding) -> None:
        binding.scope = binding.scope or self
        self.bindings.setdefault(name, []).append(binding)

    def comprehension_target(self, name: str, order: int) -> Binding | None:
        """The innermost comprehension target `name` that is seen at `order`."""
        targets = self.comprehension_targets.get(name)
        if not targets:  # most names of most scopes: asked at every step of every lookup
            return None
        seen = [binding for binding in targets
                if binding.until is not None and binding.order < order <= binding.until]
        return seen[-1] if seen else None


@record(frozen=False)
class FieldInfo:
    name: str
    annotation: cst.BaseExpression | None
    default: cst.BaseExpression | None


@record(frozen=False)
class ClassInfo:
    name: str
    node: cst.ClassDef
    scope: Scope  # the scope the class statement is in
    bases: list[cst.BaseExpression]
    fields: dict[str, FieldInfo] = field(default_factory=dict)
    # `self.x = value` in any method, with the method's scope.
    attributes: dict[str, list[Binding]] = field(default_factory=dict)


@record
class CallSite:
    node: cst.Call
    scope: Scope
    order: int


@record
class AttributeSite:
    """An attribute read or written (`state.hyperparams`), where a rule may ask what it holds."""

    node: cst.Attribute
    scope: Scope
    order: int


@record(frozen=False)
class FunctionInfo:
    node: cst.FunctionDef | cst.Lambda
    scope: Scope  # the function's own scope
    returns: list[cst.BaseExpression] = field(default_factory=list)


@record(frozen=False)
class FileIndex:
    imports: ImportTable
    module_scope: Scope
    classes: dict[str, ClassInfo]
    functions: dict[cst.CSTNode, FunctionInfo]
    calls: list[CallSite]
    every_scope: list[Scope] = field(default_factory=list)
    # Attribute nodes by attribute name (`x.hyperparams` under "hyperparams").
    attributes: dict[str, list[AttributeSite]] = field(default_factory=dict)
    # `with` statements whose context manager is a call named like pytest's expectation
    # managers (`pytest.raises(...)`, `pytest.warns(...)`): code there fails on purpose.
    expecting: list[cst.With] = field(default_factory=list)
    # Each comprehension's last order: where its element is read, its targets bound.
    comprehension_ends: dict[cst.CSTNode, int] = field(default_factory=dict)
    _calls_on: dict[str, list[CallSite]] | None = field(default=None, repr=False)
    _parents: dict[int, cst.CSTNode] | None = field(default=None, repr=False)
    _assignments: dict[str, int] | None = field(default=None, repr=False)
    _anywhere: dict[str, list[Binding]] | None = field(default=None, repr=False)

    def parents(self) -> dict[int, cst.CSTNode]:
        """id of each node of the file -> its parent (`walk.parent_map`): built when first
        asked (only files whose lists gain parts under an `if` ask), then shared by every
        question about an ancestor."""
        if self._parents is None:
            self._parents = parent_map(self.module_scope.node)
        return self._parents

    def calls_on(self, name: str) -> list[CallSite]:
        """The calls of a method of the plain name `name` (`name.append(x)`), in source order:
        grouped once, so that asking for each of a file's lists costs no pass over every call."""
        if self._calls_on is None:
            self._calls_on = {}
            for site in self.calls:
                func = site.node.func
                if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
                    self._calls_on.setdefault(func.value.value, []).append(site)
        return self._calls_on.get(name, [])

    def assignments(self, name: str, outside: Scope | None = None) -> int:
        """How many assignments to `name` the file's scopes hold (those of scope `outside` left
        out): counted once for every name, since a file asks about each of its functions (a
        pass over every scope per function was quadratic: 6 s of a 30k-line file)."""
        if self._assignments is None:
            self._assignments = {}
            for scope in self.every_scope:
                for named, bindings in scope.bindings.items():
                    count = sum(1 for binding in bindings if binding.kind == "assign")
                    if count:
                        self._assignments[named] = self._assignments.get(named, 0) + count
        total = self._assignments.get(name, 0)
        if outside is not None and total:
            total -= sum(1 for binding in outside.bindings.get(name, [])
                         if binding.kind == "assign")
        return total

    def bindings_anywhere(self, name: str) -> Sequence[Binding]:
        """The bindings of `name` in every scope of the file, in `every_scope`'s order: grouped
        once for every name, since a file asks about each of its functions and calls (a pass
        over every scope per name was quadratic: 4.5 s of a 40k-line file)."""
        if self._anywhere is None:
            self._anywhere = {}
            for scope in self.every_scope:
                for named, bindings in scope.bindings.items():
                    self._anywhere.setdefault(named, []).extend(bindings)
        return self._anywhere.get(name, ())

    def release(self) -> None:
        """Break the index's reference cycles (a scope holds its bindings, a binding its scope;
        a method's scope its class, the class the method's `self.x` bindings), so the tree and
        everything built on it is freed as soon as the last reference goes, without waiting
        for the cyclic garbage collector. The index must not be used afterwards."""
        for scope in self.every_scope:
            scope.bindings = {}
            scope.comprehension_targets = {}
            scope.owner = None
        for info in self.classes.values():
            info.attributes = {}
        self.attributes = {}
        self.comprehension_ends = {}
        self._calls_on = None
        self._parents = None
        self._assignments = None
        self._anywhere = None


class _IndexBuilder:
    """Handlers for `walk`: visit_<Type> before a node's children, leave_<Type> after."""

    def __init__(self, module: cst.Module) -> None:
        self.imports = ImportTable()
        self.module_scope = Scope("module", module, None)
        self.scopes = [self.module_scope]
        self.every_scope = [self.module_scope]
        self.classes: dict[str, ClassInfo] = {}
        self.class_stack: list[ClassInfo] = []
        self.functions: dict[cst.CSTNode, FunctionInfo] = {}
        self.function_stack: list[FunctionInfo] = []
        self.calls: list[CallSite] = []
        self.attributes: dict[str, list[AttributeSite]] = {}
        self.expecting: list[cst.With] = []
        self.open_comprehensions: list[list[Binding]] = []
        self.comprehension_ends: dict[cst.CSTNode, int] = {}
        self.order = 0

    @property
    def scope(self) -> Scope:
        return self.scopes[-1]

    def _next(self) -> int:
        self.order += 1
        return self.order

    # imports ------------------------------------------------------------------------------
    def visit_Import(self, node: cst.Import) -> None:
        self.imports.add_import(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.imports.add_import_from(node)

    # scopes -------------------------------------------------------------------------------
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.scope.bind(node.name.value, Binding("class", self._next(), node=node))
        info = ClassInfo(node.name.value, node, self.scope, [arg.value for arg in node.bases])
        # Nested classes share one flat namespace; the last definition of a name wins.
        self.classes[node.name.value] = info
        self.class_stack.append(info)
        self.scopes.append(Scope("class", node, self.scope))
        self.every_scope.append(self.scope)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.scopes.pop()
        self.class_stack.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        parent = self.scope
        parent.bind(node.name.value, Binding("def", self._next(), node=node))
        scope = Scope("function", node, parent)
        params = [*node.params.posonly_params, *node.params.params]
        if parent.kind == "class" and self.class_stack and params:
            scope.owner = self.class_stack[-1]
            scope.self_name = params[0].name.value
        self._bind_params(scope, node.params)
        info = FunctionInfo(node, scope)
        self.functions[node] = info
        self.function_stack.append(info)
        self.scopes.append(scope)
        self.every_scope.append(scope)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.scopes.pop()
        self.function_stack.pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        scope = Scope("function", node, self.scope)
        self._bind_params(scope, node.params)
        info = FunctionInfo(node, scope, returns=[node.body])
        self.functions[node] = info
        self.function_stack.append(info)
        self.scopes.append(scope)
        self.every_scope.append(scope)

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self.scopes.pop()
        self.function_stack.pop()

    def _bind_params(self, scope: Scope, params: cst.Parameters) -> None:
        every = [*params.posonly_params, *params.params, *params.kwonly_params]
        for extra in (params.star_arg, params.star_kwarg):
            if isinstance(extra, cst.Param):
                every.append(extra)
        for param in every:
            scope.bind(param.name.value, Binding("param", self._next(), node=param))

    # bindings -----------------------------------------------------------------------------
    # Targets are bound after their value is walked, so the value's own calls and names come
    # first in source order: in `model = step(model)` the argument is the earlier `model`.
    def leave_Assign(self, original_node: cst.Assign) -> None:
        node = original_node
        order = self._next()
        for target in node.targets:
            self._bind_target(target.target, node.value, (), order)

    def leave_AnnAssign(self, original_node: cst.AnnAssign) -> None:
        node = original_node
        target = node.target
        if self.scope.kind == "class" and isinstance(target, cst.Name) and self.class_stack:
            cls = self.class_stack[-1]
            cls.fields[target.value] = FieldInfo(target.value, node.annotation.annotation, node.value)
            return
        if node.value is not None:
            self._bind_target(target, node.value, (), self._next())
        elif self._self_attribute(target) is None and isinstance(target, cst.Name):
            # `x: Model` without a value: remember the annotation as an unknown binding.
            self.scope.bind(target.value, Binding("param", self._next(), node=node))

    def leave_AugAssign(self, original_node: cst.AugAssign) -> None:
        node = original_node
        if isinstance(node.target, cst.Name):
            self.scope.bind(node.target.value, Binding("opaque", self._next()))

    def visit_For(self, node: cst.For) -> None:
        self._bind_loop(node.target, node, ())

    def _bind_loop(self, target: cst.BaseExpression, loop: cst.For,
                   path: tuple[int, ...]) -> None:
        """A loop target: opaque, with the loop as its node and its place in each item as its
        path, so a loop over a literal list can be read item by item."""
        if isinstance(target, cst.Name):
            self.scope.bind(target.value, Binding("opaque", self._next(), path=path, node=loop))
        elif isinstance(target, (cst.Tuple, cst.List)):
            for position, element in enumerate(target.elements):
                if isinstance(element, cst.StarredElement):
                    self._bind_opaque(element.value)
                    break
                self._bind_loop(element.value, loop, (*path, position))

    # Comprehensions: their targets are bound before the element is walked, and seen up to the
    # comprehension's end; the element is read at that end (`comprehension_end`).
    def visit_ListComp(self, node: cst.ListComp) -> None:
        self._open_comprehension(node.for_in)

    def leave_ListComp(self, original_node: cst.ListComp) -> None:
        self._close_comprehension(original_node)

    def visit_SetComp(self, node: cst.SetComp) -> None:
        self._open_comprehension(node.for_in)

    def leave_SetComp(self, original_node: cst.SetComp) -> None:
        self._close_comprehension(original_node)

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> None:
        self._open_comprehension(node.for_in)

    def leave_GeneratorExp(self, original_node: cst.GeneratorExp) -> None:
        self._close_comprehension(original_node)

    def visit_DictComp(self, node: cst.DictComp) -> None:
        self._open_comprehension(node.for_in)

    def leave_DictComp(self, original_node: cst.DictComp) -> None:
        self._close_comprehension(original_node)

    def _open_comprehension(self, clause: cst.CompFor | None) -> None:
        opened: list[Binding] = []
        while clause is not None:
            self._bind_comprehension_target(clause.target, clause, (), opened)
            clause = clause.inner_for_in
        self.open_comprehensions.append(opened)

    def _bind_comprehension_target(self, target: cst.BaseExpression, clause: cst.CompFor,
                                   path: tuple[int, ...], opened: list[Binding]) -> None:
        if isinstance(target, cst.Name):
            binding = Binding("opaque", self._next(), path=path, node=clause, scope=self.scope)
            self.scope.comprehension_targets.setdefault(target.value, []).append(binding)
            opened.append(binding)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for position, element in enumerate(target.elements):
                if isinstance(element, cst.StarredElement):
                    break  # after a starred target the positions no longer line up
                self._bind_comprehension_target(element.value, clause, (*path, position),
                                                opened)

    def _close_comprehension(self, node: cst.CSTNode) -> None:
        end = self._next()
        for binding in self.open_comprehensions.pop():
            binding.until = end
        self.comprehension_ends[node] = end

    def visit_With(self, node: cst.With) -> None:
        if any(isinstance(item.item, cst.Call) and isinstance(item.item.func, cst.Attribute)
               and item.item.func.attr.value in EXPECTATION_MANAGERS for item in node.items):
            self.expecting.append(node)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind_opaque(node.asname.name)

    def leave_NamedExpr(self, original_node: cst.NamedExpr) -> None:
        node = original_node
        self._bind_target(node.target, node.value, (), self._next())

    def _bind_opaque(self, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            self.scope.bind(target.value, Binding("opaque", self._next()))
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind_opaque(element.value)

    def _bind_target(self, target: cst.BaseExpression, value: cst.BaseExpression,
                     path: tuple[int, ...], order: int) -> None:
        if isinstance(target, cst.Name):
            self.scope.bind(target.value, Binding("assign", order, value, path))
        elif isinstance(target, (cst.Tuple, cst.List)):
            for position, element in enumerate(target.elements):
                if isinstance(element, cst.StarredElement):
                    # After a starred target the positions no longer line up with the value.
                    self._bind_opaque(element.value)
                    break
                self._bind_target(element.value, value, (*path, position), order)
        else:
            attribute = self._self_attribute(target)
            if attribute is not None and self.scope.owner is not None:
                binding = Binding("assign", order, value, path, scope=self.scope)
                self.scope.owner.attributes.setdefault(attribute, []).append(binding)

    def _self_attribute(self, target: cst.BaseExpression) -> str | None:
        """`x` for `self.x`, where `self` is the current method's first parameter."""
        if (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)
                and self.scope.self_name == target.value.value):
            return target.attr.value
        return None

    # what rules look at -------------------------------------------------------------------
    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None and self.function_stack:
            self.function_stack[-1].returns.append(node.value)

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(CallSite(node, self.scope, self._next()))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        # Seen at the order the next event takes (without taking it): a binding made by the
        # statement this attribute is in comes after it.
        site = AttributeSite(node, self.scope, self.order + 1)
        self.attributes.setdefault(node.attr.value, []).append(site)


def build_index(module: cst.Module) -> FileIndex:
    builder = _IndexBuilder(module)
    walk(module, builder)
    return FileIndex(
        imports=builder.imports,
        module_scope=builder.module_scope,
        classes=builder.classes,
        functions=builder.functions,
        calls=builder.calls,
        every_scope=builder.every_scope,
        attributes=builder.attributes,
        expecting=builder.expecting,
        comprehension_ends=builder.comprehension_ends,
    )
