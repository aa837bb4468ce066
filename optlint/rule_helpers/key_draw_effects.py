"""What two consumptions of one key draw alike, said in OPT020's message: identical samples,
correlated ones, or (for consumers whose draws the analysis does not read, a project function, a
layer) either.

Measured on jax 0.10.2 (the default threefry, partitionable), /work/bench-venv, typed keys:
`normal(k, (3,))` twice gives the same values, `normal(k, (3,))` is `normal(k, (5,))[:3]` and
`normal(k, (2, 3)).ravel()` is `normal(k, (6,))`; `randint(k, (4,), 0, 10)` is the start of
`randint(k, (6,), 0, 10)`; `split(k, 3)` is `split(k, 5)[:3]`; `uniform(k)` and `normal(k)` of one
shape have correlation 0.976 over 1000 draws (normal transforms the same uniform bits)."""

from __future__ import annotations

import libcst as cst

from optlint.analysis.library_names import JAX_RANDOM
from optlint.analysis.prng_keys import Consumption
from optlint.context import RuleContext

SPLIT_AND_DRAW = ("the draws are correlated, not identical: the sample comes from the same bits "
                  "as the split keys")
EITHER = "identical or correlated samples, the same dropout mask"


def draw_effect(ctx: RuleContext, first: Consumption, second: Consumption) -> str:
    """How the two draws from one key relate, for the message's closing parenthesis."""
    kinds = {first.kind, second.kind}
    if "split" in kinds and kinds != {"split"}:
        return SPLIT_AND_DRAW
    sampler, other = _sampler(ctx, first), _sampler(ctx, second)
    if sampler is None or other is None:
        return EITHER  # what a project function or a layer draws from the key is not read
    if sampler != other:
        return (f"`{sampler}` and `{other}` turn the same random bits into their samples: "
                f"correlated samples, not independent ones")
    if _same_arguments(first, second):
        return ("the same keys from the same arguments: identical keys" if kinds == {"split"}
                else "the same sampler with the same arguments as written: identical samples")
    if kinds == {"split"}:
        return "`split(key, m)` is `split(key, n)[:m]`: the leading keys are the same"
    return ("the same sampler under other arguments: correlated samples, identical in their "
            "leading values where only the shape differs")


def _sampler(ctx: RuleContext, use: Consumption) -> str | None:
    """The `jax.random` function a consumption calls (`normal`), None for any other consumer
    (and for a draw inside a closure or a loop body, reported apart)."""
    if use.closed is not None or use.repeated or not use.library:
        return None
    qualified = ctx.index.imports.qualify(use.call.func)
    if qualified is None or not qualified.startswith(JAX_RANDOM + "."):
        return None
    return qualified[len(JAX_RANDOM) + 1:]


def _same_arguments(first: Consumption, second: Consumption) -> bool:
    """The calls give the same arguments, as written, besides the key."""
    def rest(use: Consumption) -> list[tuple[str, cst.BaseExpression]]:
        return [(arg.keyword.value if arg.keyword is not None else "", arg.value)
                for arg in use.call.args if arg.value is not use.key]

    ones, others = rest(first), rest(second)
    return len(ones) == len(others) and all(
        word == other_word and value.deep_equals(other_value)
        for (word, value), (other_word, other_value) in zip(ones, others, strict=True))
