"""Python's own library: `functools.partial`, and the builtin `getattr` with a known name."""

from __future__ import annotations

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
