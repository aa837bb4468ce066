"""Benchmark `optlint check` against libcst's parse time and ruff, on one corpus, in one run.

    python benchmarks/bench.py [CORPUS...]     (default: the installed jax, optax, equinox trees)
    python benchmarks/bench.py --latency [RUNS] (only the single-file latency section)

Prints files, lines, wall seconds and peak memory for a cold `optlint check` (one process and two),
the libcst parse-only time of the files optlint had to parse (those passing its prefilter), and
`ruff check --select E,F --no-cache` on the same corpus, with the ratios. Each measurement runs in a
fresh process, so imports and caches are cold and peak memory is that process's own. Then, on a
copy of the corpus, optlint with its cache: cold, warm, and after one file was edited, beside
ruff's cold and warm runs with its cache.

The latency section times what an editor or a pre-commit hook pays for one file: a cold process
checking benchmarks/latency_train.py (200 lines, one finding), against `python -c pass`, against
`ruff check` of the same file, and against the floor of any libcst linter: the interpreter, `import
libcst` and the parse of that file. Medians of RUNS interleaved runs, then `-X importtime`'s
largest imports of that check.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PARSE_ONLY = """
import sys, time
import libcst
paths = sys.argv[1:]
start, cpu = time.perf_counter(), time.process_time()
for path in paths:
    with open(path, "rb") as handle:
        libcst.parse_module(handle.read())
print(time.perf_counter() - start, time.process_time() - cpu)
"""


LATENCY_FILE = Path(__file__).resolve().with_name("latency_train.py")
FLOOR = "import sys, libcst; libcst.parse_module(open(sys.argv[1], 'rb').read())"


def default_corpus() -> list[Path]:
    trees = []
    for name in ("jax", "optax", "equinox"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin is not None:
            trees.append(Path(spec.origin).parent)
    return trees


def run_measured(command: list[str], cwd: Path | None = None) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds (user + system), peak RSS in MiB of the child process itself,
    and its stdout. CPU seconds are what to compare on a busy machine, where other processes
    stretch wall time; on an idle one the two agree.

    Commands run in an empty folder, so no project configuration applies to the corpus; a command
    that fails stops the benchmark rather than timing an error message.
    """
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   cwd=cwd or folder)
        stdout = process.stdout.read() if process.stdout else b""
        stderr = process.stderr.read() if process.stderr else b""
        _, status, usage = os.wait4(process.pid, 0)  # reaps the child, gives its own rusage
        wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"benchmark command failed: {' '.join(command[:4])}...: {stderr.decode()[-500:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, stdout.decode()


def files_optlint_parses(corpus: list[Path]) -> tuple[list[Path], list[Path]]:
    from optlint.config import Settings
    from optlint.discovery import discover
    from optlint.engine import Linter, LintOptions
    from optlint.selection import Selection
    from optlint.versions import LibraryVersions

    settings = Settings(project_root=Path.cwd(), respect_gitignore=False)
    every = discover(corpus, settings)
    linter = Linter(LintOptions(Selection.from_settings(settings), LibraryVersions(), Path.cwd()))
    parsed = [path for path in every
              if linter.may_match(path.read_text(encoding="utf-8", errors="replace"))]
    return every, parsed


def main() -> None:
    if sys.argv[1:2] == ["--latency"]:
        latency(int(sys.argv[2]) if len(sys.argv) > 2 else 15)
        return
    corpus = [Path(arg) for arg in sys.argv[1:]] or default_corpus()
    every, parsed = files_optlint_parses(corpus)
    lines = sum(path.read_bytes().count(b"\n") for path in every)
    print(f"corpus: {', '.join(str(p) for p in corpus)}")
    print(f"files: {len(every)}   lines: {lines}   files passing the prefilter: {len(parsed)}")

    optlint = [sys.executable, "-m", "optlint", "check", "--no-cache", "--exit-zero", "-q",
               *map(str, corpus)]
    results: dict[str, tuple[float, float, float]] = {}  # wall, cpu, peak
    _, _, parse_peak, parse_out = run_measured(
        [sys.executable, "-c", PARSE_ONLY, *map(str, parsed)])
    parse_wall, parse_cpu = map(float, parse_out.split())
    results["libcst parse only (prefiltered files)"] = (parse_wall, parse_cpu, parse_peak)
    for jobs in (1, 2):
        wall, cpu, peak, _ = run_measured([*optlint, "--jobs", str(jobs)])
        results[f"optlint check --jobs {jobs}"] = (wall, cpu, peak)
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if Path(ruff).exists():
        wall, cpu, _, _ = run_measured([ruff, "check", "--select", "E,F", "--no-cache",
                                        "--exit-zero", "--quiet", *map(str, corpus)])
        results["ruff check --select E,F --no-cache"] = (wall, cpu, float("nan"))

    print(f"\n{'measurement':<42}{'wall s':>8}{'cpu s':>8}{'peak MiB':>10}"
          "  (cpu: user + system of the process; peak: the main process)")
    for name, (seconds, cpu, peak) in results.items():
        print(f"{name:<42}{seconds:>8.2f}{cpu:>8.2f}{peak:>10.0f}")
    parse, parse_cpu, _ = results["libcst parse only (prefiltered files)"]
    one, one_cpu, _ = results["optlint check --jobs 1"]
    two = results["optlint check --jobs 2"][0]
    print(f"\noptlint --jobs 1 / libcst parse time:   {one / parse:.2f}x wall, "
          f"{one_cpu / parse_cpu:.2f}x cpu   (target <= 1.3x)")
    print(f"speed-up --jobs 2 over --jobs 1:        {one / two:.2f}x   (target >= 1.7x)")
    if "ruff check --select E,F --no-cache" in results:
        ruff_seconds = results["ruff check --select E,F --no-cache"][0]
        print(f"optlint --jobs 1 / ruff:                {one / ruff_seconds:.1f}x")
    cache_runs(corpus, parsed)
    latency(15)


