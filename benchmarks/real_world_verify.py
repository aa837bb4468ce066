"""The `--verify` part of the real-world benchmark: `optlint verify` on the files with findings,
each verdict mapped to its labelled finding, and the figures per rule.

Kept apart from real_world.py (downloads, check, labels) because it is a second measure with its
own bookkeeping; it knows findings and labels only by their key (package, version, file, line,
code), so it imports nothing from there.

A finding the verifier gives no verdict for (its rule has no runtime check, or the file could not
be verified) is counted as `no verdict`; for the targets it counts as unverifiable, since nothing
was proven about it.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

Key = tuple[str, str, str, str, str]
CONFIRMED, NOT_REPRODUCED, FIX_FAILED = "confirmed", "not-reproduced", "fix-failed"
UNVERIFIABLE, TIMEOUT, NO_VERDICT = "unverifiable", "timeout", "no verdict"
KINDS = (CONFIRMED, NOT_REPRODUCED, FIX_FAILED, UNVERIFIABLE, TIMEOUT, NO_VERDICT)
# What the second target counts: nothing was proven either way.
UNPROVEN = (UNVERIFIABLE, TIMEOUT, NO_VERDICT)
UNVERIFIABLE_TARGET = 0.10
NO_CHECK_REASON = "the rule has no runtime check: optlint verify does not run its findings"
NO_VERDICT_REASON = "optlint verify gave no verdict (the file could not be verified, or the " \
                    "finding was not planned)"


class Keyed(Protocol):
    @property
    def key(self) -> Key: ...


class LabelLike(Keyed, Protocol):
    @property
    def verdict(self) -> str: ...


@dataclass(frozen=True)
class VerifyResult:
    """One verdict of `optlint verify --output-format json`, keyed as the benchmark keys
    findings."""

    package: str
    version: str
    file: str
    line: str
    code: str
    verdict: str
    reason: str
    seconds: float

    @property
    def key(self) -> Key:
        return (self.package, self.version, self.file, self.line, self.code)


@dataclass(frozen=True)
class Verified:
    """A finding with its verdict and its label's verdict (TP, FP, or None: unlabelled)."""

    key: Key
    label: str | None
    verdict: str
    reason: str
    seconds: float | None

    @property
    def code(self) -> str:
        return self.key[4]


def place(item: dict, root: Path) -> tuple[str, str]:
    """Where a JSON finding or verdict is: its file relative to `root`, and its line, which for a
    notebook is `cell<N>:<line>`."""
    filename = Path(item["filename"])
    if filename.is_absolute():
        filename = filename.relative_to(root)
    line = str(item["line"])
    if item.get("cell") is not None:
        line = f"cell{item['cell']}:{line}"
    return filename.as_posix(), line


def parse_verdicts(package: str, version: str, output: str, root: Path) -> list[VerifyResult]:
    """Verdicts from verify's JSON output; a notebook verdict's line is `cell<N>:<line>`, as
    real_world.parse_findings writes a finding's."""
    results = []
    for item in json.loads(output or "[]"):
        filename, line = place(item, root)
        results.append(VerifyResult(package, version, filename, line, item["code"],
                                    item["verdict"], item.get("reason") or "",
                                    float(item.get("seconds") or 0.0)))
    return results


def match(findings: Iterable[Keyed], verdicts: Iterable[VerifyResult],
          labels: Iterable[LabelLike], checked_rules: set[str] | None = None) -> list[Verified]:
    """Each finding with a verdict of the same key. Findings that share a key (two on one line)
    take that key's verdicts in order; a finding left without one is `no verdict`, with the
    reason that its rule has no runtime check where `checked_rules` (the codes that have one)
    says so."""
    waiting: dict[Key, list[VerifyResult]] = defaultdict(list)
    for result in verdicts:
        waiting[result.key].append(result)
    by_key = {label.key: label.verdict for label in labels}
    matched = []
    for finding in findings:
        queue = waiting.get(finding.key)
        if queue:
            result = queue.pop(0)
            matched.append(Verified(finding.key, by_key.get(finding.key), result.verdict,
                                    result.reason, result.seconds))
        else:
            unchecked = checked_rules is not None and finding.key[4] not in checked_rules
            matched.append(Verified(finding.key, by_key.get(finding.key), NO_VERDICT,
                                    NO_CHECK_REASON if unchecked else NO_VERDICT_REASON, None))
    return matched


@dataclass
class VerifyRow:
    tp: Counter[str] = field(default_factory=Counter)
    fp: Counter[str] = field(default_factory=Counter)
    unlabelled: Counter[str] = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)

    def add(self, item: Verified) -> None:
        {"TP": self.tp, "FP": self.fp}.get(item.label or "", self.unlabelled)[item.verdict] += 1
        if item.seconds is not None:
            self.seconds.append(item.seconds)

    @property
    def seconds_per_finding(self) -> float | None:
        return sum(self.seconds) / len(self.seconds) if self.seconds else None


def rows_of(matched: list[Verified]) -> tuple[dict[str, VerifyRow], VerifyRow]:
    rows: dict[str, VerifyRow] = defaultdict(VerifyRow)
    total = VerifyRow()
    for item in matched:
        rows[item.code].add(item)
        total.add(item)
    return dict(sorted(rows.items())), total


_SHORT = {CONFIRMED: "conf", NOT_REPRODUCED: "not-rep", FIX_FAILED: "fix-fail",
          UNVERIFIABLE: "unverif", TIMEOUT: "timeout", NO_VERDICT: "none"}


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{_SHORT[k]} {counter[k]}" for k in KINDS if counter[k]) or "-"


