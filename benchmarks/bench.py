"""Every speed figure of `optlint check`, each as a ratio against its reference measured in the same
run: CPU seconds are what to compare on a busy machine (other processes stretch wall time), and a
ratio holds from run to run where absolute times do not.

    python benchmarks/bench.py [CORPUS...]   (default: the installed jax, optax and equinox trees)
    python benchmarks/bench.py --only cold|warm|latency|big|stages [--runs N] [CORPUS...]

- cold: `optlint check --no-cache` with --jobs 1 and --jobs 2 against libcst's parse of the same
  files (all of them, and those passing optlint's prefilter), `ast.parse` and ruff's default rules.
  optlint's figure is a whole process (the interpreter's start, its imports and libcst's, reading
  the files, the parse and the analysis), so the parse of every file is measured both ways: its
  loop alone, and its whole process (`python` + `import libcst` + reading + the loop: the floor of
  any libcst linter run as a program, as the one-file figure's floor is; on levanter the part
  before the loop is ~0.2 s, 5% of the loop).
  The reference is `libcst.parse_module`, which checks every node it builds; optlint's own parse
  skips those checks (optlint.parsing.parse_module), and is shown too, with the ratio to it: what
  the analysis costs beyond a parse it cannot skip.
- warm: with the cache filled and nothing changed, against ruff's cold run of its default rules.
- latency: one 200-line file (benchmarks/latency_train.py) in a cold process, against the floor of
  any libcst linter: the interpreter, `import libcst` and the parse of that file; medians of N
  interleaved runs.
- big: one file of 5k and one of 100k lines (latency_train.py's definitions repeated under new
  names; other lengths with --big-sizes, issue #21's line being 1000,100000): CPU seconds per
  line (the smallest file's a median of N runs), and peak memory against libcst's parse of the
  file alone; libcst's parse's own CPU per line besides (less a one-line file's), the part of
  the per-line ratio no analysis can remove.
- stages (only with `--only stages`): the work a cold run does before and around the analysis,
  in this process, median CPU milliseconds of N rounds: discovery, the import graph and the check
  order, the prefilter's decisions (what the run does before any file is parsed).

Each measurement runs in a fresh process, so imports and caches are cold and peak memory is that
process's own. A single corpus folder is checked from inside it (its own project, as a user runs
it); several are checked from an empty folder.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LATENCY_FILE = HERE / "latency_train.py"
# The parse alone: libcst's (`libcst.parse_module`, which checks every node it builds), optlint's
# own (`optlint.parsing.parse_module`: the same tree without those checks, see there) or CPython's
# `ast` (compile to a tree only).
PARSE_ONLY = """
import sys, time
import libcst
if sys.argv[1] == "optlint":
    from optlint.parsing import parse_module
texts = [open(path, "rb").read() for path in sys.argv[2:]]
cpu = time.process_time()
for text in texts:
    if sys.argv[1] == "libcst":
        libcst.parse_module(text)
    elif sys.argv[1] == "optlint":
        parse_module(text.decode("utf-8", "replace"))
    else:
        compile(text, "f", "exec", 1024)
