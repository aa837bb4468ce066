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
