"""Precision of optlint on real packages that train or optimise Equinox models with Optax.

    python benchmarks/real_world.py [--cache DIR] [--optlint-python PY] [--allow-unlabelled]
                                    [--only PKG ...] [--verify [--verify-once] [--require-targets]]
                                    [-- EXTRA OPTLINT ARGS, e.g. --preview]

Downloads the pinned packages listed in `benchmarks/real_world_packages.tsv` with
`pip download --no-deps` into a cache folder outside the repository (default
`~/.cache/optlint-real-world/`, or `$OPTLINT_REAL_WORLD_CACHE`; a package already there is not
downloaded again), extracts each wheel or sdist, runs `optlint check --output-format json` on it
and compares the findings with `benchmarks/real_world_labels.tsv`, where every finding is labelled
TP or FP by reading the code (and, where that was not enough, by running a few lines).

Prints the library versions optlint checked against, then per rule: findings, TP, FP, unlabelled
and precision (TP / labelled findings); then the unlabelled findings as ready-to-edit label rows,
and the labels whose finding is no longer reported (informational: the analysis changed).

With --verify, `optlint verify --output-format json --device cpu` then runs on each package's files
with findings (see real_world_verify.py), and each verdict is mapped to its finding: per rule, the
TP findings' verdicts (confirmed, fix-failed, not-reproduced, unverifiable, timeout, or none when
the verifier gave none), the FP findings' verdicts, and seconds per finding; then the commonest
reasons TP findings were not proven, and whether the targets hold: no fix-failed on a TP, at most
10% of TP unverifiable (unverifiable, timeout or no verdict). Each package is verified twice and
the second, warm run (JAX's compilation cache filled) is the one reported, unless --verify-once.

Exit status: 0 when every finding is labelled (or with --allow-unlabelled), 1 when some finding
is unlabelled, 2 when a package could not be downloaded, extracted, checked or verified, 3 with
--require-targets when a --verify target does not hold (the targets never change the exit status
otherwise).

The third-party code is never copied into the repository; labels name files relative to the
package root (the wheel's root, or the sdist's top folder) so they stay stable across runs.
Needs the network for the first run: it is not part of the test suite.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # imported by the tests rather than run as a script
    sys.path.insert(0, str(HERE))
import real_world_verify as verify  # noqa: E402

PACKAGES_FILE = HERE / "real_world_packages.tsv"
LABELS_FILE = HERE / "real_world_labels.tsv"
DEFAULT_CACHE = Path(os.environ.get("OPTLINT_REAL_WORLD_CACHE", "~/.cache/optlint-real-world"))
LABEL_COLUMNS = ["package", "version", "file", "line", "code", "verdict", "reason"]
VERDICTS = ("TP", "FP")
# The versions the labels were established against (LIBRARY_FACTS.md); a run against others is
# still printed, with a warning, since a verdict can depend on the version.
LABELLED_VERSIONS = {"optax": "0.2.8", "equinox": "0.13.8", "jax": "0.10.2"}


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    dist: str  # "wheel" or "sdist"
    why: str

    @property
    def slug(self) -> str:
        return f"{self.name}-{self.version}-{self.dist}"


@dataclass(frozen=True)
class Finding:
    package: str
    version: str
    file: str
    line: str  # "58", or "cell12:3" in a notebook
    code: str
    message: str = ""

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        return (self.package, self.version, self.file, self.line, self.code)


@dataclass(frozen=True)
class Label:
    package: str
    version: str
    file: str
    line: str
    code: str
    verdict: str
    reason: str

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        return (self.package, self.version, self.file, self.line, self.code)


def read_tsv(path: Path) -> list[dict[str, str]]:
    """Rows of a tab-separated file with a header; lines starting with '#' and blank lines are
    comments."""
    with path.open(encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if line.strip() and not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def read_packages(path: Path) -> list[Package]:
    packages = []
    for row in read_tsv(path):
        if row["dist"] not in ("wheel", "sdist"):
            raise SystemExit(f"{path}: dist must be 'wheel' or 'sdist', not {row['dist']!r}")
        packages.append(Package(row["package"], row["version"], row["dist"], row.get("why", "")))
    return packages


def read_labels(path: Path) -> list[Label]:
    labels = []
    seen: set[tuple[str, str, str, str, str]] = set()
    for number, row in enumerate(read_tsv(path), start=2):
        if row["verdict"] not in VERDICTS:
            raise SystemExit(f"{path}: row {number}: verdict must be TP or FP, not {row['verdict']!r}")
        if not (row.get("reason") or "").strip():
            raise SystemExit(f"{path}: row {number}: a label needs a reason")
        label = Label(
            row["package"], row["version"], row["file"], row["line"].strip(), row["code"],
            row["verdict"], row["reason"].strip(),
        )
        if label.key in seen:
            raise SystemExit(f"{path}: row {number}: {label.key} is labelled twice")
        seen.add(label.key)
        labels.append(label)
    return labels


# --- download and extract ---------------------------------------------------------------------


def download(package: Package, cache: Path) -> Path:
    """The downloaded distribution file, fetched with pip unless the cache has it."""
    folder = cache / "dists" / package.slug
    existing = [p for p in folder.glob("*") if p.suffix in (".whl", ".gz", ".zip", ".bz2")]
    if existing:
        return existing[0]
    folder.mkdir(parents=True, exist_ok=True)
    kind = ["--only-binary", ":all:"] if package.dist == "wheel" else ["--no-binary", ":all:"]
    command = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--ignore-requires-python",
        "--quiet", "--disable-pip-version-check", *kind, "--dest", str(folder),
        f"{package.name}=={package.version}",
    ]
    result = subprocess.run(command, capture_output=True, text=True)
    existing = [p for p in folder.glob("*") if p.suffix in (".whl", ".gz", ".zip", ".bz2")]
    if result.returncode != 0 or not existing:
        raise RuntimeError(f"pip download {package.name}=={package.version} failed:\n{result.stderr}")
    return existing[0]


def extract(package: Package, archive: Path, cache: Path) -> Path:
    """The package root: the wheel's contents, or the sdist's single top folder."""
    root = cache / "src" / package.slug
    marker = root / ".optlint-real-world-extracted"
    if marker.exists():
        return root
    if root.exists():
        shutil.rmtree(root)
    staging = root.with_name(root.name + ".partial")
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    if archive.suffix == ".whl" or archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as zipped:
            zipped.extractall(staging)
    else:
        with tarfile.open(archive) as tarred:
            if hasattr(tarfile, "data_filter"):
                tarred.extractall(staging, filter="data")
            else:  # Python < 3.11.4 has no extraction filters
                tarred.extractall(staging)
    entries = list(staging.iterdir())
    if archive.suffix != ".whl" and len(entries) == 1 and entries[0].is_dir():
        entries[0].rename(root)
        staging.rmdir()
    else:
        staging.rename(root)
    marker.write_text(archive.name + "\n", encoding="utf-8")
    return root


def files_using_both(root: Path) -> int:
    """Python files and notebooks of a package that mention both optax and equinox: a rough
    measure of how much Equinox + Optax code the benchmark checks there."""
    count = 0
    for path in root.rglob("*"):
        if path.suffix not in (".py", ".ipynb") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if "optax" in text and ("equinox" in text or "eqx." in text):
            count += 1
    return count


# --- running optlint --------------------------------------------------------------------------


def library_versions(python: str) -> dict[str, str]:
    """Versions of optlint and the libraries in the environment of the interpreter that runs it."""
    probe = (
        "import importlib.metadata as m, json\n"
        "out = {}\n"
        "for name in ('optlint', 'optax', 'equinox', 'jax'):\n"
        "    try: out[name] = m.version(name)\n"
        "    except m.PackageNotFoundError: out[name] = 'not installed'\n"
        "print(json.dumps(out))\n"
    )
    result = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def empty_config(root: Path) -> Path:
    """An empty configuration in the package's own root: optlint takes the folder of the file
    given to `--config` as the project root, and the project root bounds the files its
    cross-file analysis reads (callers of a function, classes), so one shared config above every
    package would make each package's analysis read all the others."""
    config = root / ".optlint-benchmark-config.toml"
    config.write_text("", encoding="utf-8")
    return config


