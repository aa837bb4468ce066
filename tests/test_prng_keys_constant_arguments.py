"""OPT020 on `None` given where a key goes (symphony tests/models_test.py:128 at its newest commit:
`sphconv.apply(params, None, x)` twice on a `hk.transform`ed function). `None` is no key:
whatever the apply does with it (no draw, or haiku's error where the function asks for a key), two
such calls are no reuse. The same calls given one real key twice stay
a finding."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines

SOURCE = '''\
import haiku as hk
import jax


def forward(x):
    return hk.dropout(hk.next_rng_key(), 0.5, hk.Linear(3)(x))


def check(x):
    net = hk.transform(forward)
    params = net.init(jax.random.key(0), x)
    out1 = net.apply(params, {key}, x)
    out2 = net.apply(params, {key}, 2 * x)
    return out1, out2
'''


def test_none_given_as_the_rng_is_no_key(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "none_rng.py", SOURCE.replace("{key}", "None")) == []


def test_one_real_key_given_twice_stays_a_finding(tmp_path: Path) -> None:
    source = SOURCE.replace("    out1", "    key = jax.random.key(1)\n    out1").replace("{key}", "key")
    assert opt020_lines(tmp_path, "key_rng.py", source) == [14]
