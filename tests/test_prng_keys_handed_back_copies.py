"""OPT020 on a key a compiled method draws from, where the method hands back a copy of the
object with the key advanced (`return self.replace(rng=new_rng), info`: the `flax.struct` agents
of ogbench and jaxrl_m, called as `agent, info = agent.update(batch)`). The caller that keeps the
copy gets the next key, so the stored key is not consumed again: not reported. A look-alike whose
copy keeps the old key draws the same numbers at every call and is reported. Both run with JAX."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import numpy as np

from conftest import run_optlint_in_process as run_optlint

AGENTS = '''\
import dataclasses
import functools

import jax


@functools.partial(jax.tree_util.register_dataclass, data_fields=["rng", "count"], meta_fields=[])
@dataclasses.dataclass(frozen=True)
class Agent:
    rng: jax.Array
    count: jax.Array

    def replace(self, **changes):
        return dataclasses.replace(self, **changes)

    @jax.jit
    def update(self, logits):
        new_rng, rng = jax.random.split(self.rng)
        action = jax.random.categorical(rng, logits)
        return self.replace(rng=new_rng, count=self.count + 1), action


@functools.partial(jax.tree_util.register_dataclass, data_fields=["rng", "count"], meta_fields=[])
@dataclasses.dataclass(frozen=True)
class StuckAgent:
    rng: jax.Array
    count: jax.Array

    def replace(self, **changes):
        return dataclasses.replace(self, **changes)

    @jax.jit
    def update(self, logits):
        new_rng, rng = jax.random.split(self.rng)
        action = jax.random.categorical(rng, logits)
        return self.replace(count=self.count + 1), action
'''


def test_a_copy_handed_back_with_the_key_advanced_is_not_reported(tmp_path: Path) -> None:
    (tmp_path / "agents.py").write_text(AGENTS)
    result = run_optlint("check", "agents.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    found = {f["line"]: f["message"] for f in json.loads(result.stdout)}
    assert sorted(found) == [34]
    assert "`StuckAgent`" in found[34]


def test_the_agents_when_run(tmp_path: Path) -> None:
    (tmp_path / "agents.py").write_text(AGENTS)
    namespace = runpy.run_path(str(tmp_path / "agents.py"))
    import jax

    logits = np.zeros(50, dtype=np.float32)
    drawn = {}
    for name in ("Agent", "StuckAgent"):
        agent = namespace[name](jax.random.key(0), np.int32(0))
        actions = []
        for _ in range(6):
            agent, action = agent.update(logits)
            actions.append(int(action))
        drawn[name] = actions
    assert len(set(drawn["Agent"])) > 1
    assert len(set(drawn["StuckAgent"])) == 1
