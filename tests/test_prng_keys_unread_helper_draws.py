"""OPT020 and a helper whose draw from its key parameter reaches nothing in it (issue #25): the
draw is bound to a name the helper never reads again, so calling the helper leaves nothing of
the key behind, and drawing from that key afterwards repeats no draw that reaches a result.
The helper whose draw it returns is still a consumer: found. Run with JAX, another key for the
helper leaves the unread one's result unchanged."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np
import pytest

from conftest import opt020_lines

SOURCE = '''\
import jax


def probe(key, n):
    draw = jax.random.normal(key, (n,))
    return {returned}


def run(key):
    size = probe(key, 3)
    return size, jax.random.uniform(key, (2,))
'''


@pytest.mark.parametrize(("returned", "expected"), [("n * 2", []), ("draw * 2", [11])])
def test_a_helper_draw_nothing_reads(tmp_path: Path, returned: str, expected: list[int]) -> None:
    assert opt020_lines(tmp_path, "probe.py", SOURCE.format(returned=returned)) == expected


@pytest.mark.parametrize(("returned", "changes"), [("n * 2", False), ("draw * 2", True)])
def test_the_helper_when_run(tmp_path: Path, returned: str, changes: bool) -> None:
    path = tmp_path / "probe.py"
    path.write_text(SOURCE.format(returned=returned))
    probe = runpy.run_path(str(path))["probe"]
    first = np.asarray(probe(jax.random.key(0), 3))
    other = np.asarray(probe(jax.random.key(5), 3))
    assert (not np.array_equal(first, other)) == changes
