"""Python's own library: `functools.partial`."""

from __future__ import annotations

from optlint.analysis.brains.registry import LibraryCall, handles
from optlint.analysis.values import PartialValue, Value


@handles("functools.partial")
def partial(call: LibraryCall) -> Value:
    return PartialValue(call.value(0, None), call.call)
