"""What the command line asks: the settings it gives (`--config`, `--isolated`, `--select`, the
library versions, ...) and, for `optlint check`, what to do with the files; and the settings it
makes: the configuration closest to the files, with those options on top and their provenance
("command line") recorded. `optlint check` and `optlint verify` build their settings here."""

from __future__ import annotations

import os
from dataclasses import field
from pathlib import Path

from optlint.config import ConfigError, Settings, invalid_pattern, load_settings, validate_version
from optlint.records import record
from optlint.selection import validate_codes


@record(frozen=False)
class SettingsRequest:
    paths: list[str]
    select: list[str] | None = None
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    unfixable: list[str] = field(default_factory=list)
    per_file_ignores: list[str] = field(default_factory=list)  # GLOB:CODE,CODE
    extend_exclude: list[str] = field(default_factory=list)
    isolated: bool = False  # no configuration file at all
    config: str | None = None
    stdin_filename: str | None = None
    versions: dict[str, str | None] = field(default_factory=dict)
    preview: bool | None = None  # --preview / --no-preview; None: the configuration's


@record(frozen=False)
class CheckRequest(SettingsRequest):
    """`optlint check`: the settings the command line gives, and what to do with them."""

    fix: bool = False
    fix_only: bool = False  # report how many fixes applied, not the findings left
    exit_non_zero_on_fix: bool = False
    unsafe_fixes: bool = False
    diff: bool = False
    show_fixes: bool = False
    show_files: bool = False
    color: str = "auto"  # auto | always | never
    statistics: bool = False
    unfixable_codes: tuple[str, ...] = ()  # resolved from settings: set by run_check
    exit_zero: bool = False
    output_format: str = "text"
    jobs: int | None = None
    quiet: bool = False
    show_settings: bool = False
    force_exclude: bool = False
    verbose: bool = False
    verify: bool = False  # with --fix: apply only fixes whose verification did not fail
    no_cache: bool = False
    add_noqa: bool = False
    output_file: str | None = None  # -o: the report goes there instead of stdout


def build_settings(request: SettingsRequest, start: Path | None = None) -> Settings:
    """The settings for files under `start` (default: the working folder): the configuration
    closest to it, unless --config or --isolated says otherwise, with the command line's
    options applied on top."""
    if request.isolated:
        if request.config:
            raise ConfigError("--isolated and --config: choose one")
        settings = Settings()
    else:
        settings = load_settings(Path(request.config) if request.config else None, start)
        _confine_root(settings, request)
    for attribute, value in (("select", request.select),
                             ("extend_select", request.extend_select or None),
                             ("ignore", request.ignore or None),
                             ("unfixable", request.unfixable or None)):
        if value is not None:
            if attribute == "select" and not value:  # `--select ""` would check nothing, silently
                raise ConfigError("--select: no codes given (`--select ALL` enables every rule)")
            validate_codes(value, f"--{attribute.replace('_', '-')}")
            # Options add to the configuration's lists, except --select, which replaces it.
            merged = value if attribute == "select" else getattr(settings, attribute) + value
            setattr(settings, attribute, merged)
            settings.sources[attribute] = "command line"
    if request.extend_exclude:
        for pattern in request.extend_exclude:
            reason = invalid_pattern(pattern)
            if reason is not None:
                raise ConfigError(f"--extend-exclude: invalid pattern {pattern!r}: {reason}")
        settings.extend_exclude = settings.extend_exclude + request.extend_exclude
        settings.sources["extend_exclude"] = "command line"
    for item in request.per_file_ignores:
        glob, colon, codes = item.rpartition(":")
        if not colon or not glob or not _codes_of(codes):
            raise ConfigError(f"--per-file-ignores: expected GLOB:CODES, got {item!r}")
        validate_codes(_codes_of(codes), "--per-file-ignores")
        settings.per_file_ignores = {**settings.per_file_ignores,
                                     glob: settings.per_file_ignores.get(glob, [])
                                     + _codes_of(codes)}
        settings.sources["per_file_ignores"] = "command line"
    if request.preview is not None:
        settings.preview = request.preview
        settings.sources["preview"] = "command line"
    for library, version in request.versions.items():
        if version:
            version = validate_version(f"--{library}-version", version, "command line")
            setattr(settings, f"{library}_version", version)
            settings.sources[f"{library}_version"] = "command line"
    return settings


def _confine_root(settings: Settings, request: SettingsRequest) -> None:
    """Without a configuration file the project is the current folder; run from `/`, that is
    the whole file system, which the search for a function's callers would walk (thousands of
    files) and where the cache would be written. There, the project is the folder holding
    what was asked to be checked."""
    root = settings.project_root
    if settings.config_path is not None or root.parent != root:
        return
    named = [request.stdin_filename] if request.paths in ([], ["-"]) else request.paths
    folders = [path if path.is_dir() else path.parent
               for path in (Path(name).resolve() for name in named if name)]
    if folders:
        settings.project_root = Path(os.path.commonpath(folders))


def _codes_of(text: str) -> list[str]:
    return [code.strip().upper() for code in text.split(",") if code.strip()]
