"""`record`: a dataclass whose comparison, hash and repr are functions shared by every record,
and whose `__init__` is compiled when the class is first instantiated, not when it is defined.

Why: Python 3.11's `dataclass` writes the source of every method it adds and compiles it with
`exec`: `__init__`, `__repr__`, `__eq__`, `__hash__`, and for a frozen class `__setattr__` and
`__delattr__`. A one-file `optlint check` creates ~90 dataclasses on its way, and those ~440
compiles took ~29 ms of its CPU (benchmarks/bench.py --only latency: the whole check was ~60 ms
over the floor of any libcst linter); a third of those classes are never instantiated in it.
A record's comparison, hash, ordering and repr come from one getter of its fields, with the
results of the generated methods. Its `__init__`, the method on the hot path of building values,
is still compiled for its fields, as dataclass's, on the first call: without the annotations that
double what compiling dataclass's costs. tests/test_records.py compares all of them with plain
dataclasses on every record class in optlint.

A frozen record (the default) is frozen to the type checker (`dataclass_transform`'s
`frozen_default`: mypy rejects assigning to its fields), not at run time, where dataclass's
`__setattr__`/`__delattr__` were two of the compiles. A record without a docstring keeps none
(dataclass would write its signature there, which costs `inspect.signature`). A record has no
ClassVar, InitVar or keyword-only fields (none needed them; its `__init__` does not write them).

A record's fields are collected here, as `dataclass(init=False, eq=False, repr=False)` collects
them, without its reading of each annotation (whether it names ClassVar, InitVar or KW_ONLY,
through the module's namespace): ~40 us a class, 3.5 ms of a one-file check. A class whose
annotations could name one of those still goes through `dataclass` (and is refused).
"""

from __future__ import annotations

import abc
import types
from collections.abc import Callable
from dataclasses import MISSING, Field, dataclass, field, fields, replace
from itertools import compress, repeat
from operator import attrgetter
from reprlib import recursive_repr
from typing import TYPE_CHECKING, Any, TypeVar, overload

from optlint.generated_code import define

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:  # the decorator only tells type checkers what `record` makes
    def dataclass_transform(**_how: object) -> Callable[[Any], Any]:
        return lambda function: function

_Class = TypeVar("_Class", bound=type)
_Record = TypeVar("_Record")
_Key = Callable[[object], tuple[object, ...]]
# A parameter's default where its field's default is made by a factory (dataclass's own sentinel
# prints as "<factory>"; this one as the function's signature shows it).
_FACTORY = type("_Factory", (), {"__repr__": lambda self: "<factory>"})()
# A field's attributes, read over every field at C speed (`map`): a class is made at import.
_NAME, _INIT, _KW_ONLY, _REPR, _COMPARE, _HASH = map(
    attrgetter, ("name", "init", "kw_only", "repr", "compare", "hash"))


@overload
def record(cls: _Class, /) -> _Class: ...
@overload
def record(*, eq: bool = True, order: bool = False,
           frozen: bool = True) -> Callable[[_Class], _Class]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def record(cls: _Class | None = None, /, *, eq: bool = True, order: bool = False,
           frozen: bool = True) -> _Class | Callable[[_Class], _Class]:
    """`@dataclass(eq=eq, order=order, frozen=frozen)`, with `__eq__`, `__hash__`, the ordering
    and `__repr__` behaving as dataclass's would (see the module's docstring for what differs)."""
    if order and not eq:
        raise ValueError("eq must be true if order is true")

    def make(made: _Class) -> _Class:
        if not _collected(made):
            doc = made.__doc__
            made.__doc__ = doc or made.__name__  # (a docstring spares dataclass its signature)
            dataclass(made, init=False, eq=False, repr=False)  # the same class, with its fields
            made.__doc__ = doc
        every = fields(made)  # (the fields proper: no ClassVar or InitVar pseudo-fields)
        if len(every) != len(made.__dict__["__dataclass_fields__"]) or any(
                map(_KW_ONLY, every)):
            raise TypeError(f"{made.__qualname__}: a record has no ClassVar, InitVar or "
                            "keyword-only fields")
        if "__init__" not in made.__dict__ and not hasattr(made, "__post_init__") and all(
                map(_INIT, every)):
            _STORED_FIELDS[made] = frozenset(map(_NAME, every))  # see `replaced`
        _set(made, "__init__", _compiled_on_first_call(made))
        _add_methods(made, every, eq, order, frozen)
        return made

    return make if cls is None else make(cls)


