"""`optlint check` from resolved options to an exit code: discover, lint, fix, report, summarise."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from optlint.console import echo

from optlint.catalog import SYNTAX_ERROR
from optlint.config import ConfigError, Settings, find_config
from optlint.check_report import report
from optlint.diagnostics import Diagnostic
from optlint.discovery import DiscoveryError, discover, excluded_by_settings
from optlint.lint_types import FileResult, LintOptions
from optlint.lint_options import lint_options as options_from_settings
from optlint.pool import check_paths
from optlint.selection import Selection
from optlint.request import CheckRequest, build_settings  # noqa: F401 - named from here too
from optlint.source import SourceError, read_source, write_fixes
from optlint.sources import source_from_bytes
from optlint.versions import LIBRARIES

from optlint.exits import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS  # noqa: F401 - named from here too


def fail(message: str) -> int:
    echo(f"error: {message}", err=True)
    return EXIT_ERROR


def lint_options(request: CheckRequest, settings: Settings) -> LintOptions:
    """What the linter needs from the settings and the command line (raises ConfigError)."""
    return options_from_settings(settings, verbose=request.verbose,
                                 fix=request.fix or request.diff,
                                 unsafe_fixes=request.unsafe_fixes, write=not request.diff)


def _by_configuration(request: CheckRequest, files: list[Path], settings: Settings,
                      resolved: dict[Path, Path]) -> list[tuple[Settings, list[Path]]]:
    """The files grouped by the configuration closest to each (ruff's hierarchical settings:
    `sub/pyproject.toml` governs `sub/`, as the editor's server and pre-commit see it).
    `settings` serves the files whose closest configuration is the working folder's.

    A file outside the working folder's project that no configuration governs keeps those
    settings, but its project is its own (its nearest pyproject.toml's folder, else its folder,
    as the editor's server takes it): where its functions' callers are looked for and the cache
    is kept. Otherwise `optlint check ../other/train.py`, or a run from a crowded folder such as
    /tmp, would read the working folder's unrelated files as the file's project."""
    if request.config or request.isolated:
        return [(settings, files)]
    by_folder: dict[Path, tuple[Path | None, Path | None]] = {}
    groups: dict[tuple[Path | None, Path | None], list[Path]] = {}
    for file in files:
        folder = (resolved.get(file) or file.resolve()).parent
        if folder not in by_folder:
            config, root = find_config(folder)
            inside = config is not None or folder.is_relative_to(settings.project_root)
            by_folder[folder] = (config, None if inside else root)
        groups.setdefault(by_folder[folder], []).append(file)
    return [(_settings_for(request, settings, config, root), group)
            for (config, root), group in groups.items()]


def _settings_for(request: CheckRequest, settings: Settings, config: Path | None,
                  root: Path | None) -> Settings:
    """The settings of a group of `_by_configuration`: those of `config`, else the working
    folder's (theirs, or none governs the group), with `root` as the project where given."""
    if config is not None and config != settings.config_path:
        return build_settings(request, config.parent)
    return settings if root is None else replace(settings, project_root=root)


def run_check(request: CheckRequest) -> int:
    try:
        settings = build_settings(request, _stdin_folder(request))
        options = lint_options(request, settings)
    except ConfigError as error:
        return fail(str(error))
    if request.show_settings:
        echo(render_settings(settings, options.versions))
        return EXIT_CLEAN
    request.unfixable_codes = options.selection.unfixable
    if request.verify and (not request.fix or request.diff or request.paths == ["-"]):
        return fail("--verify works with --fix on files (not with --diff or stdin)")
    if request.add_noqa and (request.fix or request.diff or request.paths == ["-"]):
        return fail("--add-noqa works on files, without --fix or --diff")
    if request.stdin_filename is not None and request.paths not in ([], ["-"]):
        return fail("--stdin-filename names standard input: give `-` as the only path")
    if request.paths == ["-"] or (request.stdin_filename is not None and not request.paths):
        if request.force_exclude and request.stdin_filename is not None and \
                excluded_by_settings(Path(request.stdin_filename), settings):
            if options.fix and not request.diff:  # the editor's buffer comes back unchanged
                _echo_fixed(None, sys.stdin.buffer.read())
            results = []
        else:
            results = [_check_stdin(request, options)]
    else:
        problems: list[str] = []
        resolved: dict[Path, Path] = {}
        try:
            files = discover([Path(p) for p in request.paths or ["."]], settings,
                             request.force_exclude, problems=problems, resolved=resolved)
        except DiscoveryError as error:
            return fail(str(error))
        if request.show_files:
            echo("".join(f"{path}\n" for path in files), nl=False)
            return EXIT_CLEAN
        if not files and not problems:
            echo("warning: No Python files found under the given path(s)", err=True)
        try:
            groups = _by_configuration(request, files, settings, resolved)
            group_options = [options if group_settings is settings
                             else lint_options(request, group_settings)
                             for group_settings, _ in groups]
        except ConfigError as error:
            return fail(str(error))
        results = []
        for (group_settings, group_files), options in zip(groups, group_options, strict=True):
            results += _check_group(request, group_settings, group_files, options, resolved)
        results += [FileResult(problem.split(":")[0], errors=[problem]) for problem in problems]
        if request.add_noqa:
            return _add_noqa(results)
    return report(request, results)


def _stdin_folder(request: CheckRequest) -> Path | None:
    """Standard input named by --stdin-filename takes the configuration closest to that name."""
    if request.stdin_filename is not None and request.paths in ([], ["-"]):
        return Path(request.stdin_filename).resolve().parent
    return None


def _check_group(request: CheckRequest, settings: Settings, files: list[Path],
                 options: LintOptions, resolved: dict[Path, Path]) -> list[FileResult]:
    if request.verify:
        from optlint.verify.gate import fix_verified  # only --verify pays for the verifier
        from optlint.verify.session import RunSettings
        return fix_verified(files, options, RunSettings())
    cache = None
    if not (request.no_cache or options.fix):
        from optlint.cache import LintCache, cache_folder
        cache = LintCache(cache_folder(settings.project_root, settings.cache_dir), options)
    else:
        options = replace(options, hash_contents=False)  # no cache reads the hashes
    results = check_paths(files, options, request.jobs, cache, resolved)
    if cache is not None and request.verbose:
        echo(f"cache: {cache.hits} of {len(files)} files unchanged since the last run",
                   err=True)
    return results


def _add_noqa(results: list[FileResult]) -> int:
    import libcst as cst

    from optlint.add_noqa import add_noqa
    from optlint.parsing import Unanalysable, parse_screened

    added, files, failed = 0, 0, False
    for result in results:
        for error in result.errors:
            echo(f"error: {error}", err=True)
        failed = failed or bool(result.errors)
        findings = [d for d in result.diagnostics if d.code != SYNTAX_ERROR.code]
        if not findings:
            continue
        path = Path(result.filename)
        if any(d.cell is not None for d in findings):
            count = _add_noqa_to_notebook(path, findings)
            if count is None:
                failed = True
            elif count:
                added, files = added + count, files + 1
            continue
        try:
            source = read_source(path)
            done = add_noqa(source.text, findings)
            for line in done.skipped:
                echo(f"warning: {result.filename}:{line}: the line ends inside a string "
                           f"or a continuation; no `# noqa` added", err=True)
            if done.text != source.text:
                parse_screened(done.text, result.filename)  # never write what does not parse
                write_fixes(path, done.text, source.encoding, source.data)
                added, files = added + done.added, files + 1
        except (SourceError, OSError, Unanalysable, cst.ParserSyntaxError) as error:
            echo(f"error: {result.filename}: no `# noqa` added: {error}", err=True)
            failed = True
    echo(f"Added {added} noqa directive{'' if added == 1 else 's'} in {files} "
               f"file{'' if files == 1 else 's'}.", err=True)
    return EXIT_ERROR if failed else EXIT_CLEAN


def _add_noqa_to_notebook(path: Path, findings: list[Diagnostic]) -> int | None:
    """`--add-noqa` in a notebook: each cell with findings gets its directives as a file would,
    written back into that cell alone. The codes added; None when the notebook was not changed
    because of an error (said on standard error)."""
    from optlint.add_noqa import add_noqa
    from optlint.notebook_file import NotebookFile
    from optlint.sources import open_source

    try:
        source = open_source(path)
        if not isinstance(source, NotebookFile):
            return 0
        cells = {cell.number: cell for cell in source.notebook.cells}
        changed: dict[int, str] = {}
        added = 0
        for number in sorted({d.cell for d in findings if d.cell is not None}):
            done = add_noqa(cells[number].text, [d for d in findings if d.cell == number])
            for line in done.skipped:
                echo(f"warning: {path}:cell {number}:{line}: the line ends inside a "
                           f"string or a continuation; no `# noqa` added", err=True)
            if done.text != cells[number].text:
                changed[number - 1] = done.text
                added += done.added
        if changed:
            source.write(source.spliced(changed))
        return added
    except (SourceError, OSError) as error:
        echo(f"error: {path}: no `# noqa` added: {error}", err=True)
        return None


def _check_stdin(request: CheckRequest, options: LintOptions) -> FileResult:
    filename = request.stdin_filename or "-"
    data = sys.stdin.buffer.read()
    result = FileResult(filename, internal_error=True,
                        errors=[f"{filename}: internal error: not checked"])
    try:
        result = _check_stdin_data(data, filename, options)
    finally:  # whatever happened, an editor's buffer gets its text back
        if options.fix and not request.diff:
            _echo_fixed(result.fixed, data)
    return result


def _check_stdin_data(data: bytes, filename: str, options: LintOptions) -> FileResult:
    try:  # read as the file it names would be: an editor may pipe a notebook's JSON
        source = source_from_bytes(data, filename)
    except SourceError as error:
        return FileResult(filename, errors=[str(error)], internal_error=True)
    if source is None:  # a notebook in another language
        return FileResult(filename)
    from optlint.engine import Linter  # a warm run of files never needs the engine

    return Linter(options).check_source(source)


def _echo_fixed(fixed: str | None, original: bytes) -> None:
    """With `- --fix` an editor replaces its buffer with standard output: unless there is a fixed
    text, give the input back byte for byte, so a file optlint cannot read is never emptied."""
    if fixed is None:
        sys.stdout.buffer.write(original)
    else:
        sys.stdout.write(fixed)
    sys.stdout.flush()


def render_settings(settings: Settings, versions) -> str:  # type: ignore[no-untyped-def]
    rows = [("project-root", str(settings.project_root), "discovered"),
            ("config-file", str(settings.config_path or "none"), "discovered")]
    for attribute in ("select", "extend_select", "ignore", "per_file_ignores", "exclude",
                      "extend_exclude", "respect_gitignore", "preview", "max_file_size"):
        rows.append((attribute.replace("_", "-"), repr(getattr(settings, attribute)),
                     settings.source_of(attribute)))
    for library in LIBRARIES:
        known = versions.get(library)
        rows.append((f"{library}-version", known.version or "unknown", known.source))
    rows.append(("enabled-rules", ", ".join(sorted(
        Selection.from_settings(settings).enabled)), "select/ignore"))
    width = max(len(name) for name, _, _ in rows)
    return "\n".join(f"{name:<{width}} = {value}  ({source})" for name, value, source in rows)

