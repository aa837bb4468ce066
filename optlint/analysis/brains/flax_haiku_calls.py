"""Flax linen's lifted transformations and Haiku's transforms: what their calls return.

`nn.scan(Layer, ...)` is a module class transformed (its instances stack their parameters);
`hk.transform(forward)` is a function whose `init` builds the parameter tree (`ParamTree`, read
by `library_param_paths`); `hk.without_apply_rng` returns what it wraps, as far as parameters go.
"""

from __future__ import annotations

from optlint.analysis import library_layers as layers
from optlint.analysis.brains.registry import LibraryCall, handles
from optlint.analysis.values import TrainStateValue, TransformedFunction, Value


@handles(*layers.FLAX_LIFTED)
def _lifted(call: LibraryCall) -> Value:
    return TransformedFunction(call.name, call.value(0, "target"), call.call)


@handles(*layers.HAIKU_TRANSFORMS)
def _haiku_transform(call: LibraryCall) -> Value:
    return TransformedFunction(call.name, call.value(0, "f"), call.call)


@handles(*layers.HAIKU_RNG_WRAPPERS)
def _without_apply_rng(call: LibraryCall) -> Value:
    return call.value(0, "f")


@handles(*layers.FLAX_TRAIN_STATE_CREATE)
def _train_state(call: LibraryCall) -> Value:
    return TrainStateValue(call.value(None, "tx"))
