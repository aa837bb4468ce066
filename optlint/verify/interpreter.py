"""Which jax/optax/equinox versions `--python` has installed, so that `optlint verify` lints for
the versions the harness will run with. Read from distribution metadata in one short subprocess:
importing jax would cost seconds, reading its metadata does not."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from optlint.verify.processes import reap
from optlint.verify.runner import private_folder
from optlint.verify.session import VerifyError
from optlint.versions import LIBRARIES, KnownVersion

_MARK = "@@optlint-versions@@ "
_PROBE = """\
import importlib.metadata as m, json
def version(name):
    try:
        return m.version(name)
    except m.PackageNotFoundError:
        return None
print(%r + json.dumps({name: version(name) for name in %r}))
"""


_PROBE_SECONDS = 60


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def installed_in(python: str) -> dict[str, KnownVersion] | None:
    """The versions installed in `python`, by library (version None where it lacks one: the
    harness then says what to install). None for this interpreter: versions.py reads its own in
    this process. A `python` that does not run Python is a one-line VerifyError."""
    if python == sys.executable:
        return None
    # `-c` puts the working folder first on sys.path: run from an empty private folder, as the
    # harness runs, so that no module planted in a shared folder is imported.
    with private_folder() as folder:
        out, err, status = _run_probe(python, folder)
    for line in reversed(out.decode("utf-8", errors="replace").splitlines()):
        if line.startswith(_MARK):
            try:
                found = json.loads(line[len(_MARK):])
            except ValueError:
                break
            if not isinstance(found, dict):
                break
            return {library: KnownVersion(_text_or_none(found.get(library)),
                                          f"installed in {python}") for library in LIBRARIES}
    lines = (err.decode("utf-8", errors="replace").strip().splitlines()
             or [f"exit status {status}"])
    raise VerifyError(f"--python {python}: not a working Python interpreter ({lines[-1]})")


def _run_probe(python: str, folder: Path) -> tuple[bytes, bytes, int]:
    try:
        # In a session of its own, so that a timeout ends what `python` started too (a wrapper
        # script's interpreter).
        probe = subprocess.Popen([python, "-c", _PROBE % (_MARK, LIBRARIES)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 cwd=folder, start_new_session=True)
    except OSError as error:
        raise VerifyError(f"--python {python}: cannot run it ({error})") from None
    try:
        out, err = probe.communicate(timeout=_PROBE_SECONDS)
    except subprocess.TimeoutExpired:
        raise VerifyError(f"--python {python}: cannot run it (no answer in {_PROBE_SECONDS} "
                          f"s)") from None
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(probe.pid, signal.SIGKILL)
        reap(probe)
    return out, err, probe.returncode
