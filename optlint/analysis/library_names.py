"""The library names the rules look for, by what they are: the Optax, Equinox, JAX (and Flax,
jaxtyping) qualified names and namespaces a rule compares a call or annotation with. What a
rule knows about a library is here (and in the other tables of optlint.analysis), never
spelled in the rule (tests/test_library_names.py)."""

from __future__ import annotations

from optlint.analysis.values import LibraryRef


EQUINOX_APPLY_UPDATES = "equinox.apply_updates"
EQUINOX_FIELD = "equinox.field"
EQUINOX_IS_ARRAY_LIKE = "equinox.is_array_like"
EQUINOX_MODULE = "equinox.Module"
EQUINOX_NN_PREFIX = "equinox.nn."
EQUINOX_PREFIX = "equinox."
EQUINOX_STATIC_FIELD = "equinox.static_field"
EQUINOX_TREE_AT = "equinox.tree_at"
JAXTYPING_PREFIX = "jaxtyping."
FUNCTOOLS_PARTIAL = "functools.partial"
# Calls that bind a function's leading arguments as `functools.partial` does (`jax.tree_util.
# Partial` is one that is also a pytree, to pass to transformations).
PARTIAL_MAKERS = frozenset({FUNCTOOLS_PARTIAL, "jax.tree_util.Partial"})
JAX_NUMPY = "jax.numpy"
JAX_RANDOM = "jax.random"
OPTAX_APPLY_UPDATES = "optax.apply_updates"
OPTAX_CHAIN = "optax.chain"
OPTAX_CONTRIB_PREFIX = "optax.contrib."
OPTAX_INJECT_HYPERPARAMS = "optax.inject_hyperparams"
OPTAX_LBFGS = "optax.lbfgs"
OPTAX_LOOKAHEAD = "optax.lookahead"
OPTAX_MASKED = "optax.masked"
OPTAX_MULTISTEPS = "optax.MultiSteps"
OPTAX_PREFIX = "optax."
OPTAX_TREE_GET = "optax.tree.get"
OPTAX_TREE_UTILS_TREE_GET = "optax.tree_utils.tree_get"
OPTAX_ZERO_NANS = "optax.zero_nans"

# Decorators that call the function with a configuration parsed from the command line, each field
# its class default unless a flag is given.
CONFIG_ENTRY_DECORATORS = ("pyrallis.wrap", "draccus.wrap")
STOP_GRADIENT = "jax.lax.stop_gradient"
EQUINOX_GRADIENT_WRAPPERS = {"equinox.filter_grad": "filter_grad",
                             "equinox.filter_value_and_grad": "filter_value_and_grad"}
EQUINOX_FILTER_CALLS = ("equinox.filter", "equinox.partition")
OPTAX_INJECT_FACTORIES = ("optax.inject_hyperparams", "optax.inject_stateful_hyperparams")
# What each raises when given a module whose leaves include functions (measured, optax 0.2.8).
LINESEARCH_INIT_ERRORS = {"optax.lbfgs": "`init` raises AttributeError",
                          "optax.scale_by_zoom_linesearch": "`init` raises TypeError",
                          "optax.scale_by_backtracking_linesearch": "`update` raises TypeError"}
# Masks built from a module by position (`eqx.tree_at(..., replace=True)`): what they leave out
# are ordinary weights.
STRUCTURAL_MASK_BUILDERS = {"equinox.tree_at"}
NNX_OPTIMIZERS = {"flax.nnx.Optimizer", "flax.nnx.optimizer.Optimizer", "flax.nnx.ModelAndOptimizer"}
SCHEDULE_FREE_EVAL_PARAMS = LibraryRef("optax.contrib.schedule_free_eval_params")
# Annotations that name a JAX array (not a NumPy one, not "anything array-like").
JAX_ARRAY_ANNOTATIONS = {"jax.Array", "jax.numpy.ndarray", "jaxtyping.Array",
                         "jaxtyping.PRNGKeyArray", "jax.random.KeyArray"}
JAX_CONVERTERS = {"jax.numpy.asarray", "jax.numpy.array"}
JAX_ARRAY_NAMESPACES = ("jax.numpy.", "jax.random.", "jax.nn.initializers.")