def _probe() -> tuple[object, object]:
    """What `dataclass(cls, init=False, eq=False, repr=False)` records on a class (its
    `__dataclass_params__`), and the kind it gives a field proper (`Field._field_type`, which
    `dataclasses.fields` and `replace` read): taken from a class it made, in this Python."""
    made: Any = dataclass(type("_Probe", (), {"__annotations__": {"value": "int"},
                                              "__doc__": "-"}), init=False, eq=False, repr=False)
    return (made.__dict__["__dataclass_params__"],
            made.__dict__["__dataclass_fields__"]["value"]._field_type)


_PARAMS, _FIELD_KIND = _probe()
# Records whose `__init__` stores its arguments and nothing else: their fields' names.
_STORED_FIELDS: dict[type, frozenset[str]] = {}


def _collected(cls: type) -> bool:
    """`dataclass(cls, init=False, eq=False, repr=False)` done here (see the module's docstring):
    the same fields, class attributes, `__dataclass_params__` and `__match_args__`. False, and
    nothing done, for a class only `dataclass` reads rightly: annotations not in the class's own
    namespace, or one that is not a string or that names the word of a pseudo-field (ClassVar,
    InitVar, KW_ONLY: only `dataclass` tells whether it means one, through the module's
    namespace); a dataclass base that is frozen or has a pseudo-field."""
    own: dict[str, object] | None = cls.__dict__.get("__annotations__")
    if own is None:  # (none of its own, or kept elsewhere: Python 3.14 evaluates them lazily)
        return False
    try:
        annotations = " ".join(own.values())  # type: ignore[arg-type]
    except TypeError:  # an annotation that is not a string
        return False
    if "ClassVar" in annotations or "InitVar" in annotations or "KW_ONLY" in annotations:
        return False
    collected: dict[str, Field[Any]] = {}
    for base in cls.__mro__[-1:0:-1]:  # as dataclass: the most derived class's fields win
        inherited = getattr(base, "__dataclass_fields__", None)
        if inherited is not None:
            if base.__dict__.get("__dataclass_params__", _PARAMS).frozen or any(
                    item._field_type is not _FIELD_KIND for item in inherited.values()):
                return False
            collected.update(inherited)
    for name, annotation in own.items():
        default = getattr(cls, name, MISSING)
        if isinstance(default, Field):
            item = default
            if item.default is MISSING:  # the class shows the default itself, as dataclass's
                delattr(cls, name)
            else:
                setattr(cls, name, item.default)
        else:
            item = field(default=MISSING if isinstance(  # type: ignore[arg-type]
                default, types.MemberDescriptorType) else default)
        item.name, item.type = name, annotation
        item._field_type = _FIELD_KIND  # type: ignore[attr-defined]
        if item.kw_only is MISSING:
            item.kw_only = False
        if item.default.__class__.__hash__ is None:
            raise ValueError(f"mutable default {type(item.default)} for field {name} is not "
                             "allowed: use default_factory")
        collected[name] = item
    if any(map(isinstance, cls.__dict__.values(), repeat(Field))):  # (annotated ones are gone)
        for name, value in cls.__dict__.items():
            if isinstance(value, Field):
                raise TypeError(f"{name!r} is a field but has no type annotation")
    setattr(cls, "__dataclass_params__", _PARAMS)  # noqa: B010 - (not a declared attribute)
    setattr(cls, "__dataclass_fields__", collected)  # noqa: B010
    if "__match_args__" not in cls.__dict__:
        every = collected.values()  # (none keyword-only: a record refuses them)
        setattr(cls, "__match_args__",  # noqa: B010
                tuple(compress(map(_NAME, every), map(_INIT, every))))
    if isinstance(cls, abc.ABCMeta):
        abc.update_abstractmethods(cls)  # type: ignore[arg-type]
    return True


