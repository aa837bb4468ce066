"""The version of a distribution installed beside optlint, read from its metadata file.

`importlib.metadata` finds the same file, but importing it (with `email` and `socket` behind it)
costs 50 ms, a sixth of a warm run: every run asks for three versions (the cache's key), so the
common layout, folders of `*.dist-info` on `sys.path`, is read here directly, and anything else
(a zip or an egg on `sys.path`, another finder of distributions, two candidates in one folder)
is still asked of `importlib.metadata`.
"""

from __future__ import annotations

import importlib.machinery
import os
import re
import sys

_UNSURE = object()  # this reader cannot tell: importlib.metadata decides
_SEPARATORS = re.compile(r"[-_.]+")


def installed_version(distribution: str) -> str | None:
    """The version `importlib.metadata.version(distribution)` gives; None where it raises
    PackageNotFoundError."""
    found = _read_from_folders(distribution)
    if found is not _UNSURE:
        return found  # type: ignore[return-value]
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _normalized(name: str) -> str:
    return _SEPARATORS.sub("_", name).lower()


def _read_from_folders(distribution: str) -> object:
    """As importlib.metadata searches: `sys.path` in order, the first folder holding the
    distribution's metadata wins."""
    if any(getattr(finder, "find_distributions", None) is not None
           and finder is not importlib.machinery.PathFinder for finder in sys.meta_path):
        return _UNSURE
    wanted = _normalized(distribution)
    for entry in sys.path:
        folder = entry or "."
        try:
            listed = _metadata_entries(folder)
        except NotADirectoryError:
            return _UNSURE  # a zip file
        except OSError:
            continue  # nothing there (python311.zip often is not): importlib.metadata skips it
        if folder.endswith(".egg"):
            return _UNSURE  # an egg keeps its metadata in EGG-INFO
        matching = listed.get(wanted, [])
        if len(matching) > 1:
            return _UNSURE  # which one importlib.metadata takes depends on the folder's order
        if matching:
            return _version_in(os.path.join(folder, matching[0]))
    return None


def _version_in(info: str) -> object:
    """The `Version:` header of a metadata file (`METADATA`, `PKG-INFO`, or an `.egg-info`
    file itself)."""
    candidates = [info] if os.path.isfile(info) else [
        os.path.join(info, "METADATA"), os.path.join(info, "PKG-INFO")]
    for candidate in candidates:
        try:
            with open(candidate, encoding="utf-8", errors="replace") as stream:
                for line in stream:
                    if not line.strip():
                        break  # the headers end at the first empty line
                    if line.lower().startswith("version:"):
                        return line.split(":", 1)[1].strip() or _UNSURE
        except OSError:
            continue
        return _UNSURE  # a metadata file without a version
    return _UNSURE


# Each folder's metadata entries by the distribution's normalized name, with the folder's
# (mtime, inode, device) when it was listed. Every run asks for three versions in turn, each a
# search of the folders on `sys.path` (a site-packages of hundreds of entries): each folder is
# listed once, and again when it has changed (an entry added or removed changes its mtime).
_LISTINGS: dict[str, tuple[tuple[int, int, int], dict[str, list[str]]]] = {}


def _metadata_entries(folder: str) -> dict[str, list[str]]:
    """The `.dist-info` and `.egg-info` entries of `folder`, in its order, by normalized
    distribution name (raises OSError as `os.listdir`)."""
    status = os.stat(folder)
    stamp = (status.st_mtime_ns, status.st_ino, status.st_dev)
    known = _LISTINGS.get(folder)
    if known is not None and known[0] == stamp:
        return known[1]
    by_name: dict[str, list[str]] = {}
    for name in os.listdir(folder):
        if name.lower().endswith((".dist-info", ".egg-info")):
            by_name.setdefault(_normalized(name.rsplit(".", 1)[0].split("-", 1)[0]),
                               []).append(name)
    _LISTINGS[folder] = (stamp, by_name)
    return by_name
