"""Where the rule pages (rules/OPTnnn.md) are: beside the package in a checkout or editable
install, or inside it (`optlint.rule_pages`) in a wheel."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path


def page_text(code: str) -> str | None:
    checkout = Path(__file__).resolve().parents[1] / "rules" / f"{code}.md"
    if checkout.is_file():
        return checkout.read_text(encoding="utf-8")
    try:
        packaged = resources.files("optlint.rule_pages").joinpath(f"{code}.md")
    except ModuleNotFoundError:
        return None
    return packaged.read_text(encoding="utf-8") if packaged.is_file() else None


def readable_page(code: str) -> str | None:
    """The page as a reader sees it: without the markup the tests and the verifier read
    (`<!-- optlint-args: ... -->`)."""
    page = page_text(code)
    return None if page is None else re.sub(r"<!--.*?-->\n?", "", page, flags=re.DOTALL)


def _marked(page: str, key: str) -> str:
    found = re.search(rf"<!-- {key}: (.*?) -->", page)
    return found.group(1) if found else "–"


def rules_table() -> str:
    """The README's rules table: each code and name from the catalog, what it flags and its fix
    from the page's `readme-flags` / `readme-fix` lines (python -m optlint.pages rewrites it)."""
    from optlint.catalog import RULE_INFOS, SYNTAX_ERROR, UNUSED_NOQA

    rows = ["| code | name | what it flags | fix |", "|---|---|---|---|"]
    for info in (*RULE_INFOS, UNUSED_NOQA, SYNTAX_ERROR):
        page = page_text(info.code) or ""
        rows.append(f"| [{info.code}](rules/{info.code}.md) | {info.name} | "
                    f"{_marked(page, 'readme-flags')} | {_marked(page, 'readme-fix')} |")
    return "\n".join(rows) + "\n"


def readme_with_table(readme: str) -> str:
    """`readme` with its rules table (the lines from `| code | name` to the first line not in
    the table) replaced by `rules_table()`."""
    start = readme.index("| code | name | what it flags | fix |\n")
    end = start
    while end < len(readme) and readme.startswith("|", end):
        end = readme.index("\n", end) + 1
    return readme[:start] + rules_table() + readme[end:]


if __name__ == "__main__":  # pragma: no cover - `python -m optlint.pages`: rewrite the table
    readme_path = Path(__file__).resolve().parents[1] / "README.md"
    readme_path.write_text(readme_with_table(readme_path.read_text(encoding="utf-8")),
                           encoding="utf-8")
