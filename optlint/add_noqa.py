"""`check --add-noqa`: suppress every current finding where it starts, to adopt optlint on a code
base that already has findings (ruff's `--add-noqa`), then fix them one at a time.

A code joins an existing `# noqa: ...` on that line; another comment keeps its text and gets the
directive after it. A line that does not end in code (inside a multi-line string, or continued
with a backslash) cannot take a comment: it is left alone and named. Running it twice adds nothing.
"""

from __future__ import annotations

import io
import tokenize
from dataclasses import field

from optlint.diagnostics import Diagnostic
from optlint.edits import source_lines
from optlint.records import record
from optlint.suppression import CODE, LINE_NOQA


@record(frozen=False)
class NoqaResult:
    text: str
    added: int = 0  # codes added
    skipped: list[int] = field(default_factory=list)  # lines that cannot take a comment


def add_noqa(text: str, diagnostics: list[Diagnostic]) -> NoqaResult:
    wanted: dict[int, set[str]] = {}
    for diagnostic in diagnostics:
        wanted.setdefault(diagnostic.line, set()).add(diagnostic.code)
    result = NoqaResult(text)
    try:
        ends, comments = line_ends_and_comments(text)
    except (tokenize.TokenError, SyntaxError):
        result.skipped = sorted(wanted)
        return result
    lines = source_lines(text)
    for number, codes in sorted(wanted.items()):
        if number not in ends or number > len(lines):
            result.skipped.append(number)
            continue
        line = lines[number - 1]
        body = line.rstrip("\r\n")
        ending = line[len(body):]
        comment_at = comments.get(number)
        match = LINE_NOQA.search(body, comment_at) if comment_at is not None else None
        if match is not None and match.group("codes") is None:
            continue  # a blanket directive (no codes) already hides everything on the line
        if match is not None:
            present = CODE.findall(match.group("codes").upper())
            merged = present + sorted(codes - set(present))
            body = body[:match.start()] + f"# noqa: {', '.join(merged)}" + body[match.end():]
            result.added += len(merged) - len(present)
        else:
            body = body.rstrip(" \t") + f"  # noqa: {', '.join(sorted(codes))}"
            result.added += len(codes)
        lines[number - 1] = body + ending
    result.text = "".join(lines)
    return result


def line_ends_and_comments(text: str) -> tuple[set[int], dict[int, int]]:
    """The lines whose end is outside any string and not continued by a backslash (where a
    comment can go), and the column of each line's comment."""
    ends: set[int] = set()
    comments: dict[int, int] = {}
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type in (tokenize.NEWLINE, tokenize.NL):
            ends.add(token.start[0])
        elif token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.start[1]
    return ends, comments
