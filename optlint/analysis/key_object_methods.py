"""A method of a project class run on an object whose class the file can name, given a key:
`self.rejection_sampler(..., key=rng)` where `__init__` built
`self.rejection_sampler = RejectionSampler()` (imported from another project file),
`self.sampler.sample(key)`, and `self.shuffle(key)` inherited from a base of another file
(`key_inherited_methods.py` tells the object's class there).

The method is the one the class's method resolution order runs (its own, or a base's of any
project file, `project_values.py`; a library base met first leaves it unknown), summarised by
its own file's key flow (`key_foreign.py`); the keys the call gives are then followed as for a
method of the file. Only on the caller's own object or one it holds (`own_object`). An abstract
method (`@abstractmethod`, or a body that only raises) runs a subclass's: `key_overrides.py`
answers for those, on any object whose class the file names (a name bound to `Cls(...)`, a
parameter annotated `Cls`). Asked only of calls that give a key, after the evaluator has told
the receiver's class or not; answers are kept per class and name."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import CallSite, ClassInfo
from optlint.analysis.key_inherited_methods import inherited_receiver, own_class
from optlint.analysis.key_overrides import Abstract, abstract_kind
from optlint.analysis.project_kinds import ProjectClass, ProjectFile, ProjectInstance
from optlint.analysis.project_methods import defined_elsewhere
from optlint.analysis.project_values import ProjectValues, binds
from optlint.analysis.values import FunctionValue, InstanceValue, ModuleValue, Value

if TYPE_CHECKING:
    from optlint.context import RuleContext

# What a call runs: (the method, the class defining it, that class's file), an abstract
# method (its subclasses' overrides run), or None: not told.
Concrete = tuple[cst.FunctionDef, ClassInfo, str]
ObjectMethod = Concrete | Abstract | None


class ObjectMethods:
    """The methods that calls of one file run on objects of project classes, by class."""

    def __init__(self, ctx: RuleContext, sites: dict[int, CallSite]) -> None:
        self.ctx = ctx
        self.sites = sites
        self._values: ProjectValues | None = None  # made at the first question
        self._found: dict[tuple[int, str], ObjectMethod] = {}

    @property
    def values(self) -> ProjectValues:
        if self._values is None:
            self._values = ProjectValues(self.ctx.inference, self.sites)
        return self._values

    def called(self, value: Value) -> ObjectMethod:
        """What calling `value` runs: the `__call__` of its class, for an instance of a class
        of another project file."""
        return self.run(_instance_class(value), "__call__")

    def called_object(self, call: cst.Call, site: CallSite) -> ObjectMethod:
        """What calling an object of no value the evaluator tells runs (`self.sampler(...)`),
        where the project's files name its class (`receiver`)."""
        if not defined_elsewhere(self.ctx.inference.project, "__call__", self.ctx.inference.path):
            return None
        return self.run(self.receiver(call.func, site), "__call__")

    def method(self, call: cst.Call, site: CallSite) -> ObjectMethod:
        """What `receiver.name(...)` runs, for a receiver of a class of another project file."""
        return self.method_named(call.func, site)

    def method_named(self, func: cst.BaseExpression, site: CallSite) -> ObjectMethod:
        """What `receiver.name` names (called, or handed to `jax.vmap`), as `method`."""
        if not isinstance(func, cst.Attribute) or func.attr.value.startswith("__"):
            return None
        if not defined_elsewhere(self.ctx.inference.project, func.attr.value,
                                 self.ctx.inference.path):
            return None  # no other project file defines it: nothing to evaluate
        known = _instance_class(self.ctx.value(func.value, site))
        return self.run(known or self.receiver(func.value, site), func.attr.value)

    def receiver(self, expr: cst.BaseExpression, site: CallSite) -> tuple[ClassInfo, str] | None:
        """The project class of an object the evaluator cannot tell, as the project's files
        name it (plain JAX classes too): a name bound to `Cls(...)` or a parameter annotated
        `Cls`, or `self.<attr>` that the object's class binds only to instances of one class
        (`self.sampler = RejectionSampler(...)`) or annotates with one (a field)."""
        values = self.values
        if isinstance(expr, cst.Name):
            binding = self.ctx.binding(expr.value, site)
            param = binding.node if binding is not None and binding.kind == "param" else None
            if isinstance(param, cst.Param):
                if param.annotation is None or binding is None or binding.scope is None:
                    return None
                return _class_of(values.value(param.annotation.annotation, binding.scope.parent
                                              or binding.scope, 1 << 30, values.here), True)
            return _class_of(values.value(expr, site.scope, site.order, values.here), False)
        if not isinstance(expr, cst.Attribute) or not isinstance(expr.value, cst.Name):
            return None
        owner = own_class(expr.value.value, site.scope)
        if owner is None:
            return None
        bindings = owner.attributes.get(expr.attr.value, [])
        field = owner.fields.get(expr.attr.value)
        if bindings:
            found = [_class_of(values.value(binding.value, binding.scope, binding.order,
                                            values.here), False)
                     if binding.value is not None and binding.scope is not None else None
                     for binding in bindings]
            first = found[0]
            return first if first is not None and all(
                other is not None and other[0] is first[0] for other in found) else None
        if field is not None and field.annotation is not None:
            return _class_of(values.value(field.annotation, owner.scope, 1 << 30, values.here),
                             True)
        return None

    def inherited(self, call: cst.Call, site: CallSite) -> ObjectMethod:
        """What `self.<name>(...)` runs where the evaluator cannot tell: a method of a base
        of another project file (`key_inherited_methods.py`)."""
        receiver = inherited_receiver(self.ctx, call, site)
        if receiver is None or not isinstance(call.func, cst.Attribute):
            return None
        return self.run(receiver, call.func.attr.value, own=True)

    def abstract(self, value: FunctionValue) -> Abstract | None:
        """`value`, a method of a class of the file, when it is abstract (its subclasses'
        overrides run)."""
        info = self.ctx.index.functions.get(value.node)
        owner = info.scope.owner if info is not None else None
        if (owner is None or not isinstance(value.node, cst.FunctionDef)
                or abstract_kind(value.node, self.ctx.qualify) != "abstract"):
            return None
        return Abstract(owner, self.values.here, value.node)

    def run(self, receiver: tuple[ClassInfo, str] | None, name: str, own: bool = False
            ) -> ObjectMethod:
        """What `name` runs on an instance of `receiver`'s class (`own`: the caller's own
        object, whose class may be of the file; else one of another file's)."""
        if receiver is None or (receiver[1] == self.ctx.inference.path and not own):
            return None  # the file's own classes: `key_call_targets.py` reads them
        info, path = receiver
        key = (id(info.node), name)
        if key not in self._found:
            self._found[key] = self._look_up(info, path, name)
        found = self._found[key]
        if own and isinstance(found, tuple) and found[2] == self.ctx.inference.path:
            return None  # of the file after all: the evaluator's to tell
        return found

    def _look_up(self, info: ClassInfo, path: str, name: str) -> ObjectMethod:
        found = definition(self.values, info, name, path)
        if found is None:
            return None
        owner, file, method = found
        defining = getattr(file.evaluator, "path", None)
        if defining is None:
            return None
        kind = abstract_kind(method, file.evaluator.qualify)
        if kind == "abstract":
            return Abstract(owner, file, method)
        return (method, owner, defining) if kind == "plain" else None


