"""What other libraries do with a PRNG key: which of their calls consume one, as data.

OPT020's flow analysis asks this table whether a call draws from a key it is given. Each row says
where a library's call takes its key; the rule has no branch per library. A row is either a
function, named by its qualified name (`flax.nnx.Rngs`), or a method, named by the method and by
what made the object it is called on (`init` on what `haiku.transform` returns, on an instance
of a `flax.linen.Module` subclass).
"""

from __future__ import annotations

import re

from optlint.records import record

# A name read as one key (`key`, `rng`, `mc_key`, `rng_1`), not a mapping or object of streams
# (`rngs`).
ONE_KEY_NAME = re.compile(r"(key|rng)(_?\d+)?$", re.IGNORECASE)

# Where a library defines its key functions, by the module's dotted name and by its file: a
# module importing `jax._src.random.normal` calls `jax.random.normal`, and in that file itself
# a call of its own `normal` is one too (JAX's samplers calling one another).
KEY_API_MODULES: dict[str, str] = {"jax._src.random": "jax.random"}
KEY_API_FILES: dict[str, str] = {"jax/_src/random.py": "jax.random", "jax/random.py": "jax.random"}

# Calls that wrap a key without drawing from it, looked through to find the key
# (`np.random.default_rng(np.asarray(key))`, `seed(rng_seed=jax.random.key_data(key))`).
KEY_WRAPPERS = frozenset({
    "numpy.asarray", "numpy.array", "jax.numpy.asarray", "jax.numpy.array",
    "jax.random.key_data", "jax.device_get", "int", "tuple", "list", "numpy.uint32",
})


@record
class KeyConsumer:
    library: str  # the qualified prefix the row belongs to, e.g. "haiku"
    name: str  # a qualified function name, or a method name when `made_by` is set
    position: int | None  # where the key is given positionally (None: keyword only)
    keyword: str | None
    # For a method: the qualified names of what makes its object (a factory, a decorator, or
    # a base class of the object's class); "*" for any object in a file importing `library`.
    made_by: tuple[str, ...] = ()
    # The keys are the values of a dict given there (`rngs={"dropout": key}`).
    in_dict: bool = False
    # Every keyword argument is a key (`nnx.Rngs(params=key, dropout=key)`).
    all_keywords: bool = False
    # The call keeps what it draws in its object (`mcmc.run(key)`, then `mcmc.get_samples()`):
    # a call made as a bare statement is made for that, not a warm-up thrown away.
    keeps_result: bool = False
    # The call draws only what the function its object transformed draws from the library's
    # rng stream (`hk.next_rng_key()`, `hk.dropout`): nothing when that function is the file's
    # and nothing in the file draws from the stream (see `STREAM_USES`).
    stream_only: bool = False
    # The argument takes a key or an rng stream object: only a name read as one key (`key`,
    # `dropout_rng`, not `rngs`) or a key made in place is followed (a stream advances).
    one_key_only: bool = False
    # The argument takes an int seed as well as a key (`seed(model, rng_seed=0)`): the same
    # int makes the same key, so a literal given there is followed as that seed (`int:0`).
    int_seeds: bool = False
    # A module's call: the position from which the arguments go to the `__call__` of the
    # object's class, and the keywords the call keeps (the others go there too), so a switch
    # given by position (`apply(v, x, False)` for `training`) is read as `training=False` is.
    forwards_from: int | None = None
    keeps_keywords: tuple[str, ...] = ()
    # The library draws from keys it derives from the one given with data of its own (flax
    # `init` and `apply`, measured in `key_derived.py`): no `jax.random` call given that key
    # draws the same, another such call does.
    derives: bool = False
    # The bit generator a NumPy seeding makes from the seed it is given: two of one kind
    # seeded alike give one stream; of two kinds, streams with no value in common (numpy
    # 2.4.6, seed 42: `default_rng` (PCG64) and `RandomState` / `random.seed` (MT19937), 1,000
    # integers share none, 10,000 uniforms none equal, correlation 0.002; `RandomState(42)`
    # and `np.random.seed(42)` give the same integers: tests/test_prng_keys_numpy_generators.py).
    generator: str = ""


