"""Where the rule pages (rules/OPTnnn.md) are: beside the package in a checkout or editable
install, or inside it (`optlint.rule_pages`) in a wheel."""

from __future__ import annotations

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
