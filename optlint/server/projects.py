"""Settings and a linter for each project the editor's documents belong to.

A document's project is found as `optlint check` finds it: the nearest `pyproject.toml` with a
`[tool.optlint]` table. Its linter is kept between edits, so the other files its analysis read
(an imported model class, a helper's callers) are parsed once, not on every keystroke; `refresh`
drops them when a file of the project changes on disk, and `reload` drops the settings when a
`pyproject.toml` does.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import Any

from optlint.config import ConfigError, Settings, load_settings, validate_version
from optlint.discovery import excluded_by_settings
from optlint.engine import Linter
from optlint.lint_options import lint_options
from optlint.records import record


@record(frozen=False)
class Project:
    root: Path
    settings: Settings
    linter: Linter
    problem: str | None  # a configuration error: the defaults are used until it is fixed
    # The configuration file's (size, mtime) when it was read: a client that watches no files
    # (Neovim without file watching, a `git checkout`) still gets the new settings on the next
    # lint, at the cost of one stat.
    stamp: tuple[int, int] | None = None

    def stale(self) -> bool:
        return _stamp(self.settings.config_path) != self.stamp

    def excludes(self, path: Path) -> bool:
        """Whether `exclude` / `extend-exclude` leave the file out, as `check --force-exclude`
        (what the pre-commit hooks run) does; an unsaved buffer is never left out. Whether a
        `.md` is a notebook is the editor's text's to say, not the file's on disk."""
        try:
            return path.is_file() and excluded_by_settings(path, self.settings)
        except OSError:
            return False


class Projects:
    def __init__(self) -> None:
        self._by_folder: dict[Path, Project] = {}  # a document's folder -> its project
        # What the editor's own settings say (LSP `initializationOptions`), as ruff's server
        # takes them: a configuration file for every document, preview, library versions.
        self.client = ClientSettings()
        self._by_root: dict[Path, Project] = {}

    def for_file(self, path: Path) -> Project:
        folder = path.parent
        project = self._by_folder.get(folder)
        if project is not None and project.stale():
            self.reload()
            project = None
        elif project is not None and project.linter.read_files_changed():
            # A model file changed under the editor (a `git checkout`, another tool) and the
            # client reported nothing: forget what the analysis read, as a watcher would.
            project.linter = Linter(project.linter.options)
        if project is None:
            project = self._by_folder[folder] = self._load(folder)
        return project

    def _load(self, folder: Path) -> Project:
        problem = None
        try:
            settings = load_settings(self.client.configuration, start=folder)
            self.client.apply(settings)
            options = lint_options(settings)
        except ConfigError as error:
            problem = str(error)
            settings = Settings(project_root=_root_without_config(folder))
            options = lint_options(settings)
        known = self._by_root.get(settings.project_root)
        if known is not None and known.problem == problem:
            return known  # another folder of a project already loaded: share its index
        project = Project(settings.project_root, settings, Linter(options), problem,
                          _stamp(settings.config_path))
        self._by_root[project.root] = project
        return project

    def reload(self) -> None:
        """Forget every project's settings (a `pyproject.toml` changed)."""
        self._by_folder.clear()
        self._by_root.clear()

    def refresh(self, changed: Path) -> bool:
        """Forget what the analysis read from other files of the project `changed` is in;
        whether a project held it (its open documents then need linting again)."""
        resolved = changed.resolve()
        held = False
        for project in self._by_root.values():  # nested projects: each may read the file
            if project.root in resolved.parents:
                project.linter = Linter(project.linter.options)
                held = True
        return held


def _stamp(config: Path | None) -> tuple[int, int] | None:
    try:
        status = config.stat() if config is not None else None
    except OSError:
        return None
    return (status.st_size, status.st_mtime_ns) if status is not None else None


def _root_without_config(folder: Path) -> Path:
    """The project root `check` would use if the configuration it found were not broken."""
    for candidate in [folder.resolve(), *folder.resolve().parents]:
        if (candidate / "pyproject.toml").is_file():
            return candidate
    return folder.resolve()


@record(frozen=False)
class ClientSettings:
    """The editor's settings for optlint, from `initializationOptions` (`configuration`: a
    configuration file used for every document; `preview`; `optaxVersion`, `equinoxVersion`,
    `jaxVersion`), applied over each document's own configuration; and `backgroundCharacters`,
    the length above which a document is checked in a worker of its own (the server's setting)."""

    configuration: Path | None = None
    preview: bool | None = None
    versions: dict[str, str] = field(default_factory=dict)
    # About 1,500 lines of Python: a few seconds of analysis on a slow machine.
    background_characters: int = 64 * 1024

    @classmethod
    def read(cls, options: Any) -> ClientSettings:
        """The settings from the client's options; what is not understood is ignored, never
        an error that would stop the server (raises ConfigError for a bad value)."""
        found = cls()
        if not isinstance(options, dict):
            return found
        nested = options.get("settings")
        if isinstance(nested, dict):  # some clients nest them
            options = nested
        configuration = options.get("configuration")
        if isinstance(configuration, str) and configuration:
            found.configuration = Path(configuration).expanduser()
        if isinstance(options.get("preview"), bool):
            found.preview = options["preview"]
        for library in ("optax", "equinox", "jax"):
            version = options.get(f"{library}Version")
            if isinstance(version, str) and version:
                found.versions[library] = validate_version(f"{library}Version", version,
                                                           "the editor's settings")
        threshold = options.get("backgroundCharacters")
        if threshold is not None:
            # bool is an int in Python: `true` is not a length.
            if not isinstance(threshold, int) or isinstance(threshold, bool) or threshold < 0:
                raise ConfigError(f"backgroundCharacters in the editor's settings must be a "
                                  f"whole number of characters, not {threshold!r}")
            found.background_characters = threshold
        return found

    def apply(self, settings: Settings) -> None:
        if self.preview is not None:
            settings.preview = self.preview
            settings.sources["preview"] = "the editor's settings"
        for library, version in self.versions.items():
            setattr(settings, f"{library}_version", version)
            settings.sources[f"{library}_version"] = "the editor's settings"
