"""Test data fetched from its publisher rather than committed (no third-party file is committed
here): each is pinned by URL and sha256 and kept in a cache outside the repository,
`~/.cache/optlint-test/` (or `$OPTLINT_TEST_CACHE`). A test that needs one where the network is
not reachable skips with the reason. `python tests/fetched_data.py` fetches them all ahead (CI
does, best effort)."""

from __future__ import annotations

import hashlib
import os
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path

CACHE = Path(os.environ.get("OPTLINT_TEST_CACHE") or "~/.cache/optlint-test").expanduser()


@dataclass(frozen=True)
class Fetched:
    name: str  # the file's name in the cache
    url: str
    sha256: str
    about: str

    @property
    def path(self) -> Path:
        return CACHE / self.name

    def read(self) -> bytes:
        """The pinned bytes, fetched into the cache if they are not there yet. Raises OSError
        when they cannot be fetched, ValueError when what was fetched (or cached) is not them."""
        if not self.path.is_file():
            with urllib.request.urlopen(self.url, timeout=30) as response:
                data = response.read()
            self._check(data, self.url)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.path.with_suffix(".partial")
            partial.write_bytes(data)
            partial.replace(self.path)
        data = self.path.read_bytes()
        self._check(data, str(self.path))
        return data

    def _check(self, data: bytes, where: str) -> None:
        found = hashlib.sha256(data).hexdigest()
        if found != self.sha256:
            raise ValueError(f"{where}: sha256 {found}, expected {self.sha256} (the pinned "
                             f"{self.about}); delete it to fetch it again")


# The OASIS SARIF 2.1.0 schema (errata 01, the version GitHub code scanning validates against), at
# the commit of the OASIS technical committee's repository that last changed it.
SARIF_SCHEMA = Fetched(
    "sarif-schema-2.1.0.json",
    "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/"
    "a560296ca8c921f3bdb8d4a8db57ab83dae968a7/sarif-2.1/schema/sarif-schema-2.1.0.json",
    "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e",
    "OASIS SARIF 2.1.0 JSON schema")

EVERY = [SARIF_SCHEMA]


def main() -> int:
    failed = 0
    for data in EVERY:
        try:
            data.read()
            print(f"{data.path}: ok")
        except (OSError, ValueError) as error:
            print(f"{data.name}: not fetched: {error}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
