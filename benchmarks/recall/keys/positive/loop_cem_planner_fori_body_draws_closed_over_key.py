# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/araffin/sbx/commit/596968ba16271931012b9f406efd6e9ee4945b84 ("Update random key between CEM iterations": the body of `jax.lax.fori_loop(0, n_iterations, one_update, carry)` drew `jax.random.normal(key, ...)` from the jitted function's `key` every iteration)
# shown: every CEM iteration samples the same candidate deltas (HAZARD: iterations 0 and 1 drew identical noise), then KeyReuseError ("scan body function leads to key reuse when repeatedly executed") under jax_debug_key_reuse with a typed key
# style: jitted cross-entropy-method action search over a twin Q-function for a sampling-based DQN, lax.fori_loop with a dict carry
"""Noisy cross-entropy search for the greedy action of a continuous-action DQN."""
import sys
from functools import partial

import jax
import jax.numpy as jnp


def q_values(params, obs, actions):
    """Twin critic: shape (2, batch, n_actions)."""
    feats = jnp.concatenate([jnp.broadcast_to(obs[:, None], actions.shape[:2] + obs.shape[-1:]), actions], -1)
    return jnp.einsum("bnf,cf->cbn", feats, params)


@partial(jax.jit, static_argnames=("n_sampled", "action_dim", "n_iterations", "n_top"))
def find_best_actions_cem(params, obs, key, n_sampled, action_dim, n_iterations=4, n_top=3):
    mean = jnp.zeros((obs.shape[0], action_dim))
    var = jnp.ones_like(mean)

    def one_update(i, carry):
        mean, var, history = carry
        deltas = jax.random.normal(key, (obs.shape[0], n_sampled, action_dim))  # expect
        actions = jnp.clip(mean[:, None] + deltas * jnp.sqrt(var + 1e-4)[:, None], -1.0, 1.0)
        q = jnp.min(q_values(params, obs, actions), axis=0)
        top = jnp.argsort(-q, axis=1)[:, :n_top]
        elite = jnp.take_along_axis(actions, top[..., None], axis=1)
        history = history.at[i].set(deltas[0, 0])
        return elite.mean(axis=1), elite.var(axis=1), history

    history = jnp.zeros((n_iterations, action_dim))
    mean, var, history = jax.lax.fori_loop(0, n_iterations, one_update, (mean, var, history))  # expect
    return mean, history


def main() -> None:
    obs = jnp.ones((5, 3))
    params = jax.random.normal(jax.random.PRNGKey(1), (2, 5))
    _, history = find_best_actions_cem(params, obs, jax.random.PRNGKey(0), n_sampled=16, action_dim=2)
    print("first candidate delta per iteration:", history)
    if bool(jnp.array_equal(history[0], history[1])):
        print("HAZARD: CEM iterations 0 and 1 drew identical candidate noise")

    jax.config.update("jax_debug_key_reuse", True)
    try:
        find_best_actions_cem(params, obs, jax.random.key(0), n_sampled=16, action_dim=2)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")


if __name__ == "__main__":
    main()
