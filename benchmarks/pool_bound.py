"""How far planning the shards can take `optlint check --jobs 2`: the shards planned from the
lookups each file's analysis actually made, against the import graph's plan (optlint/
pool_shards.py), each run measured as benchmarks/pool_split.py measures it.

A worker parses its own files and every project file its files' lookups look into (an imported
class or function, the callers of a function); a file two workers look into is parsed by both.
pool_shards plans from what the import graph says each file may look into, read before any file
is parsed. The lookups a file actually makes are known only once it has been analysed: a
`--jobs 1` run here notes them, pool_shards' own planner splits the files by them, and `--jobs 2`
runs with that split. What that run reaches bounds any plan made from better guesses.

    python benchmarks/pool_bound.py [--rounds N] FOLDER   (FOLDER checked from inside it)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pool_split import _one_round  # noqa: E402 - a sibling script, not a package


def _record(folder: Path, out: Path) -> None:
    """`optlint check --jobs 1 --no-cache .` in this process, writing to `out` the trees
    checking each file parsed: itself where it was parsed, and each file its lookups read."""
    import optlint.analysis.project as project
    import optlint.engine as engine
    from optlint.check_command import run_plain

    looked_into: dict[str, set[str]] = {}
    current: list[str] = [""]
    check_path, analyse = engine.Linter.check_path, project.ProjectIndex.analyse
    inference_for = project.ProjectIndex._inference_for

    def checking(self: engine.Linter, path: Path, *args: object) -> object:
        current[0] = str(Path(path).resolve())
        looked_into.setdefault(current[0], set())
        if self._project is not None:
            # A class, function or callers search another file already asked for is answered
            # from these, without reaching `_inference_for`: emptied, each file's lookups are
            # noted in full (a third of them were missed, which made the bound too good).
            for answers in (self._project._resolved, self._project._functions,
                            self._project._callers):
                answers.clear()
        return check_path(self, path, *args)

    def analysing(self: project.ProjectIndex, text: str, filename: str) -> object:
        looked_into[current[0]].add(current[0])
        return analyse(self, text, filename)

    def looking(self: project.ProjectIndex, path: Path) -> object:
        looked_into[current[0]].add(str(Path(path).resolve()))
        return inference_for(self, path)

    engine.Linter.check_path = checking  # type: ignore[method-assign]
    project.ProjectIndex.analyse = analysing  # type: ignore[method-assign]
    project.ProjectIndex._inference_for = looking  # type: ignore[method-assign]
    os.chdir(folder)
    with open(os.devnull, "w") as quiet:
        sys.stdout = quiet
        status = run_plain(["--no-cache", "--exit-zero", "-q", "--jobs", "1", "."])
        sys.stdout = sys.__stdout__
    if status != 0:
        sys.exit(f"optlint check --jobs 1 exited {status}")
    out.write_text(json.dumps({path: sorted(trees) for path, trees in looked_into.items()}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--record", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("folder", type=Path)
    options = parser.parse_args()
    folder = options.folder.resolve()
    if options.record is not None:
        _record(folder, options.record)
        return
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; {options.folder}")
    print(f"  {'shards planned from':<22}{'--jobs 1':>9} {'before fork':>12}  "
          f"{'workers (files, KB, CPU s)':<34}{'critical path':>14} {'best speed-up':>14}")
    speed_ups: dict[str, list[float]] = {"the import graph": [], "the lookups made": []}
    with tempfile.TemporaryDirectory() as scratch:
        recorded = Path(scratch) / "looked_into.json"
        subprocess.run([sys.executable, __file__, "--record", str(recorded), str(folder)],
                       check=True)
        for _ in range(options.rounds):  # alternated: a busy moment touches both alike
            for name, looked_into in (("the import graph", None),
                                      ("the lookups made", recorded)):
                alone, before_fork, _, workers = _one_round(folder, looked_into)
                critical = before_fork + max((cpu for _, _, cpu in workers), default=0.0)
                speed_ups[name].append(alone / critical if critical else float("nan"))
                split = ", ".join(f"{files} {size // 1000} {cpu:.2f}"
                                  for files, size, cpu in workers)
                print(f"  {name:<22}{alone:>9.2f} {before_fork:>12.2f}  {split:<34}"
                      f"{critical:>14.2f}{alone / critical:>14.2f}x")
    for name, values in speed_ups.items():
        print(f"  median best wall speed-up on 2 idle cores, shards planned from {name}: "
              f"{statistics.median(values):.2f}x")


if __name__ == "__main__":
    main()
