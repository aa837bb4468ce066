"""OPT020 on a key an object keeps and a compiled method draws from (issue #25, a maxtext fix
commit: `generate`, jitted with `self` static, sampled every decode step with `self.rng`, set
once in `__init__`). A method compiled as a step runs again and again; a key only `__init__`
sets is the same at every call, so every call draws the same numbers. A method that advances the
key, and a method not compiled as a step, are not reported. The program also runs with JAX."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import numpy as np

from conftest import run_optlint_in_process as run_optlint

ENGINES = '''\
import functools

import jax


def sample(logits, rng):
    return jax.random.categorical(rng, logits)


class Engine:
    def __init__(self, seed):
        self.rng = jax.random.PRNGKey(seed)

    @functools.partial(jax.jit, static_argnums=(0,))
    def generate(self, logits):
        return sample(logits, self.rng)


class AdvancingEngine:
    def __init__(self, seed):
        self.rng = jax.random.PRNGKey(seed)

    def generate(self, logits):
        self.rng, rng = jax.random.split(self.rng)
        return sample(logits, rng)


class Sampler:
    def __init__(self, seed):
        self.rng = jax.random.PRNGKey(seed)

    def draw(self, logits):
        return sample(logits, self.rng)
'''


def test_a_compiled_method_drawing_from_a_kept_key(tmp_path: Path) -> None:
    (tmp_path / "engines.py").write_text(ENGINES)
    result = run_optlint("check", "engines.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    found = {(f["location"]["row"] if "location" in f else f["line"]): f["message"]
             for f in json.loads(result.stdout)}
    assert sorted(found) == [16]
    assert "`generate` is compiled as a step" in found[16]


def test_a_compiled_method_when_run(tmp_path: Path) -> None:
    (tmp_path / "engines.py").write_text(ENGINES)
    namespace = runpy.run_path(str(tmp_path / "engines.py"))
    logits = np.zeros(50, dtype=np.float32)
    engine = namespace["Engine"](0)
    assert all(engine.generate(logits) == engine.generate(logits) for _ in range(3))
    advancing = namespace["AdvancingEngine"](0)
    assert len({int(advancing.generate(logits)) for _ in range(8)}) > 1
