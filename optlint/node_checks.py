"""`isinstance(node, cst.Name)` without ABCMeta's path, for libcst's node classes.

Why: libcst's node classes are abstract base classes (`CSTNode` derives from `abc.ABC`), so
`isinstance` on one whose type is not the class itself asks `ABCMeta.__instancecheck__` (a
Python frame, then the registry and both caches of `_abc`). The analysis asks that of nearly
every node it looks at, and mostly gets False: 823,000 times in a check of levanter, ~850
instructions each above a plain class's check (valgrind: 5 classes x 100,000 checks, 1,507M
instructions with ABCMeta, 1,084M without).

Each node class is given a metaclass derived from ABCMeta whose `__instancecheck__` and
`__subclasscheck__` are `type`'s own (the class's MRO, in C). The answer differs from ABCMeta's
only for a virtual subclass (`register`) or a `__subclasshook__`: a class that has either, in
itself or below it, keeps ABCMeta. tests/test_node_checks.py compares both answers on every
class.
"""

from __future__ import annotations

import abc
import threading

import libcst as cst

_lock = threading.Lock()
_installed: list[type] = []


class _MroChecked(abc.ABCMeta):
    """ABCMeta, but `isinstance` and `issubclass` read the MRO alone (see above)."""

    __instancecheck__ = type.__instancecheck__  # type: ignore[assignment]
    __subclasscheck__ = type.__subclasscheck__  # type: ignore[assignment]


def install() -> None:
    """Give every libcst node class that has no virtual subclass the metaclass above (once)."""
    with _lock:
        if _installed:
            return
        for cls in mro_checkable(cst.CSTNode):
            cls.__class__ = _MroChecked
            _installed.append(cls)


def mro_checkable(base: type) -> list[type]:
    """`base` and the classes below it whose `isinstance` answers read the MRO alone: ABCMeta's
    exactly, with no virtual subclass registered in them or below them and no
    `__subclasshook__` of their own or inherited from an abstract base."""
    found: list[type] = []
    below: dict[type, bool] = {}  # class -> whether it or a class below it has a registry

    def registered_below(cls: type) -> bool:
        if cls not in below:
            below[cls] = False  # (a class seen again on the way down: a diamond)
            # `_abc`'s own view of the registry (`ABC._dump_registry` prints the same)
            registry = _registry(cls) if isinstance(cls, abc.ABCMeta) else set()
            below[cls] = bool(registry) or any(map(registered_below, _below(cls)))
        return below[cls]

    pending, seen = [base], {base}
    while pending:
        cls = pending.pop()
        if type(cls) in (abc.ABCMeta, _MroChecked) and not registered_below(cls) and not any(
                "__subclasshook__" in klass.__dict__ for klass in cls.__mro__[:-1]):
            found.append(cls)
        for sub in _below(cls):
            if sub not in seen:
                seen.add(sub)
                pending.append(sub)
    return found


def _below(cls: type) -> list[type]:
    return type.__subclasses__(cls)


def _registry(cls: type) -> set[object]:
    registry: set[object] = abc._get_dump(cls)[0]  # type: ignore[attr-defined]
    return registry
