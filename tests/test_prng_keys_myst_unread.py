"""OPT020 in a MyST Markdown notebook (`.md`), whose names, as a `.ipynb` notebook's, do not
outlive its last cell: a notebook is run, not imported. A draw whose result no later cell reads
reaches no result (issue #25's labelling rule), so drawing again from its key is no reuse there;
read in a later cell, it is. Before, a `.md` notebook was walked as an importable module, whose
names an importer may read (learned_optimization's no_dependency_learned_optimizer.md, cells 36
and 62, FP by run, where the `.ipynb` twin was already quiet)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import opt020_findings

FRONT = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---
"""
CELLS = ["import jax\nkey = jax.random.PRNGKey(0)\n",
         "warmup = jax.random.normal(key, (3,))\n",
         "sample = jax.random.normal(key, (3,))\nsample\n"]
READ_LATER = "print(warmup)\n"


def myst(cells: list[str]) -> str:
    return FRONT + "\n" + "\n".join(f"```{{code-cell}} ipython3\n{code}```\n" for code in cells)


def ipynb(cells: list[str]) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "execution_count": None, "metadata": {},
                                  "outputs": [], "source": code.splitlines(keepends=True)}
                                 for code in cells],
                       "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
                       "nbformat": 4, "nbformat_minor": 5})


def test_a_draw_no_later_cell_reads_is_no_draw_in_either_kind(tmp_path: Path) -> None:
    assert opt020_findings(tmp_path, "demo.md", myst(CELLS)) == []
    assert opt020_findings(tmp_path, "demo.ipynb", ipynb(CELLS)) == []


def test_a_draw_a_later_cell_reads_is_reused_in_either_kind(tmp_path: Path) -> None:
    found_md = opt020_findings(tmp_path, "demo.md", myst([*CELLS, READ_LATER]))
    found_nb = opt020_findings(tmp_path, "demo.ipynb", ipynb([*CELLS, READ_LATER]))
    assert len(found_md) == 1 and len(found_nb) == 1
    assert found_md[0]["message"] == found_nb[0]["message"]
    assert "normal" in found_md[0]["message"]
