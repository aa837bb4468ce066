"""The blind recall benchmark: optlint on programs rebuilt from reported bugs, and on look-alikes.

Cases live in `benchmarks/recall/keys/{positive,negative}/` and
`benchmarks/recall/families/<family>/{positive,negative}/` (the format is in this folder's
README). A positive is *found* when a finding of its rule lands on a line marked `# expect`; a
negative is *flagged* when a finding of its rule lands anywhere in it. Each case is checked as a
project of its own (copied alone into a temporary folder), so no case's analysis reads another's.

    python benchmarks/recall/run.py                 # recall per family and key class
    python benchmarks/recall/run.py --misses        # also list what was missed or flagged
    python benchmarks/recall/run.py --preview       # with findings the analysis cannot prove
    python benchmarks/recall/run.py --record        # write baseline.json (what the test guards)
    python benchmarks/recall/run.py --fix-pairs     # also the fix pairs mined from git histories

Library versions are those the cases were run with (jax 0.10.2, optax 0.2.8, equinox 0.13.8).
"""

from __future__ import annotations

import argparse
import ast
import csv
import json
import re
import shutil
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASELINE = HERE / "baseline.json"
# The versions the cases were written and run against (constraints.txt).
VERSIONS = {"jax": "0.10.2", "optax": "0.2.8", "equinox": "0.13.8"}
# Families named by what they are until they had a code.
FAMILY_CODES = {"decay-mask": "OPT023", "grad-accumulation": "OPT024"}
# A fix pair's finding counts when it, or a node it names as a role (the mask code a decay-mask
# finding at `mask=fn` points to), is this close to the line the pair names: the pair names one
# line of the hazard, a finding may sit on its other half (the first of two key consumers).
PAIR_WINDOW = 3

_HEADER = re.compile(r"^#\s*(recall-case|rule|class|source|shown|style):\s*(.*?)\s*$")
_EXPECT = re.compile(r"#\s*expect\b")


@dataclass
class Case:
    root: Path  # the case's file, or its folder (a package of several files)
    main: Path  # the file with the header
    kind: str  # positive | negative
    rule: str
    family: str  # the rule code, or the key class for OPT020
    # (cell or None, line) of each `# expect` mark in the main file
    expected: set[tuple[int | None, int]] = field(default_factory=set)

    # Lines a finding may land on: every line of each simple statement holding a mark (a mark
    # on `optax.chain(  # expect` accepts a finding on the argument two lines down).
    accepted: set[tuple[int | None, int]] = field(default_factory=set)

    @property
    def ident(self) -> str:
        return self.root.relative_to(HERE).as_posix()


def _cells(path: Path) -> list[tuple[int | None, list[str]]]:
    """The file's lines, per notebook cell (numbered from 1 as editors do) or as one block."""
    if path.suffix != ".ipynb":
        return [(None, path.read_text(encoding="utf-8").splitlines())]
    notebook = json.loads(path.read_text(encoding="utf-8"))
    blocks: list[tuple[int | None, list[str]]] = []
    for number, cell in enumerate(notebook.get("cells", []), start=1):
        source = cell.get("source", "")
        text = "".join(source) if isinstance(source, list) else source
        if cell.get("cell_type") == "code":
            blocks.append((number, text.splitlines()))
    return blocks


_COMPOUND = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor,
             ast.While, ast.With, ast.AsyncWith, ast.Try, ast.Match)


def _statements_of(path: Path, marks: set[tuple[int | None, int]]) -> set[tuple[int | None, int]]:
    accepted = set(marks)
    for cell, lines in _cells(path):
        wanted = {line for c, line in marks if c == cell}
        if not wanted:
            continue
        # IPython lines would not parse: blank them, keeping the numbering.
        text = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in lines)
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.stmt) and not isinstance(node, _COMPOUND):
                span = range(node.lineno, (node.end_lineno or node.lineno) + 1)
                if wanted & set(span):
                    accepted |= {(cell, line) for line in span}
    return accepted


def read_case(root: Path, kind: str, family_folder: str | None) -> Case | None:
    files = [root] if root.is_file() else sorted(
        p for p in root.rglob("*") if p.suffix in (".py", ".ipynb"))
    for path in files:
        header: dict[str, str] = {}
        expected: set[tuple[int | None, int]] = set()
        for cell, lines in _cells(path):
            for number, line in enumerate(lines, start=1):
                match = _HEADER.match(line.strip())
                if match:
                    header.setdefault(match.group(1), match.group(2))
                elif _EXPECT.search(line) and "#" in line:
                    expected.add((cell, number))
        if "recall-case" not in header:
            continue
        rule = header.get("rule", "").strip()
        rule = FAMILY_CODES.get(rule.lower(), rule.upper())
        family = header.get("class", "basic") if family_folder is None else rule
        return Case(root, path, kind, rule, family, expected, _statements_of(path, expected))
    return None