def _add_methods(cls: type, every: tuple[Field[Any], ...], eq: bool, order: bool,
                 frozen: bool) -> None:
    """What `dataclass` adds beyond `__init__`, by its rules: a method the class defines itself
    is kept; an `eq` class is hashable by its fields when frozen, unhashable when not."""
    names = tuple(map(_NAME, every))
    _set(cls, "__repr__", _representation(tuple(compress(names, map(_REPR, every)))))
    if not eq:
        return
    compared_names = tuple(compress(names, map(_COMPARE, every)))
    compared = _getter(compared_names)
    _set(cls, "__eq__", _equality(compared))
    if order:
        for name, compare in (("__lt__", tuple.__lt__), ("__le__", tuple.__le__),
                              ("__gt__", tuple.__gt__), ("__ge__", tuple.__ge__)):
            _set(cls, name, _ordering(compared, compare))
    own = cls.__dict__
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    if not explicit_hash:
        hashes = tuple(map(_HASH, every))  # (a field's `hash` None: its `compare` decides)
        hashed = compared_names if hashes.count(None) == len(hashes) else tuple(
            item.name for item in every if (item.compare if item.hash is None else item.hash))
        # (set as an attribute: mypy rejects assigning to a method)
        setattr(cls, "__hash__", _hashing(_getter(hashed)) if frozen else None)  # noqa: B010


def _compiled_on_first_call(cls: type) -> Callable[..., None]:
    """An `__init__` that compiles the one `cls` needs (`_init_source`), sets it on `cls` in its
    own place, and runs it."""
    def __init__(self: object, *args: object, **kwargs: object) -> None:
        source, names = _init_source(cls)
        define(source, names)  # (our own source: the fields' names and `names`' keys)
        compiled = names["__init__"]
        compiled.__qualname__ = f"{cls.__qualname__}.__init__"
        setattr(cls, "__init__", compiled)  # noqa: B010 - (mypy rejects assigning a method)
        compiled(self, *args, **kwargs)
    return __init__


def _init_source(cls: type) -> tuple[str, dict[str, Any]]:
    """The source of the `__init__` dataclass would write for `cls` (a non-frozen class: fields
    are assigned), without its annotations, which double what compiling it costs; and the names
    it reads: the defaults and factories, under names no field can take."""
    names: dict[str, Any] = {"__name__": cls.__module__, "__record_factory__": _FACTORY}
    parameters, lines = ["self"], []
    for item in fields(cls):
        default, made_by = f"__record_default_{item.name}", f"__record_factory_{item.name}"
        if item.default is not MISSING:  # (not set where not a parameter: the class has it)
            names[default] = item.default
            value = item.name if item.init else ""
        elif item.default_factory is not MISSING:
            names[made_by] = item.default_factory
            names[default] = _FACTORY
            value = (f"{made_by}() if {item.name} is __record_factory__ else {item.name}"
                     if item.init else f"{made_by}()")
        else:
            value = item.name if item.init else ""
        if item.init:
            parameters.append(item.name if default not in names else f"{item.name}={default}")
        if value:
            lines.append(f"    self.{item.name} = {value}")
    if hasattr(cls, "__post_init__"):
        lines.append("    self.__post_init__()")
    return f"def __init__({', '.join(parameters)}):\n" + ("\n".join(lines) or "    pass"), names


def _set(cls: type, name: str, method: Callable[..., object]) -> None:
    if name not in cls.__dict__:
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, method)


def _getter(names: tuple[str, ...]) -> _Key:
    """The tuple of these fields' values, as the generated methods build it."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda item: (one(item),)
    return lambda item: ()


def _equality(key: _Key) -> Callable[[object, object], object]:
    def __eq__(self: object, other: object) -> object:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented
    return __eq__


def _ordering(key: _Key, compare: Callable[[tuple[object, ...], tuple[object, ...]], bool],
              ) -> Callable[[object, object], object]:
    def ordered(self: object, other: object) -> object:
        if other.__class__ is self.__class__:
            return compare(key(self), key(other))
        return NotImplemented
    return ordered


def _hashing(key: _Key) -> Callable[[object], int]:
    def __hash__(self: object) -> int:
        return hash(key(self))
    return __hash__


def _representation(names: tuple[str, ...]) -> Callable[[object], str]:
    @recursive_repr()
    def __repr__(self: object) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"
    return __repr__



def replaced(item: _Record, /, **changes: object) -> _Record:
    """`dataclasses.replace(item, **changes)`. For a record whose `__init__` only stores its
    arguments (records' own, every field a parameter, no `__post_init__`) and that holds nothing
    but its fields: a copy of them with the changes. dataclass's `replace` reads every field and
    calls `__init__`: the Optax table's 84 rows given their extra facts at import (~40 fields
    each) were ~2.5% of the Python a one-file check runs."""
    names = _STORED_FIELDS.get(type(item))
    if names is None or not changes.keys() <= names or item.__dict__.keys() != names:
        return replace(item, **changes)  # type: ignore[type-var]
    made = object.__new__(type(item))
    made.__dict__.update(item.__dict__)
    made.__dict__.update(changes)
    return made
