"""A file no rule can fire in is not parsed for its `# noqa` comments: unused OPT codes are found
from the comments alone, and agree with what a parsed file reports."""

from __future__ import annotations

from pathlib import Path

from test_fast_start import loaded_modules

from optlint.catalog import all_codes
from optlint.engine import Linter, LintOptions
from optlint.selection import Selection
from optlint.versions import LibraryVersions

NOQA = """x = 1  # noqa: OPT003
y = 2  # noqa: E501
z = "# noqa: OPT001"
w = 3  # noqa
v = 4  # noqa: OPT001, F401
"""
# A trigger word in a last comment: the file is parsed and linted, with no finding.
PARSED = NOQA + "# optax\n"


def lint(text: str, tmp_path: Path, respect_noqa: bool = True) -> list[tuple[int, int, str]]:
    options = LintOptions(Selection(frozenset(all_codes())), LibraryVersions(), tmp_path,
                          respect_noqa=respect_noqa)
    result = Linter(options).lint_text(text, str(tmp_path / "a.py"))
    return [(d.line, d.column, d.message) for d in result.diagnostics]


def test_unused_codes_from_comments_alone_agree_with_a_parsed_file(tmp_path: Path) -> None:
    linter = Linter(LintOptions(Selection(frozenset(all_codes())), LibraryVersions(), tmp_path))
    assert not linter.may_match(NOQA) and linter.may_match(PARSED)
    expected = [(1, 8, "unused `noqa` directive (unused: OPT003)"),
                (5, 8, "unused `noqa` directive (unused: OPT001)")]
    assert lint(NOQA, tmp_path) == lint(PARSED, tmp_path) == expected


def test_disabled_noqa_and_a_deselected_opt100(tmp_path: Path) -> None:
    assert lint(NOQA, tmp_path, respect_noqa=False) == []
    options = LintOptions(Selection(frozenset(all_codes()) - {"OPT100"}), LibraryVersions(),
                          tmp_path)
    assert Linter(options).lint_text(NOQA, str(tmp_path / "a.py")).diagnostics == []


def test_a_noqa_file_without_trigger_words_imports_no_libcst(tmp_path: Path) -> None:
    (tmp_path / "plain.py").write_text("import os  # noqa: F401\nx = 1  # noqa\n")
    (tmp_path / "unused.py").write_text("x = 1  # noqa: OPT003\n")
    assert loaded_modules(tmp_path, "check", "--no-cache", "plain.py", "unused.py") == []


def test_a_file_with_a_finding_still_uses_its_noqa(tmp_path: Path) -> None:
    bad = ("import equinox as eqx\nimport jax\nimport optax\n\n"
           "model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))\n"
           "opt_state = optax.adam(1e-3).init(model)  # noqa: OPT003, OPT001\n")
    assert lint(bad, tmp_path) == [(6, 43, "unused `noqa` directive (unused: OPT001)")]