def definition(values: ProjectValues, info: ClassInfo, attr: str, path: str
               ) -> tuple[ClassInfo, ProjectFile, cst.FunctionDef] | None:
    """The `def attr` an instance of a class of the project file `path` runs, whatever its
    decorators, and the class of its order (Python's C3) defining it; None where that cannot
    be told (an instance attribute, a library base first, not one `def`)."""
    file = values.file(path)
    order = values.order(info, file) if file is not None else None
    if order is None or any(ancestor is not None and (
            attr in ancestor.attributes or attr in ancestor.fields) for ancestor, _ in order):
        return None  # an instance may hold its own (set by any class of the order)
    for ancestor, where in order:
        if ancestor is None or not isinstance(where, ProjectFile):
            return None  # a base the project does not define may define it
        defined = [item for item in ancestor.node.body.body if binds(item, attr)]
        if defined:
            item = defined[0]
            return (ancestor, where, item) if len(defined) == 1 and isinstance(
                item, cst.FunctionDef) else None
    return None


def own_object(call: cst.Call, site: CallSite) -> bool:
    """The call is on the caller's own object (`self.m(key)`) or one its object holds
    (`self.sampler(key=k)`, `self.sampler.sample(key)`), whose class the class's own code names.

    Not on a local name or a parameter (`task.init(key)`, `model: Model`): followed so, such
    calls added 54 findings on the 96 whole repositories of `benchmarks/repo_precision.py` and
    14 in the package benchmark, none of them labelled yet (as keypairs13a's 58); and a
    consumer only `--preview` showed would stand first in the flow and hide a proven reuse of
    the same key (a loop's), so they are not followed at all until labelled."""
    func = call.func
    receiver = func.value if isinstance(func, cst.Attribute) else func
    root = receiver.value if isinstance(receiver, cst.Attribute) else receiver
    return isinstance(root, cst.Name) and own_class(root.value, site.scope) is not None


def _class_of(value: object, annotated: bool) -> tuple[ClassInfo, str] | None:
    """The class of a project instance (or of instances of an annotating project class)."""
    if annotated and isinstance(value, ProjectClass) or isinstance(value, ProjectInstance):
        path = getattr(value.file.evaluator, "path", None)
        return None if path is None else (value.info, path)
    return None


def _instance_class(value: Value) -> tuple[ClassInfo, str] | None:
    """The class of an instance (a plain one, or an Equinox module whose class is known)."""
    if isinstance(value, ModuleValue) and value.derived_by is None and value.cls is not None:
        return (value.cls.info, value.cls.path) if value.cls.path is not None else None
    if isinstance(value, InstanceValue) and value.path is not None:
        return value.info, value.path
    return None
