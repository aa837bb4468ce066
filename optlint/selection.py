"""Which codes are enabled: select / extend-select / ignore by code or prefix, per-file ignores."""

from __future__ import annotations

from dataclasses import field
from fnmatch import fnmatch
from pathlib import PurePath

from optlint.config import ConfigError, Settings
from optlint.catalog import SYNTAX_ERROR, all_codes
from optlint.records import record


def validate_codes(codes: list[str], option: str) -> list[str]:
    known = all_codes()
    for code in codes:
        if code != "ALL" and not any(real.startswith(code) for real in known):
            raise ConfigError(f"{option}: unknown rule code or prefix '{code}'")
    return codes


def _matches(code: str, patterns: list[str]) -> bool:
    return any(pattern == "ALL" or code.startswith(pattern) for pattern in patterns)


def _path_matches(path: PurePath, glob: str) -> bool:
    try:
        return path.match(glob)
    except ValueError:  # a pattern pathlib cannot take (`/`): fnmatch has answered for it
        return False


@record
class Selection:
    enabled: frozenset[str]
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = field(default=())
    unfixable: tuple[str, ...] = ()  # codes or prefixes whose fixes are never applied

    @classmethod
    def from_settings(cls, settings: Settings) -> Selection:
        def where(attribute: str, key: str) -> str:
            source = settings.source_of(attribute)  # `path:line` of the config, or how given
            return key if source in ("default", "command line") else f"{source}: {key}"

        validate_codes(settings.select, where("select", "select"))
        validate_codes(settings.extend_select, where("extend_select", "extend-select"))
        validate_codes(settings.ignore, where("ignore", "ignore"))
        validate_codes(settings.unfixable, where("unfixable", "unfixable"))
        for glob, codes in settings.per_file_ignores.items():
            if not glob.strip():  # matches no file, and fnmatch raises on every one
                raise ConfigError(f"{where('per_file_ignores', 'per-file-ignores')}: an empty "
                                  f"pattern (give a glob such as \"tests/*.py\")")
            validate_codes(codes, where("per_file_ignores", f"per-file-ignores '{glob}'"))
        chosen = settings.select + settings.extend_select
        enabled = {code for code in all_codes()
                   if _matches(code, chosen) and not _matches(code, settings.ignore)}
        enabled.add(SYNTAX_ERROR.code)  # a file that does not parse is always reported
        ignores = tuple((glob, tuple(codes)) for glob, codes in settings.per_file_ignores.items())
        return cls(frozenset(enabled), ignores, tuple(settings.unfixable))

    def ignored_in(self, relative_path: str) -> list[str]:
        """The codes per-file-ignores switches off for this path (relative to the project root)."""
        path = PurePath(relative_path)
        codes: list[str] = []
        for glob, ignored in self.per_file_ignores:
            if fnmatch(relative_path, glob) or _path_matches(path, glob) or fnmatch(path.name,
                                                                                    glob):
                codes.extend(ignored)
        return codes

    def fixable(self, code: str) -> bool:
        return not _matches(code, list(self.unfixable))

    def is_enabled(self, code: str, relative_path: str) -> bool:
        return code in self.enabled and not _matches(code, self.ignored_in(relative_path))

    def enabled_in(self, relative_path: str) -> frozenset[str]:
        """The codes `is_enabled` gives for this path, its per-file-ignores read once (a file
        is linted by every rule)."""
        ignored = self.ignored_in(relative_path)
        return frozenset(code for code in self.enabled if not _matches(code, ignored))
