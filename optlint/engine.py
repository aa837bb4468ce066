"""Parse each file once, run every enabled rule over one index of it, collect diagnostics.

Many files at once: `optlint.pool`; fixes applied round after round: `optlint.fixing`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from optlint.analysis.dependencies import Dependencies
from optlint.catalog import RULE_INFOS, SYNTAX_ERROR, UNUSED_NOQA
from optlint.diagnostics import Diagnostic, Location
from optlint.edits import source_lines
from optlint.prefilter import Prefilter
from optlint.lint_types import FileResult, LintOptions  # noqa: F401 - named from here too
from optlint.source import SourceError
from optlint.sources import Source, not_read_notice, open_source

# libcst, the analysis and the rules are imported when a file first passes the prefilter: a run
# whose files all miss it (and `optlint rule`, `--version`) never pays for them.
if TYPE_CHECKING:

    from optlint.analysis.inference import Inference
    from optlint.analysis.project import ProjectIndex
    from optlint.context import RuleContext
    from optlint.linted import Linted
    from optlint.rules.base import Finding, Rule

class Linter:
    def __init__(self, options: LintOptions, project: ProjectIndex | None = None) -> None:
        self.options = options
        self._project = project
        self._rules: list[Rule] | None = None
        self._enabled = [info for info in RULE_INFOS if info.code in options.selection.enabled]
        self.prefilter = Prefilter(self._enabled, options.project_root)
        # The run's plan (`plan`): each file's place in the order, and where a file's tree is
        # kept until for later files' lookups.
        self._places: dict[Path, int] = {}
        self._kept_until: dict[Path, int] = {}
        self._run_files = 1
        # Each planned file's name -> its resolved path, as the run's import graph resolved it
        # (`plan`): the engine and the project index ask it of every file again.
        self._real_paths: dict[str, Path] = {}

    @property
    def project(self) -> ProjectIndex:
        if self._project is None:
            from optlint.analysis.project import ProjectIndex

            # The prefilter's import graph (the run's): the analysis asks it which files reach
            # the libraries, and where imports lead, rather than reading the imports again.
            self._project = ProjectIndex(self.options.project_root, self.prefilter.graph,
                                         self.options.hash_contents)
            self._project.checking(self._run_files)
            self._project.know_real_paths(self._real_paths)
        return self._project

    @property
    def rules(self) -> list[Rule]:
        """Every enabled rule, in the order rules run; their modules imported on first use.

        Not only those whose trigger words the file has: a rule's analysis reads other files
        (the helpers a file imports, the callers of its functions), so its words may be there
        alone (the recall case opt005/positive/srcpkg_solver_config: `lbfgs` is in
        calib/solvers.py, the finding in run.py)."""
        if self._rules is None:
            from optlint.rules import classes_for

            self._rules = [rule() for rule in classes_for(info.code for info in self._enabled)]
        return self._rules

    def plan(self, order: list[Path], kept_until: dict[Path, int]) -> None:
        """Check files in `order` (optlint.lint_order.check_plan), keeping a linted file's tree
        for later files' lookups until the place `kept_until` gives it."""
        graph = self.prefilter.built_graph
        self._real_paths = {str(path): graph.resolved(path) if graph is not None
                            else path.resolve() for path in order}
        self._places = {self._real_paths[str(path)]: number for number, path in enumerate(order)}
        self._kept_until = kept_until
        self._run_files = len(order)
        if self._project is not None:
            self._project.checking(len(order))
            self._project.know_real_paths(self._real_paths)

    def read_files_changed(self) -> bool:
        """Whether a project file the analysis read has changed on disk since (the language
        server keeps one Linter across edits)."""
        graph = self.prefilter.built_graph
        return ((self._project is not None and self._project.changed_on_disk())
                or (graph is not None and graph.changed_on_disk()))

    def may_match(self, text: str, filename: str = "-") -> bool:
        """The cheap prefilter (optlint/prefilter.py): a file in which no rule can fire is
        never parsed (its unused `# noqa: OPTnnn` codes are found from its comments alone)."""
        return self.prefilter.decide(text, filename).parse

    def relative(self, filename: str) -> str:
        real = self._real_paths.get(filename) or Path(filename).resolve()
        try:
            return real.relative_to(self.options.project_root).as_posix()
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
        decision = self.prefilter.decide(text, filename)
        if not decision.parse:
            # No rule can fire here: every OPT code its noqa comments name is unused.
            result.dependencies = decision.dependencies
            if "noqa" in text:
                result.diagnostics = self._suppressed([], text, filename)
            return result
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > self.options.max_file_size:
            result.errors.append(
                f"{filename}: not checked: {size:,} bytes, over max-file-size "
                f"({self.options.max_file_size:,}); raise it in [tool.optlint] to check it")
            return result
        from optlint.parsing import (TooDeep, Unanalysable, at_risk, deep_call,
                                     python_syntax_error, rejects_everywhere)

        try:
            screened = at_risk(text)
            python_error = python_syntax_error(text, filename) if screened else None
            if python_error is not None and rejects_everywhere(python_error):
                result.diagnostics.append(_syntax_error(python_error, filename))
                return result
            return deep_call(self._lint_parsed, result, text, screened, python_error, linted)
        except Unanalysable as error:
            result.errors.append(str(error))
        except RecursionError:
            result.errors.append(str(TooDeep(filename, "deeper than optlint's analysis reaches")))
        return result

    def _lint_parsed(self, result: FileResult, text: str, screened: bool,
                     python_error: SyntaxError | None, linted: Linted | None) -> FileResult:
        import libcst as cst
        filename = result.filename
        try:
            inference = self.project.analyse(text, filename)
        except cst.ParserSyntaxError as error:
            if not screened:  # CPython, asked only now, says where the error is (or that none is)
                from optlint.parsing import python_syntax_error

                python_error = python_syntax_error(text, filename)
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
            self.project.linted()
            path = self.project.real_path(filename)
            until = self._kept_until.get(path) if self._kept_until else None
            if until is not None and not self.project.keeps(inference):
                self.project.hold(path, inference, text, until)
            elif not self.project.keeps(inference):
                # The index's scopes and bindings point at each other: broken here, the file's
                # tree is freed at once by reference counting (the run pauses the collector).
                inference.index.release()

    def _lint_indexed(self, result: FileResult, inference: Inference, text: str,
                      relative: str, linted: Linted | None) -> FileResult:
        import libcst as cst

        from optlint.context import RuleContext
        filename = result.filename
        index = inference.index
        module = index.module_scope.node
        assert isinstance(module, cst.Module)
        ctx = RuleContext(module, index, inference, self.options.versions, filename)
        ctx.source = text
        ctx.wants_unproven = self.options.preview
        findings: list[tuple[Rule, Finding]] = []
        enabled = self.options.selection.enabled_in(relative)
        for rule in self.rules:
            if rule.code not in enabled:
                continue
            try:
                findings.extend((rule, finding) for finding in rule.check(ctx)
                                if finding.unproven is None or self.options.preview)
            except Exception as error:  # noqa: BLE001 - a rule bug must not stop other rules or files
                result.internal_error = True
                detail = _described(error, self.options.verbose)
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
        if not self.options.respect_noqa or "noqa" not in text.lower():
            return diagnostics  # no directive (found case-blind): nothing hidden, none unused
        from optlint.suppression import apply_suppressions, parse_directives

        lines = source_lines(text)
        directives = parse_directives(lines, text, {d.line for d in diagnostics})
        report_unused = self.options.selection.is_enabled(
            UNUSED_NOQA.code, relative if relative is not None else self.relative(filename))
        return apply_suppressions(diagnostics, directives, filename, lines,
                                  self.options.selection.enabled, report_unused)

    # fixing ---------------------------------------------------------------------------------
    def fix_text(self, text: str, filename: str) -> FileResult:
        """Apply fixes until none is left (bounded); each round is re-parsed and re-linted."""
        from optlint.fixing import fix_until_stable

        return fix_until_stable(self, text, filename)

    def check_path(self, path: Path) -> FileResult:
        if self._kept_until and self._project is not None:
            # Trees no file from here on looks up are dropped.
            self._project.drop_held(self._places.get(self._project.real_path(path), -1))
        try:
            return self._check_path(path)
        except Exception as error:  # noqa: BLE001 - one file's failure must not end the run
            detail = _described(error, self.options.verbose)
            return FileResult(str(path), errors=[f"{path}: internal error: {detail}"],
                              internal_error=True)

    def _check_path(self, path: Path) -> FileResult:
        try:
            source = open_source(path)
        except SourceError as error:
            return FileResult(str(path), errors=[str(error)])
        if source is None:  # a notebook in another language, a `.md` that is no notebook
            return FileResult(str(path), notices=not_read_notice(path))
        return self.check_source(source)

    def check_source(self, source: Source) -> FileResult:
        """Lint (and fix) one file's program; findings come back in the file's positions, fixes
        as the file's new text, written back when `write` (and the source has a file)."""
        if not self.options.fix:
            if self._project is not None:
                self._project.start_recording()
            result = self.lint_text(source.program, source.name)
            if self.options.hash_contents:
                import hashlib

                result.content_hash = hashlib.sha256(source.data).hexdigest()
            if result.dependencies is None:  # parsed: what the analysis read of the project
                # No project index yet: nothing has been parsed, so nothing of the project was
                # read.
                recorded = (self._project.recorded() if self._project is not None
                            else Dependencies())
                # What the prefilter read to decide counts among the files read (an edit during
                # the run must keep the result out of the cache).
                result.dependencies = Dependencies(
                    recorded.consulted, recorded.words,
                    tuple(sorted({*recorded.read, *self.prefilter.take_reads()})))
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


def _described(error: Exception, verbose: bool) -> str:
    """An internal error as a file's result states it: its traceback with --verbose (imported
    then: a run without an error never pays for the traceback module)."""
    if not verbose:
        return f"{error!r}"
    import traceback

    return traceback.format_exc()
