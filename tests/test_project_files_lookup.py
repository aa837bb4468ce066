"""Where an import leads (optlint/analysis/project_files.py): a run's remembering lookup, which
skips folders whose listing lacks a name, finds the same files as asking the file system for each
candidate, which the language server does."""

from __future__ import annotations

from pathlib import Path

from optlint.analysis.project_files import ProjectFiles

FILES = {
    "train.py": "",
    "src/pkg/__init__.py": "",
    "src/pkg/models.py": "",
    "src/pkg/layers/__init__.py": "",
    "src/pkg/layers/attention.py": "",
    "src/pkg/namespace/only.py": "",  # a folder without __init__.py
    "src/pkg/Mixed.py": "",
    "tools/helpers.py": "",
    "tools/deep/inner/run.py": "",
    "tools/deep/inner/folder.py/readme.txt": "",  # a folder named like a module file
}
MODULES = ["pkg", "pkg.models", "pkg.layers", "pkg.layers.attention", "pkg.namespace.only",
           "pkg.namespace", "pkg.Mixed", "pkg.mixed", "helpers", "tools.helpers", "deep.inner",
           "deep.inner.run", "inner.folder", "jaxlike", "pkg.missing.deeper", ".", ".run",
           "..inner", "...helpers", ".folder", "src.pkg.models", "train"]


def test_remembered_lookups_find_what_asking_each_file_finds(tmp_path: Path) -> None:
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    importers = [str(tmp_path / name) for name in FILES if name.endswith(".py")
                 and (tmp_path / name).is_file()] + [None]
    remembering = ProjectFiles(tmp_path, remember=True)
    asking = ProjectFiles(tmp_path)
    found = 0
    for importer in importers:
        for module in MODULES:
            expected = asking.candidate_files(module, importer)
            assert remembering.candidate_files(module, importer) == expected, (module, importer)
            found += len(expected)
    assert found > 20  # the lookups found files, not only nothing
