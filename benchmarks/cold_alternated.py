"""The cold run of two or more optlint trees, alternated: CPU medians on a shared machine.

bench.py measures each figure once; on a machine other processes load, one run of the same code
moves by a tenth from the next. This runs `optlint check --no-cache --jobs 1 -q .` in FOLDER with
each tree's optlint in turn (PYTHONPATH), round after round, with libcst's parse of every file
of FOLDER in each round (bench.py's reference: its loop, and its whole process, as optlint's
figure is one), and prints each tree's median CPU seconds and its ratios to the parse's medians,
with the load. Usage:

    python benchmarks/cold_alternated.py [--rounds N] FOLDER NAME=TREE [NAME=TREE ...]

TREE is a folder holding an `optlint` package (a checkout, or `git archive REV optlint | tar -x`).
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import PARSE_ONLY, files_of, measured  # noqa: E402


PROCESS = "libcst process"  # the parse's whole process: python, import libcst, reading, the loop


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("folder", type=Path)
    parser.add_argument("trees", nargs="+", metavar="NAME=TREE")
    args = parser.parse_args(argv)
    folder = args.folder.resolve()
    trees = dict(tree.split("=", 1) for tree in args.trees)
    for tree in trees.values():  # as an installed package has it (see bench.compile_bytecode)
        compileall.compile_dir(Path(tree) / "optlint", quiet=1)
        if (Path(tree) / "optlint" / "module_bundle.py").exists():
            subprocess.run([sys.executable, "-m", "optlint.module_bundle"], check=True,
                           env={**os.environ, "PYTHONPATH": str(Path(tree).resolve())},
                           stdout=subprocess.DEVNULL)
    every, _ = files_of([folder])
    cpu: dict[str, list[float]] = {name: [] for name in ("libcst parse", PROCESS, *trees)}
    loads = []
    for _ in range(args.rounds):
        _, process, _, out = measured([sys.executable, "-c", PARSE_ONLY, "libcst",
                                       *map(str, every)])
        cpu["libcst parse"].append(float(out))
        cpu[PROCESS].append(process)
        for name, tree in trees.items():
            os.environ["PYTHONPATH"] = str(Path(tree).resolve())
            cpu[name].append(measured([sys.executable, "-m", "optlint", "check", "--no-cache",
                                       "--exit-zero", "-q", "--jobs", "1", "."], folder)[1])
        loads.append(os.getloadavg()[0])
    parse = statistics.median(cpu["libcst parse"])
    whole = statistics.median(cpu[PROCESS])
    print(f"{folder}: {len(every)} files, {args.rounds} rounds, load {min(loads):.1f} to "
          f"{max(loads):.1f}")
    for name, values in cpu.items():
        median = statistics.median(values)
        runs = " ".join(f"{value:.2f}" for value in values)
        print(f"  {name:<16} median cpu {median:6.2f} s  {median / parse:5.2f}x the parse, "
              f"{median / whole:5.2f}x its process  (runs: {runs})")


if __name__ == "__main__":
    main()
