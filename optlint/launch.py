"""The `optlint` program (`python -m optlint`, the console script): the click commands, run so that
a `check` costs no more than its work.

Two costs come before and after any work: the cyclic collector, which runs again and again while
thousands of classes and functions are created by the imports (none of them garbage), and the
interpreter's teardown, which frees every module, class and libcst table one by one before the
process ends. On the one-file benchmark (benchmarks/bench.py --only latency) the two were ~10% of the
run's CPU. So the collector is paused while the commands are imported, and for all of a `check`
(whose analysis runs it when memory has grown: optlint.pool), and a `check`, once its output is
written and flushed, ends the process at once. A `check` with plain arguments is parsed and run
without importing click (optlint/check_command.py), and so is `--version`. Other commands (the language server, `verify` with
its subprocesses) keep the collector and end the ordinary way. A `check` imports optlint's own
modules from one file of their bytecode where there is one (optlint/bundled_imports.py), and
writes or rewrites that file once its output is out, as it adds the code of the functions it
compiled from its own source to another (optlint/generated_code.py).
"""

from __future__ import annotations

import gc
import os
import sys

_CHILD_FAILED = 120  # what CPython exits with when flushing standard output fails at exit


def run() -> None:
    if sys.argv[1:] == ["--version"]:  # click's line, without importing click (half the run)
        from optlint import __version__

        print(f"optlint, version {__version__}")
        return
    gc.disable()
    if sys.argv[1:2] != ["check"]:
        from optlint.cli import main

        gc.enable()
        main()
        return
    from optlint import bundled_imports

    bundled_imports.install()
    try:
        code: object = _check(sys.argv[2:])
    except SystemExit as exit_:
        code = exit_.code
    status = _flushed(_exit_status(code))
    bundled_imports.refresh()  # after the output is out: nobody waits on it
    generated = sys.modules.get("optlint.generated_code")
    if generated is not None:
        generated.save()  # (the same: optlint/generated_code.py)
    os._exit(status)


def _check(args: list[str]) -> object:
    """`optlint check ARGS`'s exit status: parsed without click where the arguments are plain
    (optlint/check_command.py), else by the click command."""
    from optlint.check_command import run_plain

    status = run_plain(args)
    if status is None:
        from optlint.cli import main

        main()
    return status


def _exit_status(code: object) -> int:
    """The status `sys.exit(code)` gives: None is 0, a number itself, anything else is printed
    to standard error and is 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _flushed(status: int) -> int:
    """`status`, once what the run wrote is out; 120 (as CPython) when it cannot be (a closed
    pipe: `optlint check | head`)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # ValueError: the stream was closed
            status = _CHILD_FAILED
    return status
