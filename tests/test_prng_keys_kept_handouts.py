"""OPT020 on a key pool that hands out keys it keeps (issue #25, calls and state; dreamerv3
84ecf19, issue #11 "RNG splitting", and the blind case
`state_agent_key_pool_hands_out_same_device_keys.py`): `keys = self.buffer[:amount]` then
`self.buffer = self.buffer[:amount]` keeps what was handed out, so the next call hands out the
same keys. Checked by the real command line and run with JAX; look-alikes: the fix
(`self.buffer[amount:]`), a getter, and a buffer holding no keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

POOL = '''\
import jax


class KeyPool:
    def __init__(self, seed=0, reserve=8):
        self.rng = jax.random.key(seed)
        self.reserve = reserve
        self.buffer = []

    def next(self, amount):
        if len(self.buffer) < amount:
            keys = jax.random.split(self.rng, self.reserve + 1)
            self.rng = keys[0]
            self.buffer = list(keys[1:])
        keys = self.buffer[:amount]
        self.buffer = self.buffer[:amount]
        return keys
'''
HANDED = 15  # `keys = self.buffer[:amount]`

FIXED = POOL.replace("self.buffer = self.buffer[:amount]", "self.buffer = self.buffer[amount:]")
GETTER = '''\
import jax


class Holder:
    def __init__(self, seed=0):
        self.key = jax.random.key(seed)

    def get(self):
        return self.key
'''
NO_KEYS = POOL.replace("keys = jax.random.split(self.rng, self.reserve + 1)",
                       "keys = list(range(self.reserve + 1))")


def _handed_twice(source: str) -> tuple[Any, Any]:
    pytest.importorskip("jax")
    import jax

    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    pool = namespace["KeyPool"]()
    first, second = pool.next(2), pool.next(2)
    draw = lambda keys: [jax.random.normal(key, (3,)) for key in keys]  # noqa: E731
    return draw(first), draw(second)


def test_a_pool_keeping_what_it_hands_out_hands_it_out_again(tmp_path: Path) -> None:
    first, second = _handed_twice(POOL)
    assert all((a == b).all() for a, b in zip(first, second, strict=True))
    assert opt020_lines(tmp_path, "pool.py", POOL) == [HANDED]


def test_a_pool_keeping_the_rest_is_silent(tmp_path: Path) -> None:
    first, second = _handed_twice(FIXED)
    assert not any((a == b).all() for a, b in zip(first, second, strict=True))
    assert opt020_lines(tmp_path, "pool.py", FIXED) == []


@pytest.mark.parametrize("source", [GETTER, NO_KEYS], ids=["getter", "no_keys"])
def test_a_getter_or_a_buffer_of_no_keys_is_silent(tmp_path: Path, source: str) -> None:
    assert opt020_lines(tmp_path, "pool.py", source) == []