def latency(runs: int) -> None:
    """Cold single-file runs, interleaved so that a busy moment on the machine touches every
    command alike; the median of each."""
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    with tempfile.TemporaryDirectory() as folder:
        plain = Path(folder) / "plain.py"  # misses the prefilter: nothing to parse
        plain.write_text("import os\n\nprint(os.getcwd())\n")
        optlint = [sys.executable, "-m", "optlint"]
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "floor: python + import libcst + parse": [sys.executable, "-c", FLOOR,
                                                      str(LATENCY_FILE)],
            "optlint check FILE": [*optlint, "check", "--no-cache", "--exit-zero", "-q",
                                   str(LATENCY_FILE)],
            "optlint check (file missing prefilter)": [*optlint, "check", "--no-cache", "-q",
                                                       str(plain)],
            "optlint --version": [*optlint, "--version"],
            "optlint rule OPT003": [*optlint, "rule", "OPT003"],
        }
        if Path(ruff).exists():
            commands["ruff check FILE"] = [ruff, "check", "--no-cache", "--exit-zero", "--quiet",
                                           str(LATENCY_FILE)]
        walls: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, command in commands.items():
                wall, cpu, _, _ = run_measured(command)
                walls[name].append(wall)
                cpus[name].append(cpu)
        importtime = subprocess.run([sys.executable, "-X", "importtime", *commands[
            "optlint check FILE"][1:]], capture_output=True, text=True, cwd=folder).stderr
    wall = {name: statistics.median(values) for name, values in walls.items()}
    cpu = {name: statistics.median(values) for name, values in cpus.items()}
    lines = LATENCY_FILE.read_bytes().count(b"\n")
    print(f"\nsingle-file latency: {LATENCY_FILE.name} ({lines} lines), cold process, median "
          f"of {runs}")
    print(f"{'command':<42}{'wall s':>8}{'cpu s':>8}{'/ floor':>9}{'/ pass':>8}")
    floor, bare = wall["floor: python + import libcst + parse"], wall["python -c pass"]
    for name in commands:
        print(f"{name:<42}{wall[name]:>8.3f}{cpu[name]:>8.3f}{wall[name] / floor:>8.2f}x"
              f"{wall[name] / bare:>7.1f}x")
    print(f"\noptlint check FILE / floor:              {wall['optlint check FILE'] / floor:.2f}x"
          f"   (target <= 1.2x)")
    if "ruff check FILE" in wall:
        print(f"optlint check FILE / ruff check FILE:    "
              f"{wall['optlint check FILE'] / wall['ruff check FILE']:.1f}x")
    print("\n-X importtime of `optlint check FILE`, largest imports (cumulative ms, top level):")
    for name, cumulative in top_imports(importtime, 12):
        print(f"  {cumulative / 1000:>8.1f}  {name}")


def top_imports(report: str, count: int) -> list[tuple[str, int]]:
    """The largest imports that no other import made (the top of -X importtime's tree)."""
    rows = []
    for line in report.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = line.split("|")
        if cumulative.strip().isdigit() and not name[1:].startswith(" "):
            rows.append((name.strip(), int(cumulative)))
    return sorted(rows, key=lambda row: -row[1])[:count]


def cache_runs(corpus: list[Path], parsed: list[Path]) -> None:
    """Cold, warm, and one-file-edited runs with the cache, beside ruff's cold and warm runs,
    on a copy of the corpus (the edit must not touch the installed packages)."""
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        copies = []
        for number, tree in enumerate(corpus):
            copies.append(root / f"{number}-{tree.name}")
            shutil.copytree(tree, copies[-1], ignore=shutil.ignore_patterns("__pycache__"))
        (root / "pyproject.toml").write_text("[tool.optlint]\n[tool.ruff]\n")
        optlint = [sys.executable, "-m", "optlint", "check", "--exit-zero", "-q",
                   *(str(c) for c in copies)]
        rows = {}
        rows["optlint cold (empty cache)"] = run_measured(optlint, cwd=root)[:2]
        rows["optlint warm"] = run_measured(optlint, cwd=root)[:2]
        pairs = zip(corpus, copies, strict=True)
        edited = next((copy / path.relative_to(tree) for tree, copy in pairs
                       for path in parsed if path.is_relative_to(tree)), None)
        if edited is not None:
            with edited.open("a", encoding="utf-8") as stream:
                stream.write("\n# edited by the benchmark\n")
            rows[f"optlint one file edited ({edited.name})"] = run_measured(optlint, cwd=root)[:2]
        if Path(ruff).exists():
            command = [ruff, "check", "--select", "E,F", "--exit-zero", "--quiet",
                       *(str(c) for c in copies)]
            rows["ruff cold (empty cache)"] = run_measured(command, cwd=root)[:2]
            rows["ruff warm"] = run_measured(command, cwd=root)[:2]
    print(f"\n{'with the cache (--jobs: all cores)':<42}{'wall s':>8}{'cpu s':>8}")
    for name, (wall, cpu) in rows.items():
        print(f"{name:<42}{wall:>8.2f}{cpu:>8.2f}")
    cold, warm = rows["optlint cold (empty cache)"][0], rows["optlint warm"][0]
    print(f"\noptlint warm / cold:                    {warm / cold:.2f}x   (target <= 0.10x)")
    if "ruff warm" in rows:
        print(f"optlint warm / ruff warm:               {warm / rows['ruff warm'][0]:.1f}x")


if __name__ == "__main__":
    main()
