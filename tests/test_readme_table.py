"""The README's rules table is generated from the catalog and the rule pages: a rule is described
once, on its page (`python -m optlint.pages` rewrites the table)."""

from __future__ import annotations

from conftest import REPO

from optlint.catalog import RULE_INFOS, SYNTAX_ERROR, UNUSED_NOQA
from optlint.pages import page_text, readme_with_table, rules_table


def test_the_readme_table_is_the_generated_one() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert readme_with_table(readme) == readme, "run `python -m optlint.pages`"


def test_an_edited_row_is_seen() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    edited = readme.replace("| prng-key-reuse | one ", "| prng-key-reuse | a ")
    assert edited != readme and readme_with_table(edited) == readme


def test_every_code_has_a_row_and_a_description_on_its_page() -> None:
    infos = (*RULE_INFOS, UNUSED_NOQA, SYNTAX_ERROR)
    rows = rules_table().splitlines()[2:]
    assert [row.split("]", 1)[0].removeprefix("| [") for row in rows] == [
        info.code for info in infos]
    assert [info.code for info in infos if "<!-- readme-flags: " not in (
        page_text(info.code) or "")] == []
