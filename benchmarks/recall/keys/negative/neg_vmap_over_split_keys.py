# recall-case: negative
# rule: OPT020
# class: broadcast
# source: https://github.com/pyro-ppl/numpyro/commit/ce141fbd13d31a8f2e19e835ca9ad6559322d347
# shown: runs with jax_debug_key_reuse on; each chain gets its own key from split; chains differ; prints OK
# style: random-walk chains vmapped over per-chain keys
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def run_chain(position, key, num_steps=10):
    def step(carry, _):
        position, key = carry
        key, step_key = jax.random.split(key)
        position = position + 0.5 * jax.random.normal(step_key, position.shape)
        return (position, key), position

    _, samples = jax.lax.scan(step, (position, key), None, length=num_steps)
    return samples


def run_chains(init_positions, key):
    chain_keys = jax.random.split(key, init_positions.shape[0])
    return jax.vmap(run_chain)(init_positions, chain_keys)


if __name__ == "__main__":
    samples = run_chains(jnp.zeros((4, 2)), jax.random.key(0))
    assert not bool(jnp.all(samples == samples[0]))
    print("OK")
