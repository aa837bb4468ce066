"""The values inference can tell apart. Each is a small immutable record; anything else is UNKNOWN."""

from __future__ import annotations

from dataclasses import field, replace
from typing import TYPE_CHECKING, Literal

import libcst as cst

from optlint.analysis import apis
from optlint.records import record

if TYPE_CHECKING:
    from optlint.analysis.index import ClassInfo, Scope

LeafKind = Literal["callable", "scalar", "arrays", "unknown"]
# Who uses an unfiltered module's leaves: an optimizer's init/update, jax.grad, jax.jit.
Consumer = Literal["optimizer", "optimizer_filter_grad", "grad", "jit"]
_LEAF_RANK = {"callable": 3, "scalar": 2, "unknown": 1, "arrays": 0}


@record
class Leaves:
    """What the leaves of a module are, and why we think so (e.g. "field 'act' is a function")."""

    kind: LeafKind
    reason: str = ""
    # The Python scalar types among the leaves ("int", "bool", "float", "complex", "str"; "branch"
    # for a bool an equinox.nn layer tests in Python): what the Equinox leaf model
    # (apis.SCALAR_LEAVES_BREAK) decides which consumers they break by.
    scalar_types: frozenset[str] = frozenset()
    # The Python types of the function leaves the analysis knows ("function" for a `def` or a
    # lambda, "custom_jvp" for jax.nn.relu, see apis.JAX_CALLABLE_TYPES): what a filter that
    # drops `types.FunctionType` by hand keeps. Some functions' types may be missing.
    callable_types: frozenset[str] = frozenset()

    @property
    def non_array(self) -> bool:
        return self.kind in ("callable", "scalar")


ARRAYS = Leaves("arrays")
UNKNOWN_LEAVES = Leaves("unknown")


def worst_leaves(leaves: list[Leaves]) -> Leaves:
    """The combined leaves of several parts: one function among them makes the whole hold one."""
    if not leaves:
        return ARRAYS
    # Among scalars, one that is not a float (an int, a bool) names the reason: it is the proof.
    worst = max(leaves, key=lambda item: (_LEAF_RANK[item.kind],
                                          bool(item.scalar_types - {"float"})))
    types = frozenset().union(*(item.scalar_types for item in leaves))
    functions = frozenset().union(*(item.callable_types for item in leaves))
    if types == worst.scalar_types and functions == worst.callable_types:
        return worst
    return replace(worst, scalar_types=types, callable_types=functions)


def breaks(leaves: Leaves, consumer: Consumer) -> bool:
    """Whether these leaves are proven to break `consumer` (the Equinox leaf model): a function
    always does; Python scalars by their types (apis.SCALAR_LEAVES_BREAK)."""
    if leaves.kind == "callable":
        return True
    return leaves.kind == "scalar" and bool(
        leaves.scalar_types & apis.SCALAR_LEAVES_BREAK[consumer])


@record
class Unknown:
    pass


UNKNOWN = Unknown()


@record
class ModuleValue:
    """An Equinox module instance, or a pytree with its structure (which is therefore callable).

    `derived_by` is None for the module itself, or the function that built the pytree from one
    (`jax.tree_util.tree_map`, `equinox.tree_at`, `equinox.filter`, ...). `filtered` is true when the
    pytree holds arrays only because it went through `eqx.filter(..., eqx.is_array)` or `partition`.
    """

    class_name: str
    leaves: Leaves
    derived_by: str | None = None
    filtered: bool = False
    # Whether instances are callable (the class or a base defines `__call__`); None: cannot tell.
    # Optax calls a callable mask or label tree instead of reading it.
    is_callable: bool | None = None
    # The class of the checked code it is an instance of, when known (to read its fields).
    cls: ClassRef | None = field(default=None, compare=False)
    # For a derived pytree: the call that built it (the `eqx.filter`/`partition` or `tree_map`
    # call), for rules that read that call's arguments or edit it.
    made_by: cst.Call | None = field(default=None, compare=False)
    # For `eqx.filter` / `partition`'s first half: what the filter spec keeps ("arrays",
    # "array_like", see `apis.FILTER_SPECS`; None: unread) and the module it was given (kept
    # through tree maps over the filtered tree), so a rule needs neither to be in its own file.
    kept: str | None = field(default=None, compare=False)
    source: ModuleValue | None = field(default=None, compare=False)
    # Switched to inference mode (`eqx.nn.inference_mode(model)`, `apis.INFERENCE_SWITCHES`):
    # its layers that draw only in training draw nothing. Compared: callers giving a function
    # the model in both modes give it no one value.
    inference: bool = False


@record(eq=False)
class ClassRef:
    """A class object defined in the checked code (this file or another file of the project):
    `path` is the file it is defined in, whose evaluator reads it (`Evaluator.evaluator_for`)."""

    info: ClassInfo
    path: str | None


@record(eq=False)
class InstanceValue:
    """An instance of a plain (non-Equinox) class of the checked code: a trainer, a config."""

    info: ClassInfo
    path: str | None  # the file the class is defined in
    # The construction it came from (the call, its scope and order, the file that makes it), for
    # the fields of a configuration dataclass; None when not seen.
    made: tuple[cst.Call, Scope, int, str | None] | None = None