# Haiku's transforms by their public names and by where Haiku defines them
# (`haiku._src.transform`, which Haiku's own modules import).
_HAIKU_RNG_APPLY = ("haiku.transform", "haiku.multi_transform",
                    "haiku._src.transform.transform", "haiku._src.multi_transform.multi_transform")
_HAIKU_STATE_APPLY = ("haiku.transform_with_state", "haiku.multi_transform_with_state",
                      "haiku._src.transform.transform_with_state",
                      "haiku._src.multi_transform.multi_transform_with_state")
_HAIKU = (*_HAIKU_RNG_APPLY, *_HAIKU_STATE_APPLY, "haiku.without_apply_rng",
          "haiku._src.transform.without_apply_rng")
_FLAX_MODULE = ("flax.linen.Module", "flax.linen.module.Module")
_DISTRIBUTIONS = ("*",)

LIBRARY_CONSUMERS: tuple[KeyConsumer, ...] = (
    # flax.linen: `model.init(key, x)`, `model.init({"params": k1, "dropout": k2}, x)`,
    # `model.apply(variables, x, rngs={"dropout": key})`.
    KeyConsumer("flax", "init", 0, "rngs", made_by=_FLAX_MODULE, in_dict=True, derives=True),
    KeyConsumer("flax", "init_with_output", 0, "rngs", made_by=_FLAX_MODULE, in_dict=True,
                derives=True),
    KeyConsumer("flax", "apply", None, "rngs", made_by=_FLAX_MODULE, in_dict=True, derives=True,
                forwards_from=1, keeps_keywords=("rngs", "method", "mutable",
                                                 "capture_intermediates")),
    # `state.apply_fn(variables, x, rngs={"dropout": key})` of a `flax.training` TrainState.
    KeyConsumer("flax", "apply_fn", None, "rngs", made_by=("*",), in_dict=True),
    # `nn.Dropout(rate)(x, deterministic=False, rng=key)`: the mask comes from the key given
    # (flax 0.12.8: two calls given one key drew the same mask; `Dropout.__call__(inputs,
    # deterministic=None, rng=None)`).
    KeyConsumer("flax", "__call__", 2, "rng",
                made_by=("flax.linen.Dropout", "flax.linen.stochastic.Dropout")),
    # `nnx.Dropout(rate)(x, rngs=key)` given a key, not an `Rngs`: the mask comes from that key
    # (flax 0.12.8: two calls given one key drew the same mask; an `Rngs` advances instead).
    KeyConsumer("flax", "__call__", None, "rngs", one_key_only=True,
                made_by=("flax.nnx.Dropout", "flax.nnx.nn.stochastic.Dropout")),
    # flax.nnx: `nnx.Rngs(key)`, `nnx.Rngs(params=key, dropout=key)`.
    KeyConsumer("flax", "flax.nnx.Rngs", 0, "default", all_keywords=True),
    # haiku: `f = hk.transform(fn)`; `f.init(key, x)`, `f.apply(params, key, x)`,
    # `f.apply(params, state, key, x)` after `transform_with_state`.
    KeyConsumer("haiku", "init", 0, "rng", made_by=_HAIKU),
    KeyConsumer("haiku", "apply", 1, "rng", made_by=_HAIKU_RNG_APPLY, stream_only=True),
    KeyConsumer("haiku", "apply", 2, "rng", made_by=_HAIKU_STATE_APPLY, stream_only=True),
    # `hk.PRNGSequence(key)`: its keys are split from the key given (dm-haiku 0.0.17: the first
    # is `split(key)[1]`, and two sequences of one key give the same keys).
    KeyConsumer("haiku", "haiku.PRNGSequence", 0, "key_or_seed"),
    KeyConsumer("haiku", "haiku._src.base.PRNGSequence", 0, "key_or_seed"),
    # `hk.dropout(rng, rate, x)`: draws its mask from the key it is given.
    KeyConsumer("haiku", "haiku.dropout", 0, "rng"),
    # distrax and TensorFlow Probability distributions: `dist.sample(seed=key)`.
    KeyConsumer("distrax", "sample", None, "seed", made_by=_DISTRIBUTIONS),
    KeyConsumer("distrax", "sample_and_log_prob", None, "seed", made_by=_DISTRIBUTIONS),
    KeyConsumer("tensorflow_probability", "sample", None, "seed", made_by=_DISTRIBUTIONS),
    KeyConsumer("tensorflow_probability", "experimental_sample_and_log_prob", None, "seed",
                made_by=_DISTRIBUTIONS),
    # numpyro: `handlers.seed(model, rng_seed=key)`, `MCMC(...).run(key, ...)`.
    KeyConsumer("numpyro", "numpyro.handlers.seed", 1, "rng_seed", int_seeds=True),
    KeyConsumer("numpyro", "run", 0, "rng_key", made_by=("numpyro.infer.MCMC",),
                keeps_result=True),
    # `Predictive(model, ...)(key, x)`: the object called runs the model seeded with the key.
    KeyConsumer("numpyro", "__call__", 0, "rng_key",
                made_by=("numpyro.infer.Predictive", "numpyro.infer.util.Predictive")),
    # `fori_collect(lower, upper, sample_kernel, init_val)` runs the kernel from the key its
    # state holds (numpyro 0.22.0: two runs from one NUTS state returned equal samples).
    KeyConsumer("numpyro", "numpyro.util.fori_collect", 3, "init_val"),
    # numpyro distributions: `dist.Normal(loc, scale).sample(key, shape)`.
    KeyConsumer("numpyro", "sample", 0, "key", made_by=_DISTRIBUTIONS),
    # numpyro's first, scipy-like distributions: `dist.norm(0, 1).rvs(random_state=key)`.
    KeyConsumer("numpyro", "rvs", None, "random_state", made_by=_DISTRIBUTIONS),
    # blackjax: `algorithm.step(rng_key, state)` of what its top-level factories build draws
    # from the key (blackjax 1.2.5: the `step` of meanfield_vi, nuts, hmc, mala and rmh given
    # one key twice returned equal states, and another key a different one).
    KeyConsumer("blackjax", "step", 0, "rng_key", made_by=(
        "blackjax.meanfield_vi", "blackjax.nuts", "blackjax.hmc", "blackjax.mala",
        "blackjax.rmh")),
    # flowMC's bundles split the key they are given to initialise their flow (flowMC 0.4.4,
    # /tmp/held3B/measure/flowmc_bundles.py: a split of the key after either bundle, given it
    # by position or keyword, raised KeyReuseError under `jax.debug_key_reuse`).
    *(KeyConsumer("flowMC", f"flowMC.resource_strategy_bundle.{module}.{module}_Bundle", 0,
                  "rng_key") for module in ("RQSpline_MALA", "RQSpline_MALA_PT")),
    # brax: `dist.sample_no_postprocessing(parameters, seed)` of its `ParametricDistribution`s
    # (brax 0.14.2, /tmp/kp11b/measure/brax_sample_no_postprocessing.py: one key twice gave
    # equal actions, another key different ones, and a split of the key afterwards raised
    # KeyReuseError under `jax_debug_key_reuse`).
    KeyConsumer("brax", "sample_no_postprocessing", 1, "seed", made_by=("*",)),
    # trax: `layer.pure_fn(x, weights, state, rng)` runs the layer with that rng (its dropout
    # and other random sublayers draw from it).
    KeyConsumer("trax", "pure_fn", 3, "rng", made_by=("*",)),
    # NumPy seeded from a key's data: the same key gives the same NumPy stream.
    KeyConsumer("numpy", "numpy.random.default_rng", 0, "seed", generator="PCG64"),
    KeyConsumer("numpy", "numpy.random.RandomState", 0, "seed", generator="MT19937"),
    KeyConsumer("numpy", "numpy.random.seed", 0, "seed", generator="MT19937"),
)

