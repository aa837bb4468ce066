"""OPT020 on keys held by models (issue #25, other libraries' consumers and keys through state):
Flax linen's `nn.Dropout(rate)(x, rng=key)` draws its mask from the key it is given; a module
field holding a default key given through `dataclasses.field(default_factory=...)`; a key made
from a constant seed in a model's method or a traced step (every call the same numbers); and
`jax.pmap(step, "device", in_axes=(0, None))`, whose second positional argument is the axis
name, not `in_axes`. Each beside a correct look-alike that stays silent; checked by the real
command line, and with real JAX (and Flax where installed) where cheap."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

LINEN_DROPOUTS = '''\
import flax.linen as nn
import jax


class Block(nn.Module):
    rate: float = 0.5

    @nn.compact
    def __call__(self, x, rng, training: bool):
        h = nn.Dropout(self.rate, deterministic=not training)(x, rng=rng)
        return h, nn.Dropout(self.rate, deterministic=not training)(x, rng=rng)
'''

LINEN_DROPOUTS_SPLIT = LINEN_DROPOUTS.replace(
    "        h = nn.Dropout(self.rate, deterministic=not training)(x, rng=rng)\n"
    "        return h, nn.Dropout(self.rate, deterministic=not training)(x, rng=rng)",
    "        first, second = jax.random.split(rng)\n"
    "        h = nn.Dropout(self.rate, deterministic=not training)(x, rng=first)\n"
    "        return h, nn.Dropout(self.rate, deterministic=not training)(x, rng=second)")


def _program(source: str) -> dict[str, Any]:
    """The namespace of `source` run as a module (dataclasses look their module up)."""
    module = types.ModuleType("program_under_test")
    sys.modules[module.__name__] = module
    try:
        exec(compile(source, "program.py", "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return module.__dict__


def _linen_masks(source: str) -> Any:
    pytest.importorskip("flax")
    import jax
    import jax.numpy as jnp

    return _program(source)["Block"]().apply({}, jnp.ones((4, 16)), jax.random.PRNGKey(1), True)


def test_two_linen_dropouts_given_one_rng(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "block.py", LINEN_DROPOUTS) == [11]


def test_linen_dropouts_given_split_keys_are_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "block.py", LINEN_DROPOUTS_SPLIT) == []


def test_linen_dropouts_run_with_flax() -> None:
    first, second = _linen_masks(LINEN_DROPOUTS)
    assert bool((first == second).all())
    first, second = _linen_masks(LINEN_DROPOUTS_SPLIT)
    assert not bool((first == second).all())


FIELD_DEFAULT = '''\
import dataclasses
from typing import Any

import jax


@dataclasses.dataclass
class Noise:
    scale: float = 1.0
    rng: Any = dataclasses.field(default_factory=lambda: jax.random.PRNGKey(0))

    def sample(self):
        return self.scale * jax.random.normal(self.rng, (3,))


def make(scale):
    return Noise(scale)
'''

FIELD_GIVEN = FIELD_DEFAULT.replace(
    "def make(scale):\n    return Noise(scale)",
    "def make(scale, key):\n    return Noise(scale, rng=key)")


def test_a_default_factory_key_left_out_where_built(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    namespace = _program(FIELD_DEFAULT)
    assert bool((namespace["make"](1.0).sample() == namespace["make"](1.0).sample()).all())
    assert opt020_lines(tmp_path, "noise.py", FIELD_DEFAULT) == [10]


def test_a_default_factory_key_given_where_built_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "noise.py", FIELD_GIVEN) == []


CONSTANT_IN_METHOD = '''\
import equinox as eqx
import jax


class Masker(eqx.Module):
    ratio: float = 0.5

    def __call__(self, x, key):
        mask = jax.random.bernoulli(jax.random.key(0), self.ratio, x.shape)
        return x * mask
'''

KEY_IN_METHOD = CONSTANT_IN_METHOD.replace("jax.random.key(0), self.ratio", "key, self.ratio")

CONSTANT_IN_CONSTRUCTOR = '''\
import equinox as eqx
import jax


class Frozen(eqx.Module):
    projection: jax.Array

    def __init__(self, size):
        self.projection = jax.random.normal(jax.random.key(0), (size, size))

    def __call__(self, x):
        return self.projection @ x
'''

CONSTANT_IN_STEP = '''\
import jax


@jax.jit
def noisy_step(params, x):
    key = jax.random.PRNGKey(42)
    return params - 0.1 * jax.random.normal(key, params.shape) * x
'''


def test_a_constant_key_in_a_model_method(tmp_path: Path) -> None:
    pytest.importorskip("equinox")
    import jax
    import jax.numpy as jnp

    namespace = _program(CONSTANT_IN_METHOD)
    masker, x = namespace["Masker"](), jnp.ones(64)
    first = masker(x, jax.random.key(1))
    assert bool((first == masker(x, jax.random.key(2))).all())  # the key given is ignored
    assert opt020_lines(tmp_path, "masker.py", CONSTANT_IN_METHOD) == [9]


def test_the_key_given_to_the_method_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "masker.py", KEY_IN_METHOD) == []


def test_a_constant_key_in_a_constructor_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "frozen.py", CONSTANT_IN_CONSTRUCTOR) == []


CONSTANT_AS_FALLBACK = CONSTANT_IN_METHOD.replace(
    "        mask = jax.random.bernoulli(jax.random.key(0), self.ratio, x.shape)",
    "        if key is None:\n"
    "            key = jax.random.key(0)\n"
    "        mask = jax.random.bernoulli(key, self.ratio, x.shape)")


def test_a_constant_key_outside_a_model_or_as_a_fallback_is_silent(tmp_path: Path) -> None:
    # A jitted function is not known to run more than once; a fallback for a missing key is
    # not the key the method draws from when given one.
    assert opt020_lines(tmp_path, "step.py", CONSTANT_IN_STEP) == []
    assert opt020_lines(tmp_path, "masker.py", CONSTANT_AS_FALLBACK) == []


PMAP_BROADCAST = '''\
import jax


def train(params, xs, keys):
    def step(params, x, key):
        return params + jax.random.normal(key, x.shape) * x

    p_step = jax.pmap(step, "device", in_axes=(None, 0, None))
    for key in keys:
        params = p_step(params, xs, key)[0]
    return params
'''

PMAP_PER_DEVICE = PMAP_BROADCAST.replace("in_axes=(None, 0, None)", "in_axes=(None, 0, 0)")


def test_pmap_with_its_axis_name_given_by_position(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "train.py", PMAP_BROADCAST) == [10]


def test_pmap_with_a_key_per_device_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "train.py", PMAP_PER_DEVICE) == []


STREAMS_IN_METHOD = '''\
import jax
from flax import nnx


class Noisy(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.rngs = rngs

    def __call__(self, x):
        rngs = nnx.Rngs(noise=0)
        return x + jax.random.normal(rngs.noise(), x.shape)
'''

STREAMS_HELD = STREAMS_IN_METHOD.replace(
    "        rngs = nnx.Rngs(noise=0)\n"
    "        return x + jax.random.normal(rngs.noise(), x.shape)",
    "        return x + jax.random.normal(self.rngs.noise(), x.shape)")


def test_rng_streams_made_from_a_constant_in_a_model_method(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "noisy.py", STREAMS_IN_METHOD) == [10]


def test_rng_streams_the_model_holds_are_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "noisy.py", STREAMS_HELD) == []


# A layer built abstractly for its shapes (EasyDeL's `to_quantized`): the streams draw nothing.
STREAMS_TRACED = STREAMS_IN_METHOD.replace(
    "        rngs = nnx.Rngs(noise=0)\n"
    "        return x + jax.random.normal(rngs.noise(), x.shape)",
    "        return jax.eval_shape(lambda rngs: x + jax.random.normal(rngs.noise(), x.shape),\n"
    "                              nnx.Rngs(noise=0))")


def test_rng_streams_traced_for_shapes_in_a_model_method_are_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "noisy.py", STREAMS_TRACED) == []


def test_rng_streams_traced_for_shapes_give_shapes() -> None:
    pytest.importorskip("flax")
    import jax
    import jax.numpy as jnp

    traced = _program(STREAMS_TRACED)["Noisy"](None)(jnp.zeros(4))
    assert isinstance(traced, jax.ShapeDtypeStruct)


def test_rng_streams_made_from_one_seed_draw_alike() -> None:
    pytest.importorskip("flax")
    import jax.numpy as jnp

    noisy = _program(STREAMS_IN_METHOD)["Noisy"](None)
    x = jnp.zeros(4)
    assert bool((noisy(x) == noisy(x)).all())


LINEN_SCAN = '''\
import flax.linen as nn
import jax
import jax.numpy as jnp


class Layer(nn.Module):
    @nn.compact
    def __call__(self, carry, x):
        return carry, nn.Dropout(0.5, deterministic=False)(jnp.ones(8))


class Stack(nn.Module):
    @nn.compact
    def __call__(self, x):
        scanned = nn.scan(Layer, variable_broadcast="params",
                          split_rngs={"params": True, "dropout": False}, length=3)
        return scanned()(x, None)[1]
'''

LINEN_SCAN_SPLIT = LINEN_SCAN.replace('"dropout": False', '"dropout": True')
LINEN_SCAN_OFF = LINEN_SCAN.replace("deterministic=False", "deterministic=True")


def test_a_linen_scan_leaving_dropout_unsplit(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "stack.py", LINEN_SCAN) == [16]


def test_a_linen_scan_splitting_dropout_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "stack.py", LINEN_SCAN_SPLIT) == []
    assert opt020_lines(tmp_path, "stack.py", LINEN_SCAN_OFF) == []


def test_linen_scan_masks_run_with_flax() -> None:
    pytest.importorskip("flax")
    import jax
    import jax.numpy as jnp

    def masks(source: str) -> Any:
        stack = _program(source)["Stack"]()
        return stack.apply({}, jnp.zeros(()), rngs={"dropout": jax.random.key(0)})

    unsplit, split = masks(LINEN_SCAN), masks(LINEN_SCAN_SPLIT)
    assert bool((unsplit[0] == unsplit[1]).all())
    assert not bool((split[0] == split[1]).all())


HAIKU_SEQUENCE = '''\
import haiku as hk
import jax


def sample(key, n):
    seq = hk.PRNGSequence(key)
    noise = jax.random.normal(key, (n,))
    return noise, jax.random.normal(next(seq), (n,))
'''

HAIKU_SEQUENCE_SPLIT = HAIKU_SEQUENCE.replace(
    "    seq = hk.PRNGSequence(key)\n    noise = jax.random.normal(key, (n,))",
    "    seq_key, noise_key = jax.random.split(key)\n"
    "    seq = hk.PRNGSequence(seq_key)\n    noise = jax.random.normal(noise_key, (n,))")


def test_a_haiku_sequence_and_a_draw_from_its_key(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "sample.py", HAIKU_SEQUENCE) == [7]


def test_a_haiku_sequence_of_its_own_key_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "sample.py", HAIKU_SEQUENCE_SPLIT) == []


def test_a_haiku_sequence_repeats_the_split_of_its_key() -> None:
    pytest.importorskip("haiku")
    import haiku as hk
    import jax

    key = jax.random.key(0)
    first = next(hk.PRNGSequence(key))
    assert bool((jax.random.key_data(first) == jax.random.key_data(jax.random.split(key)[1])).all())


LINEN_DEFAULT_RNG = '''\
from typing import Any

import flax.linen as nn
import jax


class Head(nn.Module):
    rate: float = 0.5
    rng: Any = jax.random.PRNGKey(0)

    @nn.compact
    def __call__(self, x, training: bool):
        return nn.Dropout(self.rate, deterministic=not training)(x, rng=self.rng)


def build(rate):
    return Head(rate)
'''


def test_a_linen_module_left_with_its_default_rng(tmp_path: Path) -> None:
    # Reported at the default (every `Head` built without `rng` holds it) and at the draw
    # (the module's key, drawn from on every step).
    assert opt020_lines(tmp_path, "head.py", LINEN_DEFAULT_RNG) == [9, 13]


LINEN_VMAP_BARE_KEY = '''\
import flax.linen as nn
import jax
import jax.numpy as jnp


class Layer(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dropout(0.5, deterministic=False)(jnp.ones(8))


def samples(key):
    head = nn.vmap(Layer, in_axes=None, variable_axes={"params": None},
                   split_rngs={"params": False, "dropout": True}, axis_size=3)
    return head().apply({}, None, rngs=key)
'''

LINEN_VMAP_STREAMS = LINEN_VMAP_BARE_KEY.replace("rngs=key)", 'rngs={"dropout": key})')


def test_a_lifted_vmap_applied_with_a_bare_key(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "head.py", LINEN_VMAP_BARE_KEY) == [14]


def test_a_lifted_vmap_applied_with_a_dropout_stream_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "head.py", LINEN_VMAP_STREAMS) == []


def test_linen_vmap_rows_run_with_flax() -> None:
    pytest.importorskip("flax")
    import jax

    bare = _program(LINEN_VMAP_BARE_KEY)["samples"](jax.random.key(0))
    streams = _program(LINEN_VMAP_STREAMS)["samples"](jax.random.key(0))
    assert bool((bare[0] == bare[1]).all())
    assert not bool((streams[0] == streams[1]).all())


BOUND_PARTIAL = '''\
import functools

import flax.linen as nn
import jax


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dropout(0.5, deterministic=False)(nn.Dense(4)(x))


class Agent:
    def __init__(self, key):
        self.model = Net()
        init_key, dropout_key = jax.random.split(key)
        self.params = self.model.init(init_key, jax.numpy.ones((1, 4)))
        self.apply_fn = functools.partial(self.model.apply, rngs={"dropout": dropout_key})

    def step(self, x):
        return self.apply_fn(self.params, x)
'''

PARTIAL_CALLED_AT_ONCE = BOUND_PARTIAL.replace(
    '        self.apply_fn = functools.partial(self.model.apply, rngs={"dropout": dropout_key})',
    '        self.first = functools.partial(self.model.apply, rngs={"dropout": dropout_key})('
    'self.params, jax.numpy.ones((1, 4)))')


def test_a_key_bound_into_a_kept_apply_partial(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "agent.py", BOUND_PARTIAL) == [18]


def test_an_apply_partial_called_where_made_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "agent.py", PARTIAL_CALLED_AT_ONCE) == []


def test_a_kept_apply_partial_runs_with_flax() -> None:
    pytest.importorskip("flax")
    import jax
    import jax.numpy as jnp

    agent = _program(BOUND_PARTIAL)["Agent"](jax.random.key(0))
    x = jnp.ones((1, 4))
    assert bool((agent.step(x) == agent.step(x)).all())


NNX_DROPOUT_KEYS = '''\
from flax import nnx


class Head(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.drop = nnx.Dropout(0.5)
        self.lin = nnx.Linear(16, 16, rngs=rngs)

    def __call__(self, x, dropout_key):
        a = self.drop(self.lin(x), rngs=dropout_key)
        return a, self.drop(x, rngs=dropout_key)
'''

NNX_DROPOUT_STREAMS = NNX_DROPOUT_KEYS.replace("dropout_key", "rngs")


def test_an_nnx_dropout_given_one_key_twice(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "head.py", NNX_DROPOUT_KEYS) == [11]


def test_an_nnx_dropout_given_an_rngs_twice_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "head.py", NNX_DROPOUT_STREAMS) == []


def test_nnx_dropout_masks_run_with_flax() -> None:
    pytest.importorskip("flax")
    import jax
    import jax.numpy as jnp
    from flax import nnx

    x = jnp.ones((1, 16))
    keyed = _program(NNX_DROPOUT_KEYS)["Head"](nnx.Rngs(0))(x, jax.random.key(1))
    streamed = _program(NNX_DROPOUT_STREAMS)["Head"](nnx.Rngs(0))(x, nnx.Rngs(dropout=1))
    assert bool(((keyed[0] != 0) == (keyed[1] != 0)).all())
    assert not bool(((streamed[0] != 0) == (streamed[1] != 0)).all())
