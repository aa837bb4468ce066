"""What OPT020's key analysis costs on a cold run of the package benchmark.

    python benchmarks/opt020_cost.py [--cache DIR] [--only PKG ...] [--profile FILE]

Runs `optlint check . --no-cache --jobs 1 --isolated` in this process on every package tree the
package benchmark extracted (`~/.cache/optlint-real-world/src/`, see real_world.py), with OPT020's
`check` wrapped in a timer, and prints the CPU time of the whole run, the CPU time spent inside
OPT020's `check` (the key analysis: its consumers, summaries and walks), and what OPT020 adds
to a run without it. CPU time (`time.process_time`) and a share measured within one run depend
far less on how loaded the machine is than two wall-clock runs compared.

A lookup of OPT020's may parse another project file before that file's own check, which then
reuses the tree (`ProjectIndex.analyse`): that parse is moved, not added. The last line counts it as
the file's own (the time of each such parse is credited when the file's check reuses it).

--profile FILE writes cProfile statistics of OPT020's `check` alone (read them with `pstats`): a
profiler started around the whole run sees nothing of it, since the checks run on another thread
(`optlint.large_stack`).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import time
from collections.abc import Iterator
import sys
from contextlib import redirect_stdout, suppress
from pathlib import Path

DEFAULT_CACHE = Path(os.environ.get("OPTLINT_REAL_WORLD_CACHE", "~/.cache/optlint-real-world"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--only", nargs="*", default=None, help="package folder name prefixes")
    parser.add_argument("--profile", type=Path, default=None, help="cProfile output of OPT020")
    args = parser.parse_args(argv)
    roots = sorted(path for path in (args.cache.expanduser() / "src").iterdir() if path.is_dir())
    if args.only:
        roots = [root for root in roots if any(root.name.startswith(o) for o in args.only)]
    if not roots:
        print(f"no package trees under {args.cache}/src: run benchmarks/real_world.py first")
        return 2
    from optlint.cli import main as optlint_main
    from optlint.rules.prng_key_reuse import PrngKeyReuse

    spent = [0.0]
    check = PrngKeyReuse.check
    moved = _MovedParses()
    profiler = cProfile.Profile() if args.profile else None

    def timed(self: PrngKeyReuse, ctx: object) -> Iterator[object]:
        start = time.process_time()
        moved.inside = True
        if profiler is not None:
            profiler.enable()
        try:
            found = list(check(self, ctx))  # type: ignore[arg-type]
        finally:
            if profiler is not None:
                profiler.disable()
            moved.inside = False
        spent[0] += time.process_time() - start
        yield from found

    PrngKeyReuse.check = timed  # type: ignore[method-assign,assignment]
    moved.install()
    start = time.process_time()
    for root in roots:
        previous = Path.cwd()
        os.chdir(root)
        try:
            with redirect_stdout(io.StringIO()):
                _run(optlint_main, ["check", ".", "--no-cache", "--jobs", "1", "--isolated",
                                    "--exit-zero", "--quiet", "--output-format", "json"])
        finally:
            os.chdir(previous)
    total = time.process_time() - start
    rule = spent[0]
    if profiler is not None:
        profiler.dump_stats(args.profile)
    print(f"packages: {len(roots)}")
    print(f"total CPU time: {total:.1f}s")
    print(f"OPT020 (PrngKeyReuse.check and everything it calls): {rule:.1f}s")
    print(f"OPT020 share of the run: {100 * rule / total:.1f}%; it adds "
          f"{100 * rule / max(total - rule, 1e-9):.1f}% to a run without it")
    reused = moved.credited
    print(f"of which parsing project files their own check then reused: {reused:.1f}s; "
          f"counted as theirs, OPT020 adds {100 * (rule - reused) / max(total - rule + reused, 1e-9):.1f}%")
    return 0


class _MovedParses:
    """Times the project files OPT020's lookups parse (`ProjectIndex._inference_for`), and credits
    a file's time when its own check reuses that tree (`ProjectIndex.analyse`)."""

    def __init__(self) -> None:
        self.inside = False  # in OPT020's check
        self.credited = 0.0
        self._parsed: dict[object, float] = {}  # path -> CPU seconds its parse took
        self._depth = 0

    def install(self) -> None:
        from pathlib import Path as _Path

        from optlint.analysis.project import ProjectIndex

        parse, analyse = ProjectIndex._inference_for, ProjectIndex.analyse

        def inference_for(project: ProjectIndex, path: _Path):  # type: ignore[no-untyped-def]
            fresh = self.inside and self._depth == 0 and path not in project._files
            start = time.process_time()
            self._depth += 1
            try:
                return parse(project, path)
            finally:
                self._depth -= 1
                if fresh:
                    self._parsed[path] = time.process_time() - start

        def analysed(project: ProjectIndex, text: str, filename: str):  # type: ignore[no-untyped-def]
            path = _Path(filename).resolve()
            kept = project._files.get(path)
            if kept is not None and project._texts.get(path) == text and path in self._parsed:
                self.credited += self._parsed.pop(path)
            return analyse(project, text, filename)

        ProjectIndex._inference_for = inference_for  # type: ignore[method-assign]
        ProjectIndex.analyse = analysed  # type: ignore[method-assign]


def _run(command, arguments: list[str]) -> None:  # type: ignore[no-untyped-def]
    with suppress(SystemExit):
        command(arguments, standalone_mode=False)


if __name__ == "__main__":
    sys.exit(main())