FUNCTION_CONSUMERS: dict[str, KeyConsumer] = {
    row.name: row for row in LIBRARY_CONSUMERS if not row.made_by}
METHOD_CONSUMERS: dict[str, tuple[KeyConsumer, ...]] = {}
for _row in LIBRARY_CONSUMERS:
    if _row.made_by:
        METHOD_CONSUMERS[_row.name] = (*METHOD_CONSUMERS.get(_row.name, ()), _row)

# Methods building a model's parameters from the key they are given and the shapes alone of
# the inputs after it (tests/test_prng_keys_shaped_inputs.py runs them with inputs of one shape
# drawn from two keys: haiku `transform(f).init` gives equal parameters; `transform_with_state(
# f).init` does not, its state (a BatchNorm's averages) holds the inputs' values): the method,
# what makes its object, the first input's position and the keywords the call keeps for itself.
# flax.linen's `init` measured the same (Dense, BatchNorm, Dropout) but has no row: the fix pair
# flax a307d47 (`test_vmap`) counts a dummy input drawn from a reused key as the reuse fixed, a
# question for the labels (see the stop's report).
SHAPED_INPUTS: tuple[tuple[str, tuple[str, ...], int, tuple[str, ...]], ...] = (
    ("init", (*_HAIKU_RNG_APPLY, *(f"wrapped:{name}" for name in _HAIKU_RNG_APPLY)), 1, ()),
)

