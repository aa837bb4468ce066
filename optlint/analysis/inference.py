"""What an expression is known to be, following names, helpers, `self.` attributes and other files.

The generic evaluator: Python's names, attributes, subscripts and calls of the checked code's own
functions and classes. What a library call returns is asked of the brains (`brains/`), one per
library; attributes, helper returns, callers' arguments (parameter values) and Equinox's leaf
model are collaborators it owns, each in its own module with its own memo. Values are plain data
(`values.py`): a class names its file, whose evaluator the project finds (`evaluator_for`).
Everything else in the analysis asks through the `Evaluator` protocol (`evaluator.py`).
Inference is lazy and memoised: rules ask about the few expressions they care about, and only
those are followed. What cannot be established is UNKNOWN, and rules stay silent
on it (or report it only under `--preview`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import libcst as cst

from optlint.analysis import apis, library_layers
from optlint.analysis.attributes import AttributeValues
from optlint.analysis.binding import argument
from optlint.analysis.evaluator import Evaluator, FunctionNode, Invocation, Project
from optlint.analysis.brains import LibraryCall, library_call
from optlint.analysis.brains.python_calls import named_attribute
from optlint.analysis.brains.equinox_leaves import EquinoxLeaves, nn_leaves
from optlint.analysis.brains.optax_calls import (
    STATE_METHODS,
    method_result,
    partial_inject,
    state_item,
    static_arg_names,
)
from optlint.analysis.guards import skipped_by_default
from optlint.analysis.helper_calls import HelperReturns
from optlint.analysis.library_param_paths import param_tree
from optlint.analysis.index import LATER as _LATER
from optlint.analysis.index import Binding, ClassInfo, FileIndex, Scope
from optlint.analysis.parameters import CallerJoins, CallNames
from optlint.analysis.values import (
    UNKNOWN,
    UNKNOWN_LEAVES,
    ArrayValue,
    ClassRef,
    DictValue,
    FunctionValue,
    InjectFactory,
    InstanceValue,
    Leaves,
    LibraryRef,
    LiteralValue,
    ModuleValue,
    PartialValue,
    OneOf,
    SequenceOf,
    SequenceValue,
    StateValue,
    TransformedFunction,
    TrainStateValue,
    TransformValue,
    Value,
    item_of,
    optional_part,
    part_at,
)


_MAX_DEPTH = 40


class Inference:
    """The evaluator of one file (implements `evaluator.Evaluator`)."""

    def __init__(self, index: FileIndex, project: Project | None = None,
                 path: str | None = None, text: str | None = None) -> None:
        self.index = index
        self.project = project
        self.path = path
        self._memo: dict[tuple[int, int], Value] = {}
        self._active: set[tuple[int, int]] = set()
        self.frame: dict[int, Value] = {}
        # What an analysis derives from the file once and keeps while the file is (OPT020's key
        # flow of a file other files' calls reach, `key_foreign.py`), by the name it is kept by.
        self.derived: dict[str, object] = {}
        self.attributes = AttributeValues(self)
        self.helpers = HelperReturns(self)
        self.parameters = CallerJoins(self, text)
        self.leaves = EquinoxLeaves(self)

    # public API ---------------------------------------------------------------------------
    def qualify(self, node: cst.BaseExpression) -> str | None:
        return self.index.imports.qualify(node)

    def evaluator_for(self, path: str | None) -> Evaluator:
        if path == self.path or self.project is None or path is None:
            return self
        found = self.project.evaluator_for(path)
        return found if found is not None else self  # a file that no longer parses

    def is_module(self, cls: ClassRef) -> bool:
        return self.evaluator_for(cls.path).is_equinox_module(cls.info)

    def in_frame(self, frame: dict[int, Value], compute: Callable[[], Value]) -> Value:
        # Answers under a frame depend on the call, so they are memoised apart from `_memo`.
        saved = self.frame, self._memo
        self.frame, self._memo = frame, {}
        try:
            return compute()
        finally:
            self.frame, self._memo = saved

    # collaborators' answers -----------------------------------------------------------------
    def returned(self, function: FunctionValue, passed: dict[int, Value] | None = None) -> Value:
        return self.helpers.returned(function, passed)

    def invocations_of(self, function: FunctionNode) -> list[Invocation] | None:
        return self.parameters.invocations_of(function)

    def call_names(self) -> CallNames:
        return self.parameters.call_names()

    def uses_more_than(self, word: str, limit: int, skip_imports: bool = False) -> bool:
        return self.parameters.words.more_than(word, limit, skip_imports)

    def file_text(self) -> str:
        return self.parameters.file_text()

    def attribute_of_class(self, info: ClassInfo, attr: str) -> Value:
        return self.attributes.of_class(info, attr)

    def is_equinox_module(self, info: ClassInfo) -> bool:
        return self.leaves.is_equinox_module(info)

    def class_leaves(self, info: ClassInfo) -> Leaves:
        return self.leaves.class_leaves(info)

    def class_is_callable(self, info: ClassInfo) -> bool | None:
        return self.leaves.class_is_callable(info)

    def field_holds_arrays(self, info: ClassInfo, name: str) -> bool | None:
        return self.leaves.field_holds_arrays(info, name)

    def field_value(self, info: ClassInfo, name: str) -> Value | Leaves:
        return self.leaves.field_value(info, name)

    def value_of(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Value:
        key = (id(expr), order)
        known = self._memo.get(key)
        if known is not None:  # asked again: most questions are (every rule asks of calls)
            return known
        if key in self._active or len(self._active) > _MAX_DEPTH:
            return UNKNOWN  # a cycle (`x = f(x)`) or a chain too long to be worth following
        self._active.add(key)
        try:
            value = self._infer(expr, scope, order)
        finally:
            self._active.discard(key)
        self._memo[key] = value
        return value

    # expressions --------------------------------------------------------------------------
    def _infer(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Value:
        if isinstance(expr, cst.Name):
            return self._infer_name(expr.value, scope, order)
        if isinstance(expr, cst.Attribute):
            return self.attributes.of_expression(expr, scope, order)
        if isinstance(expr, cst.Call):
            return self._infer_call(expr, scope, order)
        if isinstance(expr, cst.Lambda):
            return FunctionValue(expr)
        if isinstance(expr, (cst.Tuple, cst.List)):
            kind: Literal["tuple", "list"] = "tuple" if isinstance(expr, cst.Tuple) else "list"
            items: list[Value] = []
            for element in expr.elements:
                if isinstance(element, cst.StarredElement):
                    inner = self.value_of(element.value, scope, order)
                    if not isinstance(inner, SequenceValue):
                        return SequenceValue(kind, (*items, UNKNOWN))
                    items.extend(inner.items)
                else:
                    items.append(self.value_of(element.value, scope, order))
            return SequenceValue(kind, tuple(items))
        if isinstance(expr, (cst.ListComp, cst.GeneratorExp, cst.SetComp)):
            # Read where the comprehension's targets are seen: its end.
            end = self.index.comprehension_ends.get(expr)
            return UNKNOWN if end is None else SequenceOf(self.value_of(expr.elt, scope, end))
        if isinstance(expr, cst.Dict):
            entries: list[tuple[str | None, Value]] = []
            for entry in expr.elements:
                if isinstance(entry, cst.DictElement):
                    key = entry.key.evaluated_value if isinstance(
                        entry.key, cst.SimpleString) else None
                    entries.append((key if isinstance(key, str) else None,
                                    self.value_of(entry.value, scope, order)))
                else:  # `**other`: entries not seen
                    entries.append((None, UNKNOWN))
            return DictValue(tuple(entries))
        if isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary)):
            return LiteralValue("number", expr.value)
        if isinstance(expr, cst.SimpleString) and isinstance(expr.evaluated_value, str):
            # The text is kept: a config default ("adabelief") may choose a dict entry.
            return LiteralValue("string", expr.evaluated_value)
        if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
            return LiteralValue("string", "")
        if isinstance(expr, cst.Subscript):
            return self._infer_subscript(expr, scope, order)
        if isinstance(expr, cst.IfExp):
            body = self.value_of(expr.body, scope, order)
            return body if body is not UNKNOWN else self.value_of(expr.orelse, scope, order)
        return UNKNOWN

    def _infer_subscript(self, expr: cst.Subscript, scope: Scope, order: int) -> Value:
        container = self.value_of(expr.value, scope, order)
        if len(expr.slice) != 1 or not isinstance(expr.slice[0].slice, cst.Index):
            return UNKNOWN
        key = expr.slice[0].slice.value
        if isinstance(container, StateValue) and isinstance(key, cst.Integer):
            return state_item(container, int(key.value))
        if isinstance(container, SequenceValue) and isinstance(key, cst.Integer):
            position = int(key.value)
            if -len(container.items) <= position < len(container.items):
                return container.items[position]
        if isinstance(container, DictValue):
            # A key written out, or one a value holds (`OPTIMIZERS[cfg.optimizer]`, the config's
            # default "adam").
            wanted = key.evaluated_value if isinstance(key, cst.SimpleString) else None
            if wanted is None:
                known = self.value_of(key, scope, order)
                if isinstance(known, LiteralValue) and known.kind == "string" and known.text:
                    wanted = known.text
            for name, value in container.items:
                if wanted is not None and name == wanted:
                    return value
        return UNKNOWN

    # names --------------------------------------------------------------------------------
    def _infer_name(self, name: str, scope: Scope, order: int) -> Value:
        binding = self.lookup(name, scope, order)
        if binding is not None:
            value = self.value_of_binding(binding)
            limit = order if binding.scope is scope else _LATER
            if isinstance(value, SequenceValue) and value.kind == "list":
                value = self._with_appends(name, binding, value, limit)
            elif isinstance(value, SequenceOf) and self._with_appends(
                    name, binding, SequenceValue("list", ()), limit).items:
                return UNKNOWN  # items added to a comprehension's list: not all alike
            return value
        if name in ("True", "False"):
            return LiteralValue("bool", name)
        if name == "None":
            return LiteralValue("none", name)
        qualified = self.index.imports.qualify_name(name)
        return LibraryRef(qualified, self.path) if qualified else self._star_imported_class(name)

    def _star_imported_class(self, name: str) -> Value:
        """A class of the project reached through `from models import *`."""
        for module in self.index.imports.star_modules:
            found = self.as_class(LibraryRef(f"{module}.{name}", self.path))
            if isinstance(found, ClassRef):
                return found
        return UNKNOWN

    def lookup(self, name: str, scope: Scope, order: int) -> Binding | None:
        current: Scope | None = scope
        first = True
        while current is not None:
            if first or current.kind != "class":  # methods do not see their class's names
                target = current.comprehension_target(name, order)
                if target is not None:
                    return target
                bindings = current.bindings.get(name)
                if bindings:
                    if first:
                        earlier = [b for b in bindings if b.order < order]
                        return earlier[-1] if earlier else bindings[-1]
                    return bindings[-1]
            first = False
            current = current.parent
        return None

    def value_of_binding(self, binding: Binding) -> Value:
        """What a name holds after `binding` (for a `def`: the function, or what its decorators
        make of it)."""
        if binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
            return self._decorated_def(binding.node, binding)
        if binding.kind == "class" and isinstance(binding.node, cst.ClassDef):
            info = self.index.classes.get(binding.node.name.value)
            return ClassRef(info, self.path) if info is not None else UNKNOWN
        if binding.kind == "param":
            passed = self.frame.get(id(binding.node))
            if passed is not None:
                return passed
            annotated = self._annotated_value(binding.node, binding.scope)
            if isinstance(annotated, InstanceValue) and annotated.made is None:
                # `cfg: TrainConfig`: the construction the callers pass says which fields keep
                # their class defaults.
                passed = self.parameters.parameter_value(binding)
                if isinstance(passed, InstanceValue) and passed.info is annotated.info:
                    return passed
                parsed = self.parameters.parsed_config(binding, annotated)
                if parsed is not None:
                    return parsed
            return (annotated if annotated is not UNKNOWN
                    else self.parameters.parameter_value(binding))
        if binding.kind == "assign" and binding.value is not None and binding.scope is not None:
            return part_at(self.value_of(binding.value, binding.scope, binding.order),
                           binding.path)
        if binding.kind == "opaque" and isinstance(binding.node, cst.For):
            return self._loop_item(binding, binding.node)
        if binding.kind == "opaque" and isinstance(binding.node, cst.CompFor) and binding.scope:
            iterated = self.value_of(binding.node.iter, binding.scope, binding.order)
            return part_at(item_of(iterated), binding.path)
        return UNKNOWN

    def _loop_item(self, binding: Binding, loop: cst.For) -> Value:
        """A loop target over a literal list of optimizers (`for name, opt in [("sgd", sgd(.1)),
        ("polyak", polyak_sgd())]`): each of them, one per iteration, so a hazard of one is
        one iteration's (OneOf by_caller)."""
        scope = binding.scope
        if scope is None:
            return UNKNOWN
        items = self.value_of(loop.iter, scope, binding.order)
        if not isinstance(items, SequenceValue) or not items.items:
            return UNKNOWN
        options: list[Value] = []
        for item in items.items:
            for position in binding.path:
                if not (isinstance(item, SequenceValue) and position < len(item.items)):
                    return UNKNOWN
                item = item.items[position]
            if not isinstance(item, TransformValue):
                return UNKNOWN
            options.append(item)
        return options[0] if len(options) == 1 else OneOf(tuple(options), by_caller=True)

    def _annotated_value(self, node: cst.CSTNode | None, scope: Scope | None) -> Value:
        """A parameter annotated with an Equinox module class is an instance of it."""
        annotation = None
        if isinstance(node, (cst.Param, cst.AnnAssign)) and node.annotation is not None:
            annotation = node.annotation.annotation
        if annotation is None or scope is None:
            return UNKNOWN
        return self.instance_of(self.value_of(annotation, scope, _LATER))

    def instance_of(self, cls: Value) -> Value:
        """An instance of the class `cls` is (a project class, an equinox.nn layer)."""
        cls = self.as_class(cls)
        if isinstance(cls, ClassRef):
            if self.is_module(cls):
                return self._module_instance(cls)
            return InstanceValue(cls.info, cls.path)
        if isinstance(cls, LibraryRef) and cls.name.startswith("equinox.nn."):
            layer = cls.name.rsplit(".", 1)[-1]
            return ModuleValue(layer, nn_leaves(layer), is_callable=True)
        if isinstance(cls, LibraryRef) and cls.name == "equinox.Module":
            # `model: eqx.Module`: some module whose class the analysis cannot see.
            return ModuleValue("eqx.Module", UNKNOWN_LEAVES, is_callable=None)
        return UNKNOWN

    def as_class(self, value: Value) -> Value:
        """The project class an imported name refers to, if it is one; else the value as it is."""
        if isinstance(value, LibraryRef) and self.project is not None:
            found = self.project.resolve_class(value.name, value.origin or self.path)
            if found is not None:
                info, owner = found
                return ClassRef(info, owner.path)
        return value

    def _module_instance(self, cls: ClassRef) -> ModuleValue:
        owner = self.evaluator_for(cls.path)
        return ModuleValue(cls.info.name, owner.class_leaves(cls.info),
                           is_callable=owner.class_is_callable(cls.info), cls=cls)

    # calls --------------------------------------------------------------------------------
    def _infer_call(self, call: cst.Call, scope: Scope, order: int) -> Value:
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value == "gradient_transformation":
            inner = self.value_of(func.value, scope, order)
            return inner if isinstance(inner, TransformValue) else UNKNOWN
        if isinstance(func, cst.Attribute) and func.attr.value in STATE_METHODS:
            result = method_result(self.value_of(func.value, scope, order), func.attr.value)
            if result is not None:
                return result
        if (isinstance(func, cst.Attribute)
                and func.attr.value in library_layers.FLAX_TRAIN_STATE_METHODS):
            state = self.value_of(func.value, scope, order)
            if isinstance(state, TrainStateValue):
                return state  # `state.apply_gradients(grads=g)`: the same optimizer
        if isinstance(func, cst.Attribute) and func.attr.value == "init":
            tree = param_tree(self.value_of(func.value, scope, order), self)
            if tree is not None:
                return tree  # a Flax module's or a Haiku transform's parameters
        if isinstance(func, cst.Attribute) and func.attr.value in apis.ARRAY_METHODS:
            base = self.value_of(func.value, scope, order)
            if isinstance(base, ArrayValue):
                return base  # `data.mean(axis=0)`: an array of the same library
        if (isinstance(func, cst.Name) and func.value == "getattr" and len(call.args) == 2
                and self.lookup("getattr", scope, order) is None):
            return named_attribute(self.value_of(call.args[0].value, scope, order),
                                   self.value_of(call.args[1].value, scope, order))
        if isinstance(func, cst.Attribute):
            returned = self.helpers.method_call(func, call, scope, order)
            if returned is not None:
                return returned
        callee = self.value_of(func, scope, order)
        return self._apply(callee, call, scope, order)

    def _apply(self, callee: Value, call: cst.Call, scope: Scope, order: int) -> Value:
        callee = self.as_class(callee)
        if isinstance(callee, LibraryRef):
            value = library_call(self, callee.name, call, scope, order)
            return (self.helpers.project_call(callee, call, scope, order) if value is UNKNOWN
                    else value)
        if isinstance(callee, ClassRef):
            if self.is_module(callee):
                return self._module_instance(callee)
            return InstanceValue(callee.info, callee.path, (call, scope, order, self.path))
        if isinstance(callee, FunctionValue):
            return self.returned(callee, self.helpers.passed(callee, call, scope, order))
        if isinstance(callee, PartialValue):
            if callee.func == LibraryRef("optax.inject_hyperparams"):
                return partial_inject(callee.call, LibraryCall(
                    "optax.inject_hyperparams", call, scope, order, self))
            applied = self._apply(callee.func, call, scope, order)
            if isinstance(applied, TransformedFunction) and applied.call is call:
                # `partial(jax.jit, static_argnums=1)(f)`: the partial's keywords configure the jit.
                return TransformedFunction(applied.transform, applied.func, call, callee.call)
            return applied
        if isinstance(callee, TransformedFunction) and _is_jit(callee.transform):
            return self._apply(callee.func, call, scope, order)  # jit returns what f returns
        if isinstance(callee, InjectFactory):
            inner = callee.inner
            if isinstance(inner, LibraryRef):
                built = library_call(self, inner.name, call, scope, order)
            else:
                built = self._apply(inner, call, scope, order)
            parts = (built,) if isinstance(built, TransformValue) else ()
            return TransformValue("optax.inject_hyperparams", call, parts)
        return UNKNOWN

    def _with_appends(self, name: str, binding: Binding, value: SequenceValue,
                      limit: int) -> SequenceValue:
        """A list built up with `name.append(x)` / `name.extend(xs)` after its assignment."""
        items = list(value.items)
        for site in self.index.calls_on(name):
            func = site.node.func
            if (site.scope is not binding.scope or not binding.order < site.order < limit
                    or not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name)
                    or func.value.value != name or not site.node.args):
                continue
            added = self.value_of(site.node.args[-1].value, site.scope, site.order)
            skipped = skipped_by_default(
                binding.scope.node, site.node, binding.value,
                self._evaluator_at(site.scope, site.order), self.index.parents()) if isinstance(
                    added, TransformValue) and binding.scope is not None else None
            if isinstance(added, TransformValue) and skipped is not None:
                # `if cfg.weight_decay > 0: parts.append(add_decayed_weights(...))` with the
                # default 0.0: in the chain only when a flag turns it on.
                added = optional_part(added, skipped)
            if func.attr.value == "append":
                items.append(added)
            elif func.attr.value == "insert":
                # `insert(0, x)` puts x first; an index that is not a literal keeps x, at the end.
                where = site.node.args[0].value if len(site.node.args) == 2 else None
                items.insert(_literal_index(where, len(items)), added)
            elif func.attr.value == "extend":
                items.extend(added.items if isinstance(added, SequenceValue) else (UNKNOWN,))
        return SequenceValue("list", tuple(items))

    def _evaluator_at(self, scope: Scope, order: int) -> Callable[[cst.BaseExpression], Value]:
        return lambda expr: self.value_of(expr, scope, order)

    def _decorated_def(self, node: cst.FunctionDef, binding: Binding) -> Value:
        """`@optax.inject_hyperparams` (or a partial of it) over a def makes an inject factory."""
        if node.decorators and binding.scope is not None:
            outer = self.value_of(node.decorators[0].decorator, binding.scope, binding.order)
            if outer == LibraryRef("optax.inject_hyperparams"):
                return InjectFactory(FunctionValue(node), None, ())
            if isinstance(outer, PartialValue) and outer.func == LibraryRef(
                    "optax.inject_hyperparams"):
                static = static_arg_names(argument(outer.call, None, "static_args"))
                return InjectFactory(FunctionValue(node), outer.call, static)
        return FunctionValue(node)

def _literal_index(expr: cst.BaseExpression | None, length: int) -> int:
    """Where `list.insert(expr, x)` puts x when `expr` is an integer literal; else the end."""
    negative = isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus)
    number = expr.expression if isinstance(expr, cst.UnaryOperation) else expr
    if not isinstance(number, cst.Integer):
        return length
    index = -int(number.value) if negative else int(number.value)
    return index if index >= 0 else max(length + index, 0)


def _is_jit(transform: str) -> bool:
    kind = apis.JAX_FUNCTION_TRANSFORMS.get(transform) or apis.FILTERING_FUNCTION_TRANSFORMS.get(
        transform)
    return kind == "jit"
