"""What optlint knows about the Optax, Equinox and JAX APIs, kept as data.

Measured against equinox 0.13.8 / optax 0.2.8 (see tests/test_apis_against_libraries.py, which checks
the equinox table against whatever equinox is installed).
"""

from __future__ import annotations

# Spellings of the same function across JAX/Optax versions, mapped to one canonical name.
_CANONICAL = {
    "jax.tree_map": "jax.tree_util.tree_map",
    "jax.tree.map": "jax.tree_util.tree_map",
    "jax.tree.leaves": "jax.tree_util.tree_leaves",
    "optax.transforms.masked": "optax.masked",
    "optax.transforms.partition": "optax.multi_transform",
    "optax.partition": "optax.multi_transform",
    "optax.transforms.MultiSteps": "optax.MultiSteps",
    "optax.transforms.chain": "optax.chain",
    "optax.transforms.zero_nans": "optax.zero_nans",
    "optax.transforms.add_decayed_weights": "optax.add_decayed_weights",
    "optax.transforms.apply_if_finite": "optax.apply_if_finite",
    "optax.schedules.inject_hyperparams": "optax.inject_hyperparams",
    "optax.schedules.inject_stateful_hyperparams": "optax.inject_hyperparams",
    "optax.inject_stateful_hyperparams": "optax.inject_hyperparams",
    "functools.partial": "functools.partial",
}


def canonical_name(qualified: str) -> str:
    if qualified.startswith("optax._src."):
        # optax._src.alias.adamw -> optax.adamw
        parts = qualified.split(".")
        qualified = "optax." + parts[-1]
    return _CANONICAL.get(qualified, qualified)


# Functions that return a pytree with the structure of their second-positional pytree argument
# (a "module-shaped" value when that argument is an Equinox module; such a value is callable).
TREE_MAPPERS = {
    "jax.tree_util.tree_map": 1,
    "equinox.tree_at": 1,
}
# Gradient functions: Equinox's filtered ones give None for a non-array leaf (a float
# included), JAX's differentiate a float leaf.
FILTERED_GRADIENTS = frozenset({"equinox.filter_grad", "equinox.filter_value_and_grad"})
JAX_GRADIENTS = frozenset({"jax.grad", "jax.value_and_grad"})
# Library functions that build a tree by calling a function on every leaf (given its path or its
# value): a mask built with one selects what that function's text selects.
LEAFWISE_BUILDERS = frozenset({
    "jax.tree_util.tree_map", "jax.tree_util.tree_map_with_path", "jax.tree.map",
    "jax.tree.map_with_path", "haiku.data_structures.map", "flax.traverse_util.path_aware_map",
})
# Functions that return the module they are given, or one shaped like it.
MODULE_PRESERVING = {
    "equinox.apply_updates": 0,
    "optax.apply_updates": 0,
    "equinox.nn.inference_mode": 0,
    "equinox.tree_inference": 0,
    "equinox.combine": 0,
}
# Of those, the calls setting every layer's `inference` switch (what `value` is set to: the
# position and keyword of the argument, and its default; None: it must be given). Measured on
# equinox 0.13.8 (tests/test_prng_keys_inference_mode.py): `inference_mode(model)`,
# `inference_mode(model, value=True)` and `tree_inference(model, True)` make a `Dropout` in the
# model give the same output for any key, and with `value=False` it draws again.
INFERENCE_SWITCHES: dict[str, tuple[int, str, bool | None]] = {
    "equinox.nn.inference_mode": (1, "value", True),
    "equinox.tree_inference": (1, "value", None),
}
ARRAY_FILTERS = {"equinox.is_array", "equinox.is_inexact_array"}
# Functions that rebuild a pytree shaped like one they are given, and the position of that tree:
# over `eqx.filter`'s arrays the result still holds None where the non-array fields were.
TREE_REBUILDERS = {**TREE_MAPPERS, "optax.apply_updates": 0, "equinox.apply_updates": 0}
# What an `eqx.filter` / `partition` filter spec keeps: "arrays" only, or "array_like" (arrays
# and Python scalars). A hand-written `lambda x: isinstance(x, T)` is read through the types below.
FILTER_SPECS = {"equinox.is_array": "arrays", "equinox.is_inexact_array": "arrays",
                "equinox.is_array_like": "array_like"}
# What a filter written by hand as `not isinstance(leaf, types.FunctionType)` keeps.
NOT_PYTHON_FUNCTIONS = "not_python_functions"
ARRAY_TYPES = {"jax.Array", "jax.numpy.ndarray", "numpy.ndarray", "jaxlib.xla_extension.ArrayImpl"}
PYTHON_SCALAR_TYPES = {"float", "int", "bool", "complex"}
# Transformations whose result, called, calls the function (or module) they were given over a
# batch: `jax.vmap(model)(xs)` calls `model`.
VECTORIZING_TRANSFORMS = {"jax.vmap", "jax.pmap", "equinox.filter_vmap", "equinox.filter_pmap"}