def discover(base: Path = HERE) -> list[Case]:
    cases = []
    areas = [(base / "keys", None)]
    families = base / "families"
    if families.is_dir():
        areas += [(folder, folder.name) for folder in sorted(families.iterdir())
                  if folder.is_dir()]
    for area, family in areas:
        for kind in ("positive", "negative"):
            folder = area / kind
            if not folder.is_dir():
                continue
            for root in sorted(folder.iterdir()):
                if root.name.startswith((".", "_")) or (
                        root.is_file() and root.suffix not in (".py", ".ipynb")):
                    continue
                case = read_case(root, kind, family)
                if case is not None:
                    cases.append(case)
    return cases


def _linter_for(project: Path, preview: bool):  # type: ignore[no-untyped-def]
    from optlint.catalog import all_codes
    from optlint.engine import Linter, LintOptions
    from optlint.selection import Selection
    from optlint.versions import KnownVersion, LibraryVersions

    versions = LibraryVersions({name: KnownVersion(version, "recall benchmark")
                                for name, version in VERSIONS.items()})
    options = LintOptions(Selection(frozenset(all_codes())), versions, project,
                          write=False, preview=preview)
    return Linter(options)


def findings_in(project: Path, files: list[Path], preview: bool) -> list[dict[str, object]]:
    """optlint's findings on `files`, analysed with `project` as the project root."""
    linter = _linter_for(project, preview)
    found = []
    for path in files:
        result = linter.check_path(path)
        for diagnostic in result.diagnostics:
            # The (cell, line)s the finding is about: its own, and its roles' (the parameter a
            # transformation traces, the first consumer of a key), each in its own cell.
            about = {(diagnostic.cell, diagnostic.line)} | {
                (role.cell if role.cell is not None else diagnostic.cell, line)
                for role in diagnostic.roles if role.start is not None and role.end is not None
                for line in range(role.start.line, role.end.line + 1)}
            found.append({"file": path.resolve(), "code": diagnostic.code,
                          "cell": diagnostic.cell, "line": diagnostic.line,
                          "about": about, "message": diagnostic.message})
    return found


def check_case(case: Case, preview: bool) -> tuple[bool, list[dict[str, object]]]:
    """(whether the case went as it should, the findings of its rule)."""
    with tempfile.TemporaryDirectory(prefix="optlint-recall-") as folder:
        project = Path(folder) / "case"
        if case.root.is_file():
            project.mkdir()
            shutil.copy2(case.root, project / case.root.name)
            main = project / case.root.name
        else:
            shutil.copytree(case.root, project)
            main = project / case.main.relative_to(case.root)
        files = sorted(p for p in project.rglob("*") if p.suffix in (".py", ".ipynb"))
        ours = [f for f in findings_in(project, files, preview) if f["code"] == case.rule]
        in_main = [f for f in ours if f["file"] == main.resolve()]
    if case.kind == "negative":
        return not ours, ours
    # In a package the marks are in one file, where the hazard shows; the rule may rightly
    # report it in the module that builds the optimizer: any finding of the rule in the other
    # files of the package counts.
    hit = (any(place in case.accepted for f in in_main for place in f["about"])
           or len(in_main) < len(ours))
    return hit, ours


@dataclass
class Tally:
    positives: int = 0
    found: int = 0
    negatives: int = 0
    flagged: int = 0
    in_file: int = 0  # positives missed at the mark, where the rule fired elsewhere in the file


def run_cases(cases: list[Case], preview: bool) -> dict[str, dict[str, object]]:
    """Per case id: kind, rule, family, ok, and where its rule's findings landed."""
    outcome = {}
    for case in cases:
        ok, ours = check_case(case, preview)
        outcome[case.ident] = {"kind": case.kind, "rule": case.rule, "family": case.family,
                               "ok": ok, "expected": sorted(l for _, l in case.expected),
                               "lines": sorted({int(str(f["line"])) for f in ours})}
    return outcome


