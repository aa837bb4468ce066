"""Where OPT020's key analysis spends its time on a cold run of the package benchmark.

    python benchmarks/opt020_parts.py [--only PKG ...] [--files N]

Runs `benchmarks/opt020_cost.py` (same trees, same cold `--jobs 1 --no-cache` run) with a CPU
timer (`time.process_time`) around a few parts of the analysis, and prints each part's CPU time
(outermost calls only: a part calling itself is counted once), then the files where OPT020 costs
most, with their findings. The parts nest (a summary asks `consumer`, which asks other
summaries), so their times do not add up. A timer costs about a microsecond a call: parts called
hundreds of thousands of times read a little high. Use it to choose what to cut; measure the cut
itself with `opt020_cost.py`, which times nothing but the rule.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

# (module, class or None for a module function, function): the parts timed.
PARTS = [
    ("optlint.analysis.key_calls", "FileKeyCalls", "__init__"),
    ("optlint.analysis.key_calls", "FileKeyCalls", "summary"),
    ("optlint.analysis.key_calls", "FileKeyCalls", "walk_module"),
    ("optlint.analysis.key_calls", "FileKeyCalls", "consumer"),
    ("optlint.analysis.key_reads", "UnreadResults", "unread"),
    ("optlint.analysis.key_ignored", "IgnoredArguments", "only_ignored"),
    ("optlint.analysis.proven_raises", "ProvenRaises", "__call__"),
    ("optlint.analysis.proven_raises", "ProvenRaises", "module_fails"),
    ("optlint.analysis.key_literal_branches", "LiteralBranches", "unread_params"),
    ("optlint.analysis.key_library_calls", "LibraryKeyCalls", "consumptions"),
    ("optlint.analysis.key_transforms", "TransformedKeyCalls", "consumptions"),
    ("optlint.analysis.key_call_targets", "CallTargets", "resolve"),
    ("optlint.analysis.key_helpers", None, "key_helpers"),
    ("optlint.rule_helpers.key_messages", None, "reuse_finding"),
]
# Modules that import a timed module function by name: their binding is replaced too.
IMPORTERS = ("optlint.analysis.key_calls", "optlint.rules.prng_key_reuse")


def _timed(part: str, function: Callable[..., Any], spent: dict[str, list[float]]
           ) -> Callable[..., Any]:
    depth = [0]

    def timed(*args: Any, **kwargs: Any) -> Any:
        if depth[0]:  # a part calling itself (a summary asking another): counted once
            return function(*args, **kwargs)
        depth[0] += 1
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            depth[0] -= 1
            row = spent.setdefault(part, [0.0, 0])
            row[0] += time.process_time() - start
            row[1] += 1

    return timed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", default=None, help="package folder name prefixes")
    parser.add_argument("--files", type=int, default=15, help="how many costliest files to show")
    args = parser.parse_args(argv)
    import optlint.rules  # noqa: F401 - the rules first: the modules below import them back
    from optlint.rules.prng_key_reuse import PrngKeyReuse

    spent: dict[str, list[float]] = {}
    for module_name, class_name, name in PARTS:
        module = importlib.import_module(module_name)
        owner = getattr(module, class_name) if class_name else module
        part = f"{class_name}.{name}" if class_name else name
        setattr(owner, name, _timed(part, getattr(owner, name), spent))
        if class_name is None:
            for importer in map(importlib.import_module, IMPORTERS):
                if hasattr(importer, name):
                    setattr(importer, name, getattr(module, name))
    files: list[tuple[float, str, int]] = []
    check = PrngKeyReuse.check

    def per_file(self: PrngKeyReuse, ctx: Any) -> Iterator[object]:
        start = time.process_time()
        found = list(check(self, ctx))
        files.append((time.process_time() - start, f"{Path.cwd().name}/{ctx.filename}",
                      len(found)))
        yield from found

    PrngKeyReuse.check = per_file  # type: ignore[method-assign,assignment]
    sys.path.insert(0, str(Path(__file__).parent))
    import opt020_cost

    status = opt020_cost.main(["--only", *args.only] if args.only else [])
    print("\nparts (CPU s, outermost calls):")
    for part, (seconds, calls) in sorted(spent.items(), key=lambda item: -item[1][0]):
        print(f"  {seconds:7.2f}s {calls:8d} calls  {part}")
    with_findings = [row for row in files if row[2]]
    print(f"\nfiles checked: {len(files)}, {sum(row[0] for row in files):.2f}s; with findings: "
          f"{len(with_findings)}, {sum(row[0] for row in with_findings):.2f}s")
    print(f"costliest {args.files} (CPU s, findings, file):")
    for seconds, name, found in sorted(files, reverse=True)[:args.files]:
        print(f"  {seconds:6.3f}s {found:3d}  {name}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
