"""Applying text edits given as 1-based (line, column) ranges.

Lines are counted as Python's tokenizer and libcst count them: `\r\n`, a lone `\r` and `\n` each
end a line, and nothing else does (`str.splitlines` also splits at form feeds, `\x1c`, `\u2028`
and others, which would put every edit after one of them on the wrong line).
"""

from __future__ import annotations


from optlint.diagnostics import Edit, Fix, Location
from optlint.patterns import compiled

# Compiled when first used (`optlint.patterns`): most checks split no text.
_LINE = r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$"


def source_lines(text: str) -> list[str]:
    """The text's lines with their endings, on the parser's line model."""
    return compiled(_LINE).findall(text)


def line_starts(text: str) -> list[int]:
    starts = [0]
    for line in source_lines(text):
        starts.append(starts[-1] + len(line))
    return starts


def offset(starts: list[int], location: Location) -> int:
    line = min(max(location.line, 1), len(starts))
    return starts[line - 1] + location.column - 1


def apply_fixes(text: str, fixes: list[Fix]) -> tuple[str, int]:
    """Apply the fixes whose edits do not overlap an earlier fix's; returns (text, fixes applied).

    Identical edits from different fixes (two fixes adding the same import) are applied once.
    """
    spans, applied = chosen_spans(text, fixes)
    return apply_spans(text, spans), applied


# An edit as offsets into the text it edits: start, end (exclusive), and the new content.
Span = tuple[int, int, str]


def chosen_spans(text: str, fixes: list[Fix]) -> tuple[list[Span], int]:
    """The edits `apply_fixes` makes (in the text's offsets) and how many fixes it applies."""
    starts = line_starts(text)
    taken: list[tuple[int, int]] = []
    chosen: dict[Span, Edit] = {}
    applied = 0
    for fix in sorted(fixes, key=lambda f: min(e.start for e in f.edits)):
        spans = [(offset(starts, e.start), offset(starts, e.end), e.content) for e in fix.edits]
        new = [span for span in spans if span not in chosen]
        if any(_overlaps((span[0], span[1]), other) for span in new for other in taken):
            continue
        for span, edit in zip(spans, fix.edits, strict=True):
            if span not in chosen:
                chosen[span] = edit
                taken.append((span[0], span[1]))
        applied += 1
    return list(chosen), applied


def apply_spans(text: str, spans: list[Span]) -> str:
    result = text
    for start, end, content in sorted(spans, key=lambda span: (span[0], span[1]), reverse=True):
        result = result[:start] + content + result[end:]
    return result


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    if a[0] == a[1] or b[0] == b[1]:  # insertions clash only strictly inside another edit
        return b[0] < a[0] < b[1] or a[0] < b[0] < a[1]
    return a[0] < b[1] and b[0] < a[1]
