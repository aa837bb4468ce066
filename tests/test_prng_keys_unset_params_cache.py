"""OPT020's "a parameter no call gives" (`key_unset_params.py`) holds for a method only while no
other project file names it: the cache must see a file that comes to call it, though the file
checked imports nothing of it."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_optlint_in_process

EVALUATOR = """\
import jax


class Evaluator:
    def evaluate(self, key, batches, max_samples=None):
        out = []
        for batch in batches:
            if max_samples is not None:
                key = jax.random.fold_in(key, len(out))
            out.append(jax.random.normal(key, batch.shape))
        return out

    def run(self, batches):
        return self.evaluate(jax.random.key(0), batches)
"""

CALLER = """\
def go(evaluator, key, batches):
    return evaluator.evaluate(key, batches, max_samples=3)
"""


def _lines(root: Path) -> list[int]:
    result = run_optlint_in_process("check", ".", "--select", "OPT020", "--jobs", "1",
                                    "--output-format", "json", "--exit-zero", cwd=root)
    assert "internal error" not in result.stderr
    return [f["line"] for f in json.loads(result.stdout or "[]")]


def test_a_file_coming_to_call_the_method_is_seen_by_the_cache(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    (tmp_path / "evaluator.py").write_text(EVALUATOR)
    (tmp_path / "other.py").write_text("import os\n")
    assert _lines(tmp_path) == [10]  # no call gives max_samples: the branch never runs
    (tmp_path / "other.py").write_text(CALLER)  # evaluator.py unchanged
    assert _lines(tmp_path) == []
