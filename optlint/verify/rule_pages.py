"""`optlint verify --rules`: each rule page's Example (as the original) and Use instead (as the
fix) run on the installed versions, one table row per rule: which hazards are live here."""

from __future__ import annotations

import itertools
import re
import shlex
import tempfile
from dataclasses import replace
from pathlib import Path

import click

from optlint.config import ConfigError
from optlint.engine import Linter
from optlint.pages import page_text
from optlint.rules import SYNTAX_ERROR, UNUSED_NOQA, all_codes, runtime_check
from optlint.exits import EXIT_CLEAN, EXIT_ERROR
from optlint.verify.command import VerifyRequest, fix_options
from optlint.verify.report import environment_line
from optlint.verify.session import VerifyError, check_python, verify_source
from optlint.verify.verdict import Verdict, describe
from optlint.versions import KnownVersion


def page_blocks(page: str) -> tuple[str, str] | None:
    """The ```python blocks under `## Example` and `## Use instead`."""
    blocks = []
    for title in ("Example", "Use instead"):
        match = re.search(rf"^## +{title}\s*\n.*?```python\n(.*?)```", page,
                          flags=re.DOTALL | re.MULTILINE)
        if match is None:
            return None
        blocks.append(match.group(1))
    return blocks[0], blocks[1]


def page_versions(page: str) -> dict[str, str]:
    """`<!-- optlint-args: --optax-version 0.2.3 -->`: the versions the Example is linted with,
    so a version-gated finding exists to run on the installed versions."""
    match = re.search(r"<!-- optlint-args: (.*?) -->", page)
    words = shlex.split(match.group(1)) if match else []
    return {word[2:-len("-version")]: value for word, value in itertools.pairwise(words)
            if word.endswith("-version")}


def verify_page(code: str, request: VerifyRequest, folder: Path) -> tuple[str, list[Verdict]]:
    page = page_text(code)
    if page is None:
        return "no rule page yet", []
    blocks = page_blocks(page)
    if blocks is None:
        return "no Example / Use instead blocks", []
    if runtime_check(code) is None:
        return "no runtime check for this rule", []
    example, use_instead = blocks
    options = fix_options(VerifyRequest([], select=[code]))
    lint_versions = {**options.versions.known, **{
        library: KnownVersion(version, "rule page") for library, version in
        page_versions(page or "").items()}}
    options = replace(options, versions=replace(options.versions, known=lint_versions))
    path = folder / f"{code}_example.py"
    path.write_text(example, encoding="utf-8")
    linted = Linter(options).analyse_text(example, str(path))
    # The page's own rule only (an example may also trip another rule).
    linted.only(code)
    if not linted.diagnostics:
        return "the Example gives no finding", []
    return "", verify_source(linted, use_instead, request.run_settings())


def run_rule_pages(request: VerifyRequest) -> int:
    rows = [("rule", "versions", "Example", "Use instead", "verdict")]
    try:
        check_python(request.python)
        with tempfile.TemporaryDirectory(prefix="optlint-rules-") as folder:
            for code in sorted(c for c in all_codes()
                               if c not in (SYNTAX_ERROR.code, UNUSED_NOQA.code)):
                problem, verdicts = verify_page(code, request, Path(folder))
                if problem:
                    rows.append((code, "-", problem, "-", "-"))
                for verdict in verdicts:
                    rows.append((code, environment_line(verdict.environment),
                                 describe(verdict.original), describe(verdict.fixed),
                                 verdict.verdict + "".join(f" ({n})" for n in verdict.notes)))
    except (ConfigError, VerifyError) as error:
        click.echo(f"error: {error}", err=True)
        return EXIT_ERROR
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths, strict=True)) + "  "
                   + row[4])
    return EXIT_CLEAN
