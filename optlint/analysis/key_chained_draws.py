"""A second draw made from values the first draw gave: `x = normal(PRNGKey(0), ...)`, then
`labels = bernoulli(f(x)).sample(seed=PRNGKey(0))`. The code builds one joint sample (features,
then labels given them), whose parts are meant to have independent noise; drawn from one literal
seed, the second part's noise is the first's bits again (the labels are a function of the
features' own random numbers). Code comparing two samplers on one key, or taking a finite
difference on the same noise, gives both draws the same inputs; it never feeds the first draw's
values into the second."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from optlint.analysis.key_syntax import target_names
from optlint.analysis.prng_keys import SAMPLERS, Consumption
from optlint.analysis.walk import child_nodes

# Why such a reuse is proven, for the message.
CONDITIONED = ("the second draw is made from `{name}`, computed from the first draw's values: "
               "the two are parts of one sample, meant to have independent noise")
# Library calls that draw a sample, besides `jax.random`'s samplers: distributions' methods
# (numpyro, distrax, TFP, brax). Not an inference run given the data (`mcmc.run(key, data)`)
# nor a model's `init`: those are no part of the sample.
SAMPLE_METHODS = frozenset({"sample", "rvs", "sample_and_log_prob",
                            "experimental_sample_and_log_prob", "sample_no_postprocessing"})


def conditioned_name(span: Sequence[cst.BaseStatement], first: Consumption,
                     second: Consumption) -> str:
    """The name computed from the first draw's result that the second draw reads besides its
    key (its object, `bernoulli(probs).sample`, or its arguments), following plain assignments
    of the straight statements `span` runs from the first draw's to the second's; '' when there
    is none, or either call draws no sample."""
    if len(span) < 2 or not (_samples(first) and _samples(second)):
        return ""
    *before, last = span
    derived: set[str] = set()
    for statement in before:
        for value, targets in _assignments(statement):
            if _contains(value, first.call) or _read(value, derived):
                derived |= targets
    if not derived:
        return ""
    return _read_name(second.call, derived, skip=second.key) or ""


def _samples(use: Consumption) -> bool:
    name = use.how.rsplit(".", 1)[-1]
    return use.library and use.kind == "draw" and (
        name in SAMPLE_METHODS or (name in SAMPLERS and name != "split"))


def _assignments(statement: cst.BaseStatement
                 ) -> list[tuple[cst.BaseExpression, set[str]]]:
    """(value, names bound) of each plain assignment of a simple statement line."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return []
    found = []
    for small in statement.body:
        if isinstance(small, cst.Assign):
            names = {name for target in small.targets for name in target_names(target.target)}
            found.append((small.value, names))
        elif isinstance(small, (cst.AnnAssign, cst.AugAssign)) and small.value is not None:
            found.append((small.value, set(target_names(small.target))))
    return found


def _contains(node: cst.CSTNode, wanted: cst.CSTNode) -> bool:
    if node is wanted:
        return True
    return any(_contains(child, wanted) for child in child_nodes(node))


def _read(node: cst.CSTNode, names: set[str]) -> bool:
    return bool(names) and _read_name(node, names) is not None


def _read_name(node: cst.CSTNode, names: set[str], skip: cst.CSTNode | None = None) -> str | None:
    """The first of `names` that `node` reads (not inside `skip`, nor an attribute's name)."""
    if node is skip:
        return None
    if isinstance(node, cst.Name):
        return node.value if node.value in names else None
    if isinstance(node, cst.Attribute):
        return _read_name(node.value, names, skip)
    if isinstance(node, cst.Arg) and node.keyword is not None:
        return _read_name(node.value, names, skip)
    for child in child_nodes(node):
        read = _read_name(child, names, skip)
        if read is not None:
            return read
    return None
