"""Fixes applied round after round until none is left: each round's text is parsed before it is
accepted (a fix that breaks the code is dropped, not written) and linted again."""

from __future__ import annotations

from typing import Protocol

from optlint.edits import apply_fixes, apply_spans, chosen_spans
from optlint.fix_moves import EditRound, edit_round
from optlint.lint_types import FileResult, LintOptions

_MAX_FIX_ROUNDS = 10


class Lints(Protocol):
    """What the fixing loop asks of the engine's Linter (named so, not imported: no cycle)."""

    options: LintOptions

    def lint_text(self, text: str, filename: str) -> FileResult: ...


def fix_until_stable(linter: Lints, text: str, filename: str) -> FileResult:
    """Apply fixes until none is left (bounded); each round is re-parsed and re-linted."""
    import libcst as cst

    from optlint.parsing import Unanalysable, parse_screened

    original = text
    result = linter.lint_text(text, filename)
    applied = 0
    rounds: list[EditRound] = []  # the edits each accepted round made (see `fix_moves`)
    for _ in range(_MAX_FIX_ROUNDS):
        fixes = [d.fix for d in result.diagnostics if d.fix is not None and (
            d.fix.applicability == "safe" or linter.options.unsafe_fixes)
            and linter.options.selection.fixable(d.code)]
        if not fixes:
            break
        spans, count = chosen_spans(text, fixes)
        candidate = apply_spans(text, spans)
        if candidate == text:
            break
        try:
            parse_screened(candidate, filename)
        except (cst.ParserSyntaxError, Unanalysable, RecursionError) as error:
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            result.errors.append(f"{filename}: a fix produced invalid code; it was not "
                                 f"applied ({reason})")
            result.internal_error = True
            # One broken fix must not cost the others of its round: keep those that parse
            # on their own (and together), then stop.
            sound = [fix for fix in fixes if _parses(apply_fixes(text, [fix])[0], filename)]
            spans, count = chosen_spans(text, sound)
            candidate = apply_spans(text, spans)
            if sound and candidate != text and _parses(candidate, filename):
                rounds.append(edit_round(text, spans))
                text, applied = candidate, applied + count
                errors = result.errors
                result = linter.lint_text(text, filename)
                result.errors, result.internal_error = errors + result.errors, True
            break
        rounds.append(edit_round(text, spans))
        text, applied = candidate, applied + count
        errors = result.errors
        result = linter.lint_text(text, filename)
        result.errors = errors + result.errors
    result.fixes_applied = applied
    result.fixed = text if text != original else None
    result.fix_rounds = rounds if result.fixed is not None else []
    return result


def _parses(text: str, filename: str) -> bool:
    import libcst as cst

    from optlint.parsing import Unanalysable, parse_screened

    try:
        parse_screened(text, filename)
    except (cst.ParserSyntaxError, Unanalysable, RecursionError):
        return False
    return True