# equinox.nn layers and what their leaves are, measured by building each one.
#   "callable": holds functions (MLP's activations): optax init raises.
#   "scalar": holds Python floats or bools (Dropout.p): silently given optimizer state, or a
#             structure mismatch later.
#   "arrays": arrays only.
EQUINOX_NN_LEAVES = {
    "MLP": "callable",
    "Lambda": "callable",
    "WeightNorm": "callable",
    "Pool": "callable",
    **{f"{kind}Pool{d}d": "callable" for kind in ("Max", "Avg") for d in (1, 2, 3)},
    **{f"Adaptive{kind}Pool{d}d": "callable" for kind in ("Max", "Avg") for d in (1, 2, 3)},
    "AdaptivePool": "callable",
    "BatchNorm": "scalar",
    "Dropout": "scalar",
    "MultiheadAttention": "scalar",
    "SpectralNorm": "scalar",
    "Linear": "arrays",
    "Conv": "arrays",
    **{f"Conv{d}d": "arrays" for d in (1, 2, 3)},
    "ConvTranspose": "arrays",
    **{f"ConvTranspose{d}d": "arrays" for d in (1, 2, 3)},
    "Embedding": "arrays",
    "LayerNorm": "arrays",
    "RMSNorm": "arrays",
    "GroupNorm": "arrays",
    "GRUCell": "arrays",
    "LSTMCell": "arrays",
    "Identity": "arrays",
    "PReLU": "arrays",
    "RotaryPositionalEmbedding": "arrays",
    "StateIndex": "arrays",
}
# The Equinox leaf model: which Python scalar leaves each "scalar" equinox.nn layer holds (the
# non-array leaves of an instance on equinox 0.13.8: Dropout .p float, .inference bool; BatchNorm
# .axis_name str, .inference bool; MultiheadAttention its dropout's; SpectralNorm .inference), and
# "branch": a bool the layer's own code tests in Python (`if self.inference`), which tracing turns
# into an abstract value.
EQUINOX_NN_SCALARS = {
    "Dropout": frozenset({"float", "bool", "branch"}),
    "BatchNorm": frozenset({"str", "bool"}),
    "MultiheadAttention": frozenset({"float", "bool", "branch"}),
    "SpectralNorm": frozenset({"bool", "branch"}),
}
# ...and which of those leaf types break which consumer of an unfiltered module (a function leaf
# breaks every one). Measured on jax 0.10.2 / optax 0.2.8 / equinox 0.13.8 (issue #20):
#   "optimizer": `init` of a transformation keeping per-parameter state, then `update` with
#       gradients from eqx.filter_grad (None for the scalar: "pytree structure error") or jax.grad
#       ("grad requires real- or complex-valued inputs"). int and bool fail both ways; a float
#       fails with eqx.filter_grad but is traced and trained by jax.grad, so it is not proven;
#       a str fails at `init` (not a valid JAX array type).
#   "grad": jax.grad / value_and_grad differentiating the module: int, bool and str raise
#       TypeError; a float is differentiated.
#   "jit": jax.jit tracing the module: a str raises TypeError (not an abstract array); a plain
#       int or bool is traced and runs unless code branches on it, which Dropout,
#       MultiheadAttention and SpectralNorm do ("branch": TracerBoolConversionError, measured).
#   "optimizer_filter_grad": the same optimizer where the gradients come from eqx.filter_grad /
#       filter_value_and_grad (no jax.grad in the file): a float breaks it too (measured, optax
#       0.2.8 / equinox 0.13.8: adam.init on a module with a float field, then update with
#       eqx.filter_grad's gradients: "ValueError: pytree structure error"; with jax.grad it runs).
SCALAR_LEAVES_BREAK = {
    "optimizer": frozenset({"int", "bool", "str"}),
    "optimizer_filter_grad": frozenset({"int", "bool", "str", "float"}),
    "grad": frozenset({"int", "bool", "str"}),
    "jit": frozenset({"str", "branch"}),
}
# The Python type of the functions JAX exposes (`type(jax.nn.relu).__name__`, measured on jax
# 0.10.2): a filter written by hand as `not isinstance(leaf, types.FunctionType)` keeps every one
# that is not "function" (issue #20: `eqx.nn.MLP(..., activation=jax.nn.relu)` filtered so keeps
# its custom_jvp, and `optax.adam(...).init` raises TypeError "zeros_like requires ndarray").
JAX_CALLABLE_TYPES = {
    "jax.nn.relu": "custom_jvp", "jax.nn.relu6": "custom_jvp",
    "jax.nn.gelu": "function", "jax.nn.softmax": "function",
    **{f"jax.nn.{name}": "PjitFunction" for name in (
        "silu", "swish", "sigmoid", "tanh", "softplus", "elu", "leaky_relu", "log_sigmoid",
        "log_softmax", "hard_tanh", "selu", "celu", "glu", "mish", "identity")},
    **{f"jax.numpy.{name}": "PjitFunction" for name in ("tanh", "sin", "exp", "sinh")},
}
# The types `isinstance` tests that are plain Python functions (a `def` or a lambda).
PYTHON_FUNCTION_TYPES = {"types.FunctionType", "types.LambdaType"}
# equinox.nn layers that keep functions they are given as leaves: (position, keyword, default)
# of each such argument; the default a name of JAX_CALLABLE_TYPES, or None for a `def` of
# Equinox's own. Measured on equinox 0.13.8: MLP's non-array leaves are its activation
# (jax.nn.relu, a custom_jvp, by default) and final_activation (a function).
EQUINOX_NN_CALLABLE_ARGS = {
    "MLP": ((4, "activation", "jax.nn.relu"), (5, "final_activation", None)),
}
# The names in the leaf paths of each equinox.nn layer (`jax.tree_util.keystr` of its leaves,
# measured on equinox 0.13.8 by building each one): what a mask matching names against a
# model's parameter paths can meet inside that layer. Sequential's depend on its layers: absent.
EQUINOX_NN_PATH_NAMES = {
    **{name: frozenset({"weight", "bias"}) for name in (
        "Linear", "Conv", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose", "ConvTranspose1d",
        "ConvTranspose2d", "ConvTranspose3d", "LayerNorm", "RMSNorm", "GroupNorm")},
    "Embedding": frozenset({"weight"}),
    "MultiheadAttention": frozenset({"query_proj", "key_proj", "value_proj", "output_proj",
                                     "weight", "bias", "dropout", "p", "inference"}),
    "MLP": frozenset({"layers", "weight", "bias", "activation", "final_activation"}),
    "GRUCell": frozenset({"weight_ih", "weight_hh", "bias", "bias_n"}),
    "LSTMCell": frozenset({"weight_ih", "weight_hh", "bias"}),
    "BatchNorm": frozenset({"weight", "bias", "axis_name", "inference", "ema_first_time_index",
                            "ema_state_index", "init"}),
    "PReLU": frozenset({"negative_slope"}),
    "Dropout": frozenset({"p", "inference"}),
    "Identity": frozenset(),
}
# Normalisation layers, whose scale and bias weight-decay masks usually mean to exclude.
EQUINOX_NN_NORMS = frozenset({"LayerNorm", "RMSNorm", "GroupNorm", "BatchNorm"})
# equinox.nn layers with no array leaf at all: nothing of theirs is trained.
EQUINOX_NN_WITHOUT_ARRAYS = {
    "Identity", "Lambda", "Dropout", "Pool", "AdaptivePool", "RotaryPositionalEmbedding",
    *(f"{kind}Pool{d}d" for kind in ("Max", "Avg") for d in (1, 2, 3)),
    *(f"Adaptive{kind}Pool{d}d" for kind in ("Max", "Avg") for d in (1, 2, 3)),
}
# Containers whose leaves are those of the layers they are given.
EQUINOX_NN_CONTAINERS = {"Sequential"}

