"""benchmarks/repo_precision.py on a tiny git repository made here: a real `git init` and commit,
a manifest and a labels file, and optlint run on the extracted tree."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "repo_precision.py"
spec = importlib.util.spec_from_file_location("repo_precision", SCRIPT)
assert spec is not None and spec.loader is not None
repo_precision = importlib.util.module_from_spec(spec)
sys.modules["repo_precision"] = repo_precision
spec.loader.exec_module(repo_precision)

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

REUSE = """import jax


def sample(key):
    noise = jax.random.normal(key, (3,))
    mask = jax.random.bernoulli(key, 0.5, (3,))
    return noise * mask
"""


GUIDE = """---
jupytext:
  text_representation:
    format_name: myst
kernelspec:
  name: python3
---

# A guide

```{code-cell} ipython3
""" + REUSE + "```\n"


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True,
                          check=True).stdout.strip()


def make_mirror(mirrors: Path) -> str:
    """owner/tiny with one file that reuses a key on line 6, a MyST notebook that does so in its
    cell 2, a copy its .gitignore names and a file only the work tree has (neither must be
    checked); the commit's id."""
    work = mirrors / "owner+tiny" / "repo"
    work.mkdir(parents=True)
    git(work, "init", "-q")
    (work / "pkg").mkdir()
    (work / "pkg" / "draws.py").write_text(REUSE, encoding="utf-8")
    (work / "README.md").write_text("not python\n", encoding="utf-8")
    (work / "docs").mkdir()  # a MyST notebook: checked as `optlint check` checks a checkout
    (work / "docs" / "guide.md").write_text(GUIDE, encoding="utf-8")
    (work / "build").mkdir()  # committed but ignored, as a checkout's optlint skips it
    (work / "build" / "draws.py").write_text(REUSE, encoding="utf-8")
    (work / ".gitignore").write_text("build/\n", encoding="utf-8")
    git(work, "add", "-f", ".")
    git(work, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    (work / "uncommitted.py").write_text(REUSE, encoding="utf-8")
    return git(work, "rev-parse", "HEAD")


def run(tmp_path: Path, commit: str, line: str, verdict: str,
        extra: tuple[str, ...] = ()) -> int:
    manifest = tmp_path / "repos.tsv"
    manifest.write_text(f"repo\tcommit\tset\nowner/tiny\t{commit}\t1\nowner/absent\t{commit}\t1\n",
                        encoding="utf-8")
    labels = tmp_path / "labels.tsv"
    labels.write_text(
        "repo\tcommit\tpath\tline\trule\tverdict\treason\n"
        f"owner/tiny\t{commit}\tpkg/draws.py\t{line}\tOPT020\t{verdict}\tran it\n",
        encoding="utf-8")
    return int(repo_precision.main([
        "--mirrors", str(tmp_path / "mirrors"), "--cache", str(tmp_path / "cache"),
        "--repos", str(manifest), "--labels", str(labels), *extra,
    ]))


def test_a_labelled_finding_is_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit = make_mirror(tmp_path / "mirrors")
    assert run(tmp_path, commit, "6", "TP") == 0
    out = capsys.readouterr().out
    assert "owner/tiny" in out.split("all (")[0]
    total = next(line for line in out.splitlines() if "all (1 repositories)" in line).split()
    assert total[-5:] == ["2", "1", "0", "1", "1.000"]  # findings, TP, FP, unlabelled, precision
    assert "skipped, mirror or commit absent (1): owner+absent@" in out
    assert f"owner/tiny\t{commit}\tdocs/guide.md\tcell 2:6\tOPT020\t??" in out  # unlabelled
    tree = tmp_path / "cache" / f"owner+tiny@{commit[:12]}"
    assert (tree / "pkg" / "draws.py").read_text(encoding="utf-8") == REUSE
    assert (tree / "README.md").exists() and "README" not in out  # no notebook: not read
    assert not (tree / "uncommitted.py").exists()
    assert (tree / ".gitignore").exists() and (tree / "build" / "draws.py").exists()


def test_a_tree_extracted_without_markdown_is_extracted_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit = make_mirror(tmp_path / "mirrors")
    tree = tmp_path / "cache" / f"owner+tiny@{commit[:12]}"
    (tree / "pkg").mkdir(parents=True)
    (tree / "pkg" / "draws.py").write_text(REUSE, encoding="utf-8")
    (tree / ".optlint-repo-extracted").write_text(commit + "\n", encoding="utf-8")  # as before
    assert run(tmp_path, commit, "6", "TP") == 0
    assert (tree / "docs" / "guide.md").read_text(encoding="utf-8") == GUIDE
    assert "docs/guide.md\tcell 2:6" in capsys.readouterr().out


def test_a_lost_true_finding_fails_and_a_false_one_fails_the_floor(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commit = make_mirror(tmp_path / "mirrors")
    assert run(tmp_path, commit, "5", "TP") == 1  # labelled TP on a line with no finding
    out = capsys.readouterr().out
    assert "labelled but not reported (1)" in out
    assert "owner/tiny\t" + commit + "\tpkg/draws.py\t6\tOPT020\t??" in out  # unlabelled row
    assert run(tmp_path, commit, "6", "FP") == 0
    assert run(tmp_path, commit, "6", "FP", ("--check",)) == 1


def test_notebook_lines_match_however_spaced() -> None:
    assert repo_precision.notebook_line("cell6:2") == "cell 6:2"
    assert repo_precision.notebook_line("cell 6:2") == "cell 6:2"
    assert repo_precision.notebook_line("616") == "616"
