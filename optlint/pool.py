"""Checking many files: in this process or in worker processes, with or without the cache.

Each worker keeps its own lazily built project index. Output order never depends on the number of
workers; a worker that dies (killed for memory, a crash in native code) costs only its own file.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from optlint.diagnostics import Diagnostic
# Files are checked on one thread with a large stack (the analysis of a deeply nested text
# needs it), not each on a thread of its own: a new thread's stack is committed afresh, page by
# page, as each file's analysis goes deep.
from optlint.large_stack import deep_call
from optlint.lint_types import FileResult, LintOptions

# The engine, the pool's modules (multiprocessing, concurrent.futures: 60 ms of a 300 ms warm
# run) and the import graph are imported when some file needs analysis: a warm run whose every
# result comes from the cache pays for none of them.
if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    from optlint.cache import LintCache
    from optlint.engine import Linter
    from optlint.import_graph import ImportGraph

# ---------------------------------------------------------------------
# libcst allocates millions of small objects; the cyclic garbage collector then runs over and
# over, costing a third of a run (measured: 9.5 s -> 6.4 s on the benchmark corpus). It is paused
# while files are checked: a linted file's index breaks its own cycles (`FileIndex.release`), so
# reference counting frees each tree, and a collection only bounds whatever cycles remain. What
# exists before checking starts is frozen out of its sight. A full collection walks every object
# alive (the trees kept for lookups among them): on levanter one cost 0.8 s of a 12.9 s run and
# freed nothing (peak memory 187 MiB either way), so one runs only when the process's peak
# memory has grown by `_COLLECT_AFTER_BYTES` since the last (or since checking began).
_COLLECT_AFTER_BYTES = 256 * 1024 * 1024
_COLLECT_EVERY = 200  # files, where the peak memory cannot be read (no `resource` module)


class _Collector:
    """Decides, file after file, when the paused collector runs (see above): before a file,
    never after the last one, whose garbage the process's end frees."""

    def __init__(self) -> None:
        self.files = 0
        self.peak_then = _peak_bytes()

    def before_file(self) -> None:
        self.files += 1
        peak = _peak_bytes()
        if (peak is None and self.files % _COLLECT_EVERY == 0) or (
                peak is not None and self.peak_then is not None
                and peak - self.peak_then >= _COLLECT_AFTER_BYTES):
            gc.collect()
            self.peak_then = _peak_bytes()


def _peak_bytes() -> int | None:
    """This process's peak resident memory in bytes; None where it cannot be read."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # macOS counts bytes, Linux KiB


_worker: Linter | None = None
_worker_collector: _Collector | None = None


def _init_worker(options: LintOptions, parent: int, order: list[Path] | None = None,
                 kept_until: dict[Path, int] | None = None,
                 graph: ImportGraph | None = None) -> None:
    global _worker, _worker_collector
    from optlint.engine import Linter

    _watch_parent(parent)
    _worker = Linter(options)
    if graph is not None:
        _worker.prefilter.use_graph(graph)
    if order is not None and kept_until:
        _worker.plan(order, kept_until)
    gc.disable()
    gc.freeze()
    _worker_collector = _Collector()


_PARENT_POLL_SECONDS = 0.5


def _watch_parent(parent: int) -> None:
    """End this worker when the run that started it is gone. A parent killed with SIGKILL (the
    out-of-memory killer, a CI step's timeout) cannot tell its workers, and a worker waiting on
    the task queue would wait forever: it holds that pipe's write end itself, so it never sees
    end-of-file. Its parent then becomes another process (init, a subreaper)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="optlint-parent-watch", daemon=True).start()


def _check_in_worker(path: Path) -> FileResult:
    assert _worker is not None
    if _worker_collector is not None:
        _worker_collector.before_file()
    return _worker.check_path(path)


def _check_each(linter: Linter, paths: list[Path]) -> list[FileResult]:
    collector = _Collector()
    results = []
    for path in paths:
        collector.before_file()
        results.append(linter.check_path(path))
    return results


@contextmanager
def _collector_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    # What exists now (modules, the rules, libcst's tables) lives for the whole run: moved out
    # of the collector's sight, the periodic collection only looks at what files left behind.
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()  # a caller in the same process (an editor, tests) keeps a normal collector
        if was_enabled:
            gc.enable()


def check_paths(paths: list[Path], options: LintOptions, jobs: int | None,
                cache: LintCache | None = None,
                resolved: dict[Path, Path] | None = None) -> list[FileResult]:
    """Every path's result, in order; with a cache, unchanged files are not analysed again.
    `resolved`: the paths' resolved forms, where the caller has them."""
    cached = {path: cache.lookup(path, (resolved or {}).get(path))
              for path in paths} if cache is not None else {}
    missed = [path for path in paths if cached.get(path) is None]
    fresh: dict[Path, FileResult] = {}
    if missed:
        from optlint.import_graph import ImportGraph
        from optlint.lint_order import check_plan

        # One import graph for the order and the prefilter: each file's imports read once.
        graph = ImportGraph(options.project_root,
                            cache.project.index if cache is not None else None,
                            hash_reads=options.hash_contents, keep_texts=True)
        if resolved:
            graph.know_resolved(resolved)
        missed, kept_until = check_plan(missed, options.project_root, graph=graph)
        fresh = dict(zip(missed, _check_uncached(missed, options, jobs, kept_until, graph),
                         strict=True))
    if cache is not None:
        cache.store_all(fresh)
    return [cached.get(path) or fresh[path] for path in paths]