def run_optlint(package: Package, root: Path, python: str, extra: list[str]) -> list[Finding]:
    """optlint's findings on one package root, with file names relative to that root.

    The checked folder is the working directory and an empty configuration is passed, so a
    package's own settings cannot change what is reported; library versions come from the
    environment optlint runs in.
    """
    command = [
        python, "-m", "optlint", "check", ".", "--config", str(empty_config(root)),
        "--output-format", "json", "--exit-zero", "--quiet", "--no-cache", *extra,
    ]
    result = subprocess.run(command, cwd=root, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(
            f"optlint failed on {package.slug} (exit {result.returncode}):\n{result.stderr[-3000:]}"
        )
    return parse_findings(package, result.stdout, root)


def parse_findings(package: Package, output: str, root: Path) -> list[Finding]:
    """Findings from optlint's JSON output; a notebook finding's line is `cell<N>:<line>`."""
    findings = []
    for item in json.loads(output or "[]"):
        if item["code"] is None:  # a file optlint could not check: not a finding
            continue
        filename, line = verify.place(item, root)
        findings.append(
            Finding(
                package.name, package.version, filename, line, item["code"],
                item.get("message", ""),
            )
        )
    return findings


def sort_key(item: Finding | Label) -> tuple[str, str, str, int, int, str]:
    """Package, version, file, then cell and line as numbers."""
    cell, _, line = item.line.rpartition(":")
    cell_number = int(cell.removeprefix("cell")) if cell else 0
    return (item.package, item.version, item.file, cell_number, int(line), item.code)


# --- comparison -------------------------------------------------------------------------------


@dataclass
class RuleRow:
    findings: int = 0
    tp: int = 0
    fp: int = 0
    unlabelled: int = 0

    @property
    def precision(self) -> float | None:
        labelled = self.tp + self.fp
        return self.tp / labelled if labelled else None


@dataclass
class Comparison:
    rows: dict[str, RuleRow]
    unlabelled: list[Finding]
    stale: list[Label]
    total: RuleRow


def compare(
    findings: list[Finding], labels: list[Label], packages_checked: set[tuple[str, str]]
) -> Comparison:
    """Counts per rule. Several findings with the same key (same line and code) share one label.
    A label is stale when its package was checked and no finding has its key any more."""
    by_key = {label.key: label for label in labels}
    rows: dict[str, RuleRow] = defaultdict(RuleRow)
    total = RuleRow()
    unlabelled = []
    for finding in sorted(findings, key=sort_key):
        label = by_key.get(finding.key)
        for row in (rows[finding.code], total):
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
    stale = [
        label for label in sorted(labels, key=sort_key)
        if (label.package, label.version) in packages_checked and label.key not in reported
    ]
    return Comparison(dict(sorted(rows.items())), unlabelled, stale, total)


def format_table(comparison: Comparison) -> str:
    header = f"{'rule':<8} {'findings':>8} {'TP':>5} {'FP':>5} {'unlabelled':>10} {'precision':>9}"
    lines = [header, "-" * len(header)]

    def line(name: str, row: RuleRow) -> str:
        precision = "-" if row.precision is None else f"{row.precision:.2f}"
        return (
            f"{name:<8} {row.findings:>8} {row.tp:>5} {row.fp:>5} {row.unlabelled:>10} "
            f"{precision:>9}"
        )

    for code, row in comparison.rows.items():
        lines.append(line(code, row))
    lines.append("-" * len(header))
    lines.append(line("all", comparison.total))
    return "\n".join(lines)


def label_row(finding: Finding) -> str:
    """A TSV row to paste into the labels file, with the verdict and reason left to fill in."""
    return "\t".join(
        [finding.package, finding.version, finding.file, str(finding.line), finding.code, "??",
         finding.message]
    )


# --- main -------------------------------------------------------------------------------------


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    extra: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE,
                        help="download and extract here (default: %(default)s)")
    parser.add_argument("--optlint-python", default=sys.executable,
                        help="the interpreter that runs `-m optlint` (default: this one)")
    parser.add_argument("--packages", type=Path, default=PACKAGES_FILE)
    parser.add_argument("--labels", type=Path, default=LABELS_FILE)
    parser.add_argument("--only", action="append", default=[], metavar="PKG",
                        help="check only this package (repeatable)")
    parser.add_argument("--allow-unlabelled", action="store_true",
                        help="exit 0 even when some finding has no label")
    parser.add_argument("--show-findings", action="store_true",
                        help="list every finding with its verdict")
    parser.add_argument("--verify", action="store_true",
                        help="also run `optlint verify` on the files with findings and report "
                             "the verdicts per rule")
    parser.add_argument("--verify-once", action="store_true",
                        help="with --verify: no warm-up run (report the first, cold run)")
    parser.add_argument("--verify-timeout", type=float, default=120.0, metavar="SECONDS",
                        help="with --verify: verify's --timeout per file (default: %(default)s)")
    parser.add_argument("--require-targets", action="store_true",
                        help="with --verify: exit 3 when a target does not hold")
    return parser.parse_args(argv), extra


