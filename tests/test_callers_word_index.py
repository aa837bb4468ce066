"""The callers search finds the files naming a function either by scanning every file's text per
name or from an index of every file's words: a run of many files indexes at the first name, and
both ways find the same files in the same order."""

from __future__ import annotations

from pathlib import Path

from optlint.analysis.project import ProjectIndex

FILES = {
    "a.py": "from b import step\nstep(1)  # step_fn\n",
    "b.py": "def step(x):\n    return x\n\ndef step_fn(y):\n    return step(y)\n",
    "c.py": "import b\nb.step_fn(2)\nprint('step')\n",
    "d.py": "x_step = 1\nstepper = 2\n",
}
NAMES = ["step", "step_fn", "b", "x_step", "stepper", "missing", "print", "x"]


def _project(tmp_path: Path, files: int) -> ProjectIndex:
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    project = ProjectIndex(tmp_path)
    project.checking(files)
    return project


def test_many_files_index_words_at_the_first_name(tmp_path: Path) -> None:
    scanning, indexing = _project(tmp_path, 1), _project(tmp_path, 100)
    for name in NAMES:
        scanned = scanning._files_naming(name, scanning.project_texts())
        indexed = indexing._files_naming(name, indexing.project_texts())
        assert [path.name for path in indexed] == [path.name for path in scanned], name
    assert scanning._scans == len(NAMES)  # under `_SCANS_BEFORE_WORD_INDEX`: one scan each
    assert indexing._scans == 0