print(time.process_time() - cpu)
"""
OWN_PARSE = "optlint's own parse (nodes unchecked), prefiltered"
PARSE_PROCESS = "libcst parse, every file, whole process"
FLOOR = "import sys, libcst; libcst.parse_module(open(sys.argv[1], 'rb').read())"
PARSE_PEAK = "import sys, libcst; libcst.parse_module(open(sys.argv[1], 'rb').read())"
TARGETS = {"cold": 1.3, "warm": 1.0, "latency": 1.2, "per line": 1.5, "memory": 3.0, "jobs": 1.7}


def default_corpus() -> list[Path]:
    trees = []
    for name in ("jax", "optax", "equinox"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin is not None:
            trees.append(Path(spec.origin).parent)
    return trees


def measured(command: list[str], cwd: Path | None = None) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds (user + system), peak RSS in MiB of the child process itself,
    and its stdout. A command that fails stops the benchmark rather than timing an error."""
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryFile() as out, \
            tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, cwd=cwd or folder)
        _, status, usage = os.wait4(process.pid, 0)  # reaps the child, gives its own rusage
        process.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if process.returncode not in (0, 1):
        sys.exit(f"benchmark command failed: {' '.join(command[:5])}...: {stderr[-500:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, stdout


def ruff_command() -> str | None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    return ruff if Path(ruff).exists() else None


def ratio(name: str, value: float, reference: float, target: str, how: str = "") -> None:
    shown = value / reference if reference else float("nan")
    goal = TARGETS[target]
    verdict = "met" if (shown >= goal if target == "jobs" else shown <= goal) else "NOT met"
    sign = ">=" if target == "jobs" else "<="
    print(f"  {name:<58}{shown:>6.2f}x  (target {sign} {goal}x: {verdict}){how}")


def files_of(corpus: list[Path]) -> tuple[list[Path], list[Path]]:
    """Every file optlint checks in the corpus, and those passing its prefilter."""
    from optlint.config import Settings
    from optlint.discovery import discover
    from optlint.engine import Linter, LintOptions
    from optlint.selection import Selection
    from optlint.versions import LibraryVersions

    # The project the run checks them as (its import graph is part of the prefilter).
    root = where_to_run(corpus) or Path.cwd()
    settings = Settings(project_root=root, respect_gitignore=False)
    every = [path for path in discover(corpus, settings) if path.suffix == ".py"]
    linter = Linter(LintOptions(Selection.from_settings(settings), LibraryVersions(), root))
    parsed = [path for path in every
              if linter.may_match(path.read_text(encoding="utf-8", errors="replace"), str(path))]
    return every, parsed


def compile_bytecode() -> str:
    """optlint's bytecode written before anything is timed, as an installed package has it (pip
    compiles on install). A checkout run with PYTHONDONTWRITEBYTECODE set (as here) would
    otherwise compile every optlint module from source in every measured process: measured on
    levanter, a warm run took 0.55 s of CPU instead of 0.37 s, and the one-file run 1.07 s
    instead of 1.02 s. The bundle of that bytecode (optlint/module_bundle.py) is written too, as
    an installed package's first `optlint check` writes it; a tree without the module is timed
    as it is."""
    import compileall

    import optlint

    package = Path(optlint.__file__).parent
    compileall.compile_dir(package, quiet=1)
    if importlib.util.find_spec("optlint.module_bundle") is not None:
        from optlint import module_bundle

        module_bundle.write(str(package))
    return str(package)


def write_generated_code(corpus: list[Path]) -> bool:
    """The code of the functions optlint writes as source at run time (records' and libcst
    nodes' `__init__`s, compiled walks), written by a first check as a user's first check writes
    it (optlint/generated_code.py): every later check reads it instead of compiling. A first
    check of the corpus and the one-file benchmark's file, here, with bytecode written whatever
    PYTHONDONTWRITEBYTECODE says (it keeps the file from being written, as it keeps the .pyc
    files). False where the tree has no such file."""
    if importlib.util.find_spec("optlint.generated_code") is None:
        return False
    environment = {name: value for name, value in os.environ.items()
                   if name != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as folder:
        paths = [str(path.resolve()) for path in corpus] + [str(LATENCY_FILE)]
        subprocess.run([sys.executable, "-m", "optlint", "check", "--no-cache", "--exit-zero",
                        "-q", "--jobs", "1", *paths],
                       cwd=folder, env=environment, stdout=subprocess.DEVNULL, check=False)
    return True


def where_to_run(corpus: list[Path]) -> Path | None:
    return corpus[0].resolve() if len(corpus) == 1 and corpus[0].is_dir() else None


# cold ----------------------------------------------------------------------------------------
def cold(corpus: list[Path]) -> None:
    every, parsed = files_of(corpus)
    lines = sum(path.read_bytes().count(b"\n") for path in every)
    cwd = where_to_run(corpus)
    paths = ["."] if cwd else [str(path) for path in corpus]
    print(f"\n== cold: {len(every)} files, {lines} lines, {len(parsed)} pass the prefilter "
          f"(checked from {cwd or 'an empty folder'})")
    rows: dict[str, tuple[float, float, float]] = {}
    for name, files in (("libcst parse, every file", every), ("libcst parse, prefiltered", parsed)):
        _, process_cpu, peak, out = measured(
            [sys.executable, "-c", PARSE_ONLY, "libcst", *map(str, files)])
        rows[name] = (float("nan"), float(out), peak)
        if files is every:  # the same run's whole process: see the module's docstring
            rows[PARSE_PROCESS] = (float("nan"), process_cpu, peak)
    _, _, peak, out = measured([sys.executable, "-c", PARSE_ONLY, "optlint", *map(str, parsed)])
    rows[OWN_PARSE] = (float("nan"), float(out), peak)
    _, _, peak, out = measured([sys.executable, "-c", PARSE_ONLY, "ast", *map(str, every)])
    rows["ast.parse, every file"] = (float("nan"), float(out), peak)
    optlint = [sys.executable, "-m", "optlint", "check", "--no-cache", "--exit-zero", "-q", *paths]
    for jobs in (1, 2):
        rows[f"optlint check --no-cache --jobs {jobs}"] = measured(
            [*optlint, "--jobs", str(jobs)], cwd)[:3]
    ruff = ruff_command()
    if ruff:
        rows["ruff check --isolated --no-cache (default rules)"] = measured(
            [ruff, "check", "--isolated", "--no-cache", "--exit-zero", "-q", *paths], cwd)[:3]
    print(f"  {'measurement':<58}{'wall s':>8}{'cpu s':>8}{'peak MiB':>10}")
    for name, (wall, cpu, peak) in rows.items():
        print(f"  {name:<58}{wall:>8.2f}{cpu:>8.2f}{peak:>10.0f}")
    one = rows["optlint check --no-cache --jobs 1"]
    two = rows["optlint check --no-cache --jobs 2"]
    ratio("optlint --jobs 1 cpu / libcst parse of every file", one[1],
          rows["libcst parse, every file"][1], "cold")
    ratio("optlint --jobs 1 cpu / libcst parse process, every file", one[1],
          rows[PARSE_PROCESS][1], "cold", "   [both whole processes]")
    ratio("optlint --jobs 1 cpu / libcst parse of prefiltered files", one[1],
          rows["libcst parse, prefiltered"][1], "cold")
    # The analysis beyond the parse it cannot skip: against the parse optlint itself makes.
    print(f"  {'optlint --jobs 1 cpu / its own parse of prefiltered files':<58}"
          f"{one[1] / rows[OWN_PARSE][1]:>6.2f}x")
    ratio("--jobs 1 wall / --jobs 2 wall", one[0], two[0], "jobs",
          f"   [{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}: shared]")
    # Wall time on a shared machine says little; the CPU the pool adds is work, counted alike
    # at any load (what each worker's lookups parse of files outside its shard, which another
    # worker parses too: optlint/pool_shards.py). The bound below takes the pool's CPU as split
    # evenly; benchmarks/pool_split.py measures each worker's.
    print(f"  {'--jobs 2 cpu / --jobs 1 cpu (work the pool adds)':<58}{two[1] / one[1]:>6.2f}x"
          f"   [wall speed-up at best on 2 idle cores, were it all parallel: "
          f"{2 * one[1] / two[1]:.2f}x]")
    if ruff:
        print(f"  {'optlint --jobs 1 cpu / ruff cpu':<58}"
              f"{one[1] / rows['ruff check --isolated --no-cache (default rules)'][1]:>6.1f}x")


# warm ----------------------------------------------------------------------------------------
def warm(corpus: list[Path]) -> None:
    """On a copy of the corpus (mtimes kept: files as old as the originals), so the cache and
    an edit touch nothing of the original."""
    ruff = ruff_command()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for number, tree in enumerate(corpus):
            shutil.copytree(tree, root / f"{number}-{tree.name}",
                            ignore=shutil.ignore_patterns("__pycache__", ".*"))
        (root / "pyproject.toml").write_text("[tool.optlint]\n")
        optlint = [sys.executable, "-m", "optlint", "check", "--exit-zero", "-q", "."]
        rows = {"optlint, empty cache": measured(optlint, root)[:2]}
        rows["optlint warm (nothing changed)"] = measured(optlint, root)[:2]
        rows["optlint warm, second time"] = measured(optlint, root)[:2]
        if ruff:
            rows["ruff cold (--isolated --no-cache, default rules)"] = measured(
                [ruff, "check", "--isolated", "--no-cache", "--exit-zero", "-q", "."], root)[:2]
    print("\n== warm (cache filled, nothing changed; --jobs: all cores)")
    print(f"  {'measurement':<58}{'wall s':>8}{'cpu s':>8}")
    for name, (wall, cpu) in rows.items():
        print(f"  {name:<58}{wall:>8.2f}{cpu:>8.2f}")
    best = min(rows["optlint warm (nothing changed)"], rows["optlint warm, second time"],
               key=lambda row: row[1])
    if ruff:
        reference = rows["ruff cold (--isolated --no-cache, default rules)"]
        ratio("optlint warm cpu / ruff cold cpu", best[1], reference[1], "warm")
        print(f"  {'optlint warm wall / ruff cold wall':<58}{best[0] / reference[0]:>6.2f}x")
    print(f"  {'optlint warm cpu / empty cache cpu':<58}"
          f"{best[1] / rows['optlint, empty cache'][1]:>6.2f}x")


# latency -------------------------------------------------------------------------------------
def latency(runs: int) -> None:
    """The file is checked as a copy in a project of its own (a folder holding it and a
    configuration, which is read as a user's is): the floor reads that one file alone. (Checked
    where it lies, its project is this repository, whose callers search reads every one of its
    Python files: shown on the last line, not in the ratio.)"""
    with tempfile.TemporaryDirectory() as folder:
        alone = Path(folder) / LATENCY_FILE.name
        shutil.copyfile(LATENCY_FILE, alone)
        (alone.parent / "pyproject.toml").write_text("[tool.optlint]\n")
        walls, cpus = _latency_runs(runs, alone)
    wall = {name: statistics.median(values) for name, values in walls.items()}
    cpu = {name: statistics.median(values) for name, values in cpus.items()}
    lines = LATENCY_FILE.read_bytes().count(b"\n")
    print(f"\n== one file: {LATENCY_FILE.name} ({lines} lines), cold process, median of {runs}")
    print(f"  {'command':<58}{'wall s':>8}{'cpu s':>8}")
    for name in walls:
        print(f"  {name:<58}{wall[name]:>8.3f}{cpu[name]:>8.3f}")
    floor = "floor: python + import libcst + parse"
    ratio("optlint check FILE / floor, wall", wall["optlint check FILE"], wall[floor], "latency")
    ratio("optlint check FILE / floor, cpu", cpu["optlint check FILE"], cpu[floor], "latency")


def _latency_runs(runs: int, alone: Path) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Wall and CPU seconds of each command, `runs` times interleaved, each in a fresh process
    run from the folder holding `alone` (a checkout's optlint is imported as PYTHONPATH says)."""
    ruff = ruff_command()
    check = [sys.executable, "-m", "optlint", "check", "--no-cache", "--exit-zero", "-q"]
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "floor: python + import libcst + parse": [sys.executable, "-c", FLOOR, alone.name],
        "optlint check FILE": [*check, alone.name],
        "optlint --version": [sys.executable, "-m", "optlint", "--version"],
    }
    if ruff:
        commands["ruff check FILE"] = [ruff, "check", "--isolated", "--no-cache", "--exit-zero",
                                       "-q", alone.name]
    # Named where it lies, from the same folder (run from the repository, `-m optlint` would
    # import the checkout's optlint whatever PYTHONPATH names): its project is the repository.
    commands["optlint check FILE, its project this repository"] = [*check, str(LATENCY_FILE)]
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):  # interleaved: a busy moment touches every command alike
        for name, command in commands.items():
            wall, cpu, _, _ = measured(command, alone.parent)
            walls[name].append(wall)
            cpus[name].append(cpu)
    return walls, cpus


# big files -----------------------------------------------------------------------------------
BIG_SIZES = (5000, 100_000)  # lines: the per-line ratio compares the last with the first


def big_text(lines: int) -> str:
    """latency_train.py's imports once, then its definitions repeated, each copy's top-level
    names suffixed (`train_3`), until `lines` lines: a real module's mix, at any length."""
    text = LATENCY_FILE.read_text()
    module = ast.parse(text)
    source = text.splitlines(keepends=True)
    imports = [node for node in module.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    body = [node for node in module.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
    first = min(getattr(body[0], "decorator_list", []) or [body[0]],
                key=lambda node: node.lineno).lineno
    head = "".join(source[:imports[-1].end_lineno])
    chunk = "".join(source[first - 1:body[-1].end_lineno]) + "\n"
    names = re.compile(r"\b(" + "|".join(node.name for node in body) + r")\b")
    parts, count, copy = [head], head.count("\n"), 0
    while count < lines:
        part = names.sub(lambda match, copy=copy: f"{match.group(1)}_{copy}", chunk)
        parts.append(part)
        count += part.count("\n")
        copy += 1
    return "".join(parts)


def big(runs: int, sizes: tuple[int, ...] = BIG_SIZES) -> None:
    """CPU per line of each size, less a one-line file's run (the interpreter and the imports).
    The smallest file (5k lines by default) is run `runs` times, interleaved with the one-line
    file (the medians are compared): its figure is a difference of two small numbers, and a
    1k-line file measured once moved the ratio from 1.7x to 3.8x between two runs of the same
    code."""
    print("\n== big files (one file each, its own folder; max-file-size raised)")
    print(f"  {'file':<30}{'lines':>8}{'cpu s':>8}{'s per 1k lines':>16}{'peak MiB':>10}"
          f"{'parse peak':>12}{'parse s/1k':>12}")
    per_line: dict[int, float] = {}
    parse_per_line: dict[int, float] = {}
    memory: dict[int, tuple[float, float]] = {}
    small = min(sizes)
    with tempfile.TemporaryDirectory() as folder:
        start_up = Path(folder) / "start"
        start_up.mkdir()
        (start_up / "pyproject.toml").write_text("[tool.optlint]\n")
        (start_up / "empty.py").write_text("import optax\n")
        check = [sys.executable, "-m", "optlint", "check", "--no-cache", "--exit-zero", "-q",
                 "--jobs", "1"]
        bases: list[float] = []
        parse_base = measured([sys.executable, "-c", PARSE_PEAK, "empty.py"], start_up)[1]
        for size in sizes:
            root = Path(folder) / f"lines{size}"
            root.mkdir()
            (root / "pyproject.toml").write_text("[tool.optlint]\nmax-file-size = 100000000\n")
            path = root / f"big{size}.py"
            path.write_text(big_text(size))
            lines = path.read_bytes().count(b"\n")
            cpus, peaks = [], []
            for _ in range(runs if size == small else 1):  # interleaved with the one-line file
                bases.append(measured([*check, "empty.py"], start_up)[1])
                _, cpu, peak, _ = measured([*check, path.name], root)
                cpus.append(cpu)
                peaks.append(peak)
            cpu, peak, base = statistics.median(cpus), max(peaks), statistics.median(bases)
            _, parse_cpu, parse_peak, _ = measured([sys.executable, "-c", PARSE_PEAK, str(path)])
            per_line[size] = (cpu - base) / lines
            parse_per_line[size] = (parse_cpu - parse_base) / lines
            memory[size] = (peak, parse_peak)
            print(f"  {path.name:<30}{lines:>8}{cpu:>8.2f}{per_line[size] * 1000:>16.3f}"
                  f"{peak:>10.0f}{parse_peak:>12.0f}{parse_per_line[size] * 1000:>12.3f}")
    print(f"  (seconds per line: less the {statistics.median(bases):.2f} s of a run on a "
          f"one-line file; the {small}-line file's cpu: median of {runs} runs)")
    large = max(sizes)
    parse_ratio = parse_per_line[large] / parse_per_line[small]
    ratio(f"cpu per line, {large} lines / {small} lines", per_line[large], per_line[small],
          "per line", f"  (libcst's parse alone: {parse_ratio:.2f}x)")
    ratio(f"peak memory / libcst parse's, {large} lines", *memory[large], "memory")


# stages --------------------------------------------------------------------------------------
def stages(corpus: list[Path], runs: int) -> None:
    from optlint.config import Settings
    from optlint.discovery import discover
    from optlint.engine import Linter, LintOptions
    from optlint.import_graph import ImportGraph
    from optlint.lint_order import check_plan
    from optlint.selection import Selection
    from optlint.versions import LibraryVersions

    root = (where_to_run(corpus) or Path.cwd()).resolve()
    settings = Settings(project_root=root, respect_gitignore=False)
    times: dict[str, list[float]] = {"discovery": [], "import graph + check order": [],
                                     "prefilter decisions": []}
    files: list[Path] = []
    parsed = 0
    for _ in range(runs):
        start = time.process_time()
        files = discover(corpus, settings)
        times["discovery"].append(time.process_time() - start)
        start = time.process_time()
        graph = ImportGraph(root)  # a fresh graph each round: nothing read before
        check_plan(files, root, graph=graph)
        times["import graph + check order"].append(time.process_time() - start)
        linter = Linter(LintOptions(Selection.from_settings(settings), LibraryVersions(), root))
        linter.prefilter.use_graph(graph)
        texts = [(path.read_text(encoding="utf-8", errors="replace"), str(path))
                 for path in files]
        start = time.process_time()
        parsed = sum(linter.prefilter.decide(text, name).parse for text, name in texts)
        times["prefilter decisions"].append(time.process_time() - start)
    print(f"\n== stages outside the analysis: {len(files)} files, {parsed} to parse; median CPU "
          f"of {runs} rounds in this process")
    for name, values in times.items():
        print(f"  {name:<58}{statistics.median(values) * 1000:>8.0f} ms")


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(
        description="Every speed figure of `optlint check`, each as a ratio against its "
                    "reference measured in the same run.")
    parser.add_argument("--only", choices=("cold", "warm", "latency", "big", "stages"))
    parser.add_argument("--runs", type=int, default=15,
                        help="interleaved runs for the one-file latency and the 5k-line "
                             "file, rounds of the stages (default 15)")
    parser.add_argument("--big-sizes", default=",".join(map(str, BIG_SIZES)),
                        help="the big files' lengths in lines, comma-separated, smallest first "
                             "(issue #21's line: 1000,100000; default %(default)s)")
    parser.add_argument("corpus", nargs="*", type=Path,
                        help="folders to check (default: the installed jax, optax, equinox)")
    options = parser.parse_args()
    only, runs = options.only, options.runs
    missing = [str(path) for path in options.corpus if not path.exists()]
    if missing:
        parser.error(f"no such file or directory: {', '.join(missing)}")
    corpus = options.corpus or default_corpus()
    print(f"optlint from {compile_bytecode()} (bytecode compiled beforehand"
          f"{', generated code written by a first check' if write_generated_code(corpus) else ''})")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores (load average "
          f"{os.getloadavg()[0]:.1f}: other processes share them); corpus: "
          f"{', '.join(map(str, corpus))}")
    if only in (None, "cold"):
        cold(corpus)
    if only in (None, "warm"):
        warm(corpus)
    if only in (None, "latency"):
        latency(runs)
    if only in (None, "big"):
        big(runs, tuple(int(size) for size in options.big_sizes.split(",")))
    if only == "stages":
        stages(corpus, runs)


if __name__ == "__main__":
    main()
