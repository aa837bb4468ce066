"""Parse each file once, run every enabled rule over one index of it, collect diagnostics.

Files are checked in worker processes when there are enough of them; each worker keeps its own
lazily built project index. Output order never depends on the number of workers.
"""

from __future__ import annotations

import gc
import hashlib
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
import traceback
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING

from optlint.analysis.dependencies import Dependencies
from optlint.catalog import RULE_INFOS, SYNTAX_ERROR, UNUSED_NOQA
from optlint.diagnostics import Diagnostic, Location
from optlint.edits import apply_fixes, source_lines
from optlint.lint_types import FileResult, LintOptions  # noqa: F401 - named from here too
from optlint.source import SourceError
from optlint.sources import Source, open_source
from optlint.suppression import apply_suppressions, parse_directives

# libcst, the analysis and the rules are imported when a file first passes the prefilter: a run
# whose files all miss it (and `optlint rule`, `--version`) never pays for them.
if TYPE_CHECKING:

    from optlint.analysis.inference import Inference
    from optlint.analysis.project import ProjectIndex
    from optlint.cache import LintCache
    from optlint.context import RuleContext
    from optlint.linted import Linted
    from optlint.rules.base import Finding, Rule

_MAX_FIX_ROUNDS = 10


class Linter:
    def __init__(self, options: LintOptions, project: ProjectIndex | None = None) -> None:
        self.options = options
        self._project = project
        self._rules: list[Rule] | None = None
        enabled = [info for info in RULE_INFOS if info.code in options.selection.enabled]
        self.any_rule = bool(enabled)
        self.trigger_words = {word for info in enabled for word in info.trigger_words}

    @property
    def project(self) -> ProjectIndex:
        if self._project is None:
            from optlint.analysis.project import ProjectIndex

            self._project = ProjectIndex(self.options.project_root)
        return self._project

    @property
    def rules(self) -> list[Rule]:
        if self._rules is None:
            from optlint.rules import RULES

            self._rules = [rule() for rule in RULES if rule.code in self.options.selection.enabled]
        return self._rules

    def read_files_changed(self) -> bool:
        """Whether a project file the analysis read has changed on disk since (the language
        server keeps one Linter across edits)."""
        return self._project is not None and self._project.changed_on_disk()

    def may_match(self, text: str) -> bool:
        """The cheap prefilter: a file none of whose rules' words appear is never parsed (its
        unused `# noqa: OPTnnn` codes are found from its comments alone). With no rule selected
        (`--select OPT000`), syntax is what was asked for: every file is parsed."""
        return not self.any_rule or any(word in text for word in self.trigger_words)

    def relative(self, filename: str) -> str:
        try:
            return Path(filename).resolve().relative_to(self.options.project_root).as_posix()
        except ValueError:
            return Path(filename).as_posix()

    # one pass over one text ----------------------------------------------------------------
    def analyse_text(self, text: str, filename: str) -> Linted:
        """`lint_text`, keeping the tree and the finding behind each diagnostic."""
        from optlint.linted import Linted

        linted = Linted(filename, self.project)
        linted.result = self.lint_text(text, filename, linted)
        return linted

    def lint_text(self, text: str, filename: str, linted: Linted | None = None) -> FileResult:
        result = FileResult(filename)
        if not self.may_match(text):
            # No rule can fire here: every OPT code its noqa comments name is unused.
            if "noqa" in text:
                result.diagnostics = self._suppressed([], text, filename)
            return result
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > self.options.max_file_size:
            result.errors.append(
                f"{filename}: not checked: {size:,} bytes, over max-file-size "
                f"({self.options.max_file_size:,}); raise it in [tool.optlint] to check it")
            return result
        from optlint.parsing import (TooDeep, Unanalysable, deep_call, python_syntax_error,
                                     rejects_everywhere)

        try:
            python_error = python_syntax_error(text, filename)
            if python_error is not None and rejects_everywhere(python_error):
                result.diagnostics.append(_syntax_error(python_error, filename))
                return result
            return deep_call(self._lint_parsed, result, text, python_error, linted)
        except Unanalysable as error:
            result.errors.append(str(error))
        except RecursionError:
            result.errors.append(str(TooDeep(filename, "deeper than optlint's analysis reaches")))
        return result

    def _lint_parsed(self, result: FileResult, text: str, python_error: SyntaxError | None,
                     linted: Linted | None) -> FileResult:
        import libcst as cst
        filename = result.filename
        try:
            inference = self.project.analyse(text, filename)
        except cst.ParserSyntaxError as error:
            if python_error is not None:
                result.diagnostics.append(_syntax_error(python_error, filename))
            else:  # libcst is wrong here (`(x): int = 1`): not a finding, but not checked either
                result.errors.append(
                    f"{filename}: cannot analyse: libcst's parser rejects this valid Python at "
                    f"{error.raw_line}:{error.raw_column + 1}")
            return result
        try:
            return self._lint_indexed(result, inference, text, self.relative(filename), linted)
        finally:
            if not self.project.keeps(inference):
                inference.release()

    def _lint_indexed(self, result: FileResult, inference: Inference, text: str,
                      relative: str, linted: Linted | None) -> FileResult:
        import libcst as cst

        from optlint.context import RuleContext
        filename = result.filename
        index = inference.index
        module = index.module_scope.node
        assert isinstance(module, cst.Module)
        ctx = RuleContext(module, index, inference, self.options.versions, filename)
        findings: list[tuple[Rule, Finding]] = []
        for rule in self.rules:
            if not self.options.selection.is_enabled(rule.code, relative):
                continue
            try:
                findings.extend((rule, finding) for finding in rule.check(ctx)
                                if finding.unproven is None or self.options.preview)
            except Exception as error:  # noqa: BLE001 - a rule bug must not stop other rules or files
                result.internal_error = True
                detail = traceback.format_exc() if self.options.verbose else f"{error!r}"
                result.errors.append(
                    f"{filename}: internal error in rule {rule.code} ({rule.name}): {detail}")
        findings = _outside_expected_failures(findings, ctx)
        from optlint.to_diagnostics import to_diagnostics

        diagnostics = to_diagnostics(findings, module, ctx, filename) if findings else []
        result.diagnostics = self._suppressed(diagnostics, text, filename, relative)
        if linted is not None:
            from optlint.linted import Reported

            # What noqa left, each diagnostic with the rule and finding that made it.
            linted.module = module
            linted.reports = [Reported(rule, finding, diagnostic) for diagnostic, (rule, finding)
                              in zip(diagnostics, findings, strict=True)
                              if any(kept is diagnostic for kept in result.diagnostics)]
        return result

    def _suppressed(self, diagnostics: list[Diagnostic], text: str, filename: str,
                    relative: str | None = None) -> list[Diagnostic]:
        """What `# noqa` leaves of `diagnostics`, with OPT100 for the codes it did not use."""
        if not self.options.respect_noqa:
            return diagnostics
        lines = source_lines(text)
        directives = parse_directives(lines, text, {d.line for d in diagnostics})
        report_unused = self.options.selection.is_enabled(
            UNUSED_NOQA.code, relative if relative is not None else self.relative(filename))
        return apply_suppressions(diagnostics, directives, filename, lines,
                                  self.options.selection.enabled, report_unused)

    # fixing ---------------------------------------------------------------------------------
    def fix_text(self, text: str, filename: str) -> FileResult:
        """Apply fixes until none is left (bounded); each round is re-parsed and re-linted."""
        import libcst as cst

        from optlint.parsing import Unanalysable, parse_screened

        original = text
        result = self.lint_text(text, filename)
        applied = 0
        for _ in range(_MAX_FIX_ROUNDS):
            fixes = [d.fix for d in result.diagnostics if d.fix is not None and (
                d.fix.applicability == "safe" or self.options.unsafe_fixes)
                and self.options.selection.fixable(d.code)]
            if not fixes:
                break
            candidate, count = apply_fixes(text, fixes)
            if candidate == text:
                break
            try:
                parse_screened(candidate, filename)
            except (cst.ParserSyntaxError, Unanalysable, RecursionError) as error:
                reason = str(error).splitlines()[0] if str(error) else type(error).__name__
                result.errors.append(f"{filename}: a fix produced invalid code; it was not "
                                     f"applied ({reason})")
                result.internal_error = True
                # One broken fix must not cost the others of its round: keep those that parse
                # on their own (and together), then stop.
                sound = [fix for fix in fixes if _parses(apply_fixes(text, [fix])[0], filename)]
                candidate, count = apply_fixes(text, sound)
                if sound and candidate != text and _parses(candidate, filename):
                    text, applied = candidate, applied + count
                    errors = result.errors
                    result = self.lint_text(text, filename)
                    result.errors, result.internal_error = errors + result.errors, True
                break
            text, applied = candidate, applied + count
            errors = result.errors
            result = self.lint_text(text, filename)
            result.errors = errors + result.errors
        result.fixes_applied = applied
        result.fixed = text if text != original else None
        return result

    def check_path(self, path: Path) -> FileResult:
        try:
            return self._check_path(path)
        except Exception as error:  # noqa: BLE001 - one file's failure must not end the run
            detail = traceback.format_exc() if self.options.verbose else f"{error!r}"
            return FileResult(str(path), errors=[f"{path}: internal error: {detail}"],
                              internal_error=True)

    def _check_path(self, path: Path) -> FileResult:
        try:
            source = open_source(path)
        except SourceError as error:
            return FileResult(str(path), errors=[str(error)])
        if source is None:  # a notebook in another language
            return FileResult(str(path))
        return self.check_source(source)

    def check_source(self, source: Source) -> FileResult:
        """Lint (and fix) one file's program; findings come back in the file's positions, fixes
        as the file's new text, written back when `write` (and the source has a file)."""
        if not self.options.fix:
            if self._project is not None:
                self._project.start_recording()
            result = self.lint_text(source.program, source.name)
            result.content_hash = hashlib.sha256(source.data).hexdigest()
            # No project index yet: nothing has been parsed, so nothing of the project was read.
            result.dependencies = (self._project.recorded() if self._project is not None
                                   else Dependencies())
        else:
            result = self.fix_text(source.program, source.name)
            if result.fixed is not None:
                self._fix_file(source, result, result.fixed)
        # Kept only for a file whose fixes changed it: every file's text, kept to the end of the
        # run (and sent back from workers), would cost as much memory as the corpus.
        result.original = source.text if result.fixed is not None else None
        result.diagnostics = [source.shown(d) for d in result.diagnostics]
        return result

    def _fix_file(self, source: Source, result: FileResult, fixed_program: str) -> None:
        try:
            result.fixed = source.fixed_text(fixed_program)
        except SourceError as error:  # a fix moved a notebook cell boundary
            result.errors.append(str(error))
            result.internal_error, result.fixed = True, None
        if result.fixed is None:
            result.fixes_applied = 0
        elif not self.options.write:
            result.diff = source.diff(fixed_program)
        elif source.path is not None:  # standard input: the caller prints the fixed text
            try:
                source.write(result.fixed)
            except SourceError as error:  # the file changed since it was read; cannot write
                result.errors.append(str(error))
                result.internal_error = True


