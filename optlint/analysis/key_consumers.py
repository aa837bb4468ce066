"""What other libraries do with a PRNG key: which of their calls consume one, as data.

OPT020's flow analysis asks this table whether a call draws from a key it is given. Each row says
where a library's call takes its key; the rule has no branch per library. A row is either a
function, named by its qualified name (`flax.nnx.Rngs`), or a method, named by the method and by
what made the object it is called on (`init` on what `haiku.transform` returns, on an instance
of a `flax.linen.Module` subclass).

What libraries do with the functions, objects and streams keys travel through is kept beside it:
`key_model_loops.py` (calls running a function many times), `key_model_objects.py` (what calls
keep of the objects they are given) and `key_model_streams.py` (rng streams).
"""

from __future__ import annotations

import re

from optlint.analysis.key_pipeline_rows import PIPELINE_CALLS
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
    # Keywords that, given, stand in for what the call would draw from the key (a diffusers
    # pipeline given `latents=` draws none): the key is then not consumed.
    replaced_by: tuple[str, ...] = ()
    # The call draws only for what the module's class makes (Flax `init` and `apply`: its
    # parameters, variables, rngs and submodules): a project class showing none draws nothing,
    # or is `--preview` where it calls code not followed (`key_parameterless.py`).
    draws_made_parameters: bool = False


# Haiku's transforms by their public names and by where Haiku defines them
# (`haiku._src.transform`, which Haiku's own modules import).
_HAIKU_RNG_APPLY = ("haiku.transform", "haiku.multi_transform",
                    "haiku._src.transform.transform", "haiku._src.multi_transform.multi_transform")
_HAIKU_STATE_APPLY = ("haiku.transform_with_state", "haiku.multi_transform_with_state",
                      "haiku._src.transform.transform_with_state",
                      "haiku._src.multi_transform.multi_transform_with_state")
_HAIKU = (*_HAIKU_RNG_APPLY, *_HAIKU_STATE_APPLY, "haiku.without_apply_rng",
          "haiku._src.transform.without_apply_rng")
FLAX_MODULE = ("flax.linen.Module", "flax.linen.module.Module")
# flax.linen's own layers whose `init` draws their parameters from the key given (flax 0.12.8,
# tests/test_prng_keys_linen_layers.py: one key twice gave equal parameters, another key other
# ones); its norms, `PReLU` and `Dropout` draw nothing there (ones, zeros, constants, no
# parameters). `Sequential` draws what its layers draw.
FLAX_INIT_DRAWING_LAYERS = tuple(f"flax.linen.{name}" for name in (
    "Dense", "DenseGeneral", "Conv", "ConvTranspose", "ConvLocal", "Einsum", "Embed",
    "MultiHeadDotProductAttention", "MultiHeadAttention", "SelfAttention", "RNN",
    "Bidirectional", "Sequential", "LSTMCell", "GRUCell", "OptimizedLSTMCell", "SimpleCell",
    "MGUCell"))
# What a linen module's code calls on itself to make what `init` draws (`self.param(name,
# init_fn, shape)`, `self.variable(...)`, `self.make_rng("params")`).
FLAX_PARAMETER_MAKERS = frozenset({"param", "variable", "make_rng"})
# Libraries whose classes are no Flax modules (records, arrays, enums), and the annotation names
# under which a module's field may hold a submodule.
MODULE_FREE_LIBRARIES = frozenset({
    "typing", "typing_extensions", "dataclasses", "enum", "collections", "numpy", "jax",
    "chex", "jaxtyping", "functools", "abc", "math"})
MODULE_HOLDING_NAMES = frozenset({"Module", "ModuleDef", "Any", "Callable", "object"})
# Layers that draw nothing at some rates, by the rates (flax 0.12.8: `Dropout` returns its
# inputs at rate 0 and zeros at rate 1, calling no sampler; tests/test_prng_keys_parameterless_
# modules.py).
FLAX_IDLE_RATES: dict[str, frozenset[float]] = {
    name: frozenset({0.0, 1.0})
    for name in ("flax.linen.Dropout", "flax.linen.stochastic.Dropout")}
_DISTRIBUTIONS = ("*",)

LIBRARY_CONSUMERS: tuple[KeyConsumer, ...] = (
    # flax.linen: `model.init(key, x)`, `model.init({"params": k1, "dropout": k2}, x)`,
    # `model.apply(variables, x, rngs={"dropout": key})`.
    KeyConsumer("flax", "init", 0, "rngs", made_by=(*FLAX_MODULE, *FLAX_INIT_DRAWING_LAYERS),
                in_dict=True, derives=True, draws_made_parameters=True),
    KeyConsumer("flax", "init_with_output", 0, "rngs",
                made_by=(*FLAX_MODULE, *FLAX_INIT_DRAWING_LAYERS), in_dict=True, derives=True,
                draws_made_parameters=True),
    KeyConsumer("flax", "apply", None, "rngs", made_by=FLAX_MODULE, in_dict=True, derives=True,
                draws_made_parameters=True,
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
    # brax's pixel augmentation `_random_translate_pixels(obs, key)` splits the key into one
    # per row for its random shifts (brax ppo/train.py at 0b96d05, run as written on jax 0.10.2,
    # /tmp/h8/brax/run.py: one key twice gave the same shifts, and KeyReuseError under
    # `jax.debug_key_reuse`); SAC and other agents import it (held-out set 8: safe-sim2real).
    KeyConsumer("brax", "brax.training.agents.ppo.train._random_translate_pixels", 1, "key"),
    # trax: `layer.pure_fn(x, weights, state, rng)` runs the layer with that rng (its dropout
    # and other random sublayers draw from it).
    KeyConsumer("trax", "pure_fn", 3, "rng", made_by=("*",)),
    # diffusers' Flax pipelines: `pipeline(prompt_ids, params, prng_seed)` (key_pipeline_rows).
    *(KeyConsumer("diffusers", "__call__", position, "prng_seed", made_by=made_by,
                  replaced_by=replaced_by)
      for made_by, position, replaced_by in PIPELINE_CALLS),
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

# Keyword arguments that make a model or layer draw nothing from the key it is given:
# `dropout(x, key=key, inference=True)`, `model.apply(v, x, deterministic=True, rngs=...)`.
NO_DRAW_SWITCHES: dict[str, bool] = {
    "inference": True, "deterministic": True, "train": False, "training": False,
    "is_training": False, "enable_dropout": False,
}

# Equinox layers (by class name) that draw only in training: switched to inference mode
# (`apis.INFERENCE_SWITCHES`), they draw nothing from the key they are given (measured on
# equinox 0.13.8 in tests/test_prng_keys_inference_mode.py; `MultiheadAttention` still splits
# its key there, so it has no row).
QUIET_IN_INFERENCE = frozenset({"Dropout"})

# Modules whose factories make initializers, and where those take their key: a factory's
# result (`normal()`, `lecun_normal()`) draws from the key it is called with,
# `init(key, shape, dtype)`, or trax's `init(shape, rng)`.
INITIALIZER_MODULES: dict[str, int] = {
    "jax.nn.initializers": 0, "flax.linen.initializers": 0, "flax.nnx.initializers": 0,
    "flax.nnx.nn.initializers": 0,
    "trax.layers.initializers": 1,
}
# Factories among them whose initializer draws nothing (`constant(0.1)`, `zeros_init()`).
NON_DRAWING_INITIALIZERS = frozenset({"constant", "zeros_init", "ones_init", "zeros", "ones"})