def main(argv: list[str] | None = None) -> int:
    args, extra = parse_args(sys.argv[1:] if argv is None else argv)
    cache = args.cache.expanduser().resolve()
    packages = read_packages(args.packages)
    if args.only:
        unknown = set(args.only) - {p.name for p in packages}
        if unknown:
            raise SystemExit(f"not in {args.packages.name}: {', '.join(sorted(unknown))}")
        packages = [p for p in packages if p.name in args.only]
    labels = read_labels(args.labels)

    versions = library_versions(args.optlint_python)
    print(f"optlint {versions['optlint']} run by {args.optlint_python}")
    print(
        f"checked against optax {versions['optax']}, equinox {versions['equinox']}, "
        f"jax {versions['jax']} (the environment's)"
    )
    differing = [n for n, v in LABELLED_VERSIONS.items() if versions.get(n) != v]
    if differing:
        wanted = ", ".join(f"{n} {LABELLED_VERSIONS[n]}" for n in differing)
        print(f"warning: the labels were established with {wanted}")
    if extra:
        print(f"extra optlint arguments: {' '.join(extra)}")
    print(f"cache: {cache}\n")

    cache.mkdir(parents=True, exist_ok=True)

    findings: list[Finding] = []
    failures = []
    checked: set[tuple[str, str]] = set()
    per_package: Counter[str] = Counter()
    using_both: Counter[str] = Counter()
    roots: dict[str, Path] = {}
    for package in packages:
        try:
            root = extract(package, download(package, cache), cache)
            found = run_optlint(package, root, args.optlint_python, extra)
        except (RuntimeError, OSError, zipfile.BadZipFile, tarfile.TarError) as error:
            failures.append(f"{package.name}=={package.version}: {error}")
            continue
        checked.add((package.name, package.version))
        roots[package.slug] = root
        per_package[f"{package.name}=={package.version}"] = len(found)
        using_both[f"{package.name}=={package.version}"] = files_using_both(root)
        findings.extend(found)

    comparison = compare(findings, labels, checked)
    print(f"  {'package':<32} {'findings':>8}  files using optax and equinox")
    for package in packages:
        name = f"{package.name}=={package.version}"
        if name in per_package:
            print(f"  {name:<32} {per_package[name]:>8}  {using_both[name]:>3}")
    print()
    print(format_table(comparison))

    if args.show_findings:
        by_key = {label.key: label for label in labels}
        print("\nfindings:")
        for finding in sorted(findings, key=sort_key):
            label = by_key.get(finding.key)
            verdict = label.verdict if label else "??"
            print(f"  {verdict} {finding.package}=={finding.version} {finding.file}:{finding.line} "
                  f"{finding.code}")
    if comparison.unlabelled:
        print(f"\nunlabelled findings ({len(comparison.unlabelled)}), as rows for {args.labels.name}:")
        for finding in comparison.unlabelled:
            print(label_row(finding))
    if comparison.stale:
        print(
            f"\nlabelled but not reported in this run ({len(comparison.stale)}; informational: "
            "the analysis changed, or the label came from another optlint or --preview):"
        )
        for label in comparison.stale:
            reason = label.reason if len(label.reason) <= 90 else label.reason[:87] + "..."
            print(f"  {label.verdict} {label.package}=={label.version} {label.file}:{label.line} "
                  f"{label.code}: {reason}")
    missed = False
    if args.verify:
        missed = not verify_findings(packages, roots, findings, labels, args, failures)
    if failures:
        print("\nfailed:", file=sys.stderr)
        for failure in failures:
            print(f"  {failure}", file=sys.stderr)
        return 2
    if comparison.unlabelled and not args.allow_unlabelled:
        return 1
    if missed and args.require_targets:
        return 3
    return 0