# Calls that read only the shapes (or ranks, dtypes) of the arrays they are given: a draw they
# alone read reaches no result, its shape being the same for every key.
SHAPE_ONLY_CALLS = frozenset({
    "chex.assert_shape", "chex.assert_equal_shape", "chex.assert_equal_shape_prefix",
    "chex.assert_equal_shape_suffix", "chex.assert_rank", "chex.assert_equal_rank",
    "chex.assert_type", "numpy.shape", "numpy.ndim", "jax.numpy.shape", "jax.numpy.ndim",
})
SHAPE_ONLY_NAMES = frozenset(name.rsplit(".", 1)[1] for name in SHAPE_ONLY_CALLS)

# Layers and the fields their key draws, with the keyword that leaves a field out (`bias` of
# `Linear(..., use_bias=False)`): a layer whose drawn fields are all replaced (`eqx.tree_at(
# lambda l: l.weight, linear, w)`) keeps nothing of its key.
DRAWN_FIELDS: dict[str, tuple[tuple[str, str | None], ...]] = {
    name: (("weight", None), ("bias", "use_bias")) for name in (
        "equinox.nn.Linear", "equinox.nn.Conv", "equinox.nn.Conv1d", "equinox.nn.Conv2d",
        "equinox.nn.Conv3d", "equinox.nn.ConvTranspose", "equinox.nn.ConvTranspose1d",
        "equinox.nn.ConvTranspose2d", "equinox.nn.ConvTranspose3d")}
# Field makers of dataclass-like classes and where they take a field's default: `default=`, or
# `default_factory=` called for each instance (a lambda making `PRNGKey(0)` makes the same key
# for every instance).
FIELD_MAKERS = frozenset({
    "dataclasses.field", "flax.struct.field", "equinox.field", "chex.dataclasses.field",
})
# Calls that return a copy of a pytree with the fields a function selects replaced.
FIELD_REPLACERS = frozenset({"equinox.tree_at"})

# Keyword arguments that make a model or layer draw nothing from the key it is given:
# `dropout(x, key=key, inference=True)`, `model.apply(v, x, deterministic=True, rngs=...)`.
NO_DRAW_SWITCHES: dict[str, bool] = {
    "inference": True, "deterministic": True, "train": False, "training": False,
    "is_training": False, "enable_dropout": False,
}

# Bases whose construction hands the call's arguments to the class's own `__init__` and reads
# them nowhere else (by qualified name; `object` as `_ancestors` names a class without bases).
# Measured (flax 0.12.8, equinox 0.13.8): an `nnx.Module` whose `__init__` ignores `rngs` leaves
# the `Rngs` it is given undrawn (its count stays 0) and a second `Rngs` of the same typed key
# raises no `KeyReuseError`; an `eqx.Module` built twice with one key it ignores raises none
# (tests/test_prng_keys_ignored_constructors.py).
PLAIN_CONSTRUCTION = frozenset({
    "object", "builtins.object", "flax.nnx.Module", "flax.nnx.module.Module", "equinox.Module",
})

# Equinox layers (by class name) that draw only in training: switched to inference mode
# (`apis.INFERENCE_SWITCHES`), they draw nothing from the key they are given (measured on
# equinox 0.13.8 in tests/test_prng_keys_inference_mode.py; `MultiheadAttention` still splits
# its key there, so it has no row).
QUIET_IN_INFERENCE = frozenset({"Dropout"})