def _parses(text: str, filename: str) -> bool:
    import libcst as cst

    from optlint.parsing import Unanalysable, parse_screened

    try:
        parse_screened(text, filename)
    except (cst.ParserSyntaxError, Unanalysable, RecursionError):
        return False
    return True


def _syntax_error(error: SyntaxError, filename: str) -> Diagnostic:
    """OPT000 where CPython's parser places the error (more precisely than libcst's)."""
    where = Location(error.lineno or 1, error.offset or 1)
    first_line = (error.msg or "invalid syntax").splitlines()[0]
    return Diagnostic(SYNTAX_ERROR.code, SYNTAX_ERROR.name, f"SyntaxError: {first_line}",
                      filename, where, where)


def _outside_expected_failures(findings: list[tuple[Rule, Finding]],
                               ctx: RuleContext) -> list[tuple[Rule, Finding]]:
    """Leaves out findings inside `with pytest.raises(...)` / `pytest.warns(...)`: that code
    fails on purpose, to test that it does (for every rule)."""
    if not findings or not ctx.index.expecting:
        return findings
    import libcst as cst
    positions = ctx.positions()
    spans = []
    for node in ctx.index.expecting:
        managers = [item.item for item in node.items if isinstance(item.item, cst.Call)]
        if any((ctx.qualify(call.func) or "").startswith("pytest.") for call in managers):
            body = positions[node.body]
            spans.append((body.start.line, body.end.line))
    if not spans:
        return findings
    return [(rule, finding) for rule, finding in findings
            if not any(start <= positions[finding.node].start.line <= end
                       for start, end in spans)]


