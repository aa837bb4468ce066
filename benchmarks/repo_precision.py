"""OPT020 precision on whole public repositories, each at a fixed commit.

    python benchmarks/repo_precision.py [--mirrors DIR] [--cache DIR] [--optlint-python PY]
                                        [--only OWNER/NAME ...] [--check [--floor P]]
                                        [-- EXTRA OPTLINT ARGS, e.g. --preview]

Reads the repositories and commits of `benchmarks/repo_opt020_repos.tsv`, extracts each tree's
Python files, notebooks (.ipynb, and every .md: optlint reads one as a MyST / jupytext notebook
only when its front matter declares it, as in a checkout) and .gitignore files at its commit from a local git mirror (`DIR/owner+name/repo`, default
`/work/.mirror`) into a cache outside the repository (default `~/.cache/optlint-repos/`, or
`$OPTLINT_REPO_CACHE`), runs `optlint check . --select OPT020 --isolated --no-cache` in each tree
and counts the findings against `benchmarks/repo_opt020_labels.tsv`: TP, FP and unlabelled per
repository and in all; then the unlabelled findings as label rows, and the labelled findings no
longer reported. A repository whose mirror or commit is absent is skipped, and said so.

Trees are read with `git ls-tree` and `git cat-file`, not `git archive`, which fails on a blob a
mirror lacks (a Git LFS object); such a blob is left out.

Exit status: 0; 1 when a finding labelled TP is no longer reported, or with --check when the
precision (TP / labelled findings) falls under --floor; 2 when optlint fails on a tree or runs
past --timeout there.
Not part of the test suite (the mirrors are not): tests/test_repo_precision.py runs it on a tiny
repository made for the test.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # imported by the tests rather than run as a script
    sys.path.insert(0, str(HERE))
from real_world import VERDICTS, read_tsv  # noqa: E402

REPOS_FILE = HERE / "repo_opt020_repos.tsv"
LABELS_FILE = HERE / "repo_opt020_labels.tsv"
DEFAULT_MIRRORS = Path("/work/.mirror")
DEFAULT_CACHE = Path(os.environ.get("OPTLINT_REPO_CACHE", "~/.cache/optlint-repos"))
# 33 of 40 when the labels were first made (closing9): a run under it is a regression.
DEFAULT_FLOOR = 0.82
CHECKED_SUFFIXES = (".py", ".ipynb", ".md")
KEPT_NAMES = (".gitignore",)  # optlint skips what a checkout's .gitignore files name
RULE = "OPT020"

Key = tuple[str, str, str, str]  # repository, commit, file, line ("12" or "cell 3:4")


@dataclass(frozen=True)
class Repo:
    name: str  # owner/name
    commit: str

    @property
    def slug(self) -> str:
        return f"{self.name.replace('/', '+')}@{self.commit[:12]}"


@dataclass(frozen=True)
class Finding:
    repo: str
    commit: str
    file: str
    line: str
    message: str = ""

    @property
    def key(self) -> Key:
        return (self.repo, self.commit, self.file, self.line)


@dataclass(frozen=True)
class Label:
    repo: str
    commit: str
    file: str
    line: str
    verdict: str
    reason: str

    @property
    def key(self) -> Key:
        return (self.repo, self.commit, self.file, self.line)


def notebook_line(line: str) -> str:
    """`cell 6:2` however it was spaced (the labels copy optlint's text output)."""
    cell, sep, rest = line.replace(" ", "").rpartition(":")
    return f"cell {cell.removeprefix('cell')}:{rest}" if sep else rest


def read_repos(path: Path) -> list[Repo]:
    return [Repo(row["repo"], row["commit"]) for row in read_tsv(path)]


def read_labels(path: Path) -> list[Label]:
    labels = []
    for number, row in enumerate(read_tsv(path), start=2):
        if row["rule"] != RULE:
            continue
        if row["verdict"] not in VERDICTS:
            raise SystemExit(f"{path}: row {number}: verdict must be TP or FP, not {row['verdict']!r}")
        labels.append(Label(row["repo"], row["commit"], row["path"], notebook_line(row["line"]),
                            row["verdict"], (row.get("reason") or "").strip()))
    return labels


# --- extraction -------------------------------------------------------------------------------


def git(mirror: Path, *args: str, stdin: bytes | None = None) -> bytes:
    return subprocess.run(["git", "-C", str(mirror), *args], input=stdin, capture_output=True,
                          check=True).stdout


def extracted_marker(repo: Repo) -> str:
    """What a finished tree's marker holds: the commit and the suffixes extracted, so that a tree
    extracted before a suffix was added (`.md`) is extracted again rather than read short."""
    return f"{repo.commit}\n{' '.join(CHECKED_SUFFIXES)}\n"


def extract(repo: Repo, mirrors: Path, cache: Path) -> Path | None:
    """The tree's Python files and notebooks at the commit, or None when the mirror or the commit
    is absent. Extracted once: a finished tree carries a marker."""
    mirror = mirrors / repo.name.replace("/", "+") / "repo"
    root = cache / repo.slug
    marker = root / ".optlint-repo-extracted"
    if marker.exists() and marker.read_text(encoding="utf-8") == extracted_marker(repo):
        return root
    if not mirror.exists():
        return None
    try:
        listing = git(mirror, "ls-tree", "-r", "-z", repo.commit)
    except subprocess.CalledProcessError:
        return None
    blobs = []  # (object id, path) of regular files optlint reads; links and submodules left out
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, _, path = entry.partition(b"\t")
        mode, kind, oid = meta.split()
        name = path.decode()
        if kind == b"blob" and mode in (b"100644", b"100755") and (
                name.endswith(CHECKED_SUFFIXES) or name.rsplit("/", 1)[-1] in KEPT_NAMES):
            blobs.append((oid.decode(), name))
    if root.exists():
        shutil.rmtree(root)
    output = git(mirror, "cat-file", "--batch", stdin="".join(f"{o}\n" for o, _ in blobs).encode())
    at = 0
    for _oid, path in blobs:
        newline = output.index(b"\n", at)
        header = output[at:newline].split()
        at = newline + 1
        if header[-1] == b"missing":
            continue
        size = int(header[2])
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(output[at : at + size])
        at += size + 1
    root.mkdir(parents=True, exist_ok=True)
    marker.write_text(extracted_marker(repo), encoding="utf-8")
    return root


# --- running optlint and counting -------------------------------------------------------------


def run_optlint(repo: Repo, root: Path, python: str, extra: list[str],
                timeout: float | None = None) -> list[Finding]:
    command = [python, "-m", "optlint", "check", ".", "--select", RULE, "--isolated", "--no-cache",
               "--output-format", "json", "--exit-zero", "--quiet", *extra]
    try:
        result = subprocess.run(command, cwd=root, capture_output=True, text=True,
                                timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"optlint ran past {timeout:.0f} s on {repo.slug}") from None
    if result.returncode != 0:
        raise RuntimeError(f"optlint failed on {repo.slug} (exit {result.returncode}):\n"
                           f"{result.stderr[-3000:]}")
    findings = []
    for item in json.loads(result.stdout or "[]"):
        if item["code"] != RULE:
            continue
        line = str(item["line"])
        if item.get("cell") is not None:
            line = f"cell {item['cell']}:{line}"
        findings.append(Finding(repo.name, repo.commit, Path(item["filename"]).as_posix(), line,
                                item.get("message", "")))
    return findings


@dataclass
class Row:
    findings: int = 0
    tp: int = 0
    fp: int = 0
    unlabelled: int = 0

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None


def count(findings: list[Finding], labels: list[Label], checked: set[tuple[str, str]]
          ) -> tuple[dict[str, Row], Row, list[Finding], list[Label]]:
    """Rows per repository and in all, the unlabelled findings, and the labels of checked trees
    whose finding is no longer reported. Findings on one line share its label."""
    by_key = {label.key: label for label in labels}
    rows: dict[str, Row] = defaultdict(Row)
    total = Row()
    unlabelled = []
    for finding in findings:
        label = by_key.get(finding.key)
        for row in (rows[finding.repo], total):
            row.findings += 1
            if label is None:
                row.unlabelled += 1
            elif label.verdict == "TP":
                row.tp += 1
            else:
                row.fp += 1
        if label is None:
            unlabelled.append(finding)
    reported = {finding.key for finding in findings}
    lost = [label for label in labels
            if (label.repo, label.commit) in checked and label.key not in reported]
    return dict(rows), total, unlabelled, lost


def format_row(name: str, row: Row) -> str:
    precision = "-" if row.precision is None else f"{row.precision:.3f}"
    return (f"  {name:<40} {row.findings:>8} {row.tp:>4} {row.fp:>4} {row.unlabelled:>10} "
            f"{precision:>9}")


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    extra: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS,
                        help="folder of git mirrors, DIR/owner+name/repo (default: %(default)s)")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE,
                        help="extract the trees here (default: %(default)s)")
    parser.add_argument("--optlint-python", default=sys.executable,
                        help="the interpreter that runs `-m optlint` (default: this one)")
    parser.add_argument("--repos", type=Path, default=REPOS_FILE)
    parser.add_argument("--labels", type=Path, default=LABELS_FILE)
    parser.add_argument("--only", action="append", default=[], metavar="OWNER/NAME",
                        help="check only this repository (repeatable)")
    parser.add_argument("--timeout", type=float, default=900.0, metavar="SECONDS",
                        help="give up on a tree after this long (default: %(default)s)")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when the precision falls under --floor")
    parser.add_argument("--floor", type=float, default=DEFAULT_FLOOR,
                        help="the lowest precision --check accepts (default: %(default)s)")
    return parser.parse_args(argv), extra


