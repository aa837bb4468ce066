"""`optlint verify`: lint each file, verify its findings in one subprocess per file, report."""

from __future__ import annotations

import os
import sys
from dataclasses import field, replace
from pathlib import Path

import click

from optlint.config import ConfigError
from optlint.discovery import DiscoveryError, discover
from optlint.engine import Linter, LintOptions
from optlint.lint_options import every_fix, lint_options
from optlint.exits import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS
from optlint.records import record
from optlint.request import SettingsRequest, build_settings
from optlint.source import SourceError
from optlint.sources import open_source
from optlint.verify.interpreter import installed_in
from optlint.verify.report import FORMATS
from optlint.verify.session import RunSettings, VerifyError, check_python, verify_source
from optlint.verify.verdict import CONFIRMED, FIX_FAILED, Verdict
from optlint.versions import KnownVersion, LibraryVersions


@record(frozen=False)
class VerifyRequest:
    paths: list[str]
    python: str = sys.executable
    device: str = "auto"
    timeout: float = 120.0
    output_format: str = "text"
    config: str | None = None
    select: list[str] | None = None
    versions: dict[str, str | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # The probe and the harness run in other folders: a relative --python means from here.
        if os.sep in self.python:
            self.python = os.path.abspath(self.python)

    def run_settings(self) -> RunSettings:
        return RunSettings(self.python, self.device, self.timeout)


def fix_options(request: SettingsRequest | VerifyRequest,
                installed: dict[str, KnownVersion] | None = None) -> LintOptions:
    """Lint options that compute every fix (safe and unsafe) and write nothing. `installed`: the
    versions of the interpreter that runs the harness (`installed_in`), where it is not this one;
    versions from the configuration or the command line still win."""
    check = SettingsRequest(paths=request.paths, select=request.select, config=request.config,
                            versions=request.versions)
    return every_fix(lint_options(build_settings(check), installed=installed))


def versions_line(versions: LibraryVersions) -> str:
    """`jax 0.10.2, optax 0.2.3, equinox 0.13.8 (installed in /env/bin/python)`: libraries that
    share a source are named once before it."""
    groups: dict[str, list[str]] = {}
    for library in ("jax", "optax", "equinox"):
        known = versions.get(library)
        groups.setdefault(known.source, []).append(f"{library} {known.version or 'unknown'}")
    return "; ".join(f"{', '.join(names)} ({source})" for source, names in groups.items())


def verify_files(files: list[Path], options: LintOptions, run: RunSettings) -> list[Verdict]:
    linter = Linter(options)
    verdicts: list[Verdict] = []
    for path in files:
        try:
            source = open_source(path)
        except SourceError as error:
            click.echo(f"error: {error}", err=True)
            continue
        if source is None:
            continue  # a notebook in another language
        linted = linter.analyse_text(source.program, str(path))
        if not linted.diagnostics:
            continue
        fixed = linter.fix_text(source.program, str(path))
        found = verify_source(linted, fixed.fixed, run, options.project_root, fixed.fix_rounds)
        verdicts.extend(replace(v, diagnostic=source.shown(v.diagnostic)) for v in found)
    return verdicts


def run_verify(request: VerifyRequest) -> int:
    try:
        check_python(request.python)
        installed = installed_in(request.python)
        options = fix_options(request, installed)
        settings = build_settings(SettingsRequest(paths=request.paths, config=request.config))
        files = discover([Path(p) for p in request.paths or ["."]], settings)
        verdicts = verify_files(files, options, request.run_settings())
    except (ConfigError, DiscoveryError, VerifyError) as error:
        click.echo(f"error: {error}", err=True)
        return EXIT_ERROR
    click.echo(FORMATS[request.output_format](verdicts), nl=False)
    if request.output_format == "text":
        counts: dict[str, int] = {}
        for verdict in verdicts:
            counts[verdict.verdict] = counts.get(verdict.verdict, 0) + 1
        summary = ", ".join(f"{n} {name}" for name, n in sorted(counts.items()))
        if installed is not None:  # another interpreter: say which versions it gave the lint
            click.echo(f"Linted for {versions_line(options.versions)}.", err=True)
        click.echo(f"Verified {len(verdicts)} findings: {summary or 'none'}.", err=True)
    live = any(v.verdict in (CONFIRMED, FIX_FAILED) for v in verdicts)
    return EXIT_FINDINGS if live else EXIT_CLEAN
