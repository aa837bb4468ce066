"""Which of a file's methods of one name run code of their own, for `key_methods.py`'s "every
class of the file defining `init` draws from the key".

A family of classes sharing an interface usually has a base whose method only raises
(`def init(self, rng, ...): raise NotImplementedError`, deepqmc's `Sampler`) and mixins whose
method forwards to the next class of the order (`state = super().init(*args, **kwargs)`,
deepqmc's `ResampledSampler`, combined with a `MetropolisSampler` by `type(...)`). Neither
decides what a call draws: the base raises (nothing drawn, nothing returned), and the mixin
draws what the class after it draws, another member of the family. They are left out of the
family; the others must all draw."""

from __future__ import annotations

import libcst as cst

from optlint.analysis.index import ClassInfo, FileIndex
from optlint.analysis.key_overrides import only_raises
from optlint.analysis.walk import child_nodes


def runs_own_code(index: FileIndex, method: cst.FunctionDef, owner: ClassInfo | None) -> bool:
    """`method` is neither an interface that only raises nor a mixin's forwarding to an
    interface of its bases (what runs is some other class's method of that name)."""
    if only_raises(method):
        return False
    return owner is None or not _forwards_to_interface(index, method, owner)


def _forwards_to_interface(index: FileIndex, method: cst.FunctionDef, owner: ClassInfo) -> bool:
    name = method.name.value
    bases = [index.classes.get(base.value) for base in owner.bases if isinstance(base, cst.Name)]
    defined = [found for base in bases if base is not None
               for found in [defined_method(base, name)] if found is not None]
    # Every base of the file defining it only raises (a base of another file: not told). Asked
    # before the walk of the body below, which most methods never need.
    return (len(bases) == len(owner.bases) and all(base is not None for base in bases)
            and bool(defined) and all(only_raises(found) for found in defined)
            and _calls_super(method, name))


def _calls_super(method: cst.FunctionDef, name: str) -> bool:
    """The method's body calls `super().name(...)` (nested functions left out)."""
    stack: list[cst.CSTNode] = [method.body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.FunctionDef):
            continue
        if isinstance(node, cst.Call):
            func = node.func
            if (isinstance(func, cst.Attribute) and func.attr.value == name
                    and isinstance(func.value, cst.Call) and isinstance(func.value.func, cst.Name)
                    and func.value.func.value == "super"):
                return True
        stack.extend(child_nodes(node))
    return False


def defined_method(info: ClassInfo, name: str) -> cst.FunctionDef | None:
    """The method `name` of the class's own body, if it defines one."""
    for item in info.node.body.body:
        if isinstance(item, cst.FunctionDef) and item.name.value == name:
            return item
    return None
