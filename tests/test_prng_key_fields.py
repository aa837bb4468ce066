"""OPT020 on a key an object holds (issue #25, class 6): a method that draws from `self.key`,
which only `__init__` sets, called twice on one object draws the same numbers twice. A method
that splits and stores the key back, or a field set again elsewhere, is not a reuse. Each program
is checked by the real command line; the bug is run with real JAX."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_optlint_in_process as run_optlint
from conftest import opt020_lines

NOISE_HELD_BY_AN_OBJECT = '''\
import jax


class Noise:
    def __init__(self, key):
        self.key = key

    def sample(self, shape):
        return jax.random.normal(self.key, shape)


noise = Noise(jax.random.key(0))
FIRST = noise.sample((3,))
SECOND = noise.sample((3,))
'''


def _opt020_lines(tmp_path: Path, source: str) -> list[int]:
    return opt020_lines(tmp_path, "noise.py", source)


def test_two_draws_from_the_key_an_object_holds_are_equal_with_real_jax() -> None:
    namespace: dict[str, object] = {}
    exec(compile(NOISE_HELD_BY_AN_OBJECT, "noise.py", "exec"), namespace)
    assert bool((namespace["FIRST"] == namespace["SECOND"]).all())


def test_two_calls_of_a_method_drawing_from_the_held_key(tmp_path: Path) -> None:
    assert _opt020_lines(tmp_path, NOISE_HELD_BY_AN_OBJECT) == [14]
    result = run_optlint("check", "noise.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    (finding,) = json.loads(result.stdout)
    assert "`sample` draws from `self.key`, which only `__init__` sets" in finding["message"]


def test_a_method_that_stores_a_fresh_key_back_stays_silent(tmp_path: Path) -> None:
    fresh = NOISE_HELD_BY_AN_OBJECT.replace(
        "        return jax.random.normal(self.key, shape)\n",
        "        self.key, sub = jax.random.split(self.key)\n"
        "        return jax.random.normal(sub, shape)\n")
    assert _opt020_lines(tmp_path, fresh) == []


def test_a_key_set_again_by_another_method_between_the_draws_stays_silent(
        tmp_path: Path) -> None:
    """A method that sets the key anew, run between the two draws (on the object, or by a
    function the object is handed to). Not run between them, the two draws are one key's
    (`test_prng_keys_reset_fields.py`)."""
    reseeding = NOISE_HELD_BY_AN_OBJECT.replace(
        "    def sample(self, shape):\n",
        "    def reseed(self, key):\n        self.key = key\n\n    def sample(self, shape):\n")
    assert _opt020_lines(tmp_path, reseeding) == [17]
    for between in ("noise.reseed(jax.random.key(1))", "refresh(noise)"):
        reseeded = reseeding.replace("SECOND = ", f"{between}\nSECOND = ").replace(
            "noise = Noise(", "def refresh(n):\n    n.reseed(jax.random.key(2))\n\n\n"
                             "noise = Noise(")
        assert _opt020_lines(tmp_path, reseeded) == [], between


def test_two_objects_each_with_its_key_stay_silent(tmp_path: Path) -> None:
    two = NOISE_HELD_BY_AN_OBJECT.replace(
        "SECOND = noise.sample((3,))",
        "other = Noise(jax.random.key(1))\nSECOND = other.sample((3,))")
    assert _opt020_lines(tmp_path, two) == []