def main(argv: list[str] | None = None) -> int:
    args, extra = parse_args(sys.argv[1:] if argv is None else argv)
    repos = read_repos(args.repos)
    if args.only:
        unknown = set(args.only) - {repo.name for repo in repos}
        if unknown:
            raise SystemExit(f"not in {args.repos.name}: {', '.join(sorted(unknown))}")
        repos = [repo for repo in repos if repo.name in args.only]
    labels = read_labels(args.labels)
    cache = args.cache.expanduser().resolve()
    cache.mkdir(parents=True, exist_ok=True)
    print(f"optlint run by {args.optlint_python}; mirrors: {args.mirrors}; cache: {cache}")
    if extra:
        print(f"extra optlint arguments: {' '.join(extra)}")

    findings: list[Finding] = []
    checked: set[tuple[str, str]] = set()
    skipped, failures = [], []
    for repo in repos:
        root = extract(repo, args.mirrors, cache)
        if root is None:
            skipped.append(repo.slug)
            continue
        try:
            findings.extend(run_optlint(repo, root, args.optlint_python, extra,
                                        args.timeout))
        except RuntimeError as error:
            failures.append(str(error))
            continue
        checked.add((repo.name, repo.commit))
    rows, total, unlabelled, lost = count(findings, labels, checked)

    print(f"\n  {'repository':<40} {'findings':>8} {'TP':>4} {'FP':>4} {'unlabelled':>10} "
          f"{'precision':>9}")
    for repo in repos:
        if (repo.name, repo.commit) in checked:
            print(format_row(repo.name, rows.get(repo.name, Row())))
    print(format_row(f"all ({len(checked)} repositories)", total))
    if skipped:
        print(f"\nskipped, mirror or commit absent ({len(skipped)}): {', '.join(skipped)}")
    if unlabelled:
        print(f"\nunlabelled findings ({len(unlabelled)}), as rows for {args.labels.name}:")
        for f in unlabelled:
            print("\t".join([f.repo, f.commit, f.file, f.line, RULE, "??", f.message]))
    if lost:
        print(f"\nlabelled but not reported ({len(lost)}):")
        for label in lost:
            print(f"  {label.verdict} {label.repo} {label.file}:{label.line}: {label.reason[:90]}")
    if failures:
        print("\nfailed:\n" + "\n".join(failures), file=sys.stderr)
        return 2
    if any(label.verdict == "TP" for label in lost):
        print("\nerror: a finding labelled TP is no longer reported", file=sys.stderr)
        return 1
    if args.check and total.precision is not None and total.precision < args.floor:
        print(f"\nerror: precision {total.precision:.3f} is under the floor {args.floor}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
