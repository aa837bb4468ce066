"""A run resolves each checked file's path once, where discovery finds it: the plan, the engine
and the project index take that answer (`Path.resolve` is a system call per path component and
~110,000 instructions of pathlib's Python; a levanter run asked it ~1,700 times)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from optlint.config import Settings
from optlint.discovery import discover
from optlint.engine import LintOptions
from optlint.pool import check_paths
from optlint.selection import Selection
from optlint.versions import LibraryVersions

FILES = {
    "pkg/__init__.py": "",
    "pkg/base.py": "import equinox as eqx\n\n\nclass Base(eqx.Module):\n    size: int\n",
    "pkg/models.py": "from pkg.base import Base\n\n\nclass Net(Base):\n    pass\n",
    "train.py": ("import optax\nimport jax\nfrom pkg.models import Net\n\n"
                 "net = Net(1)\nopt = optax.adam(1e-3)\nkey = jax.random.PRNGKey(0)\n"),
}


def test_each_checked_file_is_resolved_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    settings = Settings(project_root=tmp_path)
    resolved: dict[Path, Path] = {}
    files = discover([Path(".")], settings, resolved=resolved)
    assert len(files) == len(FILES)
    asked: Counter[str] = Counter()
    original = Path.resolve

    def counting(self: Path, strict: bool = False) -> Path:
        asked[original(self).as_posix()] += 1
        return original(self, strict)

    monkeypatch.setattr(Path, "resolve", counting)
    options = LintOptions(Selection.from_settings(settings), LibraryVersions(), tmp_path)
    results = check_paths(files, options, jobs=1, resolved=resolved)
    assert not any(result.errors for result in results)
    for name in FILES:
        assert asked[(tmp_path.resolve() / name).as_posix()] == 0, name