# running over many files ---------------------------------------------------------------------
# libcst allocates millions of small objects; the cyclic garbage collector then runs over and
# over, costing a third of a run (measured: 9.5 s -> 6.4 s on the benchmark corpus). It is paused
# while files are checked: a linted file's index breaks its own cycles (`FileIndex.release`), so
# reference counting frees each tree, and a collection every `_COLLECT_EVERY` files only bounds
# whatever cycles remain. What exists before checking starts is frozen out of its sight.
_COLLECT_EVERY = 200
_worker: Linter | None = None
_worker_files = 0


def _init_worker(options: LintOptions, parent: int) -> None:
    global _worker
    _watch_parent(parent)
    _worker = Linter(options)
    gc.disable()
    gc.freeze()


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
    global _worker_files
    assert _worker is not None
    _worker_files += 1
    if _worker_files % _COLLECT_EVERY == 0:
        gc.collect()
    return _worker.check_path(path)


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
                cache: LintCache | None = None) -> list[FileResult]:
    """Every path's result, in order; with a cache, unchanged files are not analysed again."""
    cached = {path: cache.lookup(path) for path in paths} if cache is not None else {}
    missed = [path for path in paths if cached.get(path) is None]
    fresh = dict(zip(missed, _check_uncached(missed, options, jobs), strict=True))
    if cache is not None:
        cache.store_all(fresh)
    return [cached.get(path) or fresh[path] for path in paths]


