# recall-case: negative
# rule: OPT020
# class: fold-in-split
# source: https://github.com/blackjax-devs/blackjax/pull/656
# shown: runs with jax_debug_key_reuse on; the loop only folds distinct step numbers into the base key; per-step draws differ; prints OK
# style: training loop deriving per-step keys with fold_in(base_key, step)
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def sample_step(base_key, step, shape=(3,)):
    return jax.random.normal(jax.random.fold_in(base_key, step), shape)


if __name__ == "__main__":
    base_key = jax.random.key(0)
    draws = jnp.stack([sample_step(base_key, step) for step in range(4)])
    assert len({tuple(row.tolist()) for row in draws}) == 4
    print("OK")
