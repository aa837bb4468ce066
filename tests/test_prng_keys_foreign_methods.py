"""Keys drawn by a method of a class of another project file, from a field of the object it is
given (`model.sample_action(state, obs)` drawing from `state.rng_key`), and by a loop step that
unpacks its carry first (`ctrl, behavior = carry`). Rebuilt from SlopDotCash/asi's fix of
`steps/step9.py` (PR #161): the dream step stored its carried key in the behaviour state that a
nested `scan` drew from, and handed the same key on to the next dream, which split it again."""

import json
from pathlib import Path

from conftest import run_optlint_in_process

BEHAVIOR = """\
import jax
import jax.random as jr
from flax import struct


@struct.dataclass
class BehaviorState:
    rng_key: jax.Array
    count: int


class BehaviorModel:
    def sample_action(self, state, obs):
        key, sample_key = jr.split(state.rng_key)
        action = jr.normal(sample_key, obs.shape)
        return state.replace(rng_key=key), action
"""

# The dream step's carried key goes into the behaviour state a method of `behavior.py` draws
# from (directly, or in a nested `scan` whose step unpacks its carry), and on to the next step.
DREAM = """\
import jax
import jax.numpy as jnp
import jax.random as jr

from behavior import BehaviorModel


def dream(behavior_state, key, n):
    model = BehaviorModel()

    def dream_step(carry, _):
        behavior_state, key = carry
        key, candidate_key = jr.split(key){split}
        noise = jr.normal(candidate_key, (3,))
        {state} = behavior_state.replace(rng_key={stored})
{draw}
        return (behavior_state, key), actions

    (_, _), actions = jax.lax.scan(dream_step, (behavior_state, key), jnp.arange(n))
    return actions
"""

DIRECT = """\
        _, actions = model.sample_action(init_state, noise)"""

NESTED = """\
        def rollout_step(rollout_carry, _):
            rollout_behavior, rollout_obs = rollout_carry
            next_behavior, action = model.sample_action(rollout_behavior, rollout_obs)
            return (next_behavior, action), action

        _, actions = jax.lax.scan(rollout_step, (init_state, noise), jnp.arange(4))"""


def _findings(tmp_path: Path, draw: str, fixed: bool) -> list[dict[str, object]]:
    (tmp_path / "behavior.py").write_text(BEHAVIOR)
    (tmp_path / "dream.py").write_text(DREAM.format(
        draw=draw, state="init_state",
        split="\n        key, rollout_key = jr.split(key)" if fixed else "",
        stored="rollout_key" if fixed else "key"))
    result = run_optlint_in_process("check", ".", "--select", "OPT020", "--no-cache",
                                    "--isolated", "--output-format", "json", cwd=tmp_path)
    assert "internal error" not in result.stderr
    return [finding for finding in json.loads(result.stdout or "[]")
            if finding["filename"].endswith("dream.py")]


def test_a_method_of_another_files_class_draws_from_the_state_it_is_given(tmp_path: Path
                                                                         ) -> None:
    findings = _findings(tmp_path, DIRECT, fixed=False)
    assert [finding["line"] for finding in findings] == [16]
    assert "model.sample_action" in findings[0]["message"]


def test_a_nested_scan_step_unpacking_its_carry_draws_from_its_item(tmp_path: Path) -> None:
    findings = _findings(tmp_path, NESTED, fixed=False)
    assert len(findings) == 1
    assert "init_state.rng_key" in findings[0]["message"]


def test_the_fixed_dream_step_is_silent(tmp_path: Path) -> None:
    assert _findings(tmp_path, DIRECT, fixed=True) == []
    assert _findings(tmp_path, NESTED, fixed=True) == []
