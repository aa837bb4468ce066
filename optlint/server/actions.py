"""Code actions: each finding's fix, a `# noqa` for its line, and fix-all (safe fixes only).

Fix-all is `optlint check --fix` on the editor's text: the linter applies the safe fixes round by
round, re-linting between rounds, so fixes that depend on each other are all made; the editor
gets one edit per changed document (per changed cell in a notebook).
"""

from __future__ import annotations

from collections.abc import Sequence

import tokenize

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from optlint.add_noqa import line_ends_and_comments
from optlint.diagnostics import Location
from optlint.edits import source_lines
from optlint.rules import SYNTAX_ERROR, UNUSED_NOQA
from optlint.source import SourceError
from optlint.server.documents import Subject, to_editor
from optlint.server.findings import EditorFinding, Outcome
from optlint.suppression import parse_directives

FIX_ALL = "source.fixAll.optlint"
KINDS = [types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll, FIX_ALL]


def wanted(kind: str, only: list[str] | None) -> bool:
    """Whether the client asked for actions of `kind` (LSP kinds are dotted prefixes)."""
    return only is None or any(kind == asked or kind.startswith(asked + ".") for asked in only)


def quick_fixes(outcome: Outcome, uri: str, asked: types.Range,
                codec: PositionCodec,
                named: Sequence[types.Diagnostic] = ()) -> list[types.CodeAction]:
    """Fixes for the findings under the asked range, and for every diagnostic the client names
    in the request's context (Neovim sends the whole line's, with the cursor's column as the
    range), as ruff's server answers."""
    actions: list[types.CodeAction] = []
    wanted_keys = {_key(diagnostic) for diagnostic in named}
    for finding in outcome.shown_in(uri):
        if finding.code is None or not (_touches(finding.lsp.range, asked)
                                        or _key(finding.lsp) in wanted_keys):
            continue
        fix = finding.fix
        if fix is not None and finding.edits is not None:
            safe = fix.applicability == "safe"
            title = finding.fix_title or fix.message
            actions.append(types.CodeAction(
                title=title if safe else f"{title} (unsafe)",
                kind=types.CodeActionKind.QuickFix, diagnostics=[finding.lsp],
                is_preferred=safe, edit=types.WorkspaceEdit(changes=finding.edits)))
        if finding.code not in (SYNTAX_ERROR.code, UNUSED_NOQA.code):
            disable = _disable_for_line(finding.code, finding, outcome.subject, codec)
            if disable is not None:
                actions.append(disable)
    return actions


def has_safe_fix(outcome: Outcome) -> bool:
    return any(finding.fix is not None and finding.edits is not None
               and finding.fix.applicability == "safe" for finding in outcome.findings)


def fix_all(subject: Subject, fixed: str | None,
            codec: PositionCodec) -> types.CodeAction | None:
    """The action making every safe fix (`fixed`: the program after them, as `check --fix`
    makes them, in a worker); None when there is nothing to fix."""
    if fixed is None:
        return None
    try:
        new_texts = subject.changed_texts(fixed)
    except SourceError:  # a fix that moved a notebook cell boundary: offer nothing rather than it
        return None
    edits = {uri: [_replacement(subject.texts[uri], text, codec)]
             for uri, text in new_texts.items()}
    return types.CodeAction(title="optlint: fix all safely fixable problems", kind=FIX_ALL,
                            edit=types.WorkspaceEdit(changes=edits))


def _disable_for_line(code: str, finding: EditorFinding, subject: Subject,
                      codec: PositionCodec) -> types.CodeAction | None:
    """Adds the code to the line's `# noqa: ...`, or adds `  # noqa: CODE` at its end; None for
    a line that cannot take a comment (continued with a backslash, ending inside a string)."""
    # Read in the code around the line: a MyST notebook's prose is no Python to tokenize.
    before, lines = subject.code_lines(finding.uri, finding.lsp.range.start.line + 1)
    text = "".join(lines)
    number = finding.lsp.range.start.line + 1 - before
    line = lines[number - 1].rstrip("\r\n") if number <= len(lines) else ""
    directive = parse_directives(lines, text, {number}).lines.get(number)
    if directive is not None and directive.codes is not None:
        start = Location(number, directive.column + 1)
        end = Location(number, directive.column + 1 + len(directive.text))
        content = f"# noqa: {', '.join([*directive.codes, code])}"
    else:
        try:
            ends, _ = line_ends_and_comments(text)
        except (tokenize.TokenError, SyntaxError):
            return None
        if number not in ends:
            return None
        start = end = Location(number, len(line) + 1)
        content = f"  # noqa: {code}"
    shown = [to_editor(lines, where, codec) for where in (start, end)]
    edit = types.TextEdit(range=types.Range(*(  # back in the document's lines
        types.Position(line=at.line + before, character=at.character) for at in shown)),
        new_text=content)
    return types.CodeAction(title=f"Disable {code} for this line",
                            kind=types.CodeActionKind.QuickFix, diagnostics=[finding.lsp],
                            edit=types.WorkspaceEdit(changes={finding.uri: [edit]}))


def _replacement(old: str, new: str, codec: PositionCodec) -> types.TextEdit:
    """One edit replacing only the lines that differ, so the editor keeps the cursor and folds."""
    old_lines, new_lines = source_lines(old), source_lines(new)
    head = 0
    while head < min(len(old_lines), len(new_lines)) and old_lines[head] == new_lines[head]:
        head += 1
    tail = 0
    while (tail < min(len(old_lines), len(new_lines)) - head
           and old_lines[-1 - tail] == new_lines[-1 - tail]):
        tail += 1
    start = to_editor(old_lines, Location(head + 1, 1), codec)
    stop = len(old_lines) - tail
    if stop == len(old_lines) and old_lines and not old_lines[-1].endswith(("\n", "\r")):
        # to the end of a last line without a line break (there is no line after it)
        end = types.Position(line=stop - 1, character=codec.client_num_units(old_lines[-1]))
    else:
        end = to_editor(old_lines, Location(stop + 1, 1), codec)
    return types.TextEdit(range=types.Range(start=start, end=end),
                          new_text="".join(new_lines[head:len(new_lines) - tail]))


def _key(diagnostic: types.Diagnostic) -> tuple[object, int, int, int, int]:
    """A diagnostic as the client echoes it back: its code and range."""
    found = diagnostic.range
    return (diagnostic.code, found.start.line, found.start.character, found.end.line,
            found.end.character)


def _touches(found: types.Range, asked: types.Range) -> bool:
    def key(position: types.Position) -> tuple[int, int]:
        return position.line, position.character
    return key(found.start) <= key(asked.end) and key(asked.start) <= key(found.end)
