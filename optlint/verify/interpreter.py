"""Which jax/optax/equinox versions `--python` has installed, so that `optlint verify` lints for
the versions the harness will run with. Read from distribution metadata in one short subprocess:
importing jax would cost seconds, reading its metadata does not."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile

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


def installed_in(python: str) -> dict[str, KnownVersion] | None:
    """The versions installed in `python`, by library (version None where it lacks one: the
    harness then says what to install). None for this interpreter: versions.py reads its own in
    this process. A `python` that does not run Python is a one-line VerifyError."""
    if python == sys.executable:
        return None
    try:
        # From the temporary folder, as the harness runs: the first sys.path entry is the same.
        done = subprocess.run([python, "-c", _PROBE % (_MARK, LIBRARIES)], capture_output=True,
                              text=True, timeout=60, cwd=tempfile.gettempdir())
    except (OSError, subprocess.TimeoutExpired) as error:
        raise VerifyError(f"--python {python}: cannot run it ({error})") from None
    for line in reversed(done.stdout.splitlines()):
        if line.startswith(_MARK):
            found = json.loads(line[len(_MARK):])
            return {library: KnownVersion(found.get(library), f"installed in {python}")
                    for library in LIBRARIES}
    lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
    raise VerifyError(f"--python {python}: not a working Python interpreter ({lines[-1]})")
