"""OPT020 on the ways real fix commits passed keys (issue #25): loops whose first iteration
is special, ... Each program is checked by the real command line."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_optlint_in_process as run_optlint


def _opt020_lines(tmp_path: Path, name: str, source: str, *extra: str) -> list[int]:
    (tmp_path / name).write_text(source)
    result = run_optlint("check", name, "--select", "OPT020", "--no-cache",
                         "--output-format", "json", *extra, cwd=tmp_path)
    return sorted(f["location"]["row"] if "location" in f else f["line"]
                  for f in json.loads(result.stdout))


FIRST_ITERATION_SPECIAL = '''\
import haiku as hk
import jax


def mlp(x, z, sizes, dropout_input):
    for i, size in enumerate(sizes):
        if i == 0:
            x = hk.Linear(size)(x)
            if dropout_input:
                x = hk.dropout(z, 0.1, x)
        else:
            x = hk.Linear(size)(x)
            x = hk.dropout(z, 0.1, x)
        x = jax.nn.relu(x)
    return x


def only_first(x, z, sizes):
    for i, size in enumerate(sizes):
        if i == 0:
            x = hk.dropout(z, 0.1, x)
        x = hk.Linear(size)(x)
    return x

'''


def test_a_loop_whose_first_iteration_is_special(tmp_path: Path) -> None:
    """`if i == 0: ... else: dropout(z, ...)`: every iteration but the first takes the `else`,
    so its draw repeats from the second iteration on; a draw only the first iteration makes
    (`if i == 0:` alone) is made once."""
    assert _opt020_lines(tmp_path, "mlp.py", FIRST_ITERATION_SPECIAL) == [13]