# jax.lax loops: the body's argument position, and where its result holds the carry (`scan`
# returns `(carry, y)`; the others return the carry); None: no carry (`lax.map`).
LOOP_BODIES: dict[str, tuple[int, tuple[int, ...] | None]] = {
    "jax.lax.scan": (0, (0,)),
    "jax.lax.fori_loop": (2, ()),
    "jax.lax.while_loop": (1, ()),
    "jax.lax.map": (0, None),
    # trax's backend-neutral `fastmath.scan` is `jax.lax.scan` on JAX.
    "trax.fastmath.scan": (0, (0,)),
}

# jax.lax loops with a carry: where they take the initial carry (position, keyword) and which
# parameter of the body receives the carry. The first step draws from what the initial carry
# holds.
LOOP_INITS: dict[str, tuple[int, str, int]] = {
    "jax.lax.scan": (1, "init", 0), "jax.lax.fori_loop": (3, "init_val", 1),
    "jax.lax.while_loop": (2, "init_val", 0), "trax.fastmath.scan": (1, "init", 0),
}

# Transformations that map a function over a batch; the position of their `in_axes` argument
# (None: keyword only; `jax.pmap(fun, axis_name=None, *, in_axes=0)` on jax 0.10.2, whose second
# positional argument is the axis name: `pmap(step, "device", in_axes=(0, None))`).
# A key given with a `None` axis reaches every row: each row draws the same numbers.
BATCHING: dict[str, int | None] = {
    "jax.vmap": 1, "jax.pmap": None, "equinox.filter_vmap": None, "equinox.filter_pmap": None,
    # `jax.shard_map(f, *, out_specs, in_specs, mesh)` and the older
    # `jax.experimental.shard_map.shard_map(f, mesh, in_specs, out_specs)` (jax 0.10.2): a key
    # given the spec `P()` is replicated to every shard, and each shard draws the same numbers
    # (2 host devices: `normal(key, x.shape)` on each half of `x` gave equal halves).
    "jax.shard_map": None, "jax.experimental.shard_map.shard_map": 2,
}
# Where they take their axes when not `in_axes`.
AXES_KEYWORDS: dict[str, str] = {
    "jax.shard_map": "in_specs", "jax.experimental.shard_map.shard_map": "in_specs",
}
PARTITION_SPECS = frozenset({"jax.sharding.PartitionSpec", "jax.P"})
# Calls that stack the items of an iterable into one array: `jnp.stack([key] * n)` is `n`
# copies of one key (jax 0.10.2: vmapped over them, every row drew the same numbers, typed
# and raw keys alike).
STACKING = frozenset({"jax.numpy.stack", "jax.numpy.array", "jax.numpy.asarray"})

# Python's `map`: its function runs once per item, given one item of each iterable after it.
ITEM_MAPS = frozenset({"map"})
# Iterables that give one value as every item (`itertools.repeat(seed)`), beside `[seed] * n`
# and `[seed for _ in range(n)]`: a key or seed mapped so reaches every item unchanged.
REPEATING_ITERABLES = frozenset({"itertools.repeat"})

# Calls that give every device the same copy of a value: a key replicated into `pmap` reaches
# every device unchanged, and each draws the same numbers.
REPLICATING = frozenset({"flax.jax_utils.replicate", "jax.device_put_replicated",
                         # copies of one key along a new leading axis, one per row
                         "jax.numpy.broadcast_to", "jax.numpy.tile", "jax.numpy.repeat"})
# The project's own helpers named so do the same (`replicate(tree, n)` stacking copies).
REPLICATING_NAMES = frozenset({"replicate"})

