"""The calls whose value a notebook shows: a call made as the last statement of a code cell,
not followed by `;`, is displayed by Jupyter (IPython's `last_expr`), so its result is read
even though the program drops it.

OPT020 takes a call made as a statement for a warm-up, its result thrown away
(`key_flow.KeyFlow.discarded`); at the end of a cell it is the cell's output
(learned_optimization's no_dependency_learned_optimizer notebook, cell 25:
`meta_loss(meta_params, key, batches)`, its value the cell's printed loss). A `;` after it
keeps the cell quiet (evojax's `run_sim(key, ...);` warm-up), and a compound statement ending
a cell shows nothing.

The notebook's program joins its cells with a boundary comment line (`optlint.notebook`),
which libcst puts among the leading lines of the first statement of the next cell.
"""

from __future__ import annotations

import libcst as cst

from optlint.notebook import CELL_BOUNDARY, MYST_SUFFIX, NOTEBOOK_SUFFIX


def shown_calls(module: cst.Module, filename: str) -> frozenset[int]:
    """The calls (by id) that end a cell of the notebook `module` is the program of, each made
    as a statement with no `;` after it; none in a Python file (nothing is shown there)."""
    if not filename.endswith((NOTEBOOK_SUFFIX, MYST_SUFFIX)):
        return frozenset()
    body = module.body
    shown = set()
    for at, statement in enumerate(body):
        cell_ends = at + 1 == len(body) or _starts_cell(body[at + 1])
        if cell_ends and isinstance(statement, cst.SimpleStatementLine):
            last = statement.body[-1]
            if (isinstance(last, cst.Expr) and isinstance(last.value, cst.Call)
                    and not isinstance(last.semicolon, cst.Semicolon)):
                shown.add(id(last.value))
    return frozenset(shown)


def _starts_cell(statement: cst.BaseStatement) -> bool:
    return any(line.comment is not None and line.comment.value.startswith(CELL_BOUNDARY)
               for line in getattr(statement, "leading_lines", ()))
