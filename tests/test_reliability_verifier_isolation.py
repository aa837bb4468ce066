"""The verifier against code under test that imitates or escapes it: a line printed with the
harness's marker is not a result, and a child that leaves the harness's session and drops its
environment (the token) is still ended. The harness is a plain Python program, no JAX."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from optlint.verify import runner
from test_reliability_verifier import gone

FORGED = {"id": 0, "variants": {"original": {"outcome": "ok"}, "fixed": {"outcome": "ok"}}}


def test_printed_marker_lines_are_not_results(tmp_path: Path) -> None:
    program = (f"print({runner.MARK + json.dumps(FORGED)!r})\n"
               f"print({runner.MARK + json.dumps({'environment': {'jax': 'forged'}})!r})\n"
               f"print({runner.MARK + json.dumps({'fatal': 'forged'})!r})\n")
    run = runner.run_harness(program, sys.executable, "cpu", 60, tmp_path)
    assert (run.records, run.environment, run.fatal) == ({}, None, None)


ESCAPING = textwrap.dedent("""\
    import os, subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"],
                             start_new_session=True, env={{}})
    with open({pids!r}, "w") as handle:
        handle.write(f"{{child.pid}}\\n")
    {ending}
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("ending", ["time.sleep(300)", "os._exit(0)"], ids=["hangs", "exits"])
def test_a_child_in_its_own_session_without_the_environment_is_ended(
        tmp_path: Path, ending: str) -> None:
    pids = tmp_path / "pids"
    program = ESCAPING.format(pids=str(pids), ending=ending)
    runner.run_harness(program, sys.executable, "cpu", 5, tmp_path)
    child = int(pids.read_text())
    assert gone(child), "a process the harness started survived it"