def verify_findings(packages: list[Package], roots: dict[str, Path], findings: list[Finding],
                    labels: list[Label], args: argparse.Namespace,
                    failures: list[str]) -> bool:
    """Run `optlint verify` on each checked package's files with findings of rules that have a
    runtime check (the others get no verdict anyway), print the verdicts per rule and the
    targets; whether the targets hold."""
    checked_rules = verify.checked_rules(args.optlint_python)
    results: list[verify.VerifyResult] = []
    wall = 0.0
    for package in packages:
        root = roots.get(package.slug)
        files = sorted({f.file for f in findings if f.code in checked_rules
                        and (f.package, f.version) == (package.name, package.version)})
        if root is None or not files:
            continue
        try:
            run = verify.run_verify(package.name, package.version, root, files,
                                    args.optlint_python, empty_config(root), args.verify_timeout,
                                    warm_up=not args.verify_once)
        except (RuntimeError, OSError) as error:
            failures.append(f"{package.name}=={package.version}: {error}")
            continue
        results.extend(run.results)
        wall += run.wall_seconds
        print(f"  verified {package.name}=={package.version}: {len(files)} files, "
              f"{len(run.results)} verdicts, {run.wall_seconds:.1f} s", file=sys.stderr)
    ordered = sorted(findings, key=sort_key)
    matched = verify.match(ordered, results, labels, checked_rules)
    rows, total = verify.rows_of(matched)
    warmth = "cold (--verify-once)" if args.verify_once else "warm (second run of each package)"
    print(f"\noptlint verify, {warmth}; s/finding: the verifier's seconds per verdict")
    print(verify.format_verify_table(rows, total))
    if results:
        print(f"wall clock: {wall:.1f} s for {len(results)} verdicts ({wall / len(results):.2f} s "
              f"per verdict: whole `optlint verify` runs, linting and JAX imports included)")
    summary = verify.reason_summary(matched)
    if summary:
        print("\nwhy TP findings were not proven (commonest first):")
        for count, reason in summary:
            print(f"  {count:>4}  {reason}")
    # How each was proven: for OPT020, JAX's key-reuse checker or the recorded keys alone.
    proven = verify.reason_summary(matched, kinds=(verify.CONFIRMED,))
    if proven:
        print("\nhow TP findings were confirmed (commonest first):")
        for count, reason in proven:
            print(f"  {count:>4}  {reason}")
    failed = [item for item in matched if item.label == "TP" and item.verdict == verify.FIX_FAILED]
    if failed:
        print("\nfix-failed on TP findings:")
        for item in failed:
            name, version, file, line, code = item.key
            print(f"  {name}=={version} {file}:{line} {code}: {item.reason}")
    if args.show_findings:
        print("\nverdicts:")
        for item in matched:
            name, version, file, line, code = item.key
            print(f"  {item.label or '??'} {item.verdict} {name}=={version} {file}:{line} "
                  f"{code}: {item.reason}")
    result = verify.targets(matched)
    print()
    print(verify.format_targets(result))
    return result.hold


if __name__ == "__main__":
    sys.exit(main())
