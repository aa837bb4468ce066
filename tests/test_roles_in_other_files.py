"""A finding's role the analysis found in another file (a callee there making the key) keeps its
code and no place: before, placing it in the checked file raised KeyError and the whole file was
reported as an internal error, its findings lost (rebayes `sw_ekf_demo.ipynb` with `--preview`)."""

import json
from pathlib import Path

from conftest import run_optlint_in_process

HELPER = """\
import jax.random as jr


def get_params(dims, key=0):
    if isinstance(key, int):
        key = jr.PRNGKey(key)
    return jr.normal(key, (dims,))
"""

MAIN = """\
import jax.random as jr

from helper import get_params


def generate(n, key=0):
    if isinstance(key, int):
        key = jr.PRNGKey(key)
    return jr.uniform(key, (n,))


x = generate(3)
p = get_params(3, key=jr.PRNGKey(0))
print(x, p)
"""


def test_a_role_in_another_file_is_reported_without_a_place(tmp_path: Path) -> None:
    (tmp_path / "helper.py").write_text(HELPER)
    (tmp_path / "main.py").write_text(MAIN)
    result = run_optlint_in_process("check", ".", "--select", "OPT020", "--preview", "--no-cache",
                                    "--isolated", "--output-format", "json", cwd=tmp_path)
    assert "internal error" not in result.stderr
    assert result.returncode == 1
    findings = json.loads(result.stdout)
    assert [finding["filename"].endswith("main.py") for finding in findings] == [True]
    roles = findings[0]["roles"]
    # The callee's `jr.PRNGKey(key)` is in helper.py: its code, and no place in main.py.
    assert roles["seeded_in"] == {"text": "jr.PRNGKey(key)"}
    # The roles in main.py keep their places.
    assert roles["call"]["line"] == 13