def table(outcome: dict[str, dict[str, object]]) -> str:
    groups: dict[tuple[str, str], Tally] = defaultdict(Tally)
    for result in outcome.values():
        area = "keys" if result["rule"] == "OPT020" else "families"
        for key in ((area, str(result["family"])), (area, "all")):
            tally = groups[key]
            if result["kind"] == "positive":
                tally.positives += 1
                tally.found += bool(result["ok"])
                tally.in_file += not result["ok"] and bool(result["lines"])
            else:
                tally.negatives += 1
                tally.flagged += not result["ok"]
    rows = [f"{'area':9} {'family/class':18} {'found':>11} {'recall':>7} {'negatives flagged':>18}"
            f" {'missed, rule fired elsewhere in the file'}"]
    for (area, family), tally in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1] == "all",
                                                                         kv[0][1])):
        recall = f"{100 * tally.found / tally.positives:.0f}%" if tally.positives else "-"
        rows.append(f"{area:9} {family:18} {tally.found:>5} of {tally.positives:<3} {recall:>7} "
                    f"{tally.flagged:>8} of {tally.negatives:<3}       {tally.in_file:>3}")
    return "\n".join(rows)


def labels_when_run() -> dict[tuple[str, int], str]:
    """Lines of key programs a blind labeller ran whose label differs from the program's folder
    (keys/labels_when_run.tsv): (case id, line) -> "reuse" | "not reuse"."""
    lines = (HERE / "keys" / "labels_when_run.tsv").read_text(encoding="utf-8").splitlines()
    rows = csv.DictReader([line for line in lines if not line.startswith("#")], delimiter="\t")
    return {(r["case"], int(r["line"])): r["verdict"] for r in rows}


def run_checked_keys(outcome: dict[str, dict[str, object]],
                     labels: dict[tuple[str, int], str]) -> str:
    """Key recall and flagged negatives by the running labels: a positive whose every mark was
    shown not reuse is left out; a negative's flagged line shown reuse is not a false finding."""
    found = positives = flagged = negatives = 0
    for ident, result in outcome.items():
        if result["rule"] != "OPT020":
            continue
        if result["kind"] == "positive":
            marks = list(result["expected"])  # type: ignore[call-overload]
            if marks and all(labels.get((ident, m)) == "not reuse" for m in marks):
                continue
            positives += 1
            found += bool(result["ok"])
        else:
            negatives += 1
            flagged += any(labels.get((ident, line)) != "reuse"
                           for line in result["lines"])  # type: ignore[attr-defined]
    return (f"keys run-checked (keys/labels_when_run.tsv): found {found} of {positives}, "
            f"negatives flagged {flagged} of {negatives}")


def misses(outcome: dict[str, dict[str, object]]) -> str:
    lines = []
    for ident, result in sorted(outcome.items()):
        if result["ok"]:
            continue
        if result["kind"] == "positive":
            where = f"findings of {result['rule']} on lines {result['lines']}" if result["lines"] \
                else f"no {result['rule']} finding"
            lines.append(f"missed   {ident}: expected on {result['expected']}, {where}")
        else:
            lines.append(f"flagged  {ident}: {result['rule']} on lines {result['lines']}")
    return "\n".join(lines)


def check_against(outcome: dict[str, dict[str, object]], baseline: dict[str, list[str]],
                  labels: dict[tuple[str, int], str] | None = None) -> list[str]:
    """What got worse than the baseline: a recorded find missed, a negative newly flagged. A
    positive whose every mark `labels` (the running labels) shows not reuse is no find to keep."""
    problems = []
    for ident in baseline.get("found", []):
        result = outcome.get(ident)
        if result is None or result["ok"]:
            continue
        marks = list(result["expected"])  # type: ignore[call-overload]
        if not (labels and marks and all(labels.get((ident, m)) == "not reuse" for m in marks)):
            problems.append(f"{ident}: found in the baseline, missed now")
    allowed = set(baseline.get("flagged", []))
    for ident, result in outcome.items():
        if result["kind"] == "negative" and not result["ok"] and ident not in allowed:
            problems.append(f"{ident}: a negative flagged with {result['rule']} on "
                            f"lines {result['lines']}")
    return problems


def record(outcome: dict[str, dict[str, object]]) -> dict[str, list[str]]:
    return {
        "found": sorted(i for i, r in outcome.items() if r["kind"] == "positive" and r["ok"]),
        "flagged": sorted(i for i, r in outcome.items() if r["kind"] == "negative"
                          and not r["ok"]),
    }


