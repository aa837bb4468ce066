"""Whether a statement of a function runs with the configuration the analysis sees:
`parts.append(add_decayed_weights(wd))` under `if cfg.weight_decay > 0:` does not when the
config's default is 0.0 (a flag may still turn it on: the part is then only possible), and does
when the default is 0.1.

Only `if` tests are read (a loop body or a `try` block counts as run, as the inference has always
taken them), and a test the analysis cannot read counts as taken, as before. A test is known as in
`branches` (literals compared), plus numeric comparisons and the truth of a known literal (`if
cfg.max_grad_norm:` with the class default 1.0 or None).
"""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst

from optlint.analysis.branches import Evaluate, known_truth
from optlint.analysis.walk import parent_map


def skipped_by_default(root: cst.CSTNode, node: cst.CSTNode, unless_within: cst.CSTNode | None,
                       evaluate: Evaluate,
                       parents: Mapping[int, cst.CSTNode] | None = None) -> str | None:
    """The test of an `if` between `root` and `node` known to take the other side than
    `node`'s (as written, `not (...)` when `node` is in its `else`), or None when `node` runs
    whenever the code around it does. An `if` that also holds `unless_within` (the list's own
    assignment) is not counted: both run or neither does.

    `parents`: the parent map (`walk.parent_map`) of a tree holding `root`, where the caller
    asks about many nodes of one file (built from `root` when not given)."""
    if parents is None:
        parents = parent_map(root)
    for test, on_true in _guards(root, node, unless_within, parents):
        if known_truth(test, evaluate) is (not on_true):
            code = cst.Module([]).code_for_node(test)
            return code if on_true else f"not ({code})"
    return None


def _guards(root: cst.CSTNode, node: cst.CSTNode, unless_within: cst.CSTNode | None,
            parents: Mapping[int, cst.CSTNode]) -> list[tuple[cst.BaseExpression, bool]]:
    """The `if` tests that `node` sits under, with the side it is on (True: the body)."""
    above = _ancestors(node, parents, root)
    shared = set(map(id, _ancestors(unless_within, parents, root))) \
        if unless_within is not None else set()
    found: list[tuple[cst.BaseExpression, bool]] = []
    for child, parent in zip(above, above[1:], strict=False):
        if isinstance(parent, cst.If) and id(parent) not in shared and child is not parent.test:
            found.append((parent.test, child is parent.body))
    return found


def _ancestors(node: cst.CSTNode, parents: Mapping[int, cst.CSTNode],
               root: cst.CSTNode) -> list[cst.CSTNode]:
    """`node`, its parent, and so on up to `root`; only `node` when it is not below `root`."""
    chain = [node]
    while chain[-1] is not root and id(chain[-1]) in parents:
        chain.append(parents[id(chain[-1])])
    return chain if chain[-1] is root else [node]
