# recall-case: positive
# rule: OPT020
# class: closure
# source: https://github.com/infer-actively/pymdp/issues/430
# shown: KeyReuseError under jax_debug_key_reuse: one rng_key drawn once per control factor inside a tree_map lambda
# style: active-inference agent, stochastic action selection over a list of factor marginals
import sys

import jax
import jax.numpy as jnp
import jax.random as jr
import jax.tree_util as jtu

jax.config.update("jax_debug_key_reuse", True)


def log_stable(x, eps=1e-16):
    return jnp.log(jnp.clip(x, eps))


def sample_action(marginals, alpha, rng_key):
    logits = lambda x: alpha * log_stable(x)
    return jtu.tree_map(lambda x: jr.categorical(rng_key, logits(x)), marginals)  # expect


if __name__ == "__main__":
    marginals = [jnp.array([0.25, 0.25, 0.5]), jnp.array([0.25, 0.25, 0.5])]
    try:
        print(sample_action(marginals, 16.0, jr.key(0)))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
