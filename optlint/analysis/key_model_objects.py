"""What library calls and classes do with the objects they are given or make, as data: which
fields a layer's key draws, which calls hand back the pytree they are given, which objects hold
what they were made with, which transformations call their function as it is."""

from __future__ import annotations

from optlint.analysis import apis
from optlint.analysis.key_consumers import FLAX_MODULE

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

# Bases whose construction hands the call's arguments to the class's own `__init__` and reads
# them nowhere else (by qualified name; `object` as `_ancestors` names a class without bases).
# Measured (flax 0.12.8, equinox 0.13.8): an `nnx.Module` whose `__init__` ignores `rngs` leaves
# the `Rngs` it is given undrawn (its count stays 0) and a second `Rngs` of the same typed key
# raises no `KeyReuseError`; an `eqx.Module` built twice with one key it ignores raises none
# (tests/test_prng_keys_ignored_constructors.py).
PLAIN_CONSTRUCTION = frozenset({
    "object", "builtins.object", "flax.nnx.Module", "flax.nnx.module.Module", "equinox.Module",
})

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

# The transformations the evaluator wraps a function in (`values.TransformedFunction`) that
# return something other than what their function returns: its gradient (`jax.grad`), or the
# value beside the gradient (`value_and_grad` returns `(value, grad)`).
DIFFERENTIATING = frozenset(
    name for name, kind in (*apis.JAX_FUNCTION_TRANSFORMS.items(),
                            *apis.FILTERING_FUNCTION_TRANSFORMS.items()) if kind == "grad")
# Of those wrappers, the ones a training step runs under (compiled, differentiated, or
# rematerialised), called once per step with new keys; not batching or Haiku's transforms.
STEPPING = frozenset({*apis.JAX_FUNCTION_TRANSFORMS, *apis.FILTERING_FUNCTION_TRANSFORMS,
                      "flax.linen.jit", "flax.linen.remat", "flax.linen.checkpoint"})

# Methods that run another method of their object's class, named by a keyword, with the
# call's arguments after the ones they take first: flax.linen `model.apply(variables, x, key,
# method=Model.sample)` runs `Model.sample(x, key)` on the module bound to `variables` (flax
# 0.12.8: two such calls given one key drew equal values and raised KeyReuseError under
# `jax_debug_key_reuse`; `method="sample"` by name ran the same method). By the method's name:
# (the keyword naming the method run, how many leading arguments it does not pass on, the
# base classes the object's class must have).
METHOD_RUNNERS: dict[str, tuple[str, int, tuple[str, ...]]] = {
    "apply": ("method", 1, FLAX_MODULE),
}

# Base classes of models, whose methods (but their constructors) run on every step: Flax linen
# and NNX modules, Haiku modules (Equinox modules are told by the class itself).
MODEL_BASES = frozenset({
    "flax.linen.Module", "flax.linen.module.Module", "flax.nnx.Module", "flax.nnx.module.Module",
    "haiku.Module", "haiku._src.module.Module",
})
