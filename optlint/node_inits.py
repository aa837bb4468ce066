"""libcst's node constructors, each compiled again to set its fields without the general lookup.

Why: libcst's parser builds every node of a tree by calling its class, and each class's `__init__`
is the one `dataclass(frozen=True)` wrote: it sets a field with `object.__setattr__(self, name,
value)`, which looks `name` up in the class's MRO for every field of every node. libcst's node
classes keep their fields in `__slots__`: the slot's own setter (the descriptor that lookup
finds) is taken once, when the `__init__` is compiled, and called directly. On
levanter's files that is 8% of the parse's instructions (valgrind, 40 files: 3,934M to 3,621M).

Nothing else differs from dataclass's `__init__`: the same parameters and defaults (a factory's
default made per call), the same `__post_init__` call at the end (libcst's validation, which
`optlint.parsing.parse_module` turns off for the parse), the same errors for missing or unknown
arguments; a field without a slot is set as dataclass sets it. tests/test_node_inits.py compares
both on every libcst node class.

While a text is parsed (`optlint.parsing.parse_module`), libcst's checks of each node are off
and `__post_init__` does nothing: a compiled `__init__` does not call it then, reading a flag
(`validating`) that the parse sets, instead of the call that would do nothing (on levanter's
files, 1.1% of the parse's instructions: valgrind, 60 files, 7,458M to 7,373M).

Compiling costs ~0.1 ms a class, and a parse saves ~8% of its own cost: a process installs them
(`install`) once it has parsed enough text to pay that back, and each class's is compiled when
it is first instantiated after that (a repository uses most of the 172 classes). A
one-file run never pays for it.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import MISSING, fields, is_dataclass
from types import MemberDescriptorType
from typing import Any

import libcst as cst

from optlint.generated_code import define

# A parameter's default where its field's default is made by a factory.
_FACTORY = type("_Factory", (), {"__repr__": lambda self: "<factory>"})()
_lock = threading.Lock()
# class -> the `__init__` dataclass wrote for it, for every class `install` has replaced.
_ORIGINAL: dict[type, Callable[..., None]] = {}
# Whether a compiled `__init__` calls `__post_init__` (libcst's checks): off while a text is
# parsed (`optlint.parsing`, which sets it); a cell every compiled `__init__` reads.
validating = [True]


def installed() -> bool:
    return bool(_ORIGINAL)


def install() -> None:
    """Give every libcst node class an `__init__` compiled on its first call (see above)."""
    with _lock:
        if _ORIGINAL:
            return
        for cls in _node_classes(cst.CSTNode):
            original = cls.__dict__["__init__"]
            _ORIGINAL[cls] = original
            cls.__init__ = _compiled_on_first_call(cls, original)  # type: ignore[misc]


def _node_classes(base: type) -> list[type]:
    """The frozen dataclasses below `base` whose `__init__` dataclass wrote (compiled from a
    string, not defined in the class), with a parameter for each field, in order, and no other:
    no keyword-only fields, no InitVar, none left out of `__init__`."""
    found: list[type] = []
    pending: list[type] = [base]
    seen: set[type] = set()
    while pending:
        cls: type
        for cls in pending.pop().__subclasses__():
            if cls in seen:
                continue
            seen.add(cls)
            pending.append(cls)
            own = cls.__dict__
            code = getattr(own.get("__init__"), "__code__", None)
            # (libcst's `add_slots` makes each class anew with slots; the class it was made
            # from stays a subclass, unused, until the collector takes it: the module's is
            # the one the parser builds)
            if (getattr(sys.modules.get(cls.__module__), cls.__name__, None) is cls
                    and code is not None and code.co_filename == "<string>" and is_dataclass(cls)
                    and cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
                    and all(item.init and not item.kw_only for item in fields(cls))
                    and code.co_varnames[1:code.co_argcount] == tuple(
                        item.name for item in fields(cls))):
                found.append(cls)
    return found


def _compiled_on_first_call(cls: type, original: Callable[..., None]) -> Callable[..., None]:
    def __init__(self: object, *args: object, **kwargs: object) -> None:
        compiled = _compiled(cls)
        cls.__init__ = compiled  # type: ignore[misc]
        compiled(self, *args, **kwargs)
    __init__.__qualname__ = original.__qualname__
    return __init__


def _compiled(cls: type) -> Callable[..., None]:
    source, names = init_source(cls)
    define(source, names)  # (our own source: the fields' names and `names`' keys)
    compiled: Callable[..., None] = names["__init__"]
    compiled.__qualname__ = f"{cls.__qualname__}.__init__"
    compiled.__module__ = cls.__module__
    return compiled


def init_source(cls: type) -> tuple[str, dict[str, Any]]:
    """The source of `cls`'s `__init__` as dataclass writes it for a frozen class, with each
    slot's setter called directly; and the names it reads, under names no field can take."""
    names: dict[str, Any] = {"__name__": cls.__module__, "__node_factory__": _FACTORY,
                             "__node_object__": object, "__node_validating__": validating}
    parameters, lines = ["self"], []
    for item in fields(cls):
        default, made_by = f"__node_default_{item.name}", f"__node_factory_{item.name}"
        value = item.name
        if item.default is not MISSING:
            names[default] = item.default
        elif item.default_factory is not MISSING:
            names[made_by], names[default] = item.default_factory, _FACTORY
            value = f"{made_by}() if {item.name} is __node_factory__ else {item.name}"
        parameters.append(item.name if default not in names else f"{item.name}={default}")
        setter = _slot_setter(cls, item.name)
        if setter is None:  # kept in the instance's dictionary: set as dataclass does
            lines.append(f"    __node_object__.__setattr__(self, {item.name!r}, {value})")
        else:
            names[f"__node_set_{item.name}"] = setter
            lines.append(f"    __node_set_{item.name}(self, {value})")
    if hasattr(cls, "__post_init__"):
        lines.append("    if __node_validating__[0]:\n        self.__post_init__()")
    return f"def __init__({', '.join(parameters)}):\n" + ("\n".join(lines) or "    pass"), names


def _slot_setter(cls: type, name: str) -> Callable[[object, object], None] | None:
    """The setter `object.__setattr__(node, name, ...)` ends in for a slot: the descriptor
    the class's MRO gives first for `name`, when that is a slot's. None for anything else."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            found = klass.__dict__[name]
            return found.__set__ if type(found) is MemberDescriptorType else None
    return None
