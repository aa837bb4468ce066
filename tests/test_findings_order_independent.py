"""The same findings whatever else a run checks, in whatever order, with however many jobs, with
the cache cold or warm (issue #25: rejax's `tests/test_td3.py` findings came and went between
full runs of the same code). Other files' key flows are kept for the whole run, so a summary
one file's check leaves behind must not depend on which file asked first: here `lib.py`'s
`draw_a` and `draw_b` call each other, `s2.py` asks about `draw_a` (and is checked first), `s1.py`
about `draw_b`. Before, `draw_b`'s summary, made while `draw_a`'s was under way, said it drew
nothing, and `s1.py`'s reuse was reported only when it was checked alone. Through the real
CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import finding_line, run_optlint

LIB = '''\
import jax


def draw_a(key, n):
    if n > 0:
        return draw_b(key, n - 1)
    return jax.random.normal(key, (2,))


def draw_b(key, n):
    return draw_a(key, n)
'''

REUSES = '''\
import jax

from lib import draw_b


def second(key):
    x = draw_b(key, 1)
    y = jax.random.normal(key, (2,))
    return x + y
'''

SPLITS = '''\
import jax

from lib import draw_a


def first(key):
    key_a, key_b = jax.random.split(key)
    return draw_a(key_a, 1) + draw_a(key_b, 1)
'''


def _project(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "lib.py").write_text(LIB)
    (tmp_path / "s1.py").write_text(REUSES)
    (tmp_path / "s2.py").write_text(SPLITS)


def _found(tmp_path: Path, *args: str) -> list[tuple[str, int]]:
    result = run_optlint("check", *args, "--select", "OPT020", "--output-format", "json",
                         "--exit-zero", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return sorted((Path(f["filename"]).name, finding_line(f))
                  for f in json.loads(result.stdout))


@pytest.mark.parametrize("args", [
    (".", "--no-cache", "--jobs", "1"),
    (".", "--no-cache", "--jobs", "2"),
    ("s2.py", "s1.py", "--no-cache", "--jobs", "1"),
    ("s1.py", "--no-cache"),
])
def test_a_cycle_of_other_files_functions(tmp_path: Path, args: tuple[str, ...]) -> None:
    _project(tmp_path)
    assert _found(tmp_path, *args) == [("s1.py", 8)]


def test_warm_and_cold_cache(tmp_path: Path) -> None:
    """A warm run checks again only the file that changed: it alone asks `lib.py`'s flows."""
    _project(tmp_path)
    cold = _found(tmp_path, ".")
    (tmp_path / "s1.py").write_text(REUSES + "# edited\n")
    warm = _found(tmp_path, ".")
    assert cold == warm == [("s1.py", 8)]
