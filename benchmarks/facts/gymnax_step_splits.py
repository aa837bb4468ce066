"""Measure the gymnax `step` row of `optlint/analysis/key_consumers.py`: does `env.step(key, ...)`
consume its key whatever the environment and wrapper (gymnax splits it for the auto-reset)? For
every registered id but MNISTBandit (it downloads MNIST), bare and wrapped in
FlattenObservationWrapper + LogWrapper: step, then split the same key, under jax_debug_key_reuse.

Run as `gymnax_make_classes.py` is (gymnax 1.0.1 sdist, gymnasium from a local site, seaborn
stubbed); the output of the run the row cites is `gymnax_step_splits.txt` beside this file.
"""
import jax
import gymnax
from gymnax.wrappers.purerl import FlattenObservationWrapper, LogWrapper

jax.config.update("jax_debug_key_reuse", True)
for env_id in gymnax.registered_envs:
    if env_id.startswith("MNISTBandit"):
        continue
    base, params = gymnax.make(env_id)
    for name, env in (("bare", base), ("wrapped", LogWrapper(FlattenObservationWrapper(base)))):
        _, state = env.reset(jax.random.key(1), params)
        action = base.action_space(params).sample(jax.random.key(2))
        key = jax.random.key(0)
        env.step(key, state, action, params)
        try:
            jax.random.split(key)
            verdict = "checker silent"
        except Exception as e:  # KeyReuseError
            verdict = type(e).__name__
        print(f"{env_id:26} {name:8} step then split: {verdict}")
