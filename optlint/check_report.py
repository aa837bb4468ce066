"""The end of `optlint check`: errors to stderr, the report in the chosen format, the summary line,
and the exit code."""

from __future__ import annotations

import os
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from optlint.console import echo

from optlint.diagnostics import Diagnostic, NotChecked
from optlint.exits import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS
from optlint.report import writer

if TYPE_CHECKING:
    from optlint.lint_types import FileResult
    from optlint.request import CheckRequest


def report(request: CheckRequest, results: list[FileResult]) -> int:
    internal = False
    # Files that could not be read or checked (too large, undecodable): reported in every format.
    not_checked = [NotChecked(result.filename, error) for result in results
                   if not result.internal_error for error in result.errors]
    crashed = any(result.internal_error for result in results)
    for result in results:
        for error in result.errors:
            if not request.verbose:  # one line each, even when a message quotes a line break
                error = error.replace("\r", "\\r").replace("\n", "\\n")
            echo(f"error: {error}", err=True)
        for notice in result.notices:
            echo(f"note: {notice}", err=True)
        # A file that could not be read or checked is an error too: "All checks passed" and
        # exit 0 would tell a pre-commit hook or CI that it was checked.
        internal = internal or result.internal_error or bool(result.errors)
    diagnostics = [_without_unfixable(d, request.unfixable_codes) for result in results
                   for d in result.diagnostics]
    diagnostics.sort(key=Diagnostic.sort_key)
    fixed_any = any(r.fixes_applied for r in results)
    output_failed = False
    if request.fix_only:  # ruff's --fix-only: what was fixed, not what remains
        diagnostics = []
    stdin_fix = request.paths == ["-"] and request.fix and not request.diff
    if request.diff:
        diffs = [r.diff for r in results if r.diff]
        echo("".join(diffs), nl=False)
        if not request.quiet:
            echo(f"Would fix {sum(r.fixes_applied for r in results)} problems "
                       f"in {len(diffs)} files.", err=True)
        return EXIT_ERROR if internal else (EXIT_FINDINGS if diffs else EXIT_CLEAN)
    report = (_statistics(diagnostics, request.output_format, request.unsafe_fixes) if request.statistics
              else writer(request.output_format, request.unsafe_fixes,
                          _colored(request))(diagnostics, not_checked))
    if request.show_fixes and request.fix:
        report += _fixes_applied(results)
    if request.output_file is not None:
        try:
            Path(request.output_file).write_text(report, encoding="utf-8",
                                                 errors="surrogateescape")
        except OSError as error:
            echo(f"error: cannot write {request.output_file}: {error.strerror or error}",
                       err=True)
            internal = output_failed = True
    else:  # with `- --fix` stdout carries the fixed source: the report goes to stderr
        _write(sys.stderr if stdin_fix else sys.stdout, report)
    if not request.quiet:
        echo(_summary(request, results, diagnostics), err=True)
    # --exit-zero: files that could not be checked are in the report (a SARIF upload or a JUnit
    # step after this one still runs); an internal error or an unwritable report is still 2.
    if internal and not (request.exit_zero and not crashed and not output_failed):
        return EXIT_ERROR
    if request.exit_non_zero_on_fix and fixed_any:
        return EXIT_FINDINGS
    if diagnostics and not request.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _colored(request: CheckRequest) -> bool:
    """Colour as ruff does: `--color always|never`, else FORCE_COLOR / NO_COLOR, else only on a
    terminal (never into a file)."""
    if request.color != "auto":
        return request.color == "always"
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("NO_COLOR") or request.output_file is not None:
        return False
    return sys.stdout.isatty()


def _without_unfixable(diagnostic: Diagnostic, unfixable: tuple[str, ...]) -> Diagnostic:
    """A finding whose code is `unfixable` is shown without its fix (no `[*]`, not counted as
    fixable); its advice stays."""
    if diagnostic.fix is None or not any(diagnostic.code.startswith(p) for p in unfixable):
        return diagnostic
    return replace(diagnostic, fix=None)


def _write(stream: TextIO, text: str) -> None:
    """A file name that is not UTF-8 (its bytes kept as surrogates) is written as its bytes, as
    `ls` shows it: a terminal or stream whose encoding is strict would otherwise fail the run."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        binary = getattr(stream, "buffer", None)
        if binary is None:
            stream.write(text.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))
            return
        stream.flush()
        binary.write(text.encode(stream.encoding or "utf-8", "surrogateescape"))
        binary.flush()


def _summary(request: CheckRequest, results: list[FileResult], remaining: list[Diagnostic]) -> str:
    fixed = sum(r.fixes_applied for r in results)
    if request.fix_only:
        return f"Fixed {fixed} problem{'' if fixed == 1 else 's'}." if fixed else \
            "No fixes applied."
    safe = sum(1 for d in remaining if d.fix and d.fix.applicability == "safe")
    unsafe = sum(1 for d in remaining if d.fix and d.fix.applicability == "unsafe")
    if request.unsafe_fixes:  # --fix --unsafe-fixes would apply those too
        safe, unsafe = safe + unsafe, 0
    unchecked = sum(1 for r in results if r.errors)
    if unchecked:
        noun = "file" if unchecked == 1 else "files"
        problems = len(remaining) + fixed
        return (f"Found {problems} problem{'' if problems == 1 else 's'}; errors in "
                f"{unchecked} {noun} (above): what they report was not checked.")
    if not remaining and not fixed:
        return "All checks passed!"
    total = len(remaining) + fixed
    noun = "problem" if total == 1 else "problems"
    if request.fix:
        text = f"Found {total} {noun} ({fixed} fixed, {len(remaining)} remaining)."
    else:
        text = f"Found {total} {noun} ({safe} fixable with --fix)."
    if unsafe and not request.unsafe_fixes:
        text += f"\n{unsafe} hidden fixes can be enabled with the `--unsafe-fixes` option."
    return text


def _statistics(diagnostics: list[Diagnostic], output_format: str, unsafe_fixes: bool) -> str:
    # Fixable: what `--fix` would fix in this run (unsafe fixes only with --unsafe-fixes).
    counts = Counter((d.code, d.name, d.fix is not None and (d.fix.applicability == "safe"
                                                             or unsafe_fixes))
                     for d in diagnostics)
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0][0]))
    if output_format == "json":
        import json  # here: a check has no other use for it (its import: ~1M instructions)

        return json.dumps([{"code": code, "name": name, "count": count, "fixable": fixable}
                           for (code, name, fixable), count in rows], indent=2) + "\n"
    return "".join(f"{count:>5}\t{code}\t{'[*]' if fixable else '[ ]'} {name}\n"
                   for (code, name, fixable), count in rows)


def _fixes_applied(results: list[FileResult]) -> str:
    lines = [f"Fixed {r.fixes_applied} problem(s) in {r.filename}" for r in results
             if r.fixes_applied]
    return "".join(line + "\n" for line in lines) or "No fixes applied.\n"
