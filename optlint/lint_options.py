"""Lint options from settings: the one assembly every front end uses.

`optlint check`, the verify gate (`check --fix --verify`), `optlint verify`, the language server
and the flake8 plugin each take their settings their own way (command line, editor, flake8
options), record them on `Settings` with their provenance, and get their `LintOptions` here, so
none of them can drop a setting (`max-file-size`, `preview`, the library versions) the others
honour. What a front end decides itself (fixing, writing, noqa) is passed as a keyword.
"""

from __future__ import annotations

from dataclasses import replace

from optlint.config import Settings
from optlint.lint_types import LintOptions
from optlint.selection import Selection
from optlint.versions import LIBRARIES, KnownVersion, resolve_versions

# A version a front end set on top of the configuration is shown with this source; one from the
# configuration file (or the editor's settings, merged into it) as "configuration".
_OVERRIDE_SOURCE = "command line"


def lint_options(settings: Settings, *, installed: dict[str, KnownVersion] | None = None,
                 verbose: bool = False, fix: bool = False, unsafe_fixes: bool = False,
                 write: bool = True, respect_noqa: bool = True) -> LintOptions:
    """What the linter needs from `settings` (raises ConfigError on a bad selection).
    `installed`: the versions of the interpreter the code will run with, where it is not this
    one (`optlint verify --python`); configured versions still win."""
    sources = {library: _OVERRIDE_SOURCE for library in LIBRARIES
               if settings.source_of(f"{library}_version") == _OVERRIDE_SOURCE}
    versions = resolve_versions(settings.configured_versions(), settings.project_root, sources,
                                installed)
    return LintOptions(Selection.from_settings(settings), versions, settings.project_root,
                       verbose, fix=fix, unsafe_fixes=unsafe_fixes, write=write,
                       respect_noqa=respect_noqa, preview=settings.preview,
                       max_file_size=settings.max_file_size)


def every_fix(options: LintOptions) -> LintOptions:
    """The same lint computing every fix, safe and unsafe, and writing nothing: what the
    verifier runs against the original."""
    return replace(options, fix=True, unsafe_fixes=True, write=False)
