"""OPT020 on a loop that threads an object's state through a method given one key on every
step (issue #25, flowMC `EvolutionaryOptimizer.optimize` before 3ca18de): `key, self.state, _ =
self.optimize_step(subkey, self.state)` draws the same numbers in every generation, as a step
threading a plain name does. Run in /work/bench-venv (jax 0.10.2, typed keys): the checker raises
`KeyReuseError` at the second generation's split, and without it every generation's draw is
identical. Checked through the real command line, with the fixed loop and an evaluation loop
(nothing threaded) as look-alikes that stay silent."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines

OPTIMIZER = '''\
import jax


class Optimizer:
    def __init__(self, strategy):
        self.strategy = strategy
        self.state = None

    def optimize(self, n_loops=100, seed=9527):
        rng = jax.random.PRNGKey(seed)
        key, subkey = jax.random.split(rng)
        self.state = self.strategy.initialize(key)
        for i in range(n_loops):
            key, self.state, _ = self.optimize_step(subkey, self.state)

    def optimize_fixed(self, n_loops=100, seed=9527):
        rng = jax.random.PRNGKey(seed)
        key, subkey = jax.random.split(rng)
        self.state = self.strategy.initialize(key)
        for i in range(n_loops):
            subkey, self.state, _ = self.optimize_step(subkey, self.state)

    def evaluate(self, batches, seed=0):
        key = jax.random.PRNGKey(seed)
        for batch in batches:
            print(self.score(key, batch))

    def optimize_step(self, key, state):
        key, subkey = jax.random.split(key)
        x = jax.random.normal(subkey, (3,))
        return key, state + x, x

    def score(self, key, params):
        return (params * jax.random.normal(key, params.shape)).sum()
'''


def test_a_method_threading_the_objects_state_given_one_key_every_step(tmp_path: Path) -> None:
    # Only `optimize`: the fixed loop carries the returned key on, and the evaluation loop
    # threads nothing (a fixed evaluation key may be meant).
    assert opt020_lines(tmp_path, "optimizer.py", OPTIMIZER) == [14]
