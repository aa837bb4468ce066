"""optlint.installed reads installed versions as importlib.metadata does, without importing it."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from optlint import installed
from optlint.installed import installed_version

DISTRIBUTIONS = sorted({dist.metadata["Name"] for dist in metadata.distributions()
                        if dist.metadata["Name"]})


@pytest.mark.parametrize("name", DISTRIBUTIONS)
def test_every_installed_distribution_has_importlib_metadatas_version(name: str) -> None:
    assert installed_version(name) == metadata.version(name)


def test_names_are_compared_as_importlib_metadata_normalises_them() -> None:
    name = next(name for name in DISTRIBUTIONS if "-" in name or "_" in name)
    assert installed_version(name.upper().replace("-", "_")) == metadata.version(name)


def test_a_missing_distribution_has_no_version() -> None:
    assert installed_version("no-such-distribution-optlint-test") is None


def test_a_folder_with_two_candidates_asks_importlib_metadata(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for version in ("1.0", "2.0"):
        info = tmp_path / f"twice-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: twice\nVersion: {version}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert installed._read_from_folders("twice") is installed._UNSURE
    assert installed_version("twice") == metadata.version("twice")


def test_the_first_folder_on_the_path_wins(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    for number in (1, 2):
        info = tmp_path / f"path{number}" / f"Shadowed_Dist-{number}.0.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Name: shadowed-dist\nVersion: {number}.0\n\nVersion: 9\n")
    monkeypatch.syspath_prepend(str(tmp_path / "path2"))
    monkeypatch.syspath_prepend(str(tmp_path / "path1"))
    assert installed_version("shadowed-dist") == "1.0" == metadata.version("shadowed-dist")


def test_reading_versions_imports_no_importlib_metadata() -> None:
    probe = ("import sys; from optlint.installed import installed_version; "
             "installed_version('libcst'); installed_version('no-such-distribution'); "
             "print('importlib.metadata' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == "False"


VERSIONS = ["0", "0.1", "0.1.7", "0.1.8", "0.2", "0.2.0", "0.2.0.0", "0.2.2", "0.2.5", "0.2.10",
            "1.0", "0.2.5rc1", "0.2.5.post1", "0.2.5+local", "0.2.5.dev0", "v0.2.5"]
SPECIFIERS = [f"{operator}{bound}" for operator in (">=", "<=", ">", "<", "==", "!=", "~=")
              for bound in ("0.2", "0.2.0", "0.2.5", "0.1.8")] + [">=0.2,<0.3", "==0.2.*"]


@pytest.mark.parametrize("specifier", SPECIFIERS)
def test_version_ranges_are_decided_as_packaging_decides_them(specifier: str) -> None:
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version

    from optlint.versions import KnownVersion, LibraryVersions

    for version in VERSIONS:
        expected = Version(version) in SpecifierSet(specifier)
        known = LibraryVersions({"optax": KnownVersion(version, "test")})
        assert known.in_range("optax", specifier) is expected, (version, specifier)


def test_a_distribution_installed_after_a_first_search_is_found(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each folder's listing is kept between searches (three libraries are asked in turn), and
    # read again once the folder has changed: a language server outlives installs.
    monkeypatch.syspath_prepend(str(tmp_path))
    assert installed_version("late-dist") is None
    info = tmp_path / "late_dist-3.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: late-dist\nVersion: 3.1\n")
    assert installed_version("late-dist") == "3.1" == metadata.version("late-dist")
