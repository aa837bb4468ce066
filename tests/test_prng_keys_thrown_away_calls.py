"""OPT020 where a draw reaches only a call made as a statement, whose result is thrown away (issue
#25, generax `nn/unet.py:478`: a demo's `t = uniform(key, ...)` feeds only `layer(t, x)` on a
line of its own and an `out` left for a closing debugger). JAX's checker raises on the reuse, but
the draw matters only through what that call does besides returning, which the analysis does
not see: the finding moves to `--preview` with that reason. The look-alike that prints the
call's result is still reported by default."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import opt020_findings, opt020_lines

DEMO = '''\
import jax
import equinox as eqx


class Encoder(eqx.Module):
    weight: jax.Array

    def __init__(self, size, *, key):
        self.weight = jax.random.normal(key, (size,))

    def __call__(self, t, x):
        return self.weight * t + x


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    key = jax.random.key(0)
    layer = Encoder(3, key=key)
    x = jax.numpy.ones(3)
    t = jax.random.uniform(key, (3,))
    {use}
'''


def test_a_draw_only_a_thrown_away_call_reads_is_preview(tmp_path: Path) -> None:
    source = DEMO.format(use="layer(t, x)")
    assert opt020_lines(tmp_path, "demo.py", source) == []
    found = opt020_findings(tmp_path, "demo.py", source, "--preview")
    assert [f["location"]["row"] if "location" in f else f["line"] for f in found] == [20]
    assert "thrown away" in found[0]["message"]


def test_a_printed_result_is_still_reported(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "demo.py", DEMO.format(use="print(layer(t, x))")) == [20]


@pytest.mark.parametrize("use", ["layer(t, x)", "print(layer(t, x))"])
def test_the_checker_raises_on_both(tmp_path: Path, use: str) -> None:
    (tmp_path / "demo.py").write_text(DEMO.format(use=use))
    ran = subprocess.run([sys.executable, "demo.py"], cwd=tmp_path, text=True,
                         capture_output=True, env={"JAX_PLATFORMS": "cpu"})
    assert ran.returncode != 0 and "KeyReuseError" in ran.stderr
