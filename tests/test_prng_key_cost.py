"""What OPT020's key analysis does once per run rather than once per file (issue #25's cost
bound): a project file's import proof and its text's words are worked out once for every file
importing it, and a reuse resting on what the analysis cannot see is not worded (its message's
line numbers cost the positions of its nodes) when the run drops it, without `--preview`. The
findings are the same either way; each test runs the real command line."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import finding_line
from conftest import run_optlint_in_process as run_optlint
from test_prng_key_given import BROADCAST_TO_A_GIVEN_MODEL
from test_prng_keys_proven_raises import PACKAGE, SCRIPTS, TOOLS


def _lines(tmp_path: Path, *arguments: str) -> list[tuple[str, int]]:
    result = run_optlint("check", *arguments, "--select", "OPT020", "--no-cache", "--jobs", "1",
                         "--output-format", "json", cwd=tmp_path)
    return sorted((Path(f["filename"]).name, finding_line(f)) for f in json.loads(result.stdout))


def test_an_imported_module_is_read_once_for_every_script_importing_it(
        tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from optlint.analysis import module_names  # reads the project's modules for proven_raises

    read: list[str] = []
    original = module_names.read_bytes

    def counted(path):  # type: ignore[no-untyped-def]
        read.append(Path(path).name)
        return original(path)

    monkeypatch.setattr(module_names, "read_bytes", counted)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(PACKAGE)
    (tmp_path / "pkg" / "tools.py").write_text(TOOLS)
    (tmp_path / "scripts").mkdir()
    for name in ("missing_name.py", "bound_names.py"):
        (tmp_path / "scripts" / name).write_text(SCRIPTS[name][0])
        (tmp_path / "scripts" / f"again_{name}").write_text(SCRIPTS[name][0])
    # The script importing a name `pkg` lacks cannot run (no finding); the others reuse.
    assert _lines(tmp_path, "scripts") == [("again_bound_names.py", 7), ("bound_names.py", 7)]
    assert read.count("__init__.py") == 1


def test_a_reuse_only_preview_shows_is_worded_only_for_preview(
        tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from optlint.rules import prng_key_reuse

    worded: list[int] = []
    original = prng_key_reuse.reuse_finding

    def counted(ctx, reuse, analysis, flow):  # type: ignore[no-untyped-def]
        worded.append(1)
        return original(ctx, reuse, analysis, flow)

    monkeypatch.setattr(prng_key_reuse, "reuse_finding", counted)
    # `train=False`: the model draws nothing, so the reuse rests on what is unseen.
    off = BROADCAST_TO_A_GIVEN_MODEL.replace("(xs, True, key)", "(xs, False, key)")
    (tmp_path / "train.py").write_text(off)
    assert _lines(tmp_path, "train.py") == []
    assert worded == []
    assert _lines(tmp_path, "train.py", "--preview") == [("train.py", 19)]
    assert worded == [1]


TRAINER = '''\
import jax


class Trainer:
    def __init__(self, scale):
        self.scale = scale

    def noise(self, key, shape):
        key, sub = jax.random.split(key)
        first = jax.random.normal(sub, shape) * self.scale
        second = jax.random.normal(key, shape) * self.scale
        return first + second
'''


def test_the_raise_proofs_are_given_the_walked_scope(
        tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Every statement a walk meets is asked whether it must raise (`hist.steps` where `hist`
    cannot have `steps`), which needs the scope the statement runs in: the walk knows it, so
    no map of the file's every node to its parent is built to look it up (a finding's
    position still builds one: hence a file without)."""
    from optlint.analysis import index

    built: list[int] = []
    original = index.parent_map

    def counted(node):  # type: ignore[no-untyped-def]
        built.append(1)
        return original(node)

    monkeypatch.setattr(index, "parent_map", counted)
    (tmp_path / "trainer.py").write_text(TRAINER)
    assert _lines(tmp_path, "trainer.py") == []
    assert built == []
    reused = TRAINER.replace("jax.random.normal(key, shape)", "jax.random.normal(sub, shape)")
    (tmp_path / "trainer.py").write_text(reused)
    assert _lines(tmp_path, "trainer.py") == [("trainer.py", 11)]
