"""OPT020 on a method drawing from a key its object holds, which only the constructor sets, run
on one object in every step of a loop of another project file (issue #25, held-out set 7: oc-jax
14a5191's `UniformRandomShootingMethod.control` draws `jax.random.uniform(self._jax_random_key,
...)` and never advances the key; its example calls `controller.control(...)` in every step of a
`while not (terminated or truncated)` loop, so every step samples the same candidates). The
finding is at the draw, where the key must be advanced. Silent: a method that advances the key,
an object built anew in every step, a loop that carries nothing from step to step, a test file.
Run with JAX: the second call raises."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import raises_key_reuse, run_optlint_in_process

SHOOTER = """\
import jax


class Shooter:
    def __init__(self, n, key=jax.random.PRNGKey(0)):
        self._n = n
        self._key = key

    def control(self, x):
        noise = jax.random.uniform(self._key, shape=(self._n,))
        return x + noise.min()
"""

ADVANCING = SHOOTER.replace(
    "        noise = jax.random.uniform(self._key, shape=(self._n,))\n",
    "        self._key, key = jax.random.split(self._key)\n"
    "        noise = jax.random.uniform(key, shape=(self._n,))\n")

RUN = """\
from control.shooting import Shooter


def run(x, env):
    controller = Shooter(3)
    done = False
    while not done:
        u = controller.control(x)
        x, done = env.step(u)
    return x
"""

# A new controller (with the default key) in every step: no object is called twice.
REBUILT = RUN.replace("    controller = Shooter(3)\n", "").replace(
    "    while not done:\n", "    while not done:\n        controller = Shooter(3)\n")

# A loop over settings carrying nothing from one to the next.
SETTINGS = """\
from control.shooting import Shooter


def sweep(xs):
    controller = Shooter(3)
    out = []
    for x in xs:
        out.append(controller.control(x))
    return out
"""


def _lines(tmp_path: Path, shooter: str, use: str, name: str = "run.py") -> list[int]:
    package = tmp_path / "control"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "shooting.py").write_text(shooter)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "control"\n')
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / name).write_text(use)
    result = run_optlint_in_process("check", "control/shooting.py", "--select", "OPT020",
                                    "--no-cache", "--isolated", "--output-format", "json",
                                    cwd=tmp_path)
    return sorted(f["line"] for f in json.loads(result.stdout))


def test_a_loop_elsewhere_runs_the_unadvanced_draw_every_step(tmp_path: Path) -> None:
    assert _lines(tmp_path, SHOOTER, RUN) == [10]


def test_an_advancing_method_is_silent(tmp_path: Path) -> None:
    assert _lines(tmp_path, ADVANCING, RUN) == []


def test_an_object_built_every_step_is_silent(tmp_path: Path) -> None:
    assert "controller = Shooter(3)\n        u =" in REBUILT  # (the replacement took)
    assert _lines(tmp_path, SHOOTER, REBUILT) == []


def test_a_loop_of_settings_is_silent(tmp_path: Path) -> None:
    assert _lines(tmp_path, SHOOTER, SETTINGS) == []


def test_a_test_file_is_silent(tmp_path: Path) -> None:
    assert _lines(tmp_path, SHOOTER, RUN, name="test_run.py") == []


def test_jax_raises_at_the_second_step() -> None:
    # Typed keys, as JAX's checker follows them.
    program = SHOOTER.replace("PRNGKey(0)", "key(0)") + """

class Env:
    def __init__(self):
        self.steps = 0

    def step(self, u):
        self.steps += 1
        return u, self.steps == 2
""" + RUN.replace("from control.shooting import Shooter\n", "")
    assert raises_key_reuse(program, "run(0.0, Env())")
