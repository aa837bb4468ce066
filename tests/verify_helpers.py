"""Shared by the verify tests: one JAX compilation cache for the whole test session."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from conftest import run_optlint

CACHE = Path(tempfile.gettempdir()) / "optlint-test-verify-cache"


def verify(*args: str, cwd: Path, timeout: float = 300):  # type: ignore[no-untyped-def]
    return run_optlint("verify", *args, cwd=cwd, env={"OPTLINT_CACHE_DIR": str(CACHE)},
                       timeout=timeout)


def verify_json(*args: str, cwd: Path) -> list[dict]:  # type: ignore[type-arg]
    done = verify("--output-format", "json", *args, cwd=cwd)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return json.loads(done.stdout)
