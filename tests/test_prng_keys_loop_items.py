"""OPT020 on the items of a model's list of layers (issue #25, project consumers; levanter
5fdf6fc): `for block in self.blocks: x = block(x, key=key)` where `__init__` built
`self.blocks = [Block(...) for ...]` runs `Block.__call__`, which draws from the key, so every
block draws the same noise; another class of the file whose `__call__` takes a key and draws
nothing does not hide it. Checked by the real command line and run with JAX's key-reuse
checker; the look-alike gives each block its own key."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines, raises_key_reuse

PROGRAM = '''\
import jax


class Identity:
    def __call__(self, x, *, key):
        return x


class Block:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x, *, key):
        return x + self.scale * jax.random.normal(key, x.shape)


class Model:
    def __init__(self, depth):
        self.blocks = [Block(float(i + 1)) for i in range(depth)]
        self.head = Identity()

    def __call__(self, x, *, key):
        for block in self.blocks:
            x = block(x, key=key)
        return self.head(x, key=key)
'''

SPLIT = PROGRAM.replace(
    "        for block in self.blocks:\n            x = block(x, key=key)\n",
    "        for block, block_key in zip(self.blocks, jax.random.split(key, len(self.blocks))):\n"
    "            x = block(x, key=block_key)\n")


def _raises_key_reuse(source: str) -> bool:
    return raises_key_reuse(source, "Model(2)(jax.numpy.zeros(3), key=jax.random.key(0))")


def test_a_layer_of_the_models_list_drawing_from_one_key_every_iteration(tmp_path: Path) -> None:
    assert _raises_key_reuse(PROGRAM)
    assert opt020_lines(tmp_path, "model.py", PROGRAM) == [24]


def test_layers_given_keys_of_their_own_are_silent(tmp_path: Path) -> None:
    assert not _raises_key_reuse(SPLIT)
    assert opt020_lines(tmp_path, "model.py", SPLIT) == []


ZIPPED = PROGRAM.replace(
    "        for block in self.blocks:\n",
    "        for block, _ in zip(self.blocks, range(len(self.blocks)), strict=True):\n")
COUNTED = PROGRAM.replace(
    "        for block in self.blocks:\n",
    "        for _, block in enumerate(self.blocks, start=1):\n")


def test_keywords_that_keep_the_items_do_not_hide_the_layers_class(tmp_path: Path) -> None:
    """`zip(..., strict=True)` (ruff's B905) and `enumerate(..., start=1)` pair the same
    items as their positional forms."""
    for source in (ZIPPED, COUNTED):
        assert _raises_key_reuse(source)
        assert opt020_lines(tmp_path, "model.py", source) == [24]