@record(eq=False)
class TransformValue:
    """An Optax gradient transformation: `name` is the factory, `parts` what it chains or wraps."""

    name: str
    call: cst.Call | None
    parts: tuple[Value, ...] = ()
    # Arguments written as names whose value inference knows to be a literal (`cfg.momentum`,
    # the config's default 0.9): (id of the argument's expression, the literal's text), for
    # the table's facts that hold only when an argument is given (sgd's momentum, a decay rate).
    literals: tuple[tuple[int, str], ...] = ()

    def literal(self, expr: cst.BaseExpression) -> str | None:
        return next((text for key, text in self.literals if key == id(expr)), None)

    def walk(self) -> list[TransformValue]:
        """This transformation and every one nested inside it, outermost first."""
        found: list[TransformValue] = [self]
        for part in self.parts:
            if isinstance(part, TransformValue):
                found.extend(part.walk())
        return found


@record(eq=False)
class InjectFactory:
    """`optax.inject_hyperparams(inner, ...)`: calling it builds the transformation.

    `call` is where `static_args` is (or would be) written: the `inject_hyperparams(...)` call, or
    the `functools.partial(optax.inject_hyperparams, ...)`; None for a decorated `def`.
    `static_args` holds the names given there, or None when they cannot be read.
    """

    inner: Value
    call: cst.Call | None
    static_args: tuple[str, ...] | None = ()


@record(eq=False)
class FunctionValue:
    """A function or lambda of the checked code; `bound` for a method reached through an object
    (`self.helper`), whose first parameter the object fills."""

    node: cst.FunctionDef | cst.Lambda
    bound: bool = False


@record(eq=False)
class PartialValue:
    """`functools.partial(func, ...)`."""

    func: Value
    call: cst.Call


@record(eq=False)
class TransformedFunction:
    """`jax.jit(f)`, `jax.grad(f)`, `eqx.filter_jit(f)`, ...: a function wrapped by a transformation.

    `call` applied the transformation to the function; `partial` is the `functools.partial(jax.jit,
    ...)` call whose keywords configure it, when it was built that way.
    """

    transform: str
    func: Value
    call: cst.Call
    partial: cst.Call | None = None


@record
class LibraryRef:
    """An object reached through an import and not called: `optax.adamw`, `jax.nn.relu`.

    It may also name a class in another file of the project (`from .models import Net`); that is
    looked up only where a class matters (a call, an annotation, a base), since the lookup may
    parse that file. `origin` is the importing file, which relative imports start from."""

    name: str
    origin: str | None = field(default=None, compare=False)


@record(eq=False)
class SolverValue:
    """An instance of a library solver class (`jaxopt.LBFGS(fun=loss)`)."""

    name: str
    call: cst.Call


@record
class ArrayValue:
    """A JAX or NumPy array (`jnp.zeros(3)`, `jax.random.normal(key, ...)`): an array leaf."""

    made_by: str


@record(eq=False)
class OneOf:
    """What a helper with several `return`s gives back: one of these, depending on its input
    (`make_optimizer(cfg)` returning adamw or sgd by a config key). UNKNOWN may be among them.
    A rule that needs a fact proven must find it in every option, unless `by_caller`.

    `by_caller`: a parameter that the calls of its function fill with different values (a
    generic `minimise(opt, x0)` called with `adam` here and `lbfgs` there), or a loop target over
    a literal list of optimizers. Every option is then what some call or iteration really runs, so a fact proven for one option holds for the
    call that passes it."""

    options: tuple[Value, ...]
    by_caller: bool = False
    # For an optional chain part (see `optional_part`): the `if` test that adds it, as written.
    added_if: str | None = None


def optional_part(part: TransformValue, added_if: str) -> OneOf:
    """A chain part added under an `if` the known configuration does not take (`if
    cfg.weight_decay > 0:` with the default 0.0): the part, or nothing in its place (identity)."""
    return OneOf((part, TransformValue("optax.identity", None)), added_if=added_if)


def is_optional_part(value: Value) -> bool:
    """Whether `value` is what `optional_part` makes."""
    return isinstance(value, OneOf) and value.added_if is not None


@record(eq=False)
class ScheduleValue:
    """An Optax schedule (`optax.cosine_decay_schedule(...)`): a function of the step count."""

    name: str
    call: cst.Call


@record
class StateValue:
    """An Optax optimizer state: what `optimizer.init(...)` or `optimizer.update(...)[1]` gives,
    with the optimizer (a TransformValue, or a OneOf of them) that made it."""

    optimizer: Value


@record(eq=False)
class ParamTree:
    """The parameters `init` returns for a Flax linen module (`Block(8).init(key, x)`: `model`
    is the module's class) or a Haiku-transformed function (`hk.transform(forward).init(...)`:
    `model` is the function). Read by `library_param_paths` for the tree's path names."""

    library: Literal["flax", "haiku"]
    model: ClassRef | FunctionValue
    path: str | None  # the file that defines the model


