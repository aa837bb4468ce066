"""Settings from `[tool.optlint]` in the nearest pyproject.toml, validated, with their sources."""

from __future__ import annotations

import copy
import functools
import re
import sys
from dataclasses import field
from pathlib import Path
from typing import Any

from optlint.patterns import compiled
from optlint.records import record
from optlint.source import SourceError, read_bytes

DEFAULT_EXCLUDE = [".git", ".venv", "venv", "__pycache__", "build", "dist", "site-packages",
                   ".tox", "node_modules"]

# Files larger than this are reported, not parsed: libcst needs ~700 times a file's size in memory
# (measured: a 2 MB file peaks at 1.4 GB).
DEFAULT_MAX_FILE_SIZE = 2_000_000
# Compiled when first used (`optlint.patterns`): a run whose configuration has no optlint keys
# never uses them.
_SIZE = r"(\d+)\s*(|B|KB|MB|GB|KiB|MiB|GiB)"
_SIZE_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "kib": 2**10,
               "mib": 2**20, "gib": 2**30}


class ConfigError(Exception):
    """A configuration problem, reported as one line and exit code 2."""


@record(frozen=False)
class Settings:
    select: list[str] = field(default_factory=lambda: ["OPT"])
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    unfixable: list[str] = field(default_factory=list)  # codes or prefixes whose fixes never apply
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    exclude: list[str] = field(default_factory=lambda: list(DEFAULT_EXCLUDE))
    extend_exclude: list[str] = field(default_factory=list)
    respect_gitignore: bool = True
    # Opt-in findings the analysis could not prove (ruff's word for opt-in behaviour).
    preview: bool = False
    optax_version: str | None = None
    equinox_version: str | None = None
    jax_version: str | None = None
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    cache_dir: Path | None = None  # None: $OPTLINT_CACHE_DIR/lint, else .optlint_cache/
    project_root: Path = field(default_factory=Path.cwd)
    config_path: Path | None = None
    # setting name -> where its value came from ("default", the config file, "command line")
    sources: dict[str, str] = field(default_factory=dict)

    def source_of(self, name: str) -> str:
        return self.sources.get(name, "default")

    def configured_versions(self) -> dict[str, str | None]:
        return {"optax": self.optax_version, "equinox": self.equinox_version,
                "jax": self.jax_version}


_LIST_KEYS = {"select", "extend-select", "ignore", "unfixable", "exclude", "extend-exclude"}
_VERSION_KEYS = {"optax-version", "equinox-version", "jax-version"}
_BOOL_KEYS = {"respect-gitignore", "preview"}
KNOWN_KEYS = _LIST_KEYS | _VERSION_KEYS | _BOOL_KEYS | {"per-file-ignores", "max-file-size",
                                                        "cache-dir"}


# Checked in this order in each folder, as ruff checks `.ruff.toml`, `ruff.toml`, `pyproject.toml`:
# a dedicated file holds the keys at its top level (or under [tool.optlint]).
DEDICATED_CONFIGS = (".optlint.toml", "optlint.toml")


def find_config(start: Path) -> tuple[Path | None, Path]:
    """The configuration closest to `start` (`.optlint.toml`, `optlint.toml`, or a pyproject.toml
    with a [tool.optlint] table, folder by folder upwards), and the project root: that file's
    folder, else the nearest pyproject.toml's, else `start`."""
    nearest_pyproject: Path | None = None
    for folder in [start.resolve(), *start.resolve().parents]:
        for name in DEDICATED_CONFIGS:
            if (folder / name).is_file():
                return folder / name, folder
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            nearest_pyproject = nearest_pyproject or candidate
            if _optlint_table(_load_toml(candidate), candidate) is not None:
                return candidate, folder
    return None, (nearest_pyproject.parent if nearest_pyproject else start.resolve())


def load_settings(config_path: Path | None = None, start: Path | None = None) -> Settings:
    if config_path is not None:
        if not config_path.is_file():
            raise ConfigError(f"config file not found: {config_path}")
        data = _load_toml(config_path)
        table = _optlint_table(data, config_path)
        if table is None and config_path.name != "pyproject.toml":
            table = data  # a dedicated optlint.toml holds the keys at the top level
        root = config_path.resolve().parent
    else:
        config_path, root = find_config(start or Path.cwd())
        table = None
        if config_path is not None:
            data = _load_toml(config_path)
            table = _optlint_table(data, config_path)
            if table is None and config_path.name != "pyproject.toml":
                table = data
    settings = Settings(project_root=root, config_path=config_path)
    if table:
        assert config_path is not None
        dedicated = config_path.name != "pyproject.toml" and _optlint_table(
            _load_toml(config_path), config_path) is None
        lines = key_lines(read_bytes(config_path).decode("utf-8", "replace"), dedicated)
        apply_table(settings, table, _shown(config_path), lines)
    return settings