# Library calls that return the pytree one of their arguments holds (a copy on every device,
# leaves read back into its structure, updates added to it), by where they take it: a model
# given to them comes back an instance of the same class.
SAME_PYTREE: dict[str, tuple[int, str]] = {
    "jax.device_put_replicated": (0, "x"), "jax.device_put": (0, "x"),
    "flax.jax_utils.replicate": (0, "tree"), "equinox.tree_deserialise_leaves": (1, "like"),
    "equinox.apply_updates": (0, "model"),
    # `eqx.combine(params, static)`, `static` a part `eqx.partition` split off the model: the
    # model's class again (equinox 0.13.8: `type(eqx.combine(*eqx.partition(m, eqx.is_array)))
    # is type(m)`, and both parts are instances of it too).
    "equinox.combine": (1, "static"),
}
# Library calls returning a tuple whose every item holds the pytree one of their arguments
# holds (the same class, some leaves replaced by None), by where they take it (equinox 0.13.8:
# both items of `eqx.partition(m, eqx.is_array)` are instances of `type(m)`).
SPLIT_PYTREE: dict[str, tuple[int, str]] = {"equinox.partition": (0, "pytree")}
# Objects that hold what they were made with, by the call that made them (its qualified name,
# or the module of what made its receiver and the method's name): attribute -> the argument
# (position, keyword) it holds. `optim.Adam(lr).create(model).target` is `model`;
# `TrainState.create(apply_fn=model.apply, ...).apply_fn` is `model.apply`.
HOLDING_CALLS: dict[str, dict[str, tuple[int | None, str]]] = {
    "flax.training.train_state.TrainState.create": {"apply_fn": (None, "apply_fn")},
}
HOLDING_METHODS: dict[tuple[str, str], dict[str, tuple[int | None, str]]] = {
    ("flax.optim", "create"): {"target": (0, "target")},
}
# Library objects that, called, call a method of the class they were made with: (position,
# keyword) of the class, and the method. Flax's old `nn.Model(Seq2seq, params)(rng, x)` runs
# `Seq2seq.apply`.
CALLING_WRAPPERS: dict[str, tuple[int, str, str]] = {
    "flax.nn.Model": (0, "module", "apply"), "flax.nn.base.Model": (0, "module", "apply"),
}
# Transformations whose result calls their function with the arguments it is given (a batched
# or pmapped model is still an instance of its class, row by row).
PASSING_TRANSFORMS = frozenset({
    "jax.jit", "jax.pmap", "jax.vmap", "jax.grad", "jax.value_and_grad", "jax.checkpoint",
    "equinox.filter_jit", "equinox.filter_pmap", "equinox.filter_vmap", "equinox.filter_grad",
    "equinox.filter_value_and_grad", "equinox.filter_checkpoint",
    # Run (jaxtyping 0.3.11, /tmp/keyprec9/measure/jaxtyped_passes.py): `jaxtyped(f,
    # typechecker=None)(key, x)` and `jaxtyped(typechecker=check)(f)(key, x)` call `f` once
    # with the very key and array objects given, and return what `f` returns.
    "jaxtyping.jaxtyped",
})
# Of those, the ones whose result runs the function once per call (not once per row).
CALLED_ONCE = PASSING_TRANSFORMS - {"jax.pmap", "jax.vmap", "equinox.filter_pmap",
                                    "equinox.filter_vmap"}

# Methods that run another method of their object's class, named by a keyword, with the
# call's arguments after the ones they take first: flax.linen `model.apply(variables, x, key,
# method=Model.sample)` runs `Model.sample(x, key)` on the module bound to `variables` (flax
# 0.12.8: two such calls given one key drew equal values and raised KeyReuseError under
# `jax_debug_key_reuse`; `method="sample"` by name ran the same method). By the method's name:
# (the keyword naming the method run, how many leading arguments it does not pass on, the
# base classes the object's class must have).
METHOD_RUNNERS: dict[str, tuple[str, int, tuple[str, ...]]] = {
    "apply": ("method", 1, _FLAX_MODULE),
}