# Annotations that mean "this field is an array".
ARRAY_ANNOTATIONS = {
    "jax.Array", "jax.numpy.ndarray", "jax.numpy.array", "numpy.ndarray", "jaxtyping.Array",
    "jaxtyping.Float", "jaxtyping.Int", "jaxtyping.Bool", "jaxtyping.Shaped", "jaxtyping.Inexact",
    "jaxtyping.Num", "jaxtyping.Real", "jaxtyping.Complex", "jaxtyping.Key", "jaxtyping.PRNGKeyArray",
    "jaxtyping.ArrayLike", "jaxtyping.Float32", "jax.typing.ArrayLike", "Array",
}
CALLABLE_ANNOTATIONS = {"typing.Callable", "collections.abc.Callable", "Callable"}
SCALAR_ANNOTATIONS = {"float", "int", "bool", "str", "complex"}

# Namespaces whose functions return arrays (`jnp.array(0.0)`, `jax.random.normal(key, ...)`), and
# the few functions there that return something else.
ARRAY_NAMESPACES = ("jax.numpy.", "jax.random.", "numpy.")
NOT_ARRAY_RESULTS = {"shape", "ndim", "size", "issubdtype", "isscalar", "iscomplexobj",
                     "isrealobj", "result_type", "dtype", "promote_types", "can_cast", "iinfo",
                     "finfo", "key_impl", "vectorize", "frompyfunc"}


