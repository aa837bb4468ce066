"""Running analysis code on a thread with a large stack and a raised recursion limit.

libcst's native parser recurses on the C stack and the code that walks its trees recurses in
Python: nested code thousands deep needs more than the main thread's 8 MiB and Python's default
recursion limit of 1,000 (optlint.parsing says how deep a text may be to get here). No libcst
here: a run imports this before it knows whether any file is parsed.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TypeVar

_Result = TypeVar("_Result")

# 256 MiB of address space, committed only as it is used: ~40 times the depth an 8 MiB main stack
# gives libcst, far beyond what CPython's screen lets through.
_STACK_BYTES = 256 * 1024 * 1024
_RECURSION_LIMIT = 30_000
_deep = threading.local()


def deep_call(function: Callable[..., _Result], *args: object) -> _Result:
    """`function(*args)` on a thread with a large stack and a raised recursion limit (directly
    when already on one). Exceptions are raised here, in the caller's thread."""
    if getattr(_deep, "active", False):
        return function(*args)
    outcome: list[_Result] = []
    failure: list[BaseException] = []

    def run() -> None:
        _deep.active = True
        try:
            outcome.append(function(*args))
        except BaseException as error:  # noqa: BLE001 - handed to the caller's thread as is
            failure.append(error)

    previous_stack = threading.stack_size(_STACK_BYTES)
    previous_limit = sys.getrecursionlimit()
    try:
        thread = threading.Thread(target=run, name="optlint-analysis", daemon=True)
        sys.setrecursionlimit(max(previous_limit, _RECURSION_LIMIT))
        try:
            thread.start()
        except RuntimeError:  # no memory for the stack: the normal limits still give errors
            sys.setrecursionlimit(previous_limit)
            return function(*args)
        thread.join()
    finally:
        sys.setrecursionlimit(previous_limit)
        threading.stack_size(previous_stack)
    if failure:
        raise failure[0]
    return outcome[0]
