# recall-case: negative
# rule: OPT020
# class: loop
# source: https://github.com/gchq/coreax/issues/375
# shown: runs with jax_debug_key_reuse on; each noise scale folds its index into the key, perturbations differ; prints OK
# style: noise-conditional loss with lax.fori_loop over noise scales
import jax
import jax.numpy as jnp
from jax import random

jax.config.update("jax_debug_key_reuse", True)

SIGMAS = jnp.array([1.0, 0.5, 0.25])


def perturbations(x, key):
    def body(i, out):
        step_key = random.fold_in(key, i)
        return out.at[i].set(x + SIGMAS[i] * random.normal(step_key, x.shape))

    return jax.lax.fori_loop(0, SIGMAS.shape[0], body, jnp.zeros((SIGMAS.shape[0],) + x.shape))


if __name__ == "__main__":
    out = perturbations(jnp.zeros(3), random.key(0))
    unit = out / SIGMAS[:, None]
    assert not bool(jnp.allclose(unit[0], unit[1]))
    print("OK")