# Library calls that draw from an implicit rng stream rather than a key argument.
STREAM_DRAWS = frozenset({"haiku.next_rng_key", "haiku.maybe_next_rng_key"})
# What may draw from Haiku's rng stream in `apply`: the stream's own calls, `hk.dropout`, its
# key reservations, and any call given an `rng=` or a `dropout_rate=` (`hk.nets.MLP` applied
# with dropout).
STREAM_USES = STREAM_DRAWS | {"haiku.dropout", "haiku.reserve_rng_keys", "haiku.PRNGSequence"}
STREAM_KEYWORDS = frozenset({"rng", "dropout_rate"})
# Batching transformations that give every row the same stream when a keyword says so.
STREAM_BROADCASTS: dict[str, tuple[str, bool]] = {"haiku.vmap": ("split_rng", False)}
# Batching transformations of stateful modules, and their `in_axes` position: a module given a
# `None` axis is broadcast with its rng streams, so every row draws the same numbers.
STATEFUL_BATCHING: dict[str, int] = {"flax.nnx.vmap": 1}
# Layers that draw from an rng stream they are built with (`rngs=`).
STREAM_LAYERS = frozenset({"flax.nnx.Dropout", "flax.nnx.MultiHeadAttention"})
# Flax linen's lifted transformations and where they take `split_rngs` (position, keyword): a
# stream given `False` there reaches every step or row unsplit (`key_lifted_streams.py`).
LIFTED_TRANSFORMS: dict[str, tuple[int, str]] = {
    "flax.linen.scan": (4, "split_rngs"), "flax.linen.transforms.scan": (4, "split_rngs"),
    "flax.linen.vmap": (2, "split_rngs"), "flax.linen.transforms.vmap": (2, "split_rngs"),
}
# Methods applying a Flax model with the keys given in a dict, by the keyword of that dict: a
# `functools.partial` binding it keeps those keys for every call (`key_bound_partials.py`).
KEYED_APPLY_METHODS: dict[str, str] = {"apply": "rngs", "apply_fn": "rngs"}
# The stream a linen module's draws fall back to when `apply` is given no stream of their name
# (a bare key given as `rngs=key` is that stream), and calls that make one bare key.
FALLBACK_STREAM = "params"
ONE_KEY_MAKERS = frozenset({"jax.random.PRNGKey", "jax.random.key", "jax.random.fold_in",
                            "jax.random.wrap_key_data"})
# Flax linen layers that draw from a named rng stream: the keyword naming it, and its default.
STREAM_DRAWING_LAYERS: dict[str, tuple[str, str]] = {
    "flax.linen.Dropout": ("rng_collection", "dropout"),
    "flax.linen.stochastic.Dropout": ("rng_collection", "dropout"),
}
# Tree maps: their function runs once per leaf, so a key it closes over draws the same numbers
# for every leaf (the same noise on every gradient leaf).
TREE_MAPS = frozenset({"jax.tree_util.tree_map", "jax.tree.map", "jax.tree_map"})

# Modules whose factories make initializers, and where those take their key: a factory's
# result (`normal()`, `lecun_normal()`) draws from the key it is called with,
# `init(key, shape, dtype)`, or trax's `init(shape, rng)`.
INITIALIZER_MODULES: dict[str, int] = {
    "jax.nn.initializers": 0, "flax.linen.initializers": 0, "flax.nnx.initializers": 0,
    "trax.layers.initializers": 1,
}
# Factories among them whose initializer draws nothing (`constant(0.1)`, `zeros_init()`).
NON_DRAWING_INITIALIZERS = frozenset({"constant", "zeros_init", "ones_init", "zeros", "ones"})

# Transformations that trace their function once and run the compiled result afterwards: Python
# code in it (NumPy's random numbers, a key stream object advanced in Python) runs only while
# tracing, so what it makes is fixed for every later call.
TRACING = frozenset({"jax.jit", "equinox.filter_jit", "jax.pmap", "equinox.filter_pmap",
                     "flax.nnx.jit"})
# Objects that hold rng streams made from a seed (`nnx.Rngs(0)`, `hk.PRNGSequence(0)`): made
# from the same int, their draws are the same (flax 0.12.8: two `nnx.Rngs(0)` drew the same
# keys, in order), so one made from a constant where a step runs gives every step the same.
SEEDED_STREAMS = frozenset({"flax.nnx.Rngs", "flax.nnx.rnglib.Rngs", "haiku.PRNGSequence"})
# Base classes of models, whose methods (but their constructors) run on every step: Flax linen
# and NNX modules, Haiku modules (Equinox modules are told by the class itself).
MODEL_BASES = frozenset({
    "flax.linen.Module", "flax.linen.module.Module", "flax.nnx.Module", "flax.nnx.module.Module",
    "haiku.Module", "haiku._src.module.Module",
})
# Python-side seed sources (by the prefix of their qualified name): random numbers, the clock.
PYTHON_RANDOM = ("numpy.random.", "random.", "time.time", "secrets.", "os.urandom")
