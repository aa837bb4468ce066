"""The README's Neovim setup, run as written in a real Neovim (headless) against `optlint server`:
a snippet is the init file, a Python file with a finding is opened, and the diagnostics Neovim
shows are read back. The README has one snippet per range of Neovim versions; each runs where the
installed Neovim is in its range and is skipped, saying so, elsewhere: Debian 12's apt installs
0.7.2, so here the 0.8-0.10 and 0.11 snippets are skipped (no newer Neovim can be installed).
Skipped where Neovim is not installed at all."""

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


# The README's heading for each snippet: the Neovim versions it is for, and their name.
SNIPPETS = {
    "**Neovim** (0.11 or newer)": ((0, 11), (99, 0), "0.11 or newer"),
    "Neovim 0.8 to 0.10": ((0, 8), (0, 11), "0.8 to 0.10"),
    "Neovim 0.7": ((0, 7), (0, 8), "0.7"),
}


def readme_snippet(heading: str) -> str:
    """The README's Lua block after `heading`."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    after = readme[readme.index(heading):]
    return after[after.index("```lua\n") + len("```lua\n"):after.index("```\n", after.index("```lua"))]


@pytest.mark.skipif(NVIM is None, reason="Neovim is not installed (apt-get install neovim)")
@pytest.mark.parametrize("heading", list(SNIPPETS), ids=["0.11", "0.8-0.10", "0.7"])
def test_the_readme_setup_shows_optlint_diagnostics_in_neovim(tmp_path: Path,
                                                              heading: str) -> None:
    oldest, too_new, versions = SNIPPETS[heading]
    installed = version()
    if not oldest <= installed < too_new:
        pytest.skip(f"the README's snippet for Neovim {versions} needs such a Neovim; the "
                    f"installed one is {installed[0]}.{installed[1]} (Debian 12's apt has no "
                    f"other)")
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    (tmp_path / "train.py").write_text(TRAIN)
    init = tmp_path / "init.lua"
    init.write_text(readme_snippet(heading))
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
