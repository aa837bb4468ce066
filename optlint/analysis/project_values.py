"""What a name or expression of the project's own files is, where those files prove it
(`ProjectValues`): a `def` of the file or of another project file (through imports and
re-exports), a project class, an instance of one (made by the class, or by a classmethod
returning `cls(...)`, through `super().create(...)` and a library base's `replace` copy), a
method read on either (Python's C3 order over the project's classes; a base the project does not
define hides what follows it), and what a function returns when every `return` gives the same.
Names bound several times give what every binding gives. Anything else is unknown (None)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, cast

import libcst as cst

from optlint.analysis.key_model_objects import PASSING_TRANSFORMS
from optlint.analysis.project_kinds import (
    PENDING,
    Pending,
    ProjectClass,
    ProjectFile,
    ProjectFunction,
    ProjectInstance,
    ProjectValue,
    method_kinds,
    plain_decorators,
)
from optlint.analysis.project_returns import SCOPE as _SCOPE
from optlint.analysis.project_returns import SUPER as _SUPER
from optlint.analysis.project_returns import returned_value, unpacked_value
from optlint.analysis.walk import child_nodes

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator
    from optlint.analysis.index import Binding, CallSite, ClassInfo, FileIndex, Scope

STEPS = 40  # how many steps a value is resolved through
# How many bindings one question may resolve. A name bound many times (`state = step(state)` in a
# long function) is resolved through each of its bindings, and each of those through the others:
# without a bound, one question on JaxMARL's storm_env.py ran for minutes. The largest question on
# the package benchmark and levanter resolves 391 bindings.
BINDINGS_PER_QUESTION = 2000
# Methods that return a copy of the instance, of its class, by the library bases that give
# them (`state.replace(step=1)` on a `flax.struct.PyTreeNode`).
SAME_CLASS_COPIES: dict[str, frozenset[str]] = {
    "replace": frozenset({"flax.struct.PyTreeNode"}),
}


# A class of a method resolution order: a project class and its file, or (None, the qualified
# name) for a base the project does not define.
OrderEntry = tuple["ClassInfo | None", "ProjectFile | str"]


class ProjectValues:
    """The values of expressions of one file and of the project files they lead to."""

    def __init__(self, evaluator: Evaluator, sites: dict[int, CallSite]) -> None:
        self.here = ProjectFile(evaluator, sites)
        self._files: dict[str, ProjectFile] = {}
        self._pending: set[int] = set()  # the bindings being resolved (by id)
        # By binding (kept alive with it): what it gives; by class: its order.
        self._bound: dict[int, tuple[Binding, ProjectValue]] = {}
        self._orders: dict[int, tuple[ClassInfo, list[OrderEntry] | None]] = {}
        self._budget = BINDINGS_PER_QUESTION  # bindings the current question may still resolve

    def value(self, expr: cst.BaseExpression, scope: Scope, order: int,
              file: ProjectFile) -> ProjectValue:
        return self._value(expr, scope, order, file, STEPS)

    def evaluate(self, expr: cst.BaseExpression, frame: dict[str, object] | None,
                 file: ProjectFile, steps: int, scope: Scope | None = None,
                 order: int = 1 << 30) -> ProjectValue:
        """`expr`'s value in a call's frame (in its scope, after everything, unless given)."""
        where = scope if scope is not None else frame.get(_SCOPE) if frame is not None else None
        if where is None:
            return None
        return self._value(expr, cast("Scope", where), order, file, steps, frame)

    def imported(self, qualified: str, file: ProjectFile, steps: int) -> ProjectValue:
        return self._imported(qualified, file, steps)

    def method(self, owner: ProjectClass | ProjectInstance, name: str) -> ProjectValue:
        """The method `name` of a project class, as read on the class or on an instance."""
        return self._attribute(owner, name)

    def order(self, info: ClassInfo, file: ProjectFile) -> list[OrderEntry] | None:
        """The class's method resolution order (see `_ancestors`)."""
        return self._ancestors(info, file)

    def file(self, path: str) -> ProjectFile | None:
        """The project file `path`, as the lookups of this file read it."""
        return self._file(path)

    def _value(self, expr: cst.BaseExpression, scope: Scope, order: int, file: ProjectFile,
               steps: int, frame: dict[str, object] | None = None) -> ProjectValue:
        if steps <= 0:
            return None
        if isinstance(expr, cst.Name):
            held = frame.get(expr.value) if frame is not None else None
            if isinstance(held, (ProjectFunction, ProjectClass, ProjectInstance, Pending)):
                return held
            return self._name(expr.value, scope, order, file, steps - 1, frame)
        if isinstance(expr, cst.Attribute):
            above = frame.get(_SUPER) if frame is not None else None
            if (isinstance(expr.value, cst.Call) and not expr.value.args
                    and isinstance(expr.value.func, cst.Name)
                    and expr.value.func.value == "super"):
                # `super().create(...)` in a method of class `above` run for class `dynamic`
                if not isinstance(above, tuple):
                    return None
                defining, dynamic = above
                return self._attribute(dynamic, expr.attr.value, defining)
            owner = self._value(expr.value, scope, order, file, steps - 1, frame)
            if isinstance(owner, (ProjectClass, ProjectInstance)):
                return self._attribute(owner, expr.attr.value)
            root = expr.value
            while isinstance(root, cst.Attribute):
                root = root.value
            qualified = file.index.imports.qualify(expr) if owner is None else None
            if (qualified is not None and isinstance(root, cst.Name)
                    and nearest_bindings(root.value, scope) == []):
                return self._imported(qualified, file, steps - 1)  # `base.Puzzle`: a module's
            return None
        if isinstance(expr, cst.Call):  # what it returns, whatever its arguments
            func = expr.func
            if isinstance(func, cst.Attribute) and func.attr.value in SAME_CLASS_COPIES:
                # `config.replace(env=...)` on a dataclass-like instance: one of its class
                owner = self._value(func.value, scope, order, file, steps - 1, frame)
                if owner is PENDING or (isinstance(owner, ProjectInstance)
                                         and self._copies(owner, func.attr.value)):
                    return owner
                return None
            called = self._value(func, scope, order, file, steps - 1, frame)
            if isinstance(called, ProjectClass):
                return ProjectInstance(called.info, called.file)
            if isinstance(called, ProjectFunction) and plain_decorators(called):
                caller = frame if frame is not None and frame.get(_SCOPE) is scope else None
                return returned_value(self, called, steps - 1, expr, caller)
        return None

    def _copies(self, owner: ProjectInstance, method: str) -> bool:
        """`method` of the instance's class is a library base's copy of the instance: no
        project class of its order defines one, and the first library base is one that does."""
        order = self._ancestors(owner.info, owner.file)
        if order is None:
            return False
        for info, ancestor in order:
            if info is None:
                return ancestor in SAME_CLASS_COPIES[method]
            if any(binds(item, method) for item in info.node.body.body) or (
                    method in info.attributes or method in info.fields):
                return False
        return False

    def _name(self, name: str, scope: Scope, order: int, file: ProjectFile, steps: int,
              frame: dict[str, object] | None = None) -> ProjectValue:
        bindings = nearest_bindings(name, scope)
        if bindings is None:
            return None
        if not bindings:
            qualified = file.index.imports.aliases.get(name)
            return None if qualified is None else self._imported(qualified, file, steps)
        # A name bound more than once: what every binding gives, when all give the same (a
        # binding reading the name itself, `config = config.replace(...)`, gives it again).
        values = [self._binding(binding, file, steps, frame) for binding in bindings]
        known = [value for value in values if value is not PENDING]
        if not known:
            return PENDING
        first = known[0]
        return first if first is not None and all(value == first for value in known) else None

    def _binding(self, binding: Binding, file: ProjectFile, steps: int,
                 frame: dict[str, object] | None) -> ProjectValue:
        if id(binding) in self._pending:
            return PENDING
        # Kept when asked with nothing pending and no frame: no assumption went into it.
        keep = not self._pending and frame is None
        if keep and id(binding) in self._bound:
            return self._bound[id(binding)][1]
        if not self._pending:
            self._budget = BINDINGS_PER_QUESTION  # a new question
        elif self._budget <= 0:
            return None  # unknown: the question has cost too much
        self._budget -= 1
        self._pending.add(id(binding))
        try:
            value = self._bound_value(binding, file, steps, frame)
        finally:
            self._pending.discard(id(binding))
        if keep:
            self._bound[id(binding)] = (binding, value)
        return value

    def _bound_value(self, binding: Binding, file: ProjectFile, steps: int,
                     frame: dict[str, object] | None) -> ProjectValue:
        if binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
            return ProjectFunction(binding.node, file)
        if binding.kind == "class" and isinstance(binding.node, cst.ClassDef):
            info = file.index.classes.get(binding.node.name.value)
            return ProjectClass(info, file) if info is not None and info.node is binding.node else None
        if binding.kind == "assign" and binding.value is not None \
                and binding.scope is not None and binding.node is None:
            # The frame of a function's parameters holds in that function's own scope only.
            own = frame if frame is not None and frame.get(_SCOPE) is binding.scope else None
            if binding.path:  # `env, params = make_env(...)`
                return unpacked_value(self, binding, file, steps, own)
            return self._value(binding.value, binding.scope, binding.order, file, steps, own)
        return None

    def _imported(self, qualified: str, file: ProjectFile, steps: int) -> ProjectValue:
        """A module-level class or `def` of a project file that `qualified` names (through
        re-exports)."""
        project = file.evaluator.project
        module, _, name = qualified.rpartition(".")
        if project is None or not module or steps <= 0 or file.evaluator.path is None:
            return None
        paths = project.project_files(module, file.evaluator.path)
        if len(paths) != 1:
            return None
        owner = self._file(str(paths[0]))
        if owner is None:
            return None
        scope = owner.index.module_scope
        bindings = scope.bindings.get(name, [])
        if bindings:
            return self._name(name, scope, 1 << 30, owner, steps - 1)
        reexported = owner.index.imports.aliases.get(name)
        if not bindings and reexported is not None:
            return self._imported(reexported, owner, steps - 1)
        return None

    def _file(self, path: str) -> ProjectFile | None:
        known = self._files.get(path)
        if known is None:
            project = self.here.evaluator.project
            evaluator = project.evaluator_for(path) if project is not None else None
            if evaluator is None:
                return None
            known = self._files[path] = ProjectFile(
                evaluator, {id(site.node): site for site in evaluator.index.calls})
        return known

    def _attribute(self, owner: ProjectClass | ProjectInstance, attr: str,
                   after: ClassInfo | None = None) -> ProjectValue:
        """The method `attr` of a project class, as read on the class or on an instance (with
        `after`: as `super()` reads it in a method of `after`)."""
        order = self._ancestors(owner.info, owner.file)
        if order is None:
            return None
        if after is not None:
            places = [i for i, (info, _) in enumerate(order) if info is after]
            if len(places) != 1:
                return None
            order = order[places[0] + 1:]
        if any(info is not None and (attr in info.attributes or attr in info.fields)
               for info, _ in order):
            return None  # an instance may hold its own (set by any class of the order)
        for info, file in order:
            if info is None or not isinstance(file, ProjectFile):
                return None  # a base the project does not define may define it
            bindings = info.node.body.body
            defined = [item for item in bindings if binds(item, attr)]
            if not defined:
                continue
            item = defined[0]
            if len(defined) != 1 or not isinstance(item, cst.FunctionDef):
                return None
            kinds = method_kinds(item)
            if "staticmethod" in kinds:
                return ProjectFunction(item, file)
            if "classmethod" in kinds:
                return ProjectFunction(item, file, 1, owner.info, owner.file)
            if item.decorators:
                return None
            return ProjectFunction(item, file, 1) if isinstance(owner, ProjectInstance) else None
        return None

    def _ancestors(self, info: ClassInfo, file: ProjectFile
                   ) -> list[OrderEntry] | None:
        """The class's method resolution order (Python's C3); a base the project does not
        define stands as `(None, its qualified name)`, its own bases unknown; None where C3 fails."""
        return self._linear(info, file, 0)

    def _linear(self, info: ClassInfo, file: ProjectFile, depth: int
                ) -> list[OrderEntry] | None:
        known = self._orders.get(id(info.node))
        if known is None:
            known = self._orders[id(info.node)] = (info, self._linear_uncached(info, file, depth))
        return known[1]

    def _linear_uncached(self, info: ClassInfo, file: ProjectFile, depth: int
                         ) -> list[OrderEntry] | None:
        if depth > STEPS:
            return None
        heads: list[tuple[object, OrderEntry]] = []
        lists: list[list[tuple[object, OrderEntry]]] = []
        for base in info.node.bases:
            if base.keyword is not None or base.star:
                continue
            if isinstance(base.value, cst.Name) and base.value.value == "object":
                continue
            # `Base[T]` subclasses `Base` (a generic's parameters are not classes).
            named = base.value.value if isinstance(base.value, cst.Subscript) else base.value
            value = self._value(named, info.scope, 1 << 30, file, STEPS)
            if isinstance(value, ProjectClass):
                inner = self._linear(value.info, value.file, depth + 1)
                if inner is None:
                    return None
                entry: tuple[object, OrderEntry] = (
                    id(value.info.node), (value.info, value.file))
                lists.append([(id(c.node) if c is not None else f, (c, f)) for c, f in inner])
            else:
                text = file.index.imports.qualify(base.value) or cst.Module([]).code_for_node(
                    base.value)
                entry = (text, (None, text))
                lists.append([entry])
            heads.append(entry)
        lists.append(heads)
        merged: list[OrderEntry] = [(info, file)]
        while any(lists):
            lists = [items for items in lists if items]
            for items in lists:
                token = items[0][0]
                if not any(token in [t for t, _ in rest[1:]] for rest in lists):
                    break
            else:
                return None  # no consistent order
            merged.append(items[0][1])
            lists = [rest[1:] if rest[0][0] == token else rest for rest in lists]
        return merged


