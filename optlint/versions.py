"""Which Optax, Equinox and JAX versions the checked code runs with, and where we learnt it.

In order: the configuration, the distribution installed beside optlint (read from its metadata,
never imported) or, for `optlint verify --python`, the one installed in that interpreter, exact
pins in the project's own files, else unknown (any version).
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path

from optlint.config import toml_parser
from optlint.installed import installed_version
from optlint.patterns import compiled
from optlint.records import record
from optlint.source import SourceError, read_bytes

LIBRARIES = ("optax", "equinox", "jax")
# `name[extras] == version`, then the end, a marker (`;`), a comment, or a line continuation.
# This module's patterns are compiled when first used (`optlint.patterns`): a run whose
# libraries are installed reads no pins.
_REQUIREMENT = (
    r"^\s*([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?\s*===?\s*([A-Za-z0-9_.+!\-]+)\s*(?:$|[;#\\])")


@record
class KnownVersion:
    version: str | None
    source: str  # "configuration", "installed", "uv.lock", ... or "unknown"


@record
class LibraryVersions:
    known: dict[str, KnownVersion] = field(default_factory=dict)

    def get(self, library: str) -> KnownVersion:
        return self.known.get(library, KnownVersion(None, "unknown"))

    def in_range(self, library: str, specifier: str) -> bool | None:
        """Whether the known version of `library` is in `specifier`; None when unknown."""
        version = self.get(library).version
        if version is None:
            return None
        plain = _plain_comparison(version, specifier)
        if plain is not None:
            return plain
        # packaging (30 ms to import) for anything but a plain release against one bound.
        from packaging.specifiers import SpecifierSet
        from packaging.version import InvalidVersion, Version

        try:
            return Version(version) in SpecifierSet(specifier)
        except InvalidVersion:
            return None

    def describe(self, library: str) -> str:
        known = self.get(library)
        if known.version is None:
            return f"{library} version unknown"
        return f"your {library}: {known.version} (from {known.source})"


_RELEASE = r"\d+(?:\.\d+)*"
_BOUND = r"(>=|<=|>|<|==)\s*(\d+(?:\.\d+)*)"
_COMPARE = {">=": tuple.__ge__, "<=": tuple.__le__, ">": tuple.__gt__, "<": tuple.__lt__,
            "==": tuple.__eq__}


def _plain_comparison(version: str, specifier: str) -> bool | None:
    """`version in SpecifierSet(specifier)` as packaging decides it, where both are plain
    releases (`0.2.8`, `>=0.2.5`): release numbers compared as tuples, padded with zeros. None
    for anything else (pre- and post-releases, local versions, several bounds, wildcards)."""
    bound = compiled(_BOUND).fullmatch(specifier.strip())
    if compiled(_RELEASE).fullmatch(version) is None or bound is None:
        return None
    mine = [int(part) for part in version.split(".")]
    theirs = [int(part) for part in bound.group(2).split(".")]
    width = max(len(mine), len(theirs))
    return _COMPARE[bound.group(1)](tuple(mine + [0] * (width - len(mine))),
                                    tuple(theirs + [0] * (width - len(theirs))))


def resolve_versions(configured: dict[str, str | None], project_root: Path,
                     sources: dict[str, str] | None = None,
                     installed: dict[str, KnownVersion] | None = None) -> LibraryVersions:
    """`sources` names where each configured version came from ("command line"), by library.
    `installed`: what another interpreter, the one the code will run with, has installed; it
    replaces optlint's own (a library missing there goes on to the pins, not to ours)."""
    pins: dict[str, KnownVersion] | None = None
    known: dict[str, KnownVersion] = {}
    for library in LIBRARIES:
        if configured.get(library):
            source = (sources or {}).get(library, "configuration")
            known[library] = KnownVersion(configured[library], source)
            continue
        there = (installed.get(library) if installed is not None
                 else KnownVersion(_installed_version(library), "installed"))
        if there is not None and there.version is not None:
            known[library] = there
            continue
        if pins is None:
            pins = project_pins(project_root)
        known[library] = pins.get(library, KnownVersion(None, "unknown"))
    return LibraryVersions(known)


def _installed_version(library: str) -> str | None:
    return installed_version(library)


def project_pins(root: Path) -> dict[str, KnownVersion]:
    """Exact versions pinned in lock files and requirement files; lock files win."""
    found: dict[str, KnownVersion] = {}
    for requirements in sorted(root.glob("requirements*.txt")):
        for line in _read_lines(requirements):
            match = compiled(_REQUIREMENT).match(line)
            if match:
                _remember(found, match.group(1), match.group(2), requirements.name)
    project = _read_toml(root / "pyproject.toml").get("project")
    dependencies = project.get("dependencies") if isinstance(project, dict) else None
    for requirement in dependencies if isinstance(dependencies, list) else []:
        match = compiled(_REQUIREMENT).match(str(requirement))
        if match:
            _remember(found, match.group(1), match.group(2), "pyproject.toml")
    for lock_name in ("pdm.lock", "poetry.lock", "uv.lock"):
        packages = _read_toml(root / lock_name).get("package")
        for package in packages if isinstance(packages, list) else []:
            if isinstance(package, dict) and "name" in package and "version" in package:
                _remember(found, str(package["name"]), str(package["version"]), lock_name)
    return found


def _remember(found: dict[str, KnownVersion], name: str, version: str, source: str) -> None:
    """Keep a pin of one of our libraries; one that is not a version (`optax===garbage!!`) is
    no pin: the version stays unknown, which every rule reads as "any version"."""
    name = name.lower().replace("_", "-")
    from packaging.version import InvalidVersion, Version

    try:
        Version(version)
    except InvalidVersion:
        return
    if name in LIBRARIES:
        found[name] = KnownVersion(version, source)


# Pins are a hint, never a reason to stop: a file that cannot be read (a FIFO, not UTF-8, not
# TOML) gives no pins.
def _read_lines(path: Path) -> list[str]:
    try:
        return read_bytes(path).decode("utf-8", errors="replace").splitlines()
    except SourceError:
        return []


def _read_toml(path: Path) -> dict:  # type: ignore[type-arg]
    try:
        return toml_parser().loads(read_bytes(path).decode("utf-8"))
    except (SourceError, ValueError):  # ValueError: UnicodeDecodeError and TOMLDecodeError
        return {}
