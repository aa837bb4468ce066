"""A fix's added `import equinox as eqx` goes where isort puts it (among the plain third-party
imports, in order of name, before the project's own imports), so ruff's import-sorting rule
(I001) passes on the same commit. Checked with the real ruff."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_optlint_in_process as run_optlint

MODEL = ("import equinox as eqx\n\n\nclass Classifier(eqx.Module):\n    mlp: eqx.nn.MLP\n\n"
         "    def __init__(self, key):\n        self.mlp = eqx.nn.MLP(2, 1, 8, 2, key=key)\n")
USE = ("\nmodel = Classifier(jax.random.PRNGKey(0))\n"
       "opt_state = optax.adam(1e-3).init(model)\n")
LAYOUTS = {
    "between stdlib and first party": ("import os\n\nimport jax\nimport optax\n\n"
                                       "from mypkg.model import Classifier\n"),
    "after a later name": "import jax\nimport optax\nimport zarr\n\nfrom mypkg.model import Classifier\n",
    "before from-imports": ("import os\n\nfrom jax import numpy as jnp\nimport jax\nimport optax\n\n"
                            "from mypkg.model import Classifier\n").replace(
        "from jax import numpy as jnp\nimport jax\nimport optax\n",
        "import jax\nimport optax\nfrom jax import numpy as jnp\n"),
}


def ruff() -> str:
    found = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if found is None:
        pytest.skip("ruff is not installed (the test extra installs it)")
    return found


@pytest.mark.parametrize("header", list(LAYOUTS.values()), ids=list(LAYOUTS))
def test_the_added_import_keeps_the_imports_sorted(tmp_path: Path, header: str) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nsrc = [\".\"]\n")
    (tmp_path / "mypkg").mkdir()
    (tmp_path / "mypkg" / "__init__.py").write_text("")
    (tmp_path / "mypkg" / "model.py").write_text(MODEL)
    train = tmp_path / "train.py"
    train.write_text(header + USE)
    checker = [ruff(), "check", "--isolated", "--select", "I", "train.py"]
    assert subprocess.run(checker, cwd=tmp_path).returncode == 0  # sorted before the fix
    result = run_optlint("check", "-n", "--fix", "train.py", cwd=tmp_path)
    assert "1 fixed" in result.stderr, result.stdout + result.stderr
    fixed = train.read_text()
    assert "import equinox as eqx\n" in fixed and "eqx.filter(model" in fixed
    sorted_check = subprocess.run(checker, cwd=tmp_path, capture_output=True, text=True)
    assert sorted_check.returncode == 0, fixed + sorted_check.stdout
