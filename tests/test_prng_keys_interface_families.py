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


def test_asked_only_of_the_methods_of_the_name_called(tmp_path: Path, monkeypatch) -> None:
    """Whether a method runs code of its own costs a walk of its body: asked of the methods
    named as the call is (`init`), not of every method of the file."""
    from optlint.analysis import key_methods

    asked: list[str] = []
    ask = key_methods.runs_own_code

    def counted(index, method, owner):  # type: ignore[no-untyped-def]
        asked.append(f"{owner.name}.{method.name.value}")
        return ask(index, method, owner)

    monkeypatch.setattr(key_methods, "runs_own_code", counted)
    others = "".join(f"    def step_{number}(self, x):\n        return x + {number}\n\n"
                     for number in range(3))
    source = FAMILY.format(base=BASE.replace("\n\n", "\n\n" + others, 1), mixin=MIXIN,
                           draw=LOCAL_DRAW)
    assert len(opt020_lines(tmp_path, "sampling.py", source)) == 1
    assert sorted(asked) == ["Metropolis.init", "Multi.init", "Resampled.init", "Sampler.init"]


SUPER_CALLS = '''\
class Mixin(Base):
    def in_body(self, x):
        return super().in_body(x)

    def in_lambda(self, x):
        later = lambda: super().in_lambda(x)
        return later

    def in_nested(self, x):
        def later():
            return super().in_nested(x)
        return later

    def other_name(self, x):
        return super().in_body(x)
'''


@pytest.mark.parametrize(("name", "calls"), [
    ("in_body", True), ("in_lambda", True), ("in_nested", False), ("other_name", False)])
def test_calls_super(name: str, calls: bool) -> None:
    import libcst as cst

    from optlint.analysis.key_interface_methods import _calls_super

    (mixin,) = cst.parse_module(SUPER_CALLS).body
    assert isinstance(mixin, cst.ClassDef)
    methods = {node.name.value: node for node in mixin.body.body
               if isinstance(node, cst.FunctionDef)}
    assert _calls_super(methods[name], name) is calls


DISTRIBUTIONS = '''\
import jax


class Categorical:
    def sample(self, logits, key):
        return jax.random.categorical(key, logits)
'''
AGENT = '''\
import jax


class Agent:
    def __init__(self, networks):
        self.networks = networks
        self.made = Networks()

    def make_policy(self, logits, nets):
        {bind}

        def policy(key):
            first = {receiver}.sample(logits, key)
            second = {receiver}.sample(logits, key)
            return first, second

        return policy
'''


@pytest.mark.parametrize(("bind", "receiver", "found"), [
    ("dist = self.networks.dist", "dist", True),  # jumanji's A2C agent, read in a closure
    ("dist = nets.dist", "dist", True),
    ("dist = self.made.dist", "dist", False),  # the class makes it: not the caller's
    ("dist = make_dist()", "dist", False),
])
def test_a_part_of_an_object_handed_in_is_handed_in(tmp_path: Path, bind: str, receiver: str,
                                                    found: bool) -> None:
    """A method called on a local naming a part of an object the caller hands in is looked up
    in the project's classes defining it, as for the object itself."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "distributions.py").write_text(DISTRIBUTIONS)
    source = AGENT.format(bind=bind, receiver=receiver)
    line = next(number for number, text in enumerate(source.splitlines(), 1)
                if "second =" in text)
    assert opt020_lines(tmp_path, "agent.py", source) == ([line] if found else [])
