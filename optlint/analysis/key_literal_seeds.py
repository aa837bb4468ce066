"""One rule for reuses of a key made from a literal seed: made in place (`normal(PRNGKey(0),
...)`, `seed(model, rng_seed=0)`) or made in the body of the function called (`def sample(d):
return d.sample(key(0))`). Two such draws are identical, but code draws them on purpose about
half the time (labelled by running on the package benchmark: tests comparing two samplers on one
key, a finite difference on the same noise, a loop over test cases checking each case's shapes).
A loop of steps, one carrying state from one iteration to the next (`params = update(params)`,
`key_step_loops.py`), is where the same draw repeated is a bug: the reuse is proven there, and
`--preview` shows it anywhere else, with the reason."""

from __future__ import annotations

from optlint.analysis.prng_keys import Consumption

IN_PLACE_SEEDS = ("both keys are made in place from one literal seed (`normal(PRNGKey(0), ...)` "
                  "twice), which code often does on purpose to compare two samplers")
SEEDED_IN_CALLEE = ("`{callee}` makes its key from a literal seed on every call, which code often "
                    "does on purpose (to compare draws on the same numbers) outside a loop that "
                    "carries state from step to step")

# A key made again from one named seed (`PRNGKey(config.seed)`) in every iteration of a loop.
SEED_IN_LOOP = ("the key is made again from the same seed in every iteration, which code often "
                "does on purpose (to time or compare runs on the same numbers) outside a loop "
                "that carries state from step to step")


_SAMPLERS = ("jax.random.",)


def same_sampler(before: Consumption, use: Consumption) -> bool:
    """Two draws of one library sampler from keys made in place from one literal seed, at two
    calls (jax-lensing 3935130: `normal(PRNGKey(42), gamma1.shape)` and `normal(PRNGKey(42),
    gamma2.shape)`, the two shear components' noise): the same numbers, or the same leading
    values where the shapes differ. Of the in-place reuses labelled false on the package and
    whole-repository benchmarks, none is one sampler twice: two samplers compared on one key
    (`Categorical.sample` and `mcmc.run`), a draw beside a split, one call run again for each
    case of a loop; such draws of one sampler were labelled true (distrax, flowjax, rraes).
    `jax.random`'s samplers only: a model's `init` run twice from one seed rebuilds the same
    weights, often on purpose (to compare them)."""
    return (before.call is not use.call and before.library and use.library
            and before.kind == use.kind == "draw" and before.how == use.how
            and use.how.startswith(_SAMPLERS) and not (before.derives or use.derives)
            and not (before.repeated or use.repeated or before.stream or use.stream))


def made_in_callee(use: Consumption) -> bool:
    """`use` is a call of a function that draws from a key it makes from a literal seed in its
    own body (`PRNGKey(0)` there: the literal is the key maker's argument)."""
    return use.seeded_in is not None and any(arg.value is use.key
                                             for arg in use.seeded_in.args)


def literal_seed_unproven(use: Consumption, in_place: bool, stepping: bool) -> str:
    """Why a reuse of a key made from a literal seed is `--preview` only ('' where it is proven
    or no such key is involved): `in_place` when either key is made where it is drawn from;
    `stepping` when the second draw runs in a loop of steps (it then draws from the key of
    that seed on every step, whatever the first)."""
    if stepping:
        return ""
    if in_place:
        return IN_PLACE_SEEDS
    if made_in_callee(use):
        return SEEDED_IN_CALLEE.format(callee=use.how)
    return ""
