"""What the key-flow analysis of OPT020 talks about: a consumption of a `jax.random` key, and a
reuse (one key value consumed twice).

A key is consumed by a call that turns it into random bits: a `jax.random` sampler (`normal`,
`bernoulli`, ...), `jax.random.split` itself, an `equinox.nn` layer built or called with `key=`, a
`jax.nn.initializers` initializer, another library's consumer (`analysis/key_consumers.py`), and
a function of the checked file whose parameter is consumed on some path. `fold_in(key, data)`
derives a new key and does not consume. A key passed anywhere else is not followed: no finding
rests on it.

The analysis, by job:
- `key_flow.py`: the walk of one function body, statement by statement (`KeyFlow`), on top of
  `key_expressions.py` (its walk of an expression), `key_bindings.py` (what binding a name does),
  `key_loops.py` (loops walked twice) and `key_record.py` (the consumptions and reuses it
  records, each under the name `key_followed_names.py` gives its key), with its state per path
  in `key_state.py` and the syntax it reads in `key_syntax.py`;
- `key_aliases.py`: one key under several names (`k = key`, a carry tuple, `State(key=key)`,
  an object of the file built holding it, `key_holders.py`), all consumed together;
- `key_reads.py`: which names a statement reads, to leave out draws whose result reaches nothing;
- `key_handed_back.py`: the consumed keys a function returns, stores or keeps in an attribute;
- `key_calls.py`: which calls of a file consume which keys, and the summaries of the file's own
  functions; library calls in `key_library_calls.py` (their rows in `key_consumers.py`),
  `scan`/`vmap`/`tree_map` bodies in `key_transforms.py` (their rows in `key_model_loops.py`),
  callables held by names, defaults and fields in `key_callables.py`;
- `key_reported_reuses.py`: which reuses OPT020 reports, leaving out those made on purpose.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.imports import dotted_name
from optlint.records import record

# jax.random functions that turn their key into random bits (split included: using the key again
# after splitting it repeats bits the split outputs hold).
SAMPLERS = frozenset({
    "ball", "bernoulli", "beta", "binomial", "bits", "categorical", "cauchy", "chisquare",
    "choice", "dirichlet", "double_sided_maxwell", "exponential", "f", "gamma",
    "generalized_normal", "geometric", "gumbel", "laplace", "loggamma", "logistic", "lognormal",
    "maxwell", "multinomial", "multivariate_normal", "normal", "orthogonal", "pareto",
    "permutation", "poisson", "rademacher", "randint", "rayleigh", "shuffle", "split", "t",
    "triangular", "truncated_normal", "uniform", "wald", "weibull_min",
})


@record(eq=False)
class Consumption:
    call: cst.Call
    key: cst.BaseExpression  # the key expression the call consumes
    how: str  # what consumes it, for messages: "jax.random.normal", "helper"
    library: bool = True  # a jax.random or equinox.nn call, not a function of the checked code
    # "draw": random bits; "split": `jax.random.split`; "fold": `fold_in`, which consumes
    # nothing by itself but gives `split(key, n)[i]` again (threefry: fold_in(k, i) ==
    # split(k, n)[i]), so it conflicts only with a split of the same key.
    kind: str = "draw"
    # Consumes the same key again and again: a `scan` / `fori_loop` body drawing from a key it
    # closes over or carries unchanged, a function vmapped with the key broadcast (`None` axis).
    # `call` and `key` are then the draw inside the body; `over` says what repeats it.
    repeated: bool = False
    over: str = ""
    # With `repeated`, for a loop's carry: the key the step drew from is one it split from
    # the carried key, carried on as the next step's key, which splits it again (the steps'
    # draws are correlated, not the same numbers).
    carried_on: bool = False
    # For a call of a function that consumes a key it closes over: the innermost consumption,
    # where the closure draws (a finding is reported there, where the key must change); for a
    # method drawing from a key it folds from what its object holds, the `fold_in` there.
    closed: Consumption | None = None
    # The call that repeats it (`tree_map(noise, grads)`), where that is not `call`.
    repeated_by: cst.Call | None = None
    # With `repeated`, reported at the loop or batching call: the draw inside the function it
    # runs (a function of this file), which the finding's roles point at.
    drawn_at: cst.Call | None = None
    # A jitted project function: a training step, which a loop calls with a fresh key each step.
    stepping: bool = False
    # A key a project function returned after consuming it: the consumption inside it.
    via: Consumption | None = None
    # Draws from a library's implicit rng stream (`hk.next_rng_key()`), `key` the function.
    stream: bool = False
    # A key given in a mapping splatted into the call (`f(x, **common)`, `common["key"]`):
    # the mapping's name and the key's entry; the flow follows it as `common.key`.
    given_as: tuple[str, str] | None = None
    # What the analysis could not see, when the consumption rests on it: a key handed to a
    # function the caller gives (`model(rng, x)` with `model` a parameter), which may draw from
    # it or not. A reuse resting on one is reported under `--preview` only, with this text.
    unseen: str = ""
    # What proved a consumption that rests on a function a caller gives (every caller gives
    # an instance of a class that draws from the key), said in the message.
    proof: str = ""
    # For a method drawing from a key its object holds (`self.key`, `key` the node in the
    # method): the object it is called on (`loader`); the key is followed as `loader.key`.
    held_by: str = ""
    # The name the flow follows the key under, where the consumer knows it: a method given
    # `tick` drawing from `fold_in(self.key, tick)` draws from `loader.key` folded with the
    # call's `tick` (see `folded_name`).
    followed: str = ""
    # For a call leaving out the seed its callee makes its key from (`step(x)` where
    # `step(x, seed=0)` draws from `PRNGKey(seed)`): the callee's call making the key. The
    # caller gives no key it could mean to keep fixed.
    seeded_in: cst.Call | None = None
    # With `via`: where the callee returns the consumed key (`return state, key`).
    returned_at: cst.CSTNode | None = None
    # Draws from keys the library derives from `key` with data of its own (flax `init`,
    # `apply`): a reuse only against another such call (`key_derived.py`).
    derives: bool = False
    # A NumPy generator seeded with the key or seed (`key_consumers.KeyConsumer.generator`).
    generator: str = ""


def key_name(expr: cst.BaseExpression, literal: bool = False) -> str | None:
    """The name the flow follows a key under: `key`, or `state.key` for an attribute of a
    name, `keys.[6]` for an item of a name at a literal index (`keys[6]` of a split: binding
    `keys` again forgets it, as it does an attribute); with `literal`, an int seed (`make(0)`)
    as `0`, for project functions seeding a key."""
    if isinstance(expr, cst.Name):
        # `apply(params, None, x)`: a constant is never a key, whatever parameter it fills.
        return None if expr.value in CONSTANTS else expr.value
    if isinstance(expr, cst.Attribute):
        return dotted_name(expr)
    if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Name):
        index = literal_index(expr)
        if index is not None:
            return f"{expr.value.value}{ITEM}{index}]"
        entry = literal_entry(expr)
        if entry is not None:
            return f"{expr.value.value}.{entry}"  # `carry["key"]`, followed as `carry.key`
    if literal and isinstance(expr, cst.Integer):
        return f"int:{expr.value}"
    return None


# Names that are constants: given where a key goes (`rng=None`), they give no key to follow.
CONSTANTS = frozenset({"None", "True", "False"})

# How an item at a literal index is followed: `keys[6]` as `keys.[6]`, an attribute of `keys`.
ITEM = ".["


def literal_index(expr: cst.Subscript) -> int | None:
    """The index of `keys[6]` (`keys[-1]` too); None for anything but one int literal."""
    if len(expr.slice) != 1 or not isinstance(expr.slice[0].slice, cst.Index):
        return None
    value = expr.slice[0].slice.value
    negative = isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus)
    if negative:
        value = value.expression  # type: ignore[attr-defined]
    if not isinstance(value, cst.Integer):
        return None
    return -int(value.value, 0) if negative else int(value.value, 0)


def literal_entry(expr: cst.Subscript) -> str | None:
    """The entry of `carry["key"]`: a string literal that spells a name (None otherwise)."""
    if len(expr.slice) != 1 or not isinstance(expr.slice[0].slice, cst.Index):
        return None
    value = expr.slice[0].slice.value
    if not isinstance(value, cst.SimpleString):
        return None
    entry = value.evaluated_value
    return entry if isinstance(entry, str) and entry.isidentifier() else None


# The names under which `fold_in` consumptions are kept, beside the key's own name.
FOLDED = "\x00fold"
# The name a key `fold_in(base, data)` makes is followed under, for data a literal or a plain
# name: folding one key with the same data makes the same key again.
FOLDED_WITH = "\x00folded with\x00"
# The name the key of a seed the code names is followed under (`seed:config.seed`), apart from
# the seed's own name (an int: NumPy seeded from it, or a config returned holding it, holds no key).
SEEDED = "seed:"


def folded_name(base: str, data: cst.BaseExpression) -> str | None:
    """The name `fold_in(<base>, data)` is followed under (None: data the flow cannot
    compare: anything but an int literal or a plain name)."""
    if isinstance(data, cst.Integer):
        return f"{base}{FOLDED_WITH}{data.value}"
    if isinstance(data, cst.Name):
        return f"{base}{FOLDED_WITH}{data.value}"
    return None


def folded_text(name: str) -> str:
    """`fold_in(key, 7)` for the name a folded key is followed under ("" for any other)."""
    base, marker, data = name.partition(FOLDED_WITH)
    return f"fold_in({base}, {data})" if marker else ""


@record
class Reuse:
    first: Consumption
    second: Consumption
    # The second consumption is the first one again, in the next iteration of a loop (or a
    # comprehension) that never reassigns the key.
    in_loop: bool
    # The statement of the first consumption, when it and the second's are two statements of one
    # block, outside any loop: the only shape a fix is offered for.
    first_statement: cst.BaseStatement | None = None
    # For a loop reuse: the loop counts steps (`while`, `for ... in range(...)`, a `_` target)
    # rather than going over settings (`for beta in betas`, often meant to reuse one key).
    counting: bool = False
    # Where the key's name was bound before the first consumption (None: not in this walk).
    origin: cst.CSTNode | None = None
    # With `first_statement`: the statements from the first consumption's to the second's.
    span: tuple[cst.BaseStatement, ...] = ()
    # The literal seed both keys were made from (`PRNGKey(0)` twice), when they are two keys.
    seed: str = ""
    # Both keys are one key folded with the same data (`fold_in(key, 7)` twice), as shown.
    folded: str = ""
    # Both keys are made from the seed the code names so (`PRNGKey(config.seed)` twice).
    named_seed: str = ""
    # The literal seed the key is made from (`PRNGKey(0)`), one call or two: for the message.
    literal: str = ""


# (call) -> the keys it consumes; None when it consumes nothing the analysis can tell.
Consumer = Callable[[cst.Call], list[Consumption]]
# (call) -> the keys the call returns already consumed, by their place in its result (`()`: the
# result itself, `(1,)`: its second item), each as the consumption inside the callee.
Returns = Callable[[cst.Call], dict[tuple[int, ...], Consumption]]
# Whether the walk of a function of the file records no consumption (`key_walk_gate`'s
# `WalkGate.silent`): here, so that the gate and the calls it answers share it without a cycle.
Silent = Callable[[cst.FunctionDef], bool]


def key_argument(call: cst.Call, position: int | None, keyword: str) -> cst.BaseExpression | None:
    """The expression a call gives for its key parameter (by position or keyword)."""
    arg = argument(call, position, keyword)
    return None if arg is None else arg.value