@record(eq=False)
class TrainStateValue:
    """A Flax `TrainState` made with `tx=optimizer`: its `apply_gradients(grads=g)` runs
    `optimizer.update(g, opt_state, params)` and nothing more (its other keywords go to
    `replace`)."""

    optimizer: Value


@record
class SequenceValue:
    kind: Literal["tuple", "list"]
    items: tuple[Value, ...]


@record
class SequenceOf:
    """A list (or generator) a comprehension builds: every item is `item`, how many is unknown."""

    item: Value


def item_of(sequence: Value) -> Value:
    """What each item of `sequence` is, when they are all the same: a comprehension's item, or
    a literal list's items that are one value."""
    if isinstance(sequence, SequenceOf):
        return sequence.item
    if isinstance(sequence, SequenceValue) and sequence.items and all(
            item == sequence.items[0] for item in sequence.items):
        return sequence.items[0]
    return UNKNOWN


def part_at(value: Value, path: tuple[int, ...]) -> Value:
    """The part of a tuple or list an unpacking target takes (`a, (b, c) = v`: c is (1, 1))."""
    for position in path:
        if not (isinstance(value, SequenceValue) and position < len(value.items)):
            return UNKNOWN
        value = value.items[position]
    return value


@record
class DictValue:
    items: tuple[tuple[str | None, Value], ...]


@record
class LiteralValue:
    kind: Literal["number", "string", "bool", "none"]
    text: str


Value = (
    Unknown | ModuleValue | ClassRef | InstanceValue | TransformValue | InjectFactory |
    FunctionValue | PartialValue | LibraryRef | SequenceValue | DictValue | LiteralValue |
    TransformedFunction | OneOf | ArrayValue | SolverValue | StateValue | ScheduleValue |
    ParamTree | TrainStateValue | SequenceOf
)


def proven_leaves(module: ModuleValue, consumer: Consumer = "optimizer") -> bool:
    """Whether the module's non-array leaves are known to break `consumer` (by default an
    optimizer's init/update): functions always do; of Python scalars ints, bools and strings
    (plain fields, or those equinox.nn layers hold), not a plain float, which jax.grad traces and
    differentiates like an array."""
    return breaks(module.leaves, consumer)


def holds_python_scalars(module: ModuleValue) -> bool:
    """Whether the module is known to hold Python scalars: an `eqx.nn` layer's, or a field given
    a literal number or bool (a plain float too). `eqx.is_array_like` keeps them all, and
    `eqx.filter_grad` gives each a None gradient (measured: a float `temperature` field makes
    `update` raise a pytree structure error), unlike `jax.grad`, which traces a float."""
    return module.leaves.kind == "scalar" and any(
        mark in module.leaves.reason for mark in ("eqx.nn.", "Python number", "Python bool"))


def unfiltered_module(value: object) -> ModuleValue | None:
    """The module, when `value` is an Equinox module itself (not a pytree built from one, not
    filtered) that holds or may hold non-array leaves: what Optax and jax.jit choke on."""
    if isinstance(value, OneOf):
        # One of several modules (a model factory's branches): the hazard must hold for each;
        # the one returned is the least proven, so a rule reports it only when all are.
        modules = [unfiltered_module(option) for option in value.options]
        if not modules or any(module is None for module in modules):
            return None
        unproven = [module for module in modules if module is not None
                    and not proven_leaves(module)]
        return unproven[0] if unproven else modules[0]
    if (isinstance(value, ModuleValue) and value.derived_by is None and not value.filtered
            and value.leaves.kind != "arrays"):
        return value
    if (isinstance(value, ModuleValue) and value.kept == apis.NOT_PYTHON_FUNCTIONS
            and value.leaves.kind == "callable"):
        return value  # filtered by hand, and what it kept is proven not to be arrays
    return None


def portable(value: Value) -> Value:
    """A value returned from another file, less what only that file's index can interpret.

    Functions, partials and inject factories are read through their file's scopes and nodes, which
    the caller's index does not hold; transformations and modules are read by their parts alone
    (a rule that edits a transformation's call checks that the call is in its own file)."""
    if isinstance(value, (FunctionValue, PartialValue, TransformedFunction, InjectFactory)):
        return UNKNOWN
    if isinstance(value, ParamTree) and isinstance(value.model, FunctionValue):
        return UNKNOWN  # read through its file's nodes
    if isinstance(value, SequenceValue):
        return SequenceValue(value.kind, tuple(portable(item) for item in value.items))
    if isinstance(value, SequenceOf):
        return SequenceOf(portable(value.item))
    if isinstance(value, DictValue):
        return DictValue(tuple((key, portable(item)) for key, item in value.items))
    if isinstance(value, OneOf):
        return OneOf(tuple(portable(option) for option in value.options), value.by_caller,
                     value.added_if)
    if isinstance(value, StateValue):
        return StateValue(portable(value.optimizer))
    if isinstance(value, TrainStateValue):
        return TrainStateValue(portable(value.optimizer))
    return value
