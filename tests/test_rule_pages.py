"""Every rule page's examples, run through the real CLI.

The Example must give findings of exactly that rule (at least one), Use instead none, and where the
rule's fix is automatic, fixing Example (with --unsafe-fixes) must give Use instead. A line
`<!-- optlint-args: ... -->` in the page adds CLI arguments (e.g. a version the hazard needs).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from conftest import REPO, run_optlint_in_process as run_optlint
from optlint.rules import RULES, catalog

PAGES = REPO / "rules"
SECTIONS = ["What it does", "Why is this bad", "Affected versions", "Example", "Use instead",
            "Fix safety"]
# Sections a page may add after the required ones.
OPTIONAL_TRAILING = ["References"]


def sections(page: str) -> dict[str, str]:
    parts = re.split(r"^## +(.+?)\s*$", page, flags=re.MULTILINE)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def python_block(section: str) -> str:
    match = re.search(r"```python\n(.*?)```", section, flags=re.DOTALL)
    assert match, "section has no ```python block"
    return match.group(1)


def page_args(page: str) -> list[str]:
    match = re.search(r"<!-- optlint-args: (.*?) -->", page)
    return shlex.split(match.group(1)) if match else []


def test_every_code_has_a_page() -> None:
    missing = [info.code for info in catalog() if not (PAGES / f"{info.code}.md").is_file()]
    assert missing == []


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
def test_page_examples(rule, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page = (PAGES / f"{rule.code}.md").read_text(encoding="utf-8")
    assert page.startswith(f"# {rule.code}: {rule.name}\n")
    found = sections(page)
    assert list(found) in (SECTIONS, SECTIONS + OPTIONAL_TRAILING)
    args = ["check", "example.py", "--no-cache", *page_args(page)]

    example = tmp_path / "example.py"
    example.write_text(python_block(found["Example"]))
    bad = run_optlint(*args, cwd=tmp_path)
    codes = [line.split()[1] for line in bad.stdout.splitlines() if line.startswith("example.py:")]
    assert bad.returncode == 1 and codes and set(codes) == {rule.code}, bad.stdout + bad.stderr

    good_text = python_block(found["Use instead"])
    if rule.fix_availability == "always":
        run_optlint(*args, "--fix", "--unsafe-fixes", cwd=tmp_path)
        assert example.read_text() == good_text

    example.write_text(good_text)
    good = run_optlint(*args, cwd=tmp_path)
    assert good.returncode == 0 and good.stdout == "", good.stdout + good.stderr


def test_rule_command_prints_page() -> None:
    result = run_optlint("rule", "OPT003")
    assert result.returncode == 0
    # The page as written, less the README table's lines (hidden markup, not for readers).
    page = (PAGES / "OPT003.md").read_text(encoding="utf-8")
    assert result.stdout == re.sub(r"<!-- (readme-flags|readme-fix|verify-on-installed): .*? -->\n", "", page)
    assert "readme-flags" in page
