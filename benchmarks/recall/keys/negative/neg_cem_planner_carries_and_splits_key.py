# recall-case: negative
# rule: OPT020
# class: loop
# source: https://github.com/araffin/sbx/commit/596968ba16271931012b9f406efd6e9ee4945b84 (the fix: the key rides in the fori_loop carry and is split at the top of every iteration)
# shown: each CEM iteration draws its candidates from a fresh subkey split off the carried key; the iterations' noise differs and JAX's key-reuse checker stays silent with a typed key; prints OK
# style: jitted cross-entropy-method action search over a twin Q-function, lax.fori_loop with a dict carry holding the key
"""Noisy cross-entropy search with a key carried through the loop."""
from functools import partial

import jax
import jax.numpy as jnp


def q_values(params, obs, actions):
    feats = jnp.concatenate([jnp.broadcast_to(obs[:, None], actions.shape[:2] + obs.shape[-1:]), actions], -1)
    return jnp.einsum("bnf,cf->cbn", feats, params)


@partial(jax.jit, static_argnames=("n_sampled", "action_dim", "n_iterations", "n_top"))
def find_best_actions_cem(params, obs, key, n_sampled, action_dim, n_iterations=4, n_top=3):
    carry = {
        "mean": jnp.zeros((obs.shape[0], action_dim)),
        "var": jnp.ones((obs.shape[0], action_dim)),
        "key": key,
        "history": jnp.zeros((n_iterations, action_dim)),
    }

    def one_update(i, carry):
        key, noise_key = jax.random.split(carry["key"])
        deltas = jax.random.normal(noise_key, (obs.shape[0], n_sampled, action_dim))
        actions = jnp.clip(carry["mean"][:, None] + deltas * jnp.sqrt(carry["var"] + 1e-4)[:, None], -1.0, 1.0)
        q = jnp.min(q_values(params, obs, actions), axis=0)
        top = jnp.argsort(-q, axis=1)[:, :n_top]
        elite = jnp.take_along_axis(actions, top[..., None], axis=1)
        return {
            "mean": elite.mean(axis=1),
            "var": elite.var(axis=1),
            "key": key,
            "history": carry["history"].at[i].set(deltas[0, 0]),
        }

    carry = jax.lax.fori_loop(0, n_iterations, one_update, carry)
    return carry["mean"], carry["history"]


def main() -> None:
    obs = jnp.ones((5, 3))
    params = jax.random.normal(jax.random.PRNGKey(1), (2, 5))
    _, history = find_best_actions_cem(params, obs, jax.random.PRNGKey(0), n_sampled=16, action_dim=2)
    assert not bool(jnp.array_equal(history[0], history[1]))
    jax.config.update("jax_debug_key_reuse", True)
    find_best_actions_cem(params, obs, jax.random.key(5), n_sampled=16, action_dim=2)
    print("OK")


if __name__ == "__main__":
    main()
