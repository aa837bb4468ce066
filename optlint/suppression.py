"""`# noqa` directives: line-level and file-level suppression, and OPT100 for unused ones."""

from __future__ import annotations

import io
import re
import tokenize

from optlint.diagnostics import Diagnostic, Edit, Fix, Location
from optlint.catalog import KNOWN_CODES, UNUSED_NOQA
from optlint.records import record

LINE_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?",
                        re.IGNORECASE)
_FILE_NOQA = re.compile(r"#\s*optlint:\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?",
                        re.IGNORECASE)
CODE = re.compile(r"[A-Z]+[0-9]+")


@record(frozen=False)
class LineDirective:
    line: int
    column: int  # 0-based offset of the directive in the line
    text: str  # the directive as written, e.g. "#" "noqa: OPT001, OPT003"
    codes: list[str] | None  # None: a blanket directive, without codes
    # The directive's `#` starts the comment: removing the directive whole would turn whatever
    # follows it on the line (`# noqa: OPT003 - 1`) into code.
    starts_comment: bool = True


@record(frozen=False)
class Directives:
    lines: dict[int, LineDirective]
    file_codes: list[str] | None  # None: no file-level directive
    file_blanket: bool


def comment_texts(text: str) -> set[str]:
    """Every comment in the source, so that `# noqa` inside a string is not taken for one.

    Only called for files that mention noqa; tokenizing costs a fraction of a parse."""
    try:
        return {token.string for token in tokenize.generate_tokens(io.StringIO(text).readline)
                if token.type == tokenize.COMMENT}
    except (tokenize.TokenError, SyntaxError):
        return {line[line.find("#"):].rstrip("\r\n") for line in text.splitlines() if "#" in line}


def parse_directives(lines: list[str], text: str, finding_lines: set[int]) -> Directives:
    """Directives in real comments only.

    A `# noqa` matters only on a line with a finding, or when it names an optlint code (it may
    be unused) or is optlint's file-level directive; others are not even tokenized."""
    by_line: dict[int, LineDirective] = {}
    file_codes: list[str] | None = None
    blanket = False
    candidates = [(number, line) for number, line in enumerate(lines, start=1)
                  if "noqa" in line.lower() and (number in finding_lines or "OPT" in line.upper()
                                                 or "optlint" in line.lower())]
    if not candidates:
        return Directives(by_line, file_codes, blanket)
    comments = comment_texts(text)
    for number, line in candidates:
        hash_at = line.find("#")
        while hash_at != -1 and line[hash_at:].rstrip("\r\n") not in comments:
            hash_at = line.find("#", hash_at + 1)
        if hash_at == -1:
            continue
        comment = line[hash_at:].rstrip("\r\n")
        file_match = _FILE_NOQA.search(comment)
        if file_match:
            if file_match.group("codes"):
                file_codes = (file_codes or []) + CODE.findall(file_match.group("codes").upper())
            else:
                blanket = True
            continue
        match = LINE_NOQA.search(comment)
        if match:
            codes = CODE.findall(match.group("codes").upper()) if match.group("codes") else None
            by_line[number] = LineDirective(number, hash_at + match.start(), match.group(0), codes,
                                            starts_comment=match.start() == 0)
    return Directives(by_line, file_codes, blanket)


def apply_suppressions(diagnostics: list[Diagnostic], directives: Directives, filename: str,
                       lines: list[str], enabled: frozenset[str],
                       report_unused: bool) -> list[Diagnostic]:
    """Drop suppressed diagnostics; add OPT100 for `# noqa: OPTnnn` codes that suppressed nothing."""
    if directives.file_blanket:
        return []
    kept: list[Diagnostic] = []
    # A code in a directive is a prefix, as flake8 reads it: `noqa` with OPT00 covers OPT001-OPT009,
    # so flake8 and `optlint check` hide (and call unused) the same findings.
    used: dict[int, set[str]] = {}
    for diagnostic in diagnostics:
        if directives.file_codes and _covers(directives.file_codes, diagnostic.code):
            continue
        directive = directives.lines.get(diagnostic.line)
        if directive is not None and (directive.codes is None
                                      or _covers(directive.codes, diagnostic.code)):
            used.setdefault(diagnostic.line, set()).update(
                code for code in directive.codes or [] if diagnostic.code.startswith(code))
            continue
        kept.append(diagnostic)
    if report_unused:
        for directive in directives.lines.values():
            unused = [code for code in directive.codes or []
                      if code.startswith("OPT") and code not in used.get(directive.line, set())
                      and (any(known.startswith(code) for known in enabled)
                           or not any(known.startswith(code) for known in KNOWN_CODES))]
            if unused:
                kept.append(_unused_noqa(directive, unused, filename, lines))
    return kept


def _covers(codes: list[str], code: str) -> bool:
    return any(code.startswith(prefix) for prefix in codes)


def _unused_noqa(directive: LineDirective, unused: list[str], filename: str,
                 lines: list[str]) -> Diagnostic:
    start = Location(directive.line, directive.column + 1)
    end = Location(directive.line, directive.column + 1 + len(directive.text))
    remaining = [code for code in directive.codes or [] if code not in unused]
    if remaining:
        replacement = f"# noqa: {', '.join(remaining)}"
        edit = Edit(start, end, replacement)
    else:
        line = lines[directive.line - 1]
        after = line[end.column - 1:].rstrip("\r\n")
        if directive.starts_comment and after.strip():
            # Text follows the directive in its comment (`# noqa: OPT003 - 1`, `...: reason`):
            # keep the `#` so that text stays a comment. A fix only ever edits the comment.
            edit = Edit(start, end, "#")
        else:
            # Remove the whole directive and the spaces before it.
            begin = len(line[:directive.column].rstrip(" \t"))
            edit = Edit(Location(directive.line, begin + 1), end, "")
    message = f"unused `noqa` directive (unused: {', '.join(unused)})"
    fix = Fix("safe", "Remove the unused code" + ("s" if len(unused) > 1 else ""), (edit,))
    return Diagnostic(UNUSED_NOQA.code, UNUSED_NOQA.name, message, filename, start, end, fix,
                      fix_title=fix.message)
