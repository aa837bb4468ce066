"""Hover: what a rule is about, on one of its findings or on its code in a `# noqa: OPTnnn`."""

from __future__ import annotations

import re

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from optlint.report.sarif import RULE_PAGE_URI
from optlint.rules import RuleInfo, catalog
from optlint.server.documents import from_editor
from optlint.server.findings import Outcome
from optlint.suppression import parse_directives

_CODE = re.compile(r"[A-Z]+[0-9]+", re.IGNORECASE)
_FIXES = {"always": "a fix is offered", "sometimes": "a fix is offered where it can be made",
          "none": "no automatic fix"}


def hover(outcome: Outcome, uri: str, position: types.Position,
          codec: PositionCodec) -> types.Hover | None:
    # The code under the cursor first: a noqa naming a code it does not use is an OPT100 finding.
    codes = _noqa_code_at(outcome, uri, position, codec) or [
        finding.code for finding in outcome.shown_in(uri)
        if finding.code is not None and _contains(finding.lsp.range, position)]
    rules = {info.code: info for info in catalog()}
    pages = [_page(rules[code]) for code in dict.fromkeys(codes) if code in rules]
    if not pages:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                    value="\n\n---\n\n".join(pages)))


def _page(info: RuleInfo) -> str:
    return (f"**{info.code}** `{info.name}`: {info.summary}\n\n"
            f"{_FIXES.get(info.fix_availability, '')}; "
            f"[rule page]({RULE_PAGE_URI.format(code=info.code)}) "
            f"(or `optlint rule {info.code}`)")


def _noqa_code_at(outcome: Outcome, uri: str, position: types.Position,
                  codec: PositionCodec) -> list[str]:
    text = outcome.subject.texts.get(uri)
    if text is None:
        return []
    lines = outcome.subject.lines(uri)
    where = from_editor(lines, position, codec)
    directive = parse_directives(lines, text, {where.line}).lines.get(where.line)
    if directive is None:
        return []
    column = where.column - 1  # 0-based, as the directive's own column
    for match in _CODE.finditer(directive.text):
        if directive.column + match.start() <= column <= directive.column + match.end():
            return [match.group(0).upper()]
    return []


def _contains(found: types.Range, position: types.Position) -> bool:
    at = (position.line, position.character)
    return (found.start.line, found.start.character) <= at <= (found.end.line, found.end.character)