def _check_uncached(paths: list[Path], options: LintOptions, jobs: int | None,
                    kept_until: dict[Path, int] | None = None,
                    graph: ImportGraph | None = None) -> list[FileResult]:
    """`kept_until`: see `check_plan` (`paths` in its order)."""
    # More workers than cores only compete for them (and each holds its own project index).
    workers = min(jobs or os.cpu_count() or 1, os.cpu_count() or 1)
    kept_until = kept_until if not options.fix else None  # fixes change the texts trees were of
    if workers <= 1 or len(paths) < 2 * workers:
        from optlint.engine import Linter

        linter = Linter(options)
        if graph is not None:
            linter.prefilter.use_graph(graph)
        if kept_until:
            linter.plan(paths, kept_until)
        with _collector_paused():
            # (one file: on the thread `Linter.lint_text` starts for it, as it would anyway)
            results = (deep_call(_check_each, linter, paths) if len(paths) > 1
                       else _check_each(linter, paths))
    else:
        results = _check_in_pool(paths, options, workers, kept_until, graph)
    for result in results:
        result.diagnostics.sort(key=Diagnostic.sort_key)
    return results


def _check_in_pool(paths: list[Path], options: LintOptions, workers: int,
                   kept_until: dict[Path, int] | None = None,
                   graph: ImportGraph | None = None) -> list[FileResult]:
    """Check in worker processes, each owning a fixed shard of the files for the whole run
    (`optlint.pool_shards`), its own process pool of one; files whose worker died (killed for
    memory, a crash in native code) are checked again one by one, so one such file is reported
    and the rest still run."""
    from concurrent.futures.process import BrokenProcessPool

    from optlint.pool_shards import plan_shards

    shards = (plan_shards(paths, graph, workers) if graph is not None
              else [paths[start::workers] for start in range(workers)])
    done: dict[Path, FileResult] = {}
    lost: list[Path] = []
    pools: list[ProcessPoolExecutor] = []
    try:
        # A shard is sent in chunks (every worker's first before any second): what a worker
        # finished before it died is kept, and only the rest of its shard is checked again.
        futures: list[tuple[list[Path], Future[list[FileResult]]]] = []
        chunked = [_chunks(shard) for shard in shards]
        pools = [_pool(1, options, paths, kept_until, graph) for _ in chunked]
        for round_ in range(max(len(chunks) for chunks in chunked)):
            for pool, chunks in zip(pools, chunked, strict=True):
                if round_ < len(chunks):
                    try:  # a worker that died as it started breaks its pool before a chunk
                        futures.append((chunks[round_], pool.submit(_check_chunk,
                                                                    chunks[round_])))
                    except BrokenProcessPool:  # is sent
                        lost.extend(chunks[round_])
        for chunk, future in futures:
            try:
                done.update(zip(chunk, future.result(), strict=True))
            except BrokenProcessPool:
                lost.extend(chunk)
    finally:
        for pool in pools:
            pool.shutdown()
    if lost:
        done.update(_check_one_by_one(lost, options))
    return [done[path] for path in paths]


# Files per task sent to a worker: few enough that a crash costs little, enough that a task's
# round trip is nothing beside its files' checks.
_CHUNK_FILES = 8


def _chunks(shard: list[Path]) -> list[list[Path]]:
    return [shard[start:start + _CHUNK_FILES] for start in range(0, len(shard), _CHUNK_FILES)]


def _pool(workers: int, options: LintOptions, order: list[Path] | None = None,
          kept_until: dict[Path, int] | None = None,
          graph: ImportGraph | None = None) -> ProcessPoolExecutor:
    """Forked workers start fastest; but a process that has imported JAX (an in-process caller
    such as a test suite or a notebook) has threads a fork can deadlock on, so it spawns them."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if _start_method() is None and (graph is None or order is None or any(
            graph.facts(graph.resolved(path)).libraries for path in order)):
        _import_analysis()  # unless no file names a library: then likely none is parsed
    context = multiprocessing.get_context(_start_method())
    return ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker,
                               initargs=(options, os.getpid(), order, kept_until, graph))


def _import_analysis() -> None:
    """What a worker imports for its first parsed file (libcst, the analysis, the rules),
    imported here once before the workers are forked, which then share it: each imported it
    for itself before (~0.4 s of CPU per worker, a fifth of what two workers added on levanter).
    """
    import optlint.analysis.inference  # noqa: F401 - imported for the workers
    import optlint.analysis.project  # noqa: F401
    import optlint.context  # noqa: F401
    import optlint.to_diagnostics  # noqa: F401
    from optlint.rules import RULES  # noqa: F401 - every rule's module: many files need most


def _start_method() -> str | None:
    return "spawn" if "jax" in sys.modules else None  # None: the platform's default (fork)


def _check_chunk(paths: list[Path]) -> list[FileResult]:
    return deep_call(lambda: [_check_in_worker(path) for path in paths])


def _check_one_by_one(paths: list[Path], options: LintOptions) -> dict[Path, FileResult]:
    """Each file in a worker process of its own (a new one only after a crash)."""
    from concurrent.futures.process import BrokenProcessPool

    results: dict[Path, FileResult] = {}
    pool: ProcessPoolExecutor | None = None
    for path in paths:
        if pool is None:
            pool = _pool(1, options)
        try:
            results[path] = pool.submit(_check_in_worker, path).result()
        except BrokenProcessPool:
            results[path] = FileResult(str(path), internal_error=True, errors=[
                f"{path}: not checked: the process checking it died (a crash in the parser, or "
                f"out of memory)"])
            pool.shutdown()
            pool = None
    if pool is not None:
        pool.shutdown()
    return results
