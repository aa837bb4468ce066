"""OPT020 on a sampling pipeline called once per batch with one key array (issue #25, loops;
diffusers de82e59 "fix sample rng", the blind case
`loop_notebook_class_images_same_device_keys_every_batch.ipynb`). Three steps of the key's
path, each checked by the real command line with its look-alike, and run with JAX:
- the pipeline's `__call__` maps a *method* (`sample = jax.vmap(self._sample, ...)`) and calls
  the name it bound;
- it calls it through a choice between the function and its compiled form
  (`(jax.jit(sample) if jit else sample)(...)`);
- each batch keeps a value made from the draw (`images.append(np.asarray(out).reshape(-1, 4))`),
  not the draw's name itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import finding_line, opt020_findings, opt020_lines

PROGRAM = '''\
import jax
import numpy as np


class Pipeline:
    def _sample(self, prompt, prng_seed):
        return prompt + jax.random.normal(prng_seed, (4,))

    def __call__(self, prompt_ids, prng_seed, jit=True):
        sample = jax.vmap(self._sample, in_axes=(0, 0))
        return (jax.jit(sample) if jit else sample)(prompt_ids, prng_seed)


pipeline = Pipeline()


def class_images(batches, rng):
    rng = jax.random.split(rng, 2)
    images = []
    for prompt_ids in batches:
        out = pipeline(prompt_ids, rng, jit=True)
        images.append(np.asarray(out).reshape(-1, 4))
    return images
'''
LINE = 21  # `out = pipeline(prompt_ids, rng, jit=True)`

# The fix: a fresh key for every batch.
SPLIT = PROGRAM.replace("    rng = jax.random.split(rng, 2)\n", "").replace(
    "        out = pipeline(prompt_ids, rng, jit=True)",
    "        rng, batch_rng = jax.random.split(rng)\n"
    "        out = pipeline(prompt_ids, jax.random.split(batch_rng, 2), jit=True)")
# Calls without the choice, and a kept value without the method: each step alone.
NAMED = PROGRAM.replace("(jax.jit(sample) if jit else sample)", "sample")
KEPT_NAME = PROGRAM.replace("images.append(np.asarray(out).reshape(-1, 4))",
                            "images.append(out)")
# Look-alikes: the arms run different functions; what is kept is the draws' shape only.
OTHER_ARM = PROGRAM.replace("(jax.jit(sample) if jit else sample)",
                            "(jax.jit(sample) if jit else self.plain)").replace(
    "    def __call__", "    def plain(self, prompt_ids, prng_seed):\n"
                      "        return prompt_ids\n\n    def __call__")
SHAPES = PROGRAM.replace("images.append(np.asarray(out).reshape(-1, 4))",
                         "images.append(out.shape)")


def _images(source: str) -> list[Any]:
    pytest.importorskip("jax")
    import jax

    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    batches = [jax.numpy.zeros((2, 4))] * 2
    return namespace["class_images"](batches, jax.random.key(0))


def test_every_batch_makes_the_same_images(tmp_path: Path) -> None:
    first, second = _images(PROGRAM)
    assert (first == second).all()
    assert opt020_lines(tmp_path, "dreambooth.py", PROGRAM) == [LINE]


@pytest.mark.parametrize("source", [NAMED, KEPT_NAME], ids=["named", "kept_name"])
def test_each_step_alone_is_followed(tmp_path: Path, source: str) -> None:
    first, second = _images(source)
    assert (first == second).all()
    assert opt020_lines(tmp_path, "dreambooth.py", source) == [LINE]


def test_a_fresh_key_per_batch_is_silent(tmp_path: Path) -> None:
    first, second = _images(SPLIT)
    assert not (first == second).any()
    assert opt020_lines(tmp_path, "dreambooth.py", SPLIT) == []


def test_arms_running_different_functions_are_not_read_as_one(tmp_path: Path) -> None:
    # Without `jit` the call draws nothing: which arm runs is not known, nothing is proven.
    assert opt020_lines(tmp_path, "dreambooth.py", OTHER_ARM) == []


def test_keeping_only_the_shape_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "dreambooth.py", SHAPES) == []


STATIC = '''\
import jax


class Agent:
    @staticmethod
    def _represent(params, x, deterministic, rng):
        return x * params + jax.random.normal(rng, x.shape) * (0.0 if deterministic else 1.0)

    def represent(self, params, xs, deterministic, rng):
        keys = jax.random.split(rng, xs.shape[0])
        batch_fn = jax.vmap(self._represent, in_axes=(None, 0, None, 0))
        return batch_fn(params, xs, deterministic, keys)
'''
# The same mapped method given one key for every row.
STATIC_BROADCAST = STATIC.replace("in_axes=(None, 0, None, 0)", "in_axes=(None, 0, None, None)"
                                  ).replace("deterministic, keys)", "deterministic, rng)")


def _represented(source: str) -> Any:
    pytest.importorskip("jax")
    import jax

    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    return namespace["Agent"]().represent(1.0, jax.numpy.zeros((2, 3)), False, jax.random.key(0))


def test_a_mapped_static_method_is_given_no_object(tmp_path: Path) -> None:
    # `jax.vmap(self._represent)` runs a `@staticmethod`: the flag is the flag, the key the key.
    rows = _represented(STATIC)
    assert not (rows[0] == rows[1]).any()
    assert opt020_lines(tmp_path, "agent.py", STATIC) == []


def test_a_mapped_static_method_given_one_key_for_every_row(tmp_path: Path) -> None:
    rows = _represented(STATIC_BROADCAST)
    assert (rows[0] == rows[1]).all()
    found = opt020_findings(tmp_path, "agent.py", STATIC_BROADCAST)
    assert [(finding_line(f), f["message"].split("`")[1]) for f in found] == [(12, "rng")]