def passing(func: cst.BaseExpression, file: ProjectFile) -> bool:
    return file.index.imports.qualify(func) in PASSING_TRANSFORMS


def nearest_bindings(name: str, scope: Scope) -> list[Binding] | None:
    """The bindings of `name` in the nearest scope binding it ([]: none; None: a
    comprehension's, not followed)."""
    current: Scope | None = scope
    first = True
    while current is not None:
        if first or current.kind != "class":
            if current.comprehension_targets.get(name):
                return None
            bindings = current.bindings.get(name)
            if bindings:
                return bindings
        first = False
        current = current.parent
    return []


def binds(statement: cst.CSTNode, name: str) -> bool:
    """A statement of a class body may bind `name` (more than it does: any name it writes;
    an annotation without a value binds nothing)."""
    if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
        return statement.name.value == name
    if isinstance(statement, cst.SimpleStatementLine):
        return any(isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign))
                   and not (isinstance(small, cst.AnnAssign) and small.value is None)
                   and name in {n.value for n in names_in(small)} for small in statement.body)
    return isinstance(statement, cst.BaseCompoundStatement) and any(
        n.value == name for n in names_in(statement))


def names_in(node: cst.CSTNode) -> Iterator[cst.Name]:
    pending = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, cst.Name):
            yield current
        pending.extend(child_nodes(current))


def statement_scope(index: FileIndex) -> Callable[[cst.CSTNode], Scope]:
    """The scope a node of the file runs in: its innermost function's, else the module's."""
    def scope_of(node: cst.CSTNode) -> Scope:
        parents = index.parents()
        current: cst.CSTNode | None = parents.get(id(node))
        while current is not None:
            if isinstance(current, (cst.FunctionDef, cst.Lambda)):
                info = index.functions.get(current)
                if info is not None:
                    return info.scope
            current = parents.get(id(current))
        return index.module_scope
    return scope_of