_HEADER = r"^\s*\[+\s*([^\]]+?)\s*\]+"
_KEY = r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_.-]+)\s*="""


def key_lines(text: str, dedicated: bool) -> dict[str, int]:
    """The line each key of the optlint table is set on (`per-file-ignores`: its first line),
    so that an error names the line as well as the file."""
    found: dict[str, int] = {}
    table = "" if dedicated else None
    for number, line in enumerate(text.splitlines(), start=1):
        header = compiled(_HEADER).match(line)
        if header:
            name = header.group(1).replace(" ", "")
            table = name if name.startswith("tool.optlint") or dedicated else None
            if table == "tool.optlint.per-file-ignores" or (dedicated and name == "per-file-ignores"):
                found.setdefault("per-file-ignores", number)
            continue
        key = compiled(_KEY).match(line)
        if key and table in ("tool.optlint", ""):
            found.setdefault(key.group(1).strip("\"'").split(".")[0], number)
    return found


def _shown(path: Path) -> str:
    """The path as a user would type it: relative to the current folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def apply_table(settings: Settings, table: Any, path: str,
                lines: dict[str, int] | None = None) -> None:
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.optlint] must be a table")
    for key, value in table.items():
        line = (lines or {}).get(key)
        origin = f"{path}:{line}" if line else path
        if key not in KNOWN_KEYS:
            raise ConfigError(f"{origin}: unknown key '{key}' in [tool.optlint]")
        attribute = key.replace("-", "_")
        if key in _LIST_KEYS:
            value = _string_list(key, value, origin)
            if key in ("exclude", "extend-exclude"):
                _check_patterns(key, value, origin)
        elif key in _VERSION_KEYS:
            value = validate_version(key, value, origin)
        elif key in _BOOL_KEYS:
            if not isinstance(value, bool):
                raise ConfigError(f"{origin}: '{key}' must be true or false, got {value!r}")
        elif key == "max-file-size":
            value = _size(key, value, origin)
        elif key == "cache-dir":
            if not isinstance(value, str) or not value:
                raise ConfigError(f"{origin}: '{key}' must be a folder name, got {value!r}")
            value = settings.project_root / value
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                raise ConfigError(f"{origin}: '{key}' must be a table of glob = [codes]")
            value = {str(glob): _string_list(f"{key}.{glob}", codes, origin)
                     for glob, codes in value.items()}
        setattr(settings, attribute, value)
        settings.sources[attribute] = origin


def _string_list(key: str, value: Any, origin: str) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{origin}: '{key}' must be a list of strings, got {value!r}")
    return list(value)


def _check_patterns(key: str, patterns: list[str], origin: str) -> None:
    for pattern in patterns:
        reason = invalid_pattern(pattern)
        if reason is not None:
            raise ConfigError(f"{origin}: '{key}' has an invalid pattern {pattern!r}: {reason}")


def _size(key: str, value: Any, origin: str) -> int:
    """Bytes, from a number of bytes or a string with a unit: "5MB", "512 KiB"."""
    match = (compiled(_SIZE, re.IGNORECASE).fullmatch(value.strip()) if isinstance(value, str)
             else None)
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    if match is not None and int(match.group(1)) > 0:
        return int(match.group(1)) * _SIZE_UNITS[match.group(2).lower()]
    raise ConfigError(f"{origin}: '{key}' must be a size in bytes or with a unit (\"5MB\"), "
                      f"got {value!r}")


def validate_version(key: str, value: Any, origin: str) -> str:
    from packaging.version import InvalidVersion, Version  # only where a version is configured

    try:
        return str(Version(str(value)))
    except InvalidVersion:
        raise ConfigError(f"{origin}: '{key}' is not a version: {value!r}") from None


def _load_toml(path: Path) -> dict[str, Any]:
    # The same pyproject.toml is asked about for every folder below it (find_config): parsed
    # once per content. A copy, so that no caller can change what the next one reads.
    data = read_bytes_or_error(path)
    return copy.deepcopy(_parse_toml(path, data))


def read_bytes_or_error(path: Path) -> bytes:
    try:
        return read_bytes(path)
    except SourceError as error:
        raise ConfigError(str(error)) from None


def toml_parser() -> Any:
    """tomllib (tomli before Python 3.11), imported when a TOML file is first read: a run with
    no configuration file does not pay for the parser."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    return tomllib


@functools.lru_cache(maxsize=64)
def _parse_toml(path: Path, data: bytes) -> dict[str, Any]:
    tomllib = toml_parser()
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8 (TOML files are): {error.reason} at byte "
                          f"{error.start}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from None


def _optlint_table(data: dict[str, Any], path: Path) -> Any:
    """`[tool.optlint]`, None when absent; `tool` that is not a table is a configuration error."""
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: 'tool' must be a table, got {tool!r}")
    return tool.get("optlint")


def invalid_pattern(pattern: str) -> str | None:
    """Why pathspec cannot read `pattern` (for a configuration error), None when it can."""
    import pathspec  # only where a pattern is checked: `optlint rule` never pays for it

    try:
        pathspec.GitIgnoreSpec.from_lines([pattern])
    except (ValueError, TypeError) as error:
        return str(error) or type(error).__name__
    return None
