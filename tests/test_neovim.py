"""The README's Neovim setup, run as written in a real Neovim (headless) against `optlint server`:
the snippet for the installed Neovim's version is the init file, a Python file with a finding is
opened, and the diagnostics Neovim shows are read back. Skipped where Neovim is not installed
(`apt-get install neovim` gives Debian 12's 0.7)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

pytest.importorskip("pygls", reason="the language server needs the `server` extra")

NVIM = shutil.which("nvim")
TRAIN = ("import equinox as eqx\nimport jax\nimport optax\n\n"
         "model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))\n"
         "opt_state = optax.adam(1e-3).init(model)\n")
# After the init file: wait for optlint's diagnostics, write them out, quit.
PROBE = """
vim.cmd("edit train.py")
local ok = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local out = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out, string.format("%d:%d:%s", d.lnum + 1, d.col + 1, tostring(d.code)))
end
vim.fn.writefile(out, "diagnostics.txt")
vim.cmd(ok and "qall!" or "cquit!")
"""


def version() -> tuple[int, int]:
    assert NVIM is not None
    first = subprocess.run([NVIM, "--version"], capture_output=True, text=True).stdout
    found = re.search(r"NVIM v(\d+)\.(\d+)", first)
    assert found, first
    return int(found.group(1)), int(found.group(2))


def readme_snippet(nvim: tuple[int, int]) -> str:
    """The README's Lua block for this Neovim version."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    heading = ("**Neovim** (0.11 or newer)" if nvim >= (0, 11)
               else "Neovim 0.8 to 0.10" if nvim >= (0, 8) else "Neovim 0.7")
    after = readme[readme.index(heading):]
    return after[after.index("```lua\n") + len("```lua\n"):after.index("```\n", after.index("```lua"))]


@pytest.mark.skipif(NVIM is None, reason="Neovim is not installed (apt-get install neovim)")
def test_the_readme_setup_shows_optlint_diagnostics_in_neovim(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    (tmp_path / "train.py").write_text(TRAIN)
    init = tmp_path / "init.lua"
    init.write_text(readme_snippet(version()))
    probe = tmp_path / "probe.lua"
    probe.write_text(PROBE)
    # `optlint` from this environment, as the README's setup finds it on PATH.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_DATA_HOME": str(tmp_path / "data")}
    result = subprocess.run([NVIM, "--headless", "-u", str(init), "-c", f"luafile {probe}"],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    shown = (tmp_path / "diagnostics.txt").read_text().splitlines() \
        if (tmp_path / "diagnostics.txt").exists() else []
    assert result.returncode == 0, (result.stdout, result.stderr, shown)
    assert shown == ["6:35:OPT003"]
