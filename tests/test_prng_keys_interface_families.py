"""OPT020 and a family of classes sharing one interface, called with one key on every item
(deepqmc 8906b58: `[sampler.init(rng, wf, n) for wf, sampler in zip(wfs, self.samplers)]`,
every configuration's walkers drawn from one key). `key_methods.py` proves the call when every
class of the file defining `init` draws from the key; the family's base only raises
(`NotImplementedError`) and a mixin forwards to the next class (`super().init(*args,
**kwargs)`): neither decides what runs, both are left out (`key_interface_methods.py`). The
method the samplers call on their Hamiltonian is defined in project modules the file never
imports (`key_project_methods.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import opt020_lines

BASE = '''\
class Sampler:
    def init(self, rng, n):
        """Initial walkers."""
        raise NotImplementedError

'''
MIXIN = '''\
class Resampled(Sampler):
    def init(self, *args, **kwargs):
        state = super().init(*args, **kwargs)
        return {"walkers": state, "weight": 1.0}

'''
FAMILY = '''\
import jax


{base}class Metropolis(Sampler):
    def __init__(self, hamil):
        self.hamil = hamil

    def init(self, rng, n):
        return {{"r": {draw}}}


{mixin}class Multi(Sampler):
    def __init__(self, samplers):
        self.samplers = samplers

    def init(self, rng, n):
        return [sampler.init(rng, n) for sampler in self.samplers]
'''
LOCAL_DRAW = "jax.random.normal(rng, (n, 3))"
HAMIL_DRAW = "self.hamil.init_sample(rng, n)"


@pytest.mark.parametrize(("base", "mixin"), [
    (BASE, ""),
    (BASE, MIXIN),
    ("class Sampler:\n    pass\n\n", ""),
])
def test_interface_and_mixin_left_out(tmp_path: Path, base: str, mixin: str) -> None:
    source = FAMILY.format(base=base, mixin=mixin, draw=LOCAL_DRAW)
    line = next(number for number, text in enumerate(source.splitlines(), 1)
                if "for sampler in" in text)
    assert opt020_lines(tmp_path, "sampling.py", source) == [line]


def test_a_member_that_draws_nothing_keeps_it_unproven(tmp_path: Path) -> None:
    quiet = BASE + "class Fixed(Sampler):\n    def init(self, rng, n):\n        return n\n\n"
    source = FAMILY.format(base=quiet, mixin="", draw=LOCAL_DRAW)
    assert opt020_lines(tmp_path, "sampling.py", source) == []


def test_a_mixin_over_a_base_that_runs_code_is_a_member(tmp_path: Path) -> None:
    base = "class Sampler:\n    def init(self, rng, n):\n        return n\n\n"
    source = FAMILY.format(base=base, mixin=MIXIN, draw=LOCAL_DRAW)
    assert opt020_lines(tmp_path, "sampling.py", source) == []


HAMILTONIAN = '''\
import jax


class Hamiltonian:
    def init_sample(self, rng, n):
        return {draw}
'''


@pytest.mark.parametrize(("draw", "found"), [
    ("jax.random.normal(rng, (n, 3))", True),
    ("n * 2.0", False),
])
def test_method_defined_in_a_module_not_imported(tmp_path: Path, draw: str, found: bool) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "hamil.py").write_text(HAMILTONIAN.format(draw=draw))
    source = FAMILY.format(base=BASE, mixin=MIXIN, draw=HAMIL_DRAW)
    line = next(number for number, text in enumerate(source.splitlines(), 1)
                if "for sampler in" in text)
    assert opt020_lines(tmp_path, "sampling.py", source) == ([line] if found else [])


def test_a_name_many_files_define_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    for number in range(6):
        (tmp_path / f"hamil_{number}.py").write_text(HAMILTONIAN.format(
            draw="jax.random.normal(rng, (n, 3))"))
    source = FAMILY.format(base=BASE, mixin="", draw=HAMIL_DRAW)
    assert opt020_lines(tmp_path, "sampling.py", source) == []


SPACES = '''\
import jax


class Box:
    def sample(self, rng):
        return jax.random.uniform(rng, (3,))
'''
BUFFER_USER = '''\
import flashbax as fbx
import jax


def train(rng, buffer_state):
    buffer = fbx.make_flat_buffer(max_length=100, min_length=10, sample_batch_size=4)
    first = buffer.sample(buffer_state, rng)
    rng, _ = jax.random.split(rng)
    second = buffer.sample(buffer_state, rng)
    return first, second
'''


def test_an_object_the_file_makes_is_not_a_project_class(tmp_path: Path) -> None:
    """`buffer.sample` of a library's buffer: the project's `Box.sample` (an environment's
    space, in a module the file never imports) says nothing about it (JaxMARL's Q-learning
    baselines with flashbax)."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "spaces.py").write_text(SPACES)
    assert opt020_lines(tmp_path, "train.py", BUFFER_USER) == []
