"""What the layers of Flax linen and Haiku put in a parameter tree: the leaf names each layer
creates, the module name Haiku gives an unnamed one, and which layers normalise. Data only; read
by `library_param_paths`.

Flax names an unnamed submodule `<Class>_<n>` (`LayerNorm_0`) and a submodule given `name=` by
that name; Haiku names a module by its class in snake case (`layer_norm`, then `layer_norm_1`)
unless given `name=`. Leaf names as flax 0.10 / dm-haiku 0.0.13 create them.
"""

from __future__ import annotations

FLAX_MODULE_BASES = frozenset({"flax.linen.Module", "flax.linen.module.Module"})
FLAX_COMPACT = frozenset({"flax.linen.compact", "flax.linen.module.compact"})
# Lifted transformations applied to a module class: the result builds that class's submodule.
# `stacks`: the parameters gain a leading axis (one slice per layer or per batch element).
FLAX_LIFTED = {"flax.linen.scan": True, "flax.linen.vmap": True, "flax.linen.remat": False,
               "flax.linen.checkpoint": False, "flax.linen.jit": False}

_KERNEL_BIAS = frozenset({"kernel", "bias"})
FLAX_LAYER_LEAVES: dict[str, frozenset[str]] = {
    **{name: _KERNEL_BIAS for name in (
        "Dense", "DenseGeneral", "Conv", "ConvTranspose", "ConvLocal", "Einsum")},
    "Embed": frozenset({"embedding"}),
    "LayerNorm": frozenset({"scale", "bias"}),
    "RMSNorm": frozenset({"scale"}),
    "GroupNorm": frozenset({"scale", "bias"}),
    "BatchNorm": frozenset({"scale", "bias", "mean", "var"}),
    **{name: frozenset({"query", "key", "value", "out", "kernel", "bias"}) for name in (
        "MultiHeadDotProductAttention", "MultiHeadAttention", "SelfAttention")},
    "Dropout": frozenset(),
}
FLAX_NORMS = frozenset({"LayerNorm", "RMSNorm", "GroupNorm", "BatchNorm"})
# The collections `init` returns the parameters under.
FLAX_COLLECTIONS = frozenset({"params", "batch_stats"})

HAIKU_TRANSFORMS = frozenset({"haiku.transform", "haiku.transform_with_state"})
HAIKU_RNG_WRAPPERS = frozenset({"haiku.without_apply_rng"})
# Layer -> (its default module name, the leaf names it creates).
HAIKU_LAYERS: dict[str, tuple[str, frozenset[str]]] = {
    "Linear": ("linear", frozenset({"w", "b"})),
    "LayerNorm": ("layer_norm", frozenset({"scale", "offset"})),
    "RMSNorm": ("rms_norm", frozenset({"scale"})),
    "GroupNorm": ("group_norm", frozenset({"scale", "offset"})),
    "BatchNorm": ("batch_norm", frozenset({"scale", "offset"})),
    "Embed": ("embed", frozenset({"embeddings"})),
    **{f"Conv{d}D": (f"conv{d}_d", frozenset({"w", "b"})) for d in (1, 2, 3)},
}
HAIKU_NORMS = frozenset({"LayerNorm", "RMSNorm", "GroupNorm", "BatchNorm"})

# How each library names the paths a mask sees, for messages.
PATH_NAMING = {
    "flax": ("Flax names an unnamed layer `<Class>_<n>` (`LayerNorm_0`) and a named one by its "
             "`name`; its norms hold `scale` and `bias`"),
    "haiku": ("Haiku names modules in snake case (`layer_norm`, `linear_1`) and its layers hold "
              "`w`, `b`, `scale` and `offset`"),
}

# transformers' Flax models: `model.params` is the parameter tree of the linen module class the
# model class names in `module_class` (FlaxPreTrainedModel.__init__ runs `module_class(...).init`
# and keeps the result's params).
FLAX_PRETRAINED_BASES = frozenset({"transformers.FlaxPreTrainedModel",
                                   "transformers.modeling_flax_utils.FlaxPreTrainedModel"})
FLAX_PRETRAINED_MODULE_ATTRIBUTE = "module_class"
FLAX_PRETRAINED_PARAMS_ATTRIBUTE = "params"

# Flax's training state: `create(..., tx=optimizer)` builds it; these methods return another.
FLAX_TRAIN_STATE_CREATE = frozenset({"flax.training.train_state.TrainState.create"})
FLAX_TRAIN_STATE_METHODS = frozenset({"apply_gradients", "replace"})
