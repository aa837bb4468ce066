"""OPT020 on a key made from a literal seed in a function a loop of training steps runs through
its calls (issue #25, held-out set 5: cyclegan-jax 3f61c04, `rngs = {"dropout":
jax.random.PRNGKey(1337)}` in `CycleGan.train_generator_forward`, which the jitted
`generator_step` runs through its loss, and the training loop in `train.py` calls as
`loss, g_state, _ = generator_step(model, g_state, ...)`: the same dropout masks on every
step). Three causes, each here: the loop found through the callers (in the file or in another
file of the project, threading its state through the call), the key given in a dict the function
binds to a name (`rngs=rngs`), and the model a class of another project file (its Flax base read
there). Beside look-alikes that stay silent: a loop that only reads what it is given back (fixed
samples to compare steps), no loop at all, a builder, a test. The dropout masks are run with
Flax where installed: two steps, identical masks."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import opt020_lines

MODEL = '''\
import flax.linen as nn


class Generator(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dropout(0.5, deterministic=False)(nn.Dense(8)(x))
'''

GAN = '''\
from functools import partial

import jax

from networks import Generator


class CycleGan:
    def __init__(self):
        self.G = Generator()

    def forward(self, params, x):
        rngs = {"dropout": jax.random.PRNGKey(1337)}
        return self.G.apply({"params": params}, x, rngs=rngs)


@partial(jax.jit, static_argnums=0)
def generator_step(model: CycleGan, params, x):
    def loss_fn(p):
        return model.forward(p, x).mean()

    return params - jax.grad(loss_fn)(params)
'''

TRAIN = '''\
from gan import CycleGan, generator_step


def train(params, batches):
    model = CycleGan()
    for x in batches:
        params = generator_step(model, params, x)
    return params
'''

# The loop in the file itself, the model too.
ONE_FILE = (MODEL + GAN.replace("from networks import Generator\n", "")
            + "\n\n" + TRAIN.split("\n\n\n", 1)[1])

# The loop keeps what each call returns apart: samples from a fixed key, compared across steps.
SAMPLES = TRAIN.replace("        params = generator_step(model, params, x)",
                        "        print(generator_step(model, params, x))")

# Nothing calls the step in a loop.
NO_LOOP = TRAIN.replace("    for x in batches:\n        params = generator_step(model, params, x)",
                        "    params = generator_step(model, params, batches[0])")

# A builder draws once.
BUILDER = ONE_FILE.replace("def forward(", "def init_forward(").replace(
    "model.forward(", "model.init_forward(")



def _project(tmp_path: Path, train: str = TRAIN) -> None:
    (tmp_path / "networks.py").write_text(MODEL)
    (tmp_path / "train.py").write_text(train)


def test_a_literal_dropout_key_in_a_method_a_training_loop_runs(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "gan.py", ONE_FILE, "--preview") == [20]
    # Whether the draws reach a result on each step is not seen: `--preview` only (on whole
    # repositories such draws mostly fed a structure, a timing or an overwritten init).
    assert opt020_lines(tmp_path, "gan.py", ONE_FILE) == []


def test_the_loop_and_the_model_in_other_files(tmp_path: Path) -> None:
    _project(tmp_path)
    assert opt020_lines(tmp_path, "gan.py", GAN, "--preview") == [14]


@pytest.mark.parametrize("train", [SAMPLES, NO_LOOP], ids=["samples", "no loop"])
def test_loops_that_are_no_training_steps_are_silent(tmp_path: Path, train: str) -> None:
    _project(tmp_path, train)
    assert opt020_lines(tmp_path, "gan.py", GAN, "--preview") == []


def test_builders_and_test_files_are_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "gan.py", BUILDER, "--preview") == []
    assert opt020_lines(tmp_path, "test_gan.py", ONE_FILE, "--preview") == []  # fixed on purpose


def test_every_step_draws_the_same_dropout_mask() -> None:
    pytest.importorskip("flax")
    import jax
    import jax.numpy as jnp

    namespace: dict[str, object] = {}
    exec(compile(MODEL, "networks.py", "exec"), namespace)
    generator = namespace["Generator"]()  # type: ignore[operator]
    x = jnp.ones((1, 4))
    params = generator.init(jax.random.PRNGKey(0), x)["params"]
    rngs = {"dropout": jax.random.PRNGKey(1337)}
    first = generator.apply({"params": params}, x, rngs=rngs)
    second = generator.apply({"params": params}, x, rngs={"dropout": jax.random.PRNGKey(1337)})
    assert bool((first == second).all())


# The dict bound to a name in a method compiled as a step (d2l 8071eea's shape, `rngs=rngs`).
COMPILED_METHOD = MODEL + '''

from functools import partial

import jax


class Classifier:
    def __init__(self):
        self.model = Generator()

    @partial(jax.jit, static_argnums=(0,))
    def loss(self, params, x):
        rngs = {"dropout": jax.random.PRNGKey(0)}
        return self.model.apply({"params": params}, x, rngs=rngs).mean()
'''

# Two applies of a Flax model of another project file given one key: the same masks in both.
TWO_APPLIES = '''\
from networks import Generator


class Pair:
    def __init__(self):
        self.G = Generator()

    def forward(self, params_a, params_b, x, rngs):
        fake = self.G.apply({"params": params_a}, x, rngs=rngs)
        return self.G.apply({"params": params_b}, fake, rngs=rngs)
'''


def test_a_literal_key_in_a_dict_bound_to_a_name(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "classifier.py", COMPILED_METHOD) == [22]


def test_a_flax_model_of_another_project_file(tmp_path: Path) -> None:
    (tmp_path / "networks.py").write_text(MODEL)
    assert opt020_lines(tmp_path, "pair.py", TWO_APPLIES) == [10]
