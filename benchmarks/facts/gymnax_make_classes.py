"""Measure the `gymnax.make` row of `optlint/analysis/library_factories.py`: the class of the
environment `gymnax.make(env_id)` returns for every registered id, and whether its `step_env` /
`reset_env` read their key (two keys, compared; evidence only: optlint reads the class's source).

Run with an environment where gymnax imports (gymnax 1.0.1 needs gymnasium; seaborn is only used
for plotting and may be stubbed), e.g.
    PYTHONPATH=<gymnax sdist>:<site with gymnasium> python benchmarks/facts/gymnax_make_classes.py
The output of the run the row cites is `gymnax_make_classes.txt` beside this file.
"""
import jax
import jax.numpy as jnp

import gymnax


def same(a, b) -> bool:
    return all(bool(jnp.array_equal(x, y))
               for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b), strict=True))


def main() -> None:
    for env_id in gymnax.registered_envs:
        try:
            env, params = gymnax.make(env_id)
        except OSError as error:  # MNISTBandit downloads MNIST: no network, no row
            print(f"{env_id:28s} make failed: {type(error).__name__}")
            continue
        first, second = env.reset_env(jax.random.key(0), params), \
            env.reset_env(jax.random.key(12345), params)
        reset_ignores = same(first, second)
        state, steps_ignore = first[1], True
        for i in range(5):
            action = env.action_space(params).sample(jax.random.fold_in(jax.random.key(7), i))
            out = env.step_env(jax.random.key(100 + i), state, action, params)
            steps_ignore &= same(out, env.step_env(jax.random.key(200 + i), state, action, params))
            state = out[1]
        print(f"{env_id:28s} {type(env).__module__}.{type(env).__name__}  "
              f"step_env ignores key: {steps_ignore}  reset_env ignores key: {reset_ignores}")


if __name__ == "__main__":
    main()