def _notebook_place(path: Path, json_line: int) -> tuple[int | None, int]:
    """A pair names a notebook's line as a line of its JSON file: the cell (numbered as editors
    do) and the line within it. nbformat writes a source one line per JSON line, so the k-th
    time that text appears in the file up to `json_line` is its k-th appearance in the cells."""
    raw = path.read_text(encoding="utf-8").splitlines()
    try:
        wanted = json.loads(raw[json_line - 1].strip().rstrip(","))
    except (IndexError, ValueError):
        return None, json_line
    if not isinstance(wanted, str):
        return None, json_line
    occurrence = sum(1 for text in raw[:json_line] if text.strip() == raw[json_line - 1].strip())
    seen = 0
    for number, cell in enumerate(json.loads("\n".join(raw)).get("cells", []), start=1):
        source = cell.get("source", "")
        lines = source if isinstance(source, list) else source.splitlines(keepends=True)
        for index, text in enumerate(lines, start=1):
            if text == wanted:
                seen += 1
                if seen == occurrence:
                    return number, index
    return None, json_line


def _myst_place(path: Path, file_line: int) -> tuple[int | None, int]:
    """A pair names a MyST Markdown notebook's line as a line of the file: the code cell it is in
    (numbered as optlint and jupytext number them) and the line within that cell's code."""
    from optlint.myst import notebook_cells

    for cell in notebook_cells(path.read_text(encoding="utf-8-sig")):
        if cell.file_start < file_line <= cell.file_end:
            return cell.number, file_line - cell.file_start
    return None, file_line


RUN_CONFIRMED = "OPT020 run-checked"  # OPT020 pairs less those in not_reuse_when_run.tsv
# Pairs mined blind after the rules had been fitted to pairs.tsv: each held-out manifest is counted
# on its own line, so the fitted figure and the held-out ones are never mixed. A set stays held out
# only until the rules are changed to find its misses; the next blind set measures that change.
HELD_OUT = "OPT020 held-out"
HELD_OUT_2 = "OPT020 held-out 2"
HELD_OUT_3 = "OPT020 held-out 3"
HELD_OUT_4 = "OPT020 held-out 4"
HELD_OUT_5 = "OPT020 held-out 5"
HELD_OUT_6 = "OPT020 held-out 6"
HELD_OUT_7 = "OPT020 held-out 7"
HELD_OUT_8 = "OPT020 held-out 8"
HELD_OUT_9 = "OPT020 held-out 9"
TOTALS = ("OPT020", RUN_CONFIRMED, HELD_OUT, HELD_OUT_2, HELD_OUT_3, HELD_OUT_4,
          HELD_OUT_5, HELD_OUT_6, HELD_OUT_7, HELD_OUT_8, HELD_OUT_9)
MANIFESTS = (("pairs.tsv", None), ("pairs_heldout.tsv", HELD_OUT),
             ("pairs_heldout2.tsv", HELD_OUT_2), ("pairs_heldout3.tsv", HELD_OUT_3),
             ("pairs_heldout4.tsv", HELD_OUT_4), ("pairs_heldout5.tsv", HELD_OUT_5),
             ("pairs_heldout6.tsv", HELD_OUT_6), ("pairs_heldout7.tsv", HELD_OUT_7),
             ("pairs_heldout8.tsv", HELD_OUT_8),
             ("pairs_heldout9.tsv", HELD_OUT_9))


def not_reuse_when_run() -> set[tuple[str, str, str, str]]:
    """The pairs whose before-file was run and is not reuse by issue #25's labelling rule
    (fix_pairs/not_reuse_when_run.tsv, each with what was run): (repo, commit, path, line)."""
    lines = (HERE / "fix_pairs" / "not_reuse_when_run.tsv").read_text(encoding="utf-8").splitlines()
    table = csv.DictReader([line for line in lines if not line.startswith("#")], delimiter="\t")
    return {(r["repo"], r["commit"], r["path"], r["line"]) for r in table}


