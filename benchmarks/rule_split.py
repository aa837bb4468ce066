"""Where a cold `optlint check --jobs 1 --no-cache` spends its CPU beyond the parse, and what a
rule's share really is.

A rule's own time misleads: the value inference, the lookups of other project files (their parse
and index) and the callers searches are worked out once per file, by whichever rule asks first,
and reused by the rest. So two figures are printed:
- the split: the parse, the index, each rule's own time (the parses and indexes a rule's
  lookups make counted under parse and index, not under the rule), and the rest;
- whole runs, each in a fresh process, rounds interleaved: every rule; only OPT020 run by the
  engine, the same files parsed (the prefilter still decides for every rule); and
  `RuleContext.callees()` answering nothing (what a perfect gate of its calls could save at
  most; findings then change, only the time is read).

Usage: `python benchmarks/rule_split.py [--rounds N] FOLDER` (FOLDER is checked from inside it).
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

_VARIANTS = {
    "every rule": "",
    "only OPT020 run, the same files parsed": "only-opt020",
    "callees() answering nothing": "no-callees",
}


class _Split:
    """CPU per label, each timer's own: what a timed call makes inside another is its own."""

    def __init__(self) -> None:
        self.own: collections.Counter[str] = collections.Counter()
        self._inner: list[float] = []

    def timed(self, label: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            self._inner.append(0.0)
            try:
                return function(*args, **kwargs)
            finally:
                spent = time.process_time() - start
                self.own[label] += spent - self._inner.pop()
                if self._inner:
                    self._inner[-1] += spent
        return run


def _patch(variant: str, split: _Split | None) -> None:
    """Wrap or replace what `variant` and `split` ask for, before anything runs."""
    from optlint.analysis import index, project
    from optlint import parsing
    from optlint.context import RuleContext
    from optlint.engine import Linter
    from optlint.rules import RULES

    if variant == "only-opt020":
        every = Linter.rules.fget  # type: ignore[attr-defined]
        Linter.rules = property(  # type: ignore[method-assign, assignment]
            lambda self: [rule for rule in every(self) if rule.code == "OPT020"])
    elif variant == "no-callees":
        RuleContext.callees = lambda self: []  # type: ignore[method-assign]
    if split is None:
        return
    parsing.parse_module = split.timed("parse", parsing.parse_module)  # parse_screened's
    project.parse_module = parsing.parse_module  # type: ignore[attr-defined]  # a linted file's
    project.build_index = split.timed("index", index.build_index)  # type: ignore[attr-defined]
    for rule in RULES:
        check = rule.check

        def timed_check(self: Any, ctx: Any, check: Callable[..., Any] = check,
                        code: str = rule.code) -> Any:
            return iter(split.timed(f"rule {code}", lambda: list(check(self, ctx)))())
        rule.check = timed_check  # type: ignore[method-assign]


def _instrumented(variant: str, folder: Path, with_split: bool) -> None:
    start = time.process_time()
    split = _Split() if with_split else None
    _patch(variant, split)
    from optlint.check_command import run_plain

    os.chdir(folder)
    with open(os.devnull, "w") as quiet:
        sys.stdout = quiet
        run_plain(["--no-cache", "--exit-zero", "-q", "--jobs", "1", "."])
        sys.stdout = sys.__stdout__
    if split is not None:
        total = time.process_time() - start
        rest = total - sum(split.own.values())
        print(f"\n== split of one run in this process: {total:.2f} s CPU")
        for label, spent in [*split.own.most_common(), ("the rest", rest)]:
            if spent >= 0.005:
                print(f"  {label:<58}{spent:>8.2f}{100 * spent / total:>7.1f}%")


def _whole_run(variant: str, folder: Path) -> float:
    command = [sys.executable, __file__, "--instrumented", variant or "every", str(folder)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"the {variant or 'plain'} run failed")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--instrumented", metavar="VARIANT", help=argparse.SUPPRESS)
    parser.add_argument("--split", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    folder = args.folder.resolve()
    if args.instrumented:
        variant = "" if args.instrumented == "every" else args.instrumented
        _instrumented(variant, folder, args.split)
        return
    subprocess.run([sys.executable, __file__, "--instrumented", "every", "--split",
                    str(folder)], check=True)
    runs: dict[str, list[float]] = {name: [] for name in _VARIANTS}
    for _ in range(args.rounds):
        for name, variant in _VARIANTS.items():
            runs[name].append(_whole_run(variant, folder))
    print(f"\n== whole runs, median CPU of {args.rounds} interleaved rounds "
          f"[load {os.getloadavg()[0]:.1f}]")
    every = statistics.median(runs["every rule"])
    for name, values in runs.items():
        median = statistics.median(values)
        print(f"  {name:<58}{median:>8.2f}{median - every:>+8.2f}")


if __name__ == "__main__":
    main()
