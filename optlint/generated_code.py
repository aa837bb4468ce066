"""The code of the functions optlint writes as source while it runs, kept from one run to the next.

Three places write a function's source and `exec` it: a record's `__init__` (optlint.records),
a libcst node's `__init__` (optlint.node_inits) and a compiled walk (optlint.analysis.walk).
Compiling is most of what that costs: a one-file `optlint check` compiled 61 record `__init__`s
(26 kB of source), 31M instructions of its 1,360M, 13% of its excess over the floor of any
libcst linter (benchmarks/bench.py --only latency); a cold run on levanter compiled 335
functions, 195 kB (valgrind). Each source is written from optlint's and libcst's classes alone,
never from a checked file, so the same sources come back run after run.

So `define` takes a source's code from the file an earlier run wrote, where it is there, and
compiles it otherwise; `save`, after a run, adds what was compiled. A code object is a function
of its source and the interpreter's bytecode alone: the file is keyed by the whole source and
written for one bytecode (its magic number, and the cache tag in its name), so nothing in it
can be stale. It lies in optlint's `__pycache__` beside the bytecode and the module bundle, and
is written as they are: never where bytecode is not to be written. Each code is kept marshalled
and unmarshalled when first asked for: a run reads the file once and decodes only what it uses.
"""

from __future__ import annotations

import marshal
import os
import sys
import threading
from importlib.util import MAGIC_NUMBER
from typing import Any

from optlint.module_bundle import ROOT

_MAGIC = MAGIC_NUMBER + b"optlint-generated-1"
# More sources than optlint's classes write in any run: the file keeps only what the run that
# writes it used, once earlier versions' sources have piled up past this.
_MOST_KEPT = 4096

_lock = threading.Lock()
_stored: dict[str, bytes] | None = None  # the file's codes by source, marshalled; None: not read
_used: dict[str, bytes] = {}  # the codes this process took from the file or compiled
_compiled: set[str] = set()  # the sources this process compiled: `save` adds them


def generated_path(root: str = ROOT) -> str:
    return os.path.join(root, "__pycache__", f"generated.{sys.implementation.cache_tag}.marshal")


def define(source: str, names: dict[str, Any]) -> None:
    """`exec(source, names)`, with `source`'s code compiled by an earlier run where it was."""
    global _stored
    with _lock:
        if _stored is None:
            _stored = _read(generated_path())
        data = _stored.get(source)
        if data is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            _used[source] = marshal.dumps(code)
            _compiled.add(source)
        else:
            code = marshal.loads(data)
            _used[source] = data
    exec(code, names)  # (our own code: see the callers)


def save() -> None:
    """Add the code this process compiled to the file. Never raises: the file is only a cache."""
    try:
        with _lock:
            if not _compiled or sys.dont_write_bytecode:
                return
            target = generated_path()
            if not os.access(os.path.dirname(target), os.W_OK):
                return
            stored = _read(target)  # (another run may have written it since this one read it)
            stored.update(_used)
            if len(stored) > _MOST_KEPT:
                stored = dict(_used)
            partial = f"{target}.{os.getpid()}.tmp"
            with open(partial, "wb") as file:
                file.write(marshal.dumps((_MAGIC, stored)))
            os.replace(partial, target)  # another run reads the old file or the new, never half
            _compiled.clear()
    except Exception:  # noqa: BLE001 - a cache that cannot be written is left as it is
        return


def _read(path: str) -> dict[str, bytes]:
    try:
        with open(path, "rb") as file:
            magic, stored = marshal.loads(file.read())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    return stored if magic == _MAGIC and isinstance(stored, dict) else {}
