"""The constant-seed detector (`key_constant_seeds.py`) asks its questions of a file's calls only
where a key (or stream) is made from int literals: a file making keys from names alone
(`PRNGKey(seed)`) has none for it to find, and no call of it is asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import opt020_lines
from optlint.analysis import key_constant_seeds

MODEL = '''\
import equinox as eqx
import jax


class Noisy(eqx.Module):
    scale: float

    def __call__(self, x):
        key = jax.random.PRNGKey({seed})
        return x + self.scale * jax.random.normal(key, x.shape)
'''


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per call asked whether it draws from a key made from a literal."""
    calls: list[int] = []
    constant_key = key_constant_seeds._constant_key

    def noted(ctx, site):  # type: ignore[no-untyped-def]
        calls.append(id(site.node))
        return constant_key(ctx, site)

    monkeypatch.setattr(key_constant_seeds, "_constant_key", noted)
    return calls


def test_keys_made_from_names_alone_ask_no_call(tmp_path: Path, asked: list[int]) -> None:
    assert opt020_lines(tmp_path, "m.py", MODEL.format(seed="seed") + "\n\nseed = 3\n") == []
    assert asked == []


def test_a_key_made_from_a_literal_is_still_found(tmp_path: Path, asked: list[int]) -> None:
    assert opt020_lines(tmp_path, "m.py", MODEL.format(seed="0")) == [10]
    assert asked
