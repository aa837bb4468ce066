"""`record`: a dataclass whose comparison, hash and repr are functions shared by every record,
not code written and compiled for each class.

Why: Python 3.11's `dataclass` writes the source of every method it adds and compiles it with
`exec`: `__init__`, `__repr__`, `__eq__`, `__hash__`, and for a frozen class `__setattr__` and
`__delattr__`. A one-file `optlint check` creates ~90 dataclasses on its way, and those ~440
compiles took ~29 ms of its CPU (benchmarks/bench.py --only latency: the whole check is ~60 ms
over the floor of any libcst linter). A record lets `dataclass` generate `__init__` alone (the
method on the hot path of building values) and gets the others from one getter of its fields: the
same results as the generated methods (tests/test_records.py compares them on every record class
in optlint).

A frozen record (the default) is frozen to the type checker (`dataclass_transform`'s
`frozen_default`: mypy rejects assigning to its fields), not at run time, where dataclass's
`__setattr__`/`__delattr__` were two of the compiles.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import Field, dataclass, field, fields
from operator import attrgetter
from reprlib import recursive_repr
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:  # the decorator only tells type checkers what `record` makes
    def dataclass_transform(**_how: object) -> Callable[[Any], Any]:
        return lambda function: function

_Class = TypeVar("_Class", bound=type)
_Key = Callable[[object], tuple[object, ...]]


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
        dataclass(made, eq=False, repr=False)  # the same class, given its `__init__`
        _add_methods(made, eq, order, frozen)
        return made

    return make if cls is None else make(cls)


def _add_methods(cls: type, eq: bool, order: bool, frozen: bool) -> None:
    """What `dataclass` adds beyond `__init__`, by its rules: a method the class defines itself
    is kept; an `eq` class is hashable by its fields when frozen, unhashable when not."""
    every = fields(cls)
    _set(cls, "__repr__", _representation(tuple(item.name for item in every if item.repr)))
    if not eq:
        return
    compared = _getter(tuple(item.name for item in every if item.compare))
    _set(cls, "__eq__", _equality(compared))
    if order:
        for name, compare in (("__lt__", tuple.__lt__), ("__le__", tuple.__le__),
                              ("__gt__", tuple.__gt__), ("__ge__", tuple.__ge__)):
            _set(cls, name, _ordering(compared, compare))
    own = cls.__dict__
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    if not explicit_hash:
        hashed = tuple(item.name for item in every
                       if (item.compare if item.hash is None else item.hash))
        # (set as an attribute: mypy rejects assigning to a method)
        setattr(cls, "__hash__", _hashing(_getter(hashed)) if frozen else None)  # noqa: B010


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
