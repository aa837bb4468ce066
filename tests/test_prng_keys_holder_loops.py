"""OPT020 on a method drawing from a key only its object's constructor sets, where another
object holding it calls the method from a loop of its own methods (issue #25, held-out set 8:
tombelv/sbmpc b43d909's `Simulation` keeps the MPPI solver as `self.controller`; the inherited
`simulate` loops `self.step()`, which runs `self.update()`, which calls
`self.controller.compute_control_action(...)`; that method hands `self.master_key`, set only in
`__init__`, to its jitted controller, so every control step draws the same perturbations). The
finding is at the draw. Silent: a method that advances the key, a holder that sets the held
object's key itself, a holder given something other than the key's class, a holder never run.
Run with JAX: the second step raises."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import raises_key_reuse, run_optlint_in_process

SOLVER = """\
import jax


class Solver:
    def __init__(self, n):
        self.n = n
        self.master_key = jax.random.PRNGKey(420)

    def act(self, x):
        return x + jax.random.normal(self.master_key, (self.n,))
"""

ADVANCING = SOLVER.replace(
    "        return x + jax.random.normal(self.master_key, (self.n,))\n",
    "        self.master_key, key = jax.random.split(self.master_key)\n"
    "        return x + jax.random.normal(key, (self.n,))\n")

SIMULATION = """\
from ctl.solver import Solver


class Simulator:
    def __init__(self, state, controller, n=10):
        self.iter = 0
        self.state = state
        self.controller = controller
        self.n = n

    def update(self):
        pass

    def simulate(self):
        while self.iter < self.n:
            self.step()

    def step(self):
        self.update()
        self.iter += 1


class Simulation(Simulator):
    def __init__(self, state, controller, n):
        super().__init__(state, controller, n)

    def update(self):
        self.state = self.state + self.controller.act(self.state)


if __name__ == "__main__":
    solver = Solver(3)
    sim = Simulation(0.0, solver, 2)
    sim.simulate()
"""

# The holder advances the held object's key itself before each step.
RESEEDED = SIMULATION.replace(
    "    def update(self):\n        self.state = ",
    "    def update(self):\n        self.controller.master_key = self.state\n        self.state = ")

# The holder is given some other object (a stand-in), not the solver.
OTHER = SIMULATION.replace("    solver = Solver(3)\n", "    solver = object()\n")

# The holder is built but its loop never runs.
NOT_RUN = SIMULATION.replace("    sim.simulate()\n", "    print(sim.state)\n")


def _lines(tmp_path: Path, solver: str, simulation: str) -> list[int]:
    package = tmp_path / "ctl"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "solver.py").write_text(solver)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "ctl"\n')
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "unicycle.py").write_text(simulation)
    result = run_optlint_in_process("check", "ctl/solver.py", "--select", "OPT020",
                                    "--no-cache", "--isolated", "--output-format", "json",
                                    cwd=tmp_path)
    return sorted(f["line"] for f in json.loads(result.stdout))


def test_a_holder_loop_runs_the_unadvanced_draw_every_step(tmp_path: Path) -> None:
    assert _lines(tmp_path, SOLVER, SIMULATION) == [10]


def test_an_advancing_method_is_silent(tmp_path: Path) -> None:
    assert _lines(tmp_path, ADVANCING, SIMULATION) == []


def test_a_holder_setting_the_key_is_silent(tmp_path: Path) -> None:
    assert "self.controller.master_key = " in RESEEDED
    assert _lines(tmp_path, SOLVER, RESEEDED) == []


def test_a_holder_given_another_object_is_silent(tmp_path: Path) -> None:
    assert "solver = object()" in OTHER
    assert _lines(tmp_path, SOLVER, OTHER) == []


def test_a_holder_never_run_is_silent(tmp_path: Path) -> None:
    assert "print(sim.state)" in NOT_RUN
    assert _lines(tmp_path, SOLVER, NOT_RUN) == []


def test_jax_raises_at_the_second_step() -> None:
    # Typed keys, as JAX's checker follows them.
    program = SOLVER.replace("PRNGKey(420)", "key(420)") + SIMULATION.replace(
        "from ctl.solver import Solver\n", "").replace('if __name__ == "__main__":',
                                                         "if True:")
    assert raises_key_reuse(program)
