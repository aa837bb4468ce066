"""A key consumed on some paths only (in one branch of an `if`, in `f(key) if test else x`, in a
`try` that may fail), then consumed on every path after (held-out set 8: imalsky/vulcan_exojax_run
a5a97e1, `step = tune_step_size(pipe, key) if (cfg.mcmc_auto_tune and not cfg.mcmc_stage_adapt)
else ...`, the tuner drawing its prior sample and MALA noise from `key`, then the SMC loop's
`key, sub = jax.random.split(key)` for the first resampling: with the tuner on, the first stage
replays the tuner's noise).

Where the branch runs, the two draws share a key, and JAX's checker raises; whether it runs is
the program's input (here a configuration field off by default), which the analysis cannot
tell. `KeyFlow` does not report a consumption after a maybe-consumption (`if kind == "a": ...`
then `if kind == "b": ...` are exclusive more often than not); a later consumption on every
path is no such pair: it is a reuse on the path that takes the branch, for `--preview`.

"On every path": the statement is reached from the function's body through loops and `with`
blocks only (no `if`, `try`, `match` on the way), and the call is no part of a conditional
expression, a boolean operation's right side, a lambda or a comprehension."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from optlint.analysis.key_step_loops import names_bound_within
from optlint.analysis.prng_keys import Reuse
from optlint.analysis.walk import child_nodes, nodes_below

SOME_PATHS = ("`{name}` was consumed on some paths only (a branch, a conditional expression or a "
              "`try`), which the analysis cannot tell run: a reuse where they do")


def some_paths_only(reuse: Reuse) -> bool:
    """`reuse` was recorded here, after a branch (a proven reuse of its call replaces it)."""
    return reuse.second.unseen.endswith(SOME_PATHS[-30:])


def after_every_branch(body: Sequence[cst.BaseStatement] | None,
                       statement: cst.BaseStatement | None, call: cst.Call,
                       first: cst.Call, name: str) -> bool:
    """`call`, of `statement`, runs on every path through `body` that reaches the statement's
    loop nesting, and no loop between `first` (the earlier consumption) and it binds `name`
    anew (the pair would then need the loop not to run)."""
    if body is None or statement is None or not _reached(body, statement):
        return False
    return _unconditional(statement, call) and not _rebound_between(body, first, call, name)


def _rebound_between(body: Sequence[cst.BaseStatement], first: cst.Call, call: cst.Call,
                     name: str) -> bool:
    """A loop of `body`'s own statements, after the one holding `first` and before the one
    holding `call`, binds the name the key is followed under."""
    base = name.split(".", 1)[0]
    start = next((at for at, node in enumerate(body) if _holds(node, first)), None)
    end = next((at for at, node in enumerate(body) if _holds(node, call)), None)
    if start is None or end is None:
        return False
    return any(isinstance(node, (cst.For, cst.While)) and base in names_bound_within(node)
               for node in body[start + 1:end])


def _holds(root: cst.CSTNode, target: cst.CSTNode) -> bool:
    return any(node is target for node in nodes_below(root))


def _reached(body: Sequence[cst.BaseStatement], statement: cst.BaseStatement) -> bool:
    for current in body:
        if current is statement:
            return True
        if isinstance(current, (cst.For, cst.While, cst.With)):
            inner = current.body
            if isinstance(inner, cst.IndentedBlock) and _reached(inner.body, statement):
                return True
    return False


def _unconditional(root: cst.CSTNode, call: cst.Call) -> bool:
    """`call` is under `root` through no conditional part of an expression."""
    pending: list[tuple[cst.CSTNode, bool]] = [(root, True)]
    while pending:
        node, sure = pending.pop()
        if node is call:
            return sure
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)) and node is not root:
            continue
        if isinstance(node, (cst.IfExp, cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp,
                             cst.GeneratorExp)):
            pending.extend((child, False) for child in child_nodes(node))
        elif isinstance(node, cst.BooleanOperation):
            pending.append((node.left, sure))
            pending.append((node.right, False))
        else:
            pending.extend((child, sure) for child in child_nodes(node))
    return False
