"""Rng streams, as data: library calls drawing from an implicit stream or an object holding
streams (Haiku's `next_rng_key`, Flax's `Rngs` and named collections), the transformations
that split or broadcast them, and Python-side seed sources."""

from __future__ import annotations

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

# Objects that hold rng streams made from a seed (`nnx.Rngs(0)`, `hk.PRNGSequence(0)`): made
# from the same int, their draws are the same (flax 0.12.8: two `nnx.Rngs(0)` drew the same
# keys, in order), so one made from a constant where a step runs gives every step the same.
SEEDED_STREAMS = frozenset({"flax.nnx.Rngs", "flax.nnx.rnglib.Rngs", "haiku.PRNGSequence"})

# Python-side seed sources (by the prefix of their qualified name): random numbers, the clock.
PYTHON_RANDOM = ("numpy.random.", "random.", "time.time", "secrets.", "os.urandom")