# Methods of an array that give an array of the same library (`data.mean(axis=0)`). Methods
# that only reshape (`reshape`, `ravel`) are left out: key arrays go through them, and the key
# analysis reads their values.
ARRAY_METHODS = {"mean", "std", "var", "sum", "max", "min", "prod", "astype", "cumsum", "clip",
                 "round", "argmax", "argmin"}


def returns_array(qualified: str) -> bool:
    """Whether calling the library function `qualified` gives an array."""
    if not qualified.startswith(ARRAY_NAMESPACES):
        return False
    leaf = qualified.rsplit(".", 1)[-1]
    return leaf[:1].islower() and leaf not in NOT_ARRAY_RESULTS or leaf == "PRNGKey"


# Optax functions that do not build gradient transformations.
OPTAX_NON_TRANSFORMS = {
    "optax.apply_updates", "optax.incremental_update", "optax.periodic_update", "optax.global_norm",
    "optax.value_and_grad_from_state", "optax.safe_norm", "optax.safe_root_mean_squares",
    "optax.tree_utils", "optax.GradientTransformation", "optax.EmptyState",
    "optax.GradientTransformationExtraArgs",
}
OPTAX_NON_TRANSFORM_SUFFIXES = ("_schedule", "_loss", "_cross_entropy", "_with_integer_labels")
OPTAX_LOSS_PREFIXES = ("optax.losses.", "optax.schedules.", "optax.tree_utils.", "optax.tree.",
                       "optax.projections.", "optax.perturbations.", "optax.assignment.")
# Schedules: callables Optax's inject_hyperparams is meant to receive.
OPTAX_SCHEDULE_PREFIX = "optax.schedules."


def is_optax_transform_factory(qualified: str) -> bool:
    if not qualified.startswith("optax.") or qualified in OPTAX_NON_TRANSFORMS:
        return False
    if qualified.startswith(OPTAX_LOSS_PREFIXES) or qualified.endswith(OPTAX_NON_TRANSFORM_SUFFIXES):
        return False
    leaf = qualified.rsplit(".", 1)[-1]
    return leaf not in {"l2_loss", "huber_loss", "hinge_loss", "cosine_similarity",
                        "cosine_distance", "squared_error", "log_cosh", "ctc_loss",
                        "smooth_labels", "join_schedules"}


def is_optax_schedule(qualified: str) -> bool:
    return qualified.startswith(OPTAX_SCHEDULE_PREFIX) or qualified.endswith("_schedule") or (
        qualified == "optax.join_schedules")


# Function transformations: calling them on a function gives a function. "jit" traces every
# argument not named static; "grad" differentiates the `argnums` arguments (default: the first).
# The Equinox ones (and Optax's) filter non-array leaves out themselves.
JAX_FUNCTION_TRANSFORMS = {"jax.jit": "jit", "jax.grad": "grad", "jax.value_and_grad": "grad"}
FILTERING_FUNCTION_TRANSFORMS = {
    "equinox.filter_jit": "jit", "equinox.filter_grad": "grad",
    "equinox.filter_value_and_grad": "grad", "optax.value_and_grad_from_state": "grad",
}
# Their Equinox counterparts, for fixes.
EQUINOX_COUNTERPARTS = {"jax.jit": "filter_jit", "jax.grad": "filter_grad",
                        "jax.value_and_grad": "filter_value_and_grad"}

# jaxopt solvers whose `run(init_params, ...)` jits the solver loop over the params: an Equinox
# module with function leaves raises `TypeError: Argument ... is not a valid JAX type`. Measured on
# jaxopt 0.8.5 with jax 0.10.2 for each of these.
JAXOPT_JITTED_SOLVERS = {"jaxopt.LBFGS", "jaxopt.BFGS", "jaxopt.GradientDescent",
                         "jaxopt.NonlinearCG"}

# Dtypes are callable, so inject_hyperparams takes them for schedules (`mu_dtype=jnp.bfloat16`
# raises TypeError: unhashable type).
DTYPE_NAMES = {"bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64",
               "uint8", "bool_", "complex64", "complex128"}


def is_dtype(qualified: str) -> bool:
    module, _, leaf = qualified.rpartition(".")
    return module in ("jax.numpy", "numpy") and leaf in DTYPE_NAMES
