"""OPT020 through methods of other files' classes run on objects whose class the file names
(issue #25; tpu-inference ed1e129: `self.rejection_sampler(..., key=rng)` where `__init__` built
`self.rejection_sampler = RejectionSampler()` of another module; JAxtar 482eb87:
`puzzle.get_initial_state(key)` on a `Puzzle`, whose method is abstract and overridden in the
subclasses' files). Plain JAX classes, which the evaluator's own lookups do not parse. An
abstract method draws when every override of the project draws (the message says so); when
only some do, `--preview` only. A concrete method on an object held by a local name or a
parameter is not followed (such findings are not yet labelled on whole repositories). The programs also run with JAX's key-reuse checker."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import run_optlint_in_process as run_optlint

SAMPLERS = '''\
import jax


class RejectionSampler:
    def __call__(self, logits, key):
        return jax.random.categorical(key, logits)

    def greedy(self, logits, key):
        return logits.argmax()


class Sampler:
    def draw(self, key):
        raise NotImplementedError

    def pick(self, key):
        raise NotImplementedError
'''

IMPLEMENTATIONS = '''\
import jax

from samplers import Sampler


class Normal(Sampler):
    def draw(self, key):
        return jax.random.normal(key)

    def pick(self, key):
        return jax.random.bernoulli(key)


class Uniform(Sampler):
    def draw(self, key):
        return jax.random.uniform(key)

    def pick(self, key):
        return True
'''

RUNNER = '''\
import jax

from samplers import RejectionSampler, Sampler


class Runner:
    def __init__(self):
        self.sampler = RejectionSampler()

    def step(self, logits, key):
        first = jax.random.categorical(key, logits)
        second = self.sampler(logits, key=key)
        return first, second

    def greedy_step(self, logits, key):
        first = jax.random.categorical(key, logits)
        second = self.sampler.greedy(logits, key)
        return first, second

    def split_step(self, logits, key):
        key, subkey = jax.random.split(key)
        return jax.random.categorical(key, logits), self.sampler(logits, key=subkey)


def twice(sampler: Sampler, key):
    return sampler.draw(key) + jax.random.normal(key)


def picked(sampler: Sampler, key):
    return sampler.pick(key), jax.random.normal(key)


def local(logits, key):
    sampler = RejectionSampler()
    return sampler(logits, key=key), jax.random.normal(key)
'''


def _write(tmp_path: Path) -> None:
    (tmp_path / "samplers.py").write_text(SAMPLERS)
    (tmp_path / "implementations.py").write_text(IMPLEMENTATIONS)
    (tmp_path / "runner.py").write_text(RUNNER)


def _findings(tmp_path: Path, *extra: str) -> dict[int, str]:
    _write(tmp_path)
    result = run_optlint("check", "runner.py", "--select", "OPT020", "--no-cache",
                         "--isolated", "--output-format", "json", *extra, cwd=tmp_path)
    return {finding["line"]: finding["message"] for finding in json.loads(result.stdout)}


def test_a_held_object_and_an_abstract_method_of_other_files(tmp_path: Path) -> None:
    found = _findings(tmp_path)
    # 12: `self.sampler` is a RejectionSampler of samplers.py, whose `__call__` draws; 17:
    # its `greedy` ignores the key; 21: a split key: silent.
    # 26: `draw` is abstract, and both overrides of the project draw. 35: a concrete method
    # on a local name's object is not followed (not yet labelled on whole repositories).
    assert sorted(found) == [12, 26]
    assert "every override of the project (Normal, Uniform) draws from the key" in found[26]


def test_an_abstract_method_only_some_overrides_draw_from_is_preview(tmp_path: Path) -> None:
    found = _findings(tmp_path, "--preview")
    assert sorted(found) == [12, 26, 30]
    assert "of its overrides, Normal draws from the key, Uniform does not" in found[30]


def test_the_objects_when_run(tmp_path: Path) -> None:
    jax = pytest.importorskip("jax")
    _write(tmp_path)
    sys.path.insert(0, str(tmp_path))
    try:
        import implementations  # type: ignore[import-not-found]
        import runner  # type: ignore[import-not-found]

        logits = jax.numpy.zeros(4)
        with jax.debug_key_reuse(True):
            for flagged in (lambda: runner.Runner().step(logits, jax.random.key(0)),
                            lambda: runner.twice(implementations.Normal(), jax.random.key(0)),
                            lambda: runner.twice(implementations.Uniform(), jax.random.key(0)),
                            lambda: runner.picked(implementations.Normal(), jax.random.key(0)),
                            lambda: runner.local(logits, jax.random.key(0))):
                with pytest.raises(jax.errors.KeyReuseError):
                    flagged()
            runner.Runner().greedy_step(logits, jax.random.key(0))
            runner.Runner().split_step(logits, jax.random.key(0))
            runner.picked(implementations.Uniform(), jax.random.key(0))
    finally:
        sys.path.remove(str(tmp_path))
        for name in ("samplers", "implementations", "runner"):
            sys.modules.pop(name, None)
