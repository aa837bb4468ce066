"""OPT020 on a `jax.lax` loop whose body is a lambda closing over one key (issue #25, class 3):
`lax.map(lambda x: crop(x, key), xs)` hands every step the same key. Checked by the real command
line, and run with real JAX to show the steps draw the same numbers (the reuse) or differ (the
look-alike that maps over split keys)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

CROP = '''\
import jax
import jax.numpy as jnp


def jitter(image, key):
    return image + jax.random.normal(key, image.shape)


def augment(images, key):
    return jax.lax.map(lambda image: jitter(image, key), images)
'''

# The look-alike: each step is given a key of its own, split before the map.
CROP_SPLIT = CROP.replace(
    "    return jax.lax.map(lambda image: jitter(image, key), images)",
    "    keys = jax.random.split(key, images.shape[0])\n"
    "    return jax.lax.map(lambda pair: jitter(*pair), (images, keys))")


def _augmented(source: str) -> Any:
    pytest.importorskip("jax")
    import jax
    import jax.numpy as jnp

    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    return namespace["augment"](jnp.zeros((3, 4)), jax.random.key(0))


def test_lax_map_lambda_closing_over_one_key(tmp_path: Path) -> None:
    noise = _augmented(CROP)
    assert bool((noise == noise[0]).all())  # every step drew the same numbers
    assert opt020_lines(tmp_path, "crop.py", CROP) == [10]


def test_lax_map_over_split_keys_is_silent(tmp_path: Path) -> None:
    noise = _augmented(CROP_SPLIT)
    assert not bool((noise[1] == noise[0]).all())
    assert opt020_lines(tmp_path, "crop.py", CROP_SPLIT) == []
