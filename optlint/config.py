"""Settings from `[tool.optlint]` in the nearest pyproject.toml, validated, with their sources."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packaging.version import InvalidVersion, Version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DEFAULT_EXCLUDE = [".git", ".venv", "venv", "__pycache__", "build", "dist", "site-packages",
                   ".tox", "node_modules"]


class ConfigError(Exception):
    """A configuration problem, reported as one line and exit code 2."""


@dataclass
class Settings:
    select: list[str] = field(default_factory=lambda: ["OPT"])
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    exclude: list[str] = field(default_factory=lambda: list(DEFAULT_EXCLUDE))
    extend_exclude: list[str] = field(default_factory=list)
    respect_gitignore: bool = True
    # Opt-in findings the analysis could not prove (ruff's word for opt-in behaviour).
    preview: bool = False
    optax_version: str | None = None
    equinox_version: str | None = None
    jax_version: str | None = None
    project_root: Path = field(default_factory=Path.cwd)
    config_path: Path | None = None
    # setting name -> where its value came from ("default", the config file, "command line")
    sources: dict[str, str] = field(default_factory=dict)

    def source_of(self, name: str) -> str:
        return self.sources.get(name, "default")

    def configured_versions(self) -> dict[str, str | None]:
        return {"optax": self.optax_version, "equinox": self.equinox_version,
                "jax": self.jax_version}


_LIST_KEYS = {"select", "extend-select", "ignore", "exclude", "extend-exclude"}
_VERSION_KEYS = {"optax-version", "equinox-version", "jax-version"}
_BOOL_KEYS = {"respect-gitignore", "preview"}
KNOWN_KEYS = _LIST_KEYS | _VERSION_KEYS | _BOOL_KEYS | {"per-file-ignores"}


def find_config(start: Path) -> tuple[Path | None, Path]:
    """The nearest pyproject.toml with a [tool.optlint] table, and the project root."""
    nearest_pyproject: Path | None = None
    for folder in [start.resolve(), *start.resolve().parents]:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            nearest_pyproject = nearest_pyproject or candidate
            if "optlint" in _load_toml(candidate).get("tool", {}):
                return candidate, folder
    return None, (nearest_pyproject.parent if nearest_pyproject else start.resolve())


def load_settings(config_path: Path | None = None, start: Path | None = None) -> Settings:
    if config_path is not None:
        if not config_path.is_file():
            raise ConfigError(f"config file not found: {config_path}")
        data = _load_toml(config_path)
        table = data.get("tool", {}).get("optlint")
        if table is None and config_path.name != "pyproject.toml":
            table = data  # a dedicated optlint.toml holds the keys at the top level
        root = config_path.resolve().parent
    else:
        config_path, root = find_config(start or Path.cwd())
        table = _load_toml(config_path).get("tool", {}).get("optlint") if config_path else None
    settings = Settings(project_root=root, config_path=config_path)
    if table:
        apply_table(settings, table, str(config_path))
    return settings


def apply_table(settings: Settings, table: Any, origin: str) -> None:
    if not isinstance(table, dict):
        raise ConfigError(f"{origin}: [tool.optlint] must be a table")
    for key, value in table.items():
        if key not in KNOWN_KEYS:
            raise ConfigError(f"{origin}: unknown key '{key}' in [tool.optlint]")
        attribute = key.replace("-", "_")
        if key in _LIST_KEYS:
            value = _string_list(key, value, origin)
        elif key in _VERSION_KEYS:
            value = _version(key, value, origin)
        elif key in _BOOL_KEYS:
            if not isinstance(value, bool):
                raise ConfigError(f"{origin}: '{key}' must be true or false, got {value!r}")
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


def _version(key: str, value: Any, origin: str) -> str:
    try:
        return str(Version(str(value)))
    except InvalidVersion:
        raise ConfigError(f"{origin}: '{key}' is not a version: {value!r}") from None


def _load_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror}") from None