def format_verify_table(rows: dict[str, VerifyRow], total: VerifyRow) -> str:
    """Per rule: TP findings and their verdicts, FP findings' verdicts, seconds per verified
    finding (the verifier's own figure: the finding's runs in its warm harness)."""
    header = (f"{'rule':<8} {'TP':>4} {'conf':>5} {'fix-fail':>8} {'not-rep':>7} {'unverif':>7} "
              f"{'timeout':>7} {'none':>5}  {'FP':>3} {'FP verdicts':<32} {'s/finding':>9}")
    lines = [header, "-" * len(header)]

    def line(name: str, row: VerifyRow) -> str:
        tp = row.tp
        per = row.seconds_per_finding
        return (f"{name:<8} {sum(tp.values()):>4} {tp[CONFIRMED]:>5} {tp[FIX_FAILED]:>8} "
                f"{tp[NOT_REPRODUCED]:>7} {tp[UNVERIFIABLE]:>7} {tp[TIMEOUT]:>7} "
                f"{tp[NO_VERDICT]:>5}  {sum(row.fp.values()):>3} {_counts(row.fp):<32} "
                f"{'-' if per is None else f'{per:.2f}':>9}")

    for code, row in rows.items():
        lines.append(line(code, row))
    lines.append("-" * len(header))
    lines.append(line("all", total))
    return "\n".join(lines)


def reason_summary(matched: list[Verified], kinds: tuple[str, ...] = UNPROVEN,
                   label: str = "TP", top: int = 8) -> list[tuple[int, str]]:
    """The most common reasons among `label` findings with one of `kinds`, as (count, reason);
    numbers, quoted names and paths are blanked so one cause with different names counts once."""
    counts: Counter[str] = Counter()
    for item in matched:
        if item.label == label and item.verdict in kinds:
            counts[f"{item.code} {item.verdict}: {_generic(item.reason)}"] += 1
    return [(n, reason) for reason, n in counts.most_common(top)]


def _generic(reason: str) -> str:
    reason = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'…'", reason)
    reason = re.sub(r"\d+(\.\d+)?", "N", reason)
    return reason if len(reason) <= 150 else reason[:147] + "..."


@dataclass(frozen=True)
class Targets:
    tp: int
    tp_fix_failed: int
    tp_unproven: int
    # The same over the TP of rules that have a runtime check (informational).
    tp_checked: int = 0
    tp_checked_unproven: int = 0

    @property
    def unproven_share(self) -> float:
        return self.tp_unproven / self.tp if self.tp else 0.0

    @property
    def no_fix_failed(self) -> bool:
        return self.tp_fix_failed == 0

    @property
    def few_unverifiable(self) -> bool:
        return self.unproven_share <= UNVERIFIABLE_TARGET

    @property
    def hold(self) -> bool:
        return self.no_fix_failed and self.few_unverifiable


def targets(matched: list[Verified]) -> Targets:
    tp = [item for item in matched if item.label == "TP"]
    checked = [item for item in tp if item.reason != NO_CHECK_REASON]
    return Targets(len(tp), sum(item.verdict == FIX_FAILED for item in tp),
                   sum(item.verdict in UNPROVEN for item in tp), len(checked),
                   sum(item.verdict in UNPROVEN for item in checked))


def format_targets(result: Targets) -> str:
    def mark(ok: bool) -> str:
        return "holds" if ok else "MISSED"

    return "\n".join([
        f"target: no fix-failed on a TP: {result.tp_fix_failed} of {result.tp} TP fix-failed: "
        f"{mark(result.no_fix_failed)}",
        f"target: <= {UNVERIFIABLE_TARGET:.0%} of TP unverifiable (unverifiable, timeout or no "
        f"verdict): {result.tp_unproven} of {result.tp} ({result.unproven_share:.0%}): "
        f"{mark(result.few_unverifiable)}",
        f"  (over the {result.tp_checked} TP of rules with a runtime check: "
        f"{result.tp_checked_unproven} unverifiable)",
    ])


def checked_rules(python: str) -> set[str]:
    """The codes whose findings `optlint verify` can run, from the optlint that runs."""
    probe = ("import json; from optlint.rules import RULES\n"
             "print(json.dumps([r.code for r in RULES if r.runtime_check is not None]))\n")
    result = subprocess.run([python, "-c", probe], capture_output=True, text=True)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"{python} cannot list optlint's runtime checks: {last}")
    return set(json.loads(result.stdout))


# --- running `optlint verify` -----------------------------------------------------------------


@dataclass
class VerifyRun:
    results: list[VerifyResult]
    wall_seconds: float  # of the timed run (the second one when warmed up)


def run_verify(package: str, version: str, root: Path, files: list[str], python: str,
               config: Path, timeout: float, warm_up: bool) -> VerifyRun:
    """`optlint verify --output-format json` on `files` (relative to `root`, the working
    directory). With `warm_up`, a first run fills JAX's compilation cache and the OS's file
    cache, and the second one is the one timed and reported."""
    command = [python, "-m", "optlint", "verify", *files, "--config", str(config),
               "--output-format", "json", "--device", "cpu", "--timeout", str(timeout)]
    for _ in range(2 if warm_up else 1):
        started = time.perf_counter()
        result = subprocess.run(command, cwd=root, capture_output=True, text=True)
        wall = time.perf_counter() - started
        if result.returncode not in (0, 1):
            raise RuntimeError(f"optlint verify failed on {package}=={version} (exit "
                               f"{result.returncode}):\n{result.stderr[-3000:]}")
    try:
        return VerifyRun(parse_verdicts(package, version, result.stdout, root), wall)
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
        raise RuntimeError(f"optlint verify on {package}=={version}: unreadable output: "
                           f"{error}") from error
