"""The flake8 adapter: how IDEs show optlint.

flake8 hands us each file's lines; the engine parses them once with libcst (flake8's `ast` tree
is not used), behind the same prefilter as the CLI. Settings come from `[tool.optlint]` as for
the CLI; `--optlint-optax-version` and friends override the versions.

`# noqa` is handled by optlint before flake8 sees a finding: a finding optlint suppresses would
be suppressed by flake8 as well, and only optlint knows which directives suppressed nothing, so
OPT100 (unused noqa) comes out exactly as in `optlint check`. flake8 then applies its own noqa,
`--extend-ignore` and `per-file-ignores` on top. `--disable-noqa` turns optlint's noqa off too.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from packaging.version import InvalidVersion, Version

from optlint import __version__
from optlint.config import ConfigError, find_config, load_settings
from optlint.engine import Linter
from optlint.lint_options import lint_options
from optlint.versions import LIBRARIES


class OptlintChecker:
    name = "optlint"
    version = __version__

    _linter: ClassVar[Linter | None] = None  # the working folder's configuration
    _options: ClassVar[argparse.Namespace | None] = None
    # The closest configuration of each file's folder, and a linter per configuration: each file
    # takes the configuration closest to it, as `optlint check` and the language server do.
    _config_of_folder: ClassVar[dict[Path, Path | None]] = {}
    _linters: ClassVar[dict[Path | None, Linter]] = {}
    _base_config: ClassVar[Path | None] = None

    def __init__(self, tree: ast.AST, lines: list[str], filename: str) -> None:
        # `tree` must be accepted (flake8 sorts plugins by their parameters) but is not used.
        self.lines = lines
        self.filename = filename

    @classmethod
    def add_options(cls, parser: Any) -> None:
        for library in LIBRARIES:
            parser.add_option(f"--optlint-{library}-version", parse_from_config=True,
                              metavar="VERSION",
                              help=f"optlint: check against this {library} version "
                                   f"(overrides [tool.optlint] {library}-version).")
        parser.add_option("--optlint-preview", action="store_true", parse_from_config=True,
                          help="optlint: also report findings the analysis could not prove.")

    @classmethod
    def parse_options(cls, options: argparse.Namespace) -> None:
        """Called once per flake8 process: the Linter of the working folder's configuration."""
        cls._options = options
        cls._config_of_folder, cls._linters = {}, {}
        cls._base_config = find_config(Path.cwd())[0]
        cls._linter = cls._linter_for(options, None)

    @classmethod
    def _linter_for(cls, options: argparse.Namespace, start: Path | None) -> Linter:
        try:
            settings = load_settings(start=start)
            # flake8 does not tell its command line from its config file; both are "options"
            # that override [tool.optlint], named as the CLI names its own flags.
            for library in LIBRARIES:
                version = getattr(options, f"optlint_{library}_version", None)
                if version:
                    setattr(settings, f"{library}_version", _checked_version(library, version))
                    settings.sources[f"{library}_version"] = "command line"
            if getattr(options, "optlint_preview", False):
                settings.preview = True
                settings.sources["preview"] = "command line"
            return Linter(lint_options(
                settings, respect_noqa=not getattr(options, "disable_noqa", False)))
        except ConfigError as error:
            print(f"optlint: error: {error}", file=sys.stderr)
            raise SystemExit(2) from None

    def _file_linter(self) -> Linter:
        assert self._linter is not None
        if self.filename in ("-", "stdin") or self._options is None:
            return self._linter
        folder = Path(self.filename).resolve().parent
        if folder not in self._config_of_folder:
            self._config_of_folder[folder] = find_config(folder)[0]
        config = self._config_of_folder[folder]
        if config == self._base_config:
            return self._linter
        if config not in self._linters:
            self._linters[config] = self._linter_for(self._options,
                                                     config.parent if config else folder)
        return self._linters[config]

    def run(self) -> Iterator[tuple[int, int, str, type[OptlintChecker]]]:
        if self._linter is None:  # flake8 always calls parse_options first; direct use may not
            self.parse_options(argparse.Namespace())
        result = self._file_linter().lint_text("".join(self.lines), self.filename)
        for error in result.errors:  # a rule's internal error: say so, keep the other findings
            print(f"optlint: error: {error}", file=sys.stderr)
        for diagnostic in result.diagnostics:
            # flake8 wants a 0-based column and prints it plus one; ours are 1-based.
            yield (diagnostic.line, diagnostic.column - 1,
                   f"{diagnostic.code} {diagnostic.message_with_help()}", type(self))


def _checked_version(library: str, value: str) -> str:
    try:
        return str(Version(value))
    except InvalidVersion:
        raise ConfigError(f"--optlint-{library}-version: not a version: {value!r}") from None

