"""Verifying one source text: plan its findings, run one harness for all of them, decide."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

import libcst as cst

from optlint.fix_moves import EditRound
from optlint.linted import Linted
from optlint.records import record
from optlint.verify.harness import program
from optlint.verify.plan import Planner
from optlint.verify.runner import run_harness
from optlint.verify.verdict import Verdict, decide


class VerifyError(Exception):
    """A one-line error for the user (no GPU, no jax for --python, bad --python)."""


@record
class RunSettings:
    python: str = sys.executable
    device: str = "auto"
    timeout: float = 120.0


def check_python(python: str) -> None:
    if not (Path(python).is_file() and os.access(python, os.X_OK)):
        raise VerifyError(f"--python {python}: no such executable")


def verify_source(original: Linted, fixed: str | None, settings: RunSettings,
                  project_root: Path | None = None,
                  fix_rounds: Sequence[EditRound] | None = None) -> list[Verdict]:
    """Verdicts for the findings of `original` (`Linter.analyse_text`) that have a runtime
    check; one subprocess for all of them. `project_root`: where call sites of the file's
    functions are looked for (default: found from the file's folder, as the configuration is);
    `fix_rounds`: the edits that made `fixed` (`FileResult.fix_rounds`), where known."""
    if original.module is None:
        return []  # not parsed: no finding of a rule
    filename = original.filename
    try:
        planner = Planner(original, fixed, filename, project_root, fix_rounds)
    except (cst.ParserSyntaxError, RecursionError):
        return []
    plans = [plan for number, report in enumerate(original.reports)
             if (plan := planner.plan(number, report)) is not None]
    if not plans:
        return []
    path = Path(filename).resolve()
    run = run_harness(program(str(path), [plan.spec() for plan in plans], settings.device),
                      settings.python, settings.device, settings.timeout, path.parent)
    if run.fatal is not None:
        raise VerifyError(run.fatal)
    verdicts = []
    for plan in plans:
        record = run.records.get(plan.number)
        outcomes = record["variants"] if record else {}
        original_outcome, fixed_outcome = outcomes.get("original"), outcomes.get("fixed")
        has_fix = plan.diagnostic.fix is not None and "fixed" in plan.variants
        notes = sorted({note for variant in plan.variants.values()
                        for note in variant.get("notes", [])}
                       | {"stand-in model" for outcome in outcomes.values()
                          if outcome.get("standins")})
        verdict, reason = decide(original_outcome, fixed_outcome, has_fix, run.timed_out,
                                 run.crash, any("stand-in" in note for note in notes))
        seconds = sum(o.get("seconds", 0.0) for o in outcomes.values()) if record else run.seconds
        verdicts.append(Verdict(plan.diagnostic, verdict, reason, original_outcome,
                                fixed_outcome, run.environment, seconds, notes))
    return verdicts
