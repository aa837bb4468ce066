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

    import optlint.parsing as parsing

    paths = write(tmp_path)
    parsed: list[str] = []
    original = parsing._parse_text  # every parse optlint makes

    def counting(text: str) -> cst.Module:
        parsed.append(text)
        return original(text)

    options = LintOptions(Selection.from_settings(Settings(project_root=tmp_path)),
                          LibraryVersions(), tmp_path)
    parsing._parse_text = counting
    try:
        results = check_paths(paths, options, jobs=1)
    finally:
        parsing._parse_text = original
    assert [result.filename for result in results] == [str(path) for path in paths]
    assert len(parsed) == len(set(parsed))  # every file's text parsed once


# train.py calls helpers.init_state: the callers search for init_state (made while checking
# helpers.py, after train.py) looks into train.py, whose tree its own check has just made.
CALLERS = {
    "helpers.py": "import optax\n\n\ndef init_state(model):\n    return optax.adam(1e-3).init(model)\n",
    "train.py": ("import equinox as eqx\nimport jax\n\nfrom helpers import init_state\n\n"
                 "state = init_state(eqx.nn.MLP(2, 1, 4, 1, key=jax.random.PRNGKey(0)))\n"),
    "other.py": "import optax\n\nopt = optax.sgd(0.1)\n",
}


def parses_in(paths: list[Path], root: Path, jobs: int = 1) -> tuple[list[str], list[str]]:
    """The texts parsed while checking `paths`, and the findings."""
    import libcst as cst

    import optlint.parsing as parsing

    parsed: list[str] = []
    original = parsing._parse_text  # every parse optlint makes

    def counting(text: str) -> cst.Module:
        parsed.append(text)
        return original(text)

    options = LintOptions(Selection.from_settings(Settings(project_root=root)),
                          LibraryVersions(), root)
    parsing._parse_text = counting
    try:
        results = check_paths(paths, options, jobs=jobs)
    finally:
        parsing._parse_text = original
    return parsed, [f"{Path(r.filename).name}:{d.line}: {d.code}" for r in results
                    for d in r.diagnostics]


def test_a_linted_importer_is_not_parsed_again_for_callers(tmp_path: Path) -> None:
    for name, text in CALLERS.items():
        (tmp_path / name).write_text(text)
    paths = sorted(tmp_path / name for name in CALLERS)
    order, kept_until = lint_order.check_plan(paths, tmp_path)
    assert [path.name for path in order].index("train.py") < [
        path.name for path in order].index("helpers.py")
    assert kept_until == {(tmp_path / "train.py").resolve(): order.index(tmp_path / "helpers.py")}
    parsed, found = parses_in(paths, tmp_path)
    assert parsed.count(CALLERS["train.py"]) == 1  # its own check's tree served the search
    assert found == ["helpers.py:5: OPT003"]
    # helpers.py alone: the same finding, with train.py parsed for the callers search.
    alone, found_alone = parses_in([tmp_path / "helpers.py"], tmp_path)
    assert found_alone == found and alone.count(CALLERS["train.py"]) == 1


def test_a_kept_tree_is_dropped_once_no_later_file_needs_it(tmp_path: Path) -> None:
    from optlint.engine import Linter

    for name, text in CALLERS.items():
        (tmp_path / name).write_text(text)
    paths = sorted(tmp_path / name for name in CALLERS)
    order, kept_until = lint_order.check_plan(paths, tmp_path)
    linter = Linter(LintOptions(Selection.from_settings(Settings(project_root=tmp_path)),
                                LibraryVersions(), tmp_path))
    linter.plan(order, kept_until)
    held = []
    for path in order:
        linter.check_path(path)
        held.append(sorted(p.name for p in linter.project._held))
    # train.py is held after its own check, up to helpers.py's; dropped at the next file's.
    assert held[order.index(tmp_path / "train.py")] == ["train.py"]
    linter.check_path(tmp_path / "other.py")
    linter.project.drop_held(len(order))
    assert linter.project._held == {}
    assert (tmp_path / "train.py").resolve() not in linter.project._files


def test_a_file_looked_into_by_its_own_check_is_not_parsed_again(tmp_path: Path) -> None:
    # helpers.py alone: the callers search for init_state reads train.py, whose call resolves
    # init_state back in helpers.py, the file being checked: its own tree answers.
    for name, text in CALLERS.items():
        (tmp_path / name).write_text(text)
    parsed, found = parses_in([tmp_path / "helpers.py"], tmp_path)
    assert parsed.count(CALLERS["helpers.py"]) == 1
    assert found == ["helpers.py:5: OPT003"]  # the finding that needs the search is made
    # Every file checked: each text parsed once, the same finding.
    parsed, found = parses_in(sorted(tmp_path / name for name in CALLERS), tmp_path)
    assert sorted(parsed) == sorted(CALLERS.values())
    assert found == ["helpers.py:5: OPT003"]
    # A file changed on disk since it was read is not the text being checked: parsed afresh.
    edited = CALLERS["helpers.py"].replace("1e-3", "1e-2")
    from optlint.engine import Linter

    linter = Linter(LintOptions(Selection.from_settings(Settings(project_root=tmp_path)),
                                LibraryVersions(), tmp_path))
    result = linter.lint_text(edited, str(tmp_path / "helpers.py"))
    assert [d.code for d in result.diagnostics] == ["OPT003"]
    assert linter.project._files[(tmp_path / "helpers.py").resolve()].index.module_scope.node \
        .code == CALLERS["helpers.py"]
