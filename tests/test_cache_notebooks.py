"""A notebook's result is cached as a file's is, and follows the project files its cells import."""

from __future__ import annotations

import json
from pathlib import Path

from test_cache import MODELS_ARRAYS_ONLY, MODELS_WITH_FUNCTION, TRAIN, _age, check, project


def notebook(*cells: str) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "source": cell.splitlines(keepends=True),
                                  "metadata": {}, "outputs": [], "execution_count": None}
                                 for cell in cells],
                       "metadata": {"language_info": {"name": "python"}},
                       "nbformat": 4, "nbformat_minor": 5})


def test_a_notebook_is_read_from_the_cache(tmp_path: Path) -> None:
    root = project(tmp_path, {"models.py": MODELS_WITH_FUNCTION, "train.py": TRAIN,
                              "nb.ipynb": notebook(TRAIN)})
    _age(root)
    first, first_cache = check(root)
    assert first == ["nb.ipynb:cell 1:7:35:", "train.py:7:35: OPT003"]
    assert first_cache.startswith("cache: 0 of 3")
    assert check(root) == (first, "cache: 3 of 3 files unchanged since the last run")


def test_an_edit_of_a_module_a_notebook_imports_reaches_the_notebook(tmp_path: Path) -> None:
    root = project(tmp_path, {"models.py": MODELS_WITH_FUNCTION,
                              "nb.ipynb": notebook("import jax\nimport optax\n", TRAIN)})
    _age(root)
    assert check(root)[0] == ["nb.ipynb:cell 2:7:35:"]
    (root / "models.py").write_text(MODELS_ARRAYS_ONLY)
    _age(root)
    findings, cache_line = check(root)
    assert findings == [] and cache_line.startswith("cache: 0 of 2")


def test_an_edited_notebook_is_analysed_again(tmp_path: Path) -> None:
    root = project(tmp_path, {"models.py": MODELS_WITH_FUNCTION, "nb.ipynb": notebook(TRAIN)})
    _age(root)
    assert check(root)[0] == ["nb.ipynb:cell 1:7:35:"]
    (root / "nb.ipynb").write_text(notebook(TRAIN.replace("init(model)", "init(eqx_free)")))
    findings, cache_line = check(root)
    assert findings == [] and cache_line.startswith("cache: 1 of 2")
