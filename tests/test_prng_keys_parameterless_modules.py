"""OPT020 on a Flax `init` or `apply` of a project module class that shows no parameter (issue
#25, whole repositories, label27: jaqmc `solid_test.py:99` and `:159`, `SolidFeatures.init`
then `Envelope.init` on one key; scenic `test_nn_layers.py:86` and `:98`, `StochasticDepth` at
rate 0 and 1 applied with the key another rate's apply draws from; all FP, no random number
drawn). Flax draws only for what the module makes (`self.param`, `self.variable`,
`self.make_rng`) and for its submodules; a class whose code shows none, computing in `setup`
through a helper the analysis does not follow, is `--preview` only, saying so; one whose only
submodule is a Dropout built at rate 0 or 1 (which draws nothing there) and which calls only
library functions draws nothing: silent. Look-alikes reported by default: two modules making
parameters, a parameterless class holding a submodule in a field, one handing `self` to a
helper, and the Dropout module at rate 0.5 twice. Run with Flax where installed (bench-venv,
flax 0.12.8): the features' `init` gives nothing for any key, the scales' `init` gives equal
parameters from one key, the Dropout module at rate 0 and 1 gives the same for any key."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from conftest import finding_line, run_optlint_in_process

MODELS = '''\
import flax.linen as nn
import jax.numpy as jnp

from helpers import lattice_vectors


class Features(nn.Module):
    lattice: jnp.ndarray

    def setup(self):
        self.vectors = lattice_vectors(self.lattice)

    def __call__(self, x):
        return x @ self.vectors


class Scale(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        w = self.param("w", nn.initializers.normal(), (x.shape[-1], self.features))
        return x @ w


class Holder(nn.Module):
    body: nn.Module

    def __call__(self, x):
        return self.body(x)


class Helped(nn.Module):
    def setup(self):
        self.w = make_weight(self)

    def __call__(self, x):
        return x * self.w


class Depth(nn.Module):
    rate: float = 0.0

    @nn.compact
    def __call__(self, x, deterministic=None):
        return nn.Dropout(rate=self.rate, broadcast_dims=range(1, x.ndim))(x, deterministic)


def make_weight(module):
    return module.param("w", nn.initializers.normal(), (3,))
'''

HELPERS = '''\
import jax.numpy as jnp


def lattice_vectors(lattice):
    return jnp.linalg.inv(lattice)
'''

TEST = '''\
import jax
import jax.numpy as jnp

from models import Features, Helped, Holder, Scale


def test_features():
    key = jax.random.key(0)
    x = jnp.ones((2, 3))
    features = Features(lattice=jnp.eye(3))
    scale = Scale(4)
    feature_vars = features.init(key, x)
    scale_vars = scale.init(key, features.apply(feature_vars, x))
    return scale.apply(scale_vars, x)


def test_scales():
    key = jax.random.key(0)
    x = jnp.ones((2, 3))
    first = Scale(4)
    second = Scale(4)
    a = first.init(key, x)
    b = second.init(key, x)
    return first.apply(a, x) + second.apply(b, x)


def test_held():
    key = jax.random.key(0)
    x = jnp.ones((2, 3))
    holder = Holder(Scale(3))
    scale = Scale(3)
    a = holder.init(key, x)
    b = scale.init(key, x)
    return holder.apply(a, x) + scale.apply(b, x)


def test_helped():
    key = jax.random.key(0)
    x = jnp.ones((2, 3))
    helped = Helped()
    scale = Scale(3)
    a = helped.init(key, x)
    b = scale.init(key, x)
    return helped.apply(a, x) + scale.apply(b, x)
'''


DEPTHS = '''\
import jax
import jax.numpy as jnp

from models import Depth


def test_depth():
    rngs = {"dropout": jax.random.key(0)}
    x = jnp.ones((8, 3))
    none = Depth(rate=0.0).apply({}, x, deterministic=False, rngs=rngs)
    half = Depth(rate=0.5).apply({}, x, deterministic=False, rngs=rngs)
    every = Depth(rate=1.0).apply({}, x, deterministic=False, rngs=rngs)
    again = Depth(rate=0.5).apply({}, x, deterministic=False, rngs=rngs)
    return none, half, every, again
'''


def _findings(tmp_path: Path, *extra: str) -> list[tuple[int, str]]:
    (tmp_path / "models.py").write_text(MODELS)
    (tmp_path / "helpers.py").write_text(HELPERS)
    (tmp_path / "test_models.py").write_text(TEST)
    result = run_optlint_in_process("check", "test_models.py", "--select", "OPT020",
                                    "--no-cache", "--output-format", "json", *extra,
                                    cwd=tmp_path)
    return sorted((finding_line(f), f["message"]) for f in json.loads(result.stdout))


def test_a_module_showing_no_parameter_is_preview(tmp_path: Path) -> None:
    # The scales, the held submodule and the helper given `self` draw: reported.
    assert [line for line, _ in _findings(tmp_path)] == [23, 33, 43]
    previewed = _findings(tmp_path, "--preview")
    assert [line for line, _ in previewed] == [13, 23, 33, 43]
    assert "whether it draws is not seen" in previewed[0][1]


def test_dropouts_idle_at_their_rate_draw_nothing(tmp_path: Path) -> None:
    (tmp_path / "models.py").write_text(MODELS)
    (tmp_path / "helpers.py").write_text(HELPERS)
    (tmp_path / "test_depth.py").write_text(DEPTHS)
    for extra in ((), ("--preview",)):
        result = run_optlint_in_process("check", "test_depth.py", "--select", "OPT020",
                                        "--no-cache", "--output-format", "json", *extra,
                                        cwd=tmp_path)
        # Only the second module at rate 0.5 after the first.
        assert [finding_line(f) for f in json.loads(result.stdout)] == [13]


def _modules() -> dict[str, Any]:
    pytest.importorskip("flax")
    helpers = types.ModuleType("helpers")
    models = types.ModuleType("models")
    sys.modules.update(helpers=helpers, models=models)  # dataclasses look a module up
    try:
        exec(compile(HELPERS, "helpers.py", "exec"), helpers.__dict__)
        exec(compile(MODELS, "models.py", "exec"), models.__dict__)
    finally:
        del sys.modules["helpers"], sys.modules["models"]
    return models.__dict__


def test_run_with_flax_the_features_draw_nothing() -> None:
    import jax
    import jax.numpy as jnp
    import numpy as np

    models = _modules()
    x = jnp.ones((2, 3))
    features = models["Features"](lattice=2 * jnp.eye(3))
    assert features.init(jax.random.key(0), x) == {} == features.init(jax.random.key(1), x)
    first, second = models["Scale"](4).init(jax.random.key(0), x), models["Scale"](4).init(
        jax.random.key(0), x)
    assert np.array_equal(first["params"]["w"], second["params"]["w"])
    for rate, expected in ((0.0, 1.0), (1.0, 0.0)):
        depth = models["Depth"](rate=rate)
        for seed in (0, 1):
            out = depth.apply({}, x, deterministic=False, rngs={"dropout": jax.random.key(seed)})
            assert bool((out == expected).all())
    held = models["Holder"](models["Scale"](3)).init(jax.random.key(0), x)
    helped = models["Helped"]().init(jax.random.key(0), x)
    assert held["params"] and helped["params"]  # both draw parameters