def _check_uncached(paths: list[Path], options: LintOptions,
                    jobs: int | None) -> list[FileResult]:
    # More workers than cores only compete for them (and each holds its own project index).
    workers = min(jobs or os.cpu_count() or 1, os.cpu_count() or 1)
    if workers <= 1 or len(paths) < 2 * workers:
        linter = Linter(options)
        results = []
        with _collector_paused():
            for number, path in enumerate(paths, start=1):
                results.append(linter.check_path(path))
                if number % _COLLECT_EVERY == 0:
                    gc.collect()
    else:
        results = _check_in_pool(paths, options, workers)
    for result in results:
        result.diagnostics.sort(key=Diagnostic.sort_key)
    return results


def _check_in_pool(paths: list[Path], options: LintOptions, workers: int) -> list[FileResult]:
    """Check in worker processes; files whose worker died (killed for memory, a crash in native
    code) are checked again one by one, so one such file is reported and the rest still run."""
    size = max(1, len(paths) // (workers * 32))
    chunks = [paths[start:start + size] for start in range(0, len(paths), size)]
    done: dict[Path, FileResult] = {}
    lost: list[Path] = []
    with _pool(workers, options) as pool:
        futures = [(chunk, pool.submit(_check_chunk, chunk)) for chunk in chunks]
        for chunk, future in futures:
            try:
                done.update(zip(chunk, future.result(), strict=True))
            except BrokenProcessPool:
                lost.extend(chunk)
    if lost:
        done.update(_check_one_by_one(lost, options))
    return [done[path] for path in paths]


def _pool(workers: int, options: LintOptions) -> ProcessPoolExecutor:
    """Forked workers start fastest; but a process that has imported JAX (an in-process caller
    such as a test suite or a notebook) has threads a fork can deadlock on, so it spawns them."""
    context = multiprocessing.get_context(_start_method())
    return ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker,
                               initargs=(options, os.getpid()))


def _start_method() -> str | None:
    return "spawn" if "jax" in sys.modules else None  # None: the platform's default (fork)


def _check_chunk(paths: list[Path]) -> list[FileResult]:
    return [_check_in_worker(path) for path in paths]


def _check_one_by_one(paths: list[Path], options: LintOptions) -> dict[Path, FileResult]:
    """Each file in a worker process of its own (a new one only after a crash)."""
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
