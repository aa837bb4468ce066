"""Where `optlint check --jobs 2` spends its CPU, process by process: the parent's before it starts
the first worker (start-up, discovery, the import graph, the plan), and each worker's files and
CPU.

On two idle cores the wall time is at least what the parent does before the workers are forked
plus the busier worker's CPU (the critical path); bench.py's `--jobs 2 cpu / --jobs 1 cpu` line
counts the work the pool adds, not where it sits. Usage: `python benchmarks/pool_split.py [--rounds N] FOLDER` (run from anywhere;
FOLDER is checked from inside it, as `optlint check .` there).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


_LOG = Path(os.devnull)  # where the wrappers below write; set by `_instrumented_run`
_ORIGINAL: dict[str, Callable[..., Any]] = {}


def _timed_chunk(paths: list[Path]) -> object:
    """`optlint.pool._check_chunk`, noting the worker's CPU so far after each chunk (a module
    function: the pool sends it to the workers by name)."""
    results = _ORIGINAL["chunk"](paths)
    with _LOG.open("a") as out:
        out.write(f"worker {os.getpid()} {len(paths)} {sum(p.stat().st_size for p in paths)} "
                  f"{time.process_time()}\n")
    return results


def _timed_pool(*args: object) -> object:
    """`optlint.pool._pool`, noting the parent's CPU when it starts the first worker's pool."""
    if os.getpid() == _PARENT[0] and not _PARENT[1:]:
        _PARENT.append(time.process_time())
        with _LOG.open("a") as out:
            out.write(f"fork {_PARENT[1]}\n")
    return _ORIGINAL["pool"](*args)


_PARENT: list[float] = []  # this process's id, then its CPU when the first pool started


def _instrumented_run(folder: Path, log: Path, looked_into: Path | None = None) -> None:
    """`optlint check --jobs 2 --no-cache .` in this process, each worker's chunks and the
    parent's CPU when it starts the first worker timed into `log` (forked workers inherit the wrappers).
    `looked_into`: a JSON file of the trees checking each file parses (benchmarks/
    pool_bound.py), from which the shards are planned instead of from the import graph."""
    global _LOG
    import optlint.pool as pool
    from optlint.check_command import run_plain

    if looked_into is not None:
        import json

        import optlint.pool_shards as pool_shards

        known = {Path(path): frozenset(map(Path, trees))
                 for path, trees in json.loads(looked_into.read_text()).items()}
        # Each file counts as one of its own trees, parsed or not, as the graph's plan counts it.
        pool_shards._looked_into = (  # type: ignore[assignment]
            lambda resolved, graph: {path: known.get(path, frozenset()) | {path}
                                     for path in resolved})

    _LOG = log
    _ORIGINAL.update(chunk=pool._check_chunk, pool=pool._pool)
    _PARENT[:] = [os.getpid()]
    pool._pool = _timed_pool  # type: ignore[assignment]
    pool._check_chunk = _timed_chunk  # type: ignore[assignment]
    os.chdir(folder)
    with open(os.devnull, "w") as quiet:
        sys.stdout = quiet
        status = run_plain(["--no-cache", "--exit-zero", "-q", "--jobs", "2", "."])
        sys.stdout = sys.__stdout__
    if status != 0:
        sys.exit(f"optlint check --jobs 2 exited {status}")
    with log.open("a") as out:
        out.write(f"parent {time.process_time()}\n")


def _one_round(folder: Path, looked_into: Path | None = None,
               ) -> tuple[float, float, float, list[tuple[int, int, float]]]:
    """CPU of `--jobs 1`; and of `--jobs 2`: the parent's before the first
    worker is forked (the parse, the plan, the imports), the parent's in all, each worker's.
    `looked_into`: see `_instrumented_run`."""
    child = [sys.executable, "-m", "optlint", "check", "--no-cache", "--exit-zero", "-q",
             "--jobs", "1", "."]
    process = subprocess.Popen(child, cwd=folder, stdout=subprocess.DEVNULL)
    _, _, usage = os.wait4(process.pid, 0)
    alone = usage.ru_utime + usage.ru_stime
    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "split.log"
        planned = ["--looked-into", str(looked_into)] if looked_into is not None else []
        subprocess.run([sys.executable, __file__, "--instrumented", str(log), *planned,
                        str(folder)], check=True)
        before_fork = parent = 0.0
        workers: dict[str, list[float]] = {}
        for line in log.read_text().splitlines():
            kind, *fields = line.split()
            if kind == "worker":
                pid, files, size, cpu = fields
                row = workers.setdefault(pid, [0, 0, 0.0])
                row[0] += int(files)
                row[1] += int(size)
                row[2] = float(cpu)
            elif kind == "fork":
                before_fork = float(fields[0])
            else:
                parent = float(fields[0])
    return alone, before_fork, parent, [(int(f), int(s), c)
                                                for f, s, c in workers.values()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--instrumented", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--looked-into", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("folder", type=Path)
    options = parser.parse_args()
    if options.instrumented is not None:
        _instrumented_run(options.folder.resolve(), options.instrumented, options.looked_into)
        return
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; {options.folder}")
    print(f"  {'--jobs 1':>9} {'before fork':>12} {'parent':>7}  "
          f"{'workers (files, KB, CPU s)':<34}{'critical path':>14} {'best speed-up':>14}")
    paths = []
    for _ in range(options.rounds):
        alone, before_fork, parent, workers = _one_round(options.folder.resolve())
        critical = before_fork + max((cpu for _, _, cpu in workers), default=0.0)
        paths.append(alone / critical if critical else float("nan"))
        split = ", ".join(f"{files} {size // 1000} {cpu:.2f}" for files, size, cpu in workers)
        print(f"  {alone:>9.2f} {before_fork:>12.2f} {parent:>7.2f}  "
              f"{split:<34}{critical:>14.2f}{alone / critical:>14.2f}x")
    print(f"  median best wall speed-up on 2 idle cores (--jobs 1 CPU / critical path): "
          f"{statistics.median(paths):.2f}x")


if __name__ == "__main__":
    main()
