# recall-case: negative
# rule: OPT020
# class: basic
# source: https://github.com/infer-actively/pymdp/issues/430
# shown: runs with jax_debug_key_reuse on for every mode; each match arm draws from the key at most once; prints OK
# style: action selection dispatched with match on the selection mode
import jax
import jax.numpy as jnp
import jax.random as jr

jax.config.update("jax_debug_key_reuse", True)


def select_action(probs, mode, rng_key):
    match mode:
        case "deterministic":
            return jnp.argmax(probs)
        case "stochastic":
            return jr.categorical(rng_key, jnp.log(probs))
        case "epsilon":
            return jr.randint(rng_key, (), 0, probs.shape[0])
        case _:
            raise ValueError(mode)


if __name__ == "__main__":
    probs = jnp.array([0.2, 0.3, 0.5])
    for i, mode in enumerate(["deterministic", "stochastic", "epsilon"]):
        select_action(probs, mode, jr.key(i))
    print("OK")
