"""MyST Markdown notebooks for the tests: front matter declaring a Python notebook, code cells,
and a small training notebook with one finding (`optimizer.init(model)` of an Equinox model)
and its fixed line."""

from __future__ import annotations

from pathlib import Path

FRONT = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
    format_version: 0.13
    jupytext_version: 1.16.1
kernelspec:
  display_name: Python 3 (ipykernel)
  language: python
  name: python3
---
"""
IMPORTS = "import equinox as eqx\nimport jax\nimport optax\n"
MODEL = "model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))\n"
TRAIN = "optimizer = optax.adam(1e-3)\nopt_state = optimizer.init(model)\nprint(opt_state)\n"
FIXED_TRAIN_LINE = "opt_state = optimizer.init(eqx.filter(model, eqx.is_array))\n"


def cell(code: str, options: str = "", lexer: str = "ipython3") -> str:
    return f"```{{code-cell}} {lexer}\n{options}{code}```\n"


def notebook(*blocks: str, front: str = FRONT) -> str:
    return front + "\n" + "\n".join(blocks)


def write(folder: Path, text: str, name: str = "train.md", newline: str = "\n") -> Path:
    path = folder / name
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    return path


def findings(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.strip()]


TRAINING = notebook("# Training\n", cell(IMPORTS, ":tags: [hide-output]\n\n"),
                    "Now a model, and a note.\n\n+++\n\nAnd the training.\n",
                    cell(MODEL, "---\ntags: [remove-input]\n---\n"), cell(TRAIN))
