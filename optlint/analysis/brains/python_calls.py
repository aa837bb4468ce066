"""Python's own library: `functools.partial`, the builtin `getattr` with a known name, and the
keywords of `zip`/`enumerate` that keep their items."""

from __future__ import annotations

import libcst as cst

from optlint.analysis import apis
from optlint.analysis.brains.registry import LibraryCall, handles
from optlint.analysis.values import UNKNOWN, LibraryRef, LiteralValue, PartialValue, Value


@handles("functools.partial")
def partial(call: LibraryCall) -> Value:
    return PartialValue(call.value(0, None), call.call)


def named_attribute(base: Value, name: Value) -> Value:
    """`getattr(optax, cfg.name)` with the name known (`"lion"`): `optax.lion`, as written."""
    if (isinstance(base, LibraryRef) and isinstance(name, LiteralValue)
            and name.kind == "string" and name.text.isidentifier()):
        return LibraryRef(apis.canonical_name(f"{base.name}.{name.text}"), base.origin)
    return UNKNOWN


# Keywords of the builtins that pair items which do not change the items at each position:
# `zip(xs, ys, strict=True)` (ruff's B905 asks for it) only raises on unequal lengths, and
# `enumerate(xs, start=1)` only shifts the count.
ITEM_KEEPING_KEYWORDS = {"zip": frozenset({"strict"}), "enumerate": frozenset({"start"})}


def paired_iterables(call: cst.BaseExpression
                     ) -> tuple[str, list[cst.BaseExpression]] | None:
    """(`"zip"`, the iterables it pairs) or (`"enumerate"`, the one it counts), in order; None
    for another expression, a starred argument, or a keyword that may change the items."""
    if (not isinstance(call, cst.Call) or not isinstance(call.func, cst.Name)
            or call.func.value not in ITEM_KEEPING_KEYWORDS):
        return None
    builtin = call.func.value
    if any(arg.star or (arg.keyword is not None
                        and arg.keyword.value not in ITEM_KEEPING_KEYWORDS[builtin])
           for arg in call.args):
        return None
    iterables = [arg.value for arg in call.args if arg.keyword is None]
    return builtin, iterables[:1] if builtin == "enumerate" else iterables
