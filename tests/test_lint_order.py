"""The order files are checked in (optlint/lint_order.py): importers before what they import, so
that a tree parsed for an importer's lookup is reused by the imported file's own check."""

from __future__ import annotations

from pathlib import Path

from optlint import lint_order
from optlint.config import Settings
from optlint.engine import LintOptions
from optlint.pool import check_paths
from optlint.selection import Selection
from optlint.versions import LibraryVersions

FILES = {
    "base.py": "import equinox as eqx\n\n\nclass Base(eqx.Module):\n    size: int\n",
    "models.py": "from base import Base\n\n\nclass Net(Base):\n    pass\n",
    "train.py": "import optax\nfrom models import Net\n\nopt = optax.adam(1e-3).init(Net(1))\n",
    "cycle_a.py": "import cycle_b\n",
    "cycle_b.py": "import cycle_a\n",
}


def write(root: Path) -> list[Path]:
    for name, text in FILES.items():
        (root / name).write_text(text)
    return sorted(root / name for name in FILES)


def test_importers_come_before_what_they_import(tmp_path: Path) -> None:
    paths = write(tmp_path)
    order = [path.name for path in lint_order.importers_first(paths, tmp_path)]
    assert sorted(order) == sorted(FILES)
    assert order.index("train.py") < order.index("models.py") < order.index("base.py")


def test_a_tree_parsed_for_a_lookup_is_not_parsed_again(tmp_path: Path) -> None:
    import libcst as cst

    import optlint.analysis.project as project

    paths = write(tmp_path)
    parsed: list[str] = []
    original = project.cst.parse_module

    def counting(text: str) -> cst.Module:
        parsed.append(text)
        return original(text)

    options = LintOptions(Selection.from_settings(Settings(project_root=tmp_path)),
                          LibraryVersions(), tmp_path)
    project.cst.parse_module = counting  # type: ignore[assignment]
    try:
        results = check_paths(paths, options, jobs=1)
    finally:
        project.cst.parse_module = original
    assert [result.filename for result in results] == [str(path) for path in paths]
    assert len(parsed) == len(set(parsed))  # every file's text parsed once
