"""OPT020 and NumPy generators of two kinds seeded alike (issue #25, Stoix's sebulba systems:
`np.random.default_rng(config.seed)`, then `np.random.seed(config.seed)`). `default_rng` makes a
PCG64 stream, `RandomState` and the global `np.random.seed` an MT19937 one: the two draw no
value in common, silent. One kind seeded twice gives one stream twice: reported. The facts
the rows rest on (`key_consumers.KeyConsumer.generator`) are measured here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conftest import opt020_lines

SOURCE = '''\
import jax
import numpy as np


def run(config):
    key = jax.random.PRNGKey(config.seed)
    first = {first}
    second = {second}
    return key, first, second
'''


@pytest.mark.parametrize(("first", "second", "expected"), [
    ("np.random.default_rng(config.seed)", "np.random.seed(config.seed)", []),
    ("np.random.RandomState(config.seed)", "np.random.default_rng(config.seed)", []),
    ("np.random.default_rng(config.seed)", "np.random.default_rng(config.seed)", [8]),
    ("np.random.seed(config.seed)", "np.random.RandomState(config.seed)", [8]),
])
def test_numpy_generators_seeded_alike(tmp_path: Path, first: str, second: str,
                                       expected: list[int]) -> None:
    source = SOURCE.format(first=first, second=second)
    assert opt020_lines(tmp_path, "seeds.py", source) == expected


def test_the_streams_when_run() -> None:
    pcg = np.random.default_rng(42).integers(0, 2**31, 1000)
    mt = np.random.RandomState(42).randint(0, 2**31, 1000)
    state = np.random.get_state()
    try:
        np.random.seed(42)
        legacy = np.random.randint(0, 2**31, 1000)
    finally:
        np.random.set_state(state)
    assert np.array_equal(mt, legacy)  # one kind: one stream
    assert not set(pcg.tolist()) & set(mt.tolist())  # two kinds: no value in common
    assert np.array_equal(pcg, np.random.default_rng(42).integers(0, 2**31, 1000))