def run_fix_pairs(mirrors: list[Path], cache: Path, preview: bool) -> str:
    """Recall on the fix pairs whose repositories are present locally (others are skipped).
    OPT020's pairs are counted twice: all of them, and without those shown not reuse by running."""
    sys.path.insert(0, str(HERE / "fix_pairs"))
    import extract  # type: ignore[import-not-found]

    not_reuse = not_reuse_when_run()
    groups: dict[str, Tally] = defaultdict(Tally)
    skipped = 0
    notes = []
    manifest_rows = [(row, held_out) for name, held_out in MANIFESTS
                     if (HERE / "fix_pairs" / name).is_file()
                     for row in extract.rows(HERE / "fix_pairs" / name)]
    for row, held_out in manifest_rows:
        roots = extract.extract(row, mirrors, cache)
        if roots is None:
            skipped += 1
            continue
        before_root, after_root = (Path(r) for r in roots)
        rule = FAMILY_CODES.get(row["rule"].lower(), row["rule"].upper())
        family = row.get("class") or "basic" if rule == "OPT020" else rule
        before = before_root / row["path"]
        if not before.is_file():
            skipped += 1
            continue
        found = [f for f in findings_in(before_root, [before], preview) if f["code"] == rule]
        line = int(row["line"])
        cell, at = _notebook_place(before, line) if before.suffix == ".ipynb" \
            else _myst_place(before, line) if before.suffix == ".md" else (None, line)
        # As for the cases: a finding is about its own line and its roles' (the mask's code a
        # finding at `mask=fn` names).
        hit = any(in_cell == cell and abs(near - at) <= PAIR_WINDOW
                  for f in found for in_cell, near in f["about"])
        after = after_root / row["path"]
        left = [f for f in findings_in(after_root, [after], preview) if f["code"] == rule] \
            if after.is_file() else []
        shown_not_reuse = (row["repo"], row["commit"], row["path"], row["line"]) in not_reuse
        totals = [] if rule != "OPT020" else ["OPT020"] if shown_not_reuse \
            else ["OPT020", RUN_CONFIRMED]
        # A held-out row shown not reuse by running is left out of its line (it measures nothing).
        held_out_lines = [] if shown_not_reuse else [held_out]
        for key in (held_out_lines if held_out else [family, "all", *totals]):
            groups[key].positives += 1
            groups[key].found += hit
        notes.append(f"{'found ' if hit else 'missed'} {f'[{held_out[7:]}] ' if held_out else ''}"
                     f"{row['repo']}@{row['commit'][:10]} "
                     f"{row['path']}:{line} ({rule}); after the fix: {len(left)} finding(s) "
                     f"of {rule} in the file"
                     + ("; not reuse when run (not_reuse_when_run.tsv)" if shown_not_reuse else ""))
    rows = [f"fix pairs: {skipped} skipped (repository not present locally)"]
    for family, tally in sorted(groups.items(),
                                key=lambda kv: (kv[0] == "all", kv[0] in TOTALS, kv[0])):
        recall = f"{100 * tally.found / tally.positives:.0f}%" if tally.positives else "-"
        rows.append(f"  {family:18} {tally.found:>5} of {tally.positives:<3} {recall:>7}")
    return "\n".join(rows + notes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preview", action="store_true")
    parser.add_argument("--misses", action="store_true", help="list missed and flagged cases")
    parser.add_argument("--record", action="store_true", help=f"write {BASELINE.name}")
    parser.add_argument("--check", action="store_true",
                        help=f"exit 1 when worse than {BASELINE.name}")
    parser.add_argument("--json", action="store_true", help="print each case's outcome as JSON")
    parser.add_argument("--fix-pairs", action="store_true")
    parser.add_argument("--mirrors", type=Path, action="append",
                        default=None, help="folders holding git mirrors (owner+name)")
    parser.add_argument("--pair-cache", type=Path,
                        default=Path.home() / ".cache" / "optlint-recall" / "pairs")
    args = parser.parse_args(argv)
    outcome = run_cases(discover(), args.preview)
    if args.json:
        print(json.dumps(outcome, indent=1, sort_keys=True))
    else:
        print(table(outcome))
        print(run_checked_keys(outcome, labels_when_run()))
    if args.misses:
        print(misses(outcome))
    if args.fix_pairs:
        mirrors = args.mirrors or [Path("/work/.mirror"),
                                   Path.home() / ".cache" / "optlint-recall" / "mirrors"]
        print(run_fix_pairs(mirrors, args.pair_cache, args.preview))
    if args.record:
        BASELINE.write_text(json.dumps(record(outcome), indent=1) + "\n", encoding="utf-8")
    if args.check and BASELINE.exists():
        problems = check_against(outcome, json.loads(BASELINE.read_text(encoding="utf-8")),
                                 labels_when_run())
        for problem in problems:
            print(f"worse than the baseline: {problem}")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
