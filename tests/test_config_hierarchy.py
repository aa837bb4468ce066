"""One configuration rule for every entry point, ruff's: each file takes the configuration
closest to it (`.optlint.toml`, `optlint.toml`, or a pyproject.toml with [tool.optlint], folder
by folder upwards). The CLI (and so pre-commit), flake8 and the language server agree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_optlint_in_process as run_optlint

TRAIN = ("import equinox as eqx\nimport jax\nimport optax\n\n"
         "model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))\n"
         "opt_state = optax.adam(1e-3).init(model)\n")


def tree(tmp_path: Path, sub_config: tuple[str, str]) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "train.py").write_text(TRAIN)
    name, text = sub_config
    (tmp_path / "sub" / name).write_text(text)


CONFIGS = [("pyproject.toml", '[tool.optlint]\nignore = ["OPT003"]\n'),
           ("optlint.toml", 'ignore = ["OPT003"]\n'),
           (".optlint.toml", '[tool.optlint]\nignore = ["OPT003"]\n')]


@pytest.mark.parametrize("sub_config", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_the_closest_configuration_governs_each_file(tmp_path: Path,
                                                     sub_config: tuple[str, str]) -> None:
    tree(tmp_path, sub_config)
    from_root = run_optlint("check", "-n", ".", cwd=tmp_path)
    assert from_root.stdout.count("OPT003") == 1 and "sub" not in from_root.stdout
    named = run_optlint("check", "-n", "sub/train.py", "train.py", cwd=tmp_path)
    assert named.stdout.count("OPT003") == 1 and named.stdout.startswith("train.py")
    inside = run_optlint("check", "-n", ".", cwd=tmp_path / "sub")
    assert inside.returncode == 0
    # --config and --isolated are one configuration for every file.
    isolated = run_optlint("check", "-n", "--isolated", ".", cwd=tmp_path)
    assert isolated.stdout.count("OPT003") == 2
    # Standard input takes the configuration closest to --stdin-filename.
    piped = run_optlint("check", "-n", "--stdin-filename", "sub/train.py", "-", cwd=tmp_path,
                        stdin=TRAIN)
    assert piped.returncode == 0 and "OPT003" not in piped.stdout


def test_a_dedicated_file_wins_over_pyproject_in_its_folder(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.optlint]\nignore = ["OPT003"]\n')
    (tmp_path / "optlint.toml").write_text("select = [\"OPT\"]\n")
    (tmp_path / "train.py").write_text(TRAIN)
    result = run_optlint("check", "-n", "--show-settings", cwd=tmp_path)
    assert "optlint.toml" in result.stdout
    assert run_optlint("check", "-n", ".", cwd=tmp_path).stdout.count("OPT003") == 1


def test_flake8_takes_the_closest_configuration_too(tmp_path: Path) -> None:
    pytest.importorskip("flake8")
    tree(tmp_path, CONFIGS[0])
    result = subprocess.run([sys.executable, "-m", "flake8", "--select", "OPT", "."],
                            cwd=tmp_path, capture_output=True, text=True)
    assert result.stdout.count("OPT003") == 1 and "sub" not in result.stdout, result.stdout


def test_the_server_reads_a_changed_configuration_without_being_told(tmp_path: Path) -> None:
    """A client that registers no file watchers (Neovim's default on Linux) still gets new
    settings: the project notices that its configuration file changed."""
    from optlint.server.projects import Projects

    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    (tmp_path / "sub").mkdir()
    projects = Projects()
    document = tmp_path / "sub" / "train.py"
    assert projects.for_file(document).settings.ignore == []
    (tmp_path / "pyproject.toml").write_text('[tool.optlint]\nignore = ["OPT003"]\n')
    assert projects.for_file(document).settings.ignore == ["OPT003"]
    (tmp_path / "sub" / "optlint.toml").write_text('ignore = ["OPT001"]\n')
    projects.reload()  # a new configuration file: what a watcher or a didSave reports
    assert projects.for_file(document).settings.ignore == ["OPT001"]
