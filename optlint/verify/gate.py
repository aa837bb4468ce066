"""`optlint check --fix --verify`: apply only the fixes whose verification did not fail.

Every finding of a file is verified first (one harness per file); a fix whose verdict is
`fix-failed` is held back, every other fix is applied as `--fix` would (re-linted each round).
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from optlint.diagnostics import Diagnostic
from optlint.edits import apply_fixes, line_starts, offset
from optlint.engine import FileResult, Linter, LintOptions
from optlint.lint_options import every_fix
from optlint.report.text import location
from optlint.parsing import Unanalysable, parse_screened
from optlint.source import SourceError
from optlint.sources import Source, open_source
from optlint.verify.session import RunSettings, VerifyError, verify_source
from optlint.verify.verdict import FIX_FAILED

_MAX_ROUNDS = 10


def flagged_text(text: str, diagnostic: Diagnostic) -> tuple[str, str, str]:
    """A finding's identity across fix rounds (positions move): its code, the code it flags and
    the line that holds it."""
    starts = line_starts(text)
    line = text.splitlines()[diagnostic.start.line - 1] if text else ""
    return (diagnostic.code, text[offset(starts, diagnostic.start):offset(starts, diagnostic.end)],
            line.strip())


def fix_verified(files: list[Path], options: LintOptions, run: RunSettings) -> list[FileResult]:
    linter = Linter(options)
    everything = Linter(every_fix(options))
    results = []
    for path in files:
        try:
            source = open_source(path)
        except SourceError as error:
            results.append(FileResult(str(path), errors=[str(error)]))
            continue
        if source is None:
            results.append(FileResult(str(path)))  # a notebook in another language
            continue
        result = _fix_program(path, source, linter, everything, run)
        _write(source, result, linter.options.write)
        results.append(result)
    return results


def _write(source: Source, result: FileResult, write: bool) -> None:
    """The fixed program into the file (a notebook's cells into its JSON); findings and notices
    in the positions the user sees."""
    result.diagnostics = [source.shown(d) for d in result.diagnostics]
    result.original = source.text
    try:
        result.fixed = None if result.fixed is None else source.fixed_text(result.fixed)
    except SourceError as error:  # a fix moved a notebook cell boundary
        result.errors.append(str(error))
        result.internal_error, result.fixed, result.fixes_applied = True, None, 0
    if result.fixed is None or not write:
        return
    try:
        source.write(result.fixed)
    except SourceError as error:  # user code run by the verifier may have written the file
        result.errors.append(str(error))
        result.internal_error = True


def _fix_program(path: Path, source: Source, linter: Linter, everything: Linter,
                 run: RunSettings) -> FileResult:
    filename, text = str(path), source.program
    linted = linter.analyse_text(text, filename)
    if not any(d.fix for d in linted.diagnostics):
        return linted.result
    try:
        fixed = everything.fix_text(text, filename)
        verdicts = verify_source(linted, fixed.fixed, run, fix_rounds=fixed.fix_rounds)
    except VerifyError as error:  # nothing verified: nothing fixed
        result = linted.result
        result.errors.append(f"{filename}: cannot verify, no fixes applied: {error}")
        result.internal_error = True
        return result
    held = {flagged_text(text, v.diagnostic): v for v in verdicts if v.verdict == FIX_FAILED}
    original, applied = text, 0
    result = linted.result
    for _ in range(_MAX_ROUNDS):
        fixes = [d.fix for d in result.diagnostics if d.fix is not None
                 and (d.fix.applicability == "safe" or linter.options.unsafe_fixes)
                 and flagged_text(text, d) not in held]
        candidate, count = apply_fixes(text, fixes) if fixes else (text, 0)
        if candidate == text:
            break
        try:
            parse_screened(candidate, filename)
        except (cst.ParserSyntaxError, Unanalysable, RecursionError):
            break
        text, applied = candidate, applied + count
        result = linter.lint_text(text, filename)
    result.notices.extend(f"{location(source.shown(v.diagnostic))}: "
                         f"{v.diagnostic.code} fix not applied: verification says {v.reason}"
                         for v in held.values())
    result.original, result.fixes_applied = original, applied
    result.fixed = text if text != original else None
    return result
