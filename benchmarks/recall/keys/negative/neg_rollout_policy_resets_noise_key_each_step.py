# recall-case: negative
# rule: OPT020
# class: loop
# source: https://github.com/araffin/sbx/commit/9b34266d01368b97ee442fffb02b4575a6091bb7
# shown: runs with jax_debug_key_reuse on; without gSDE the rollout resets the policy's noise key before every step, so steps draw different noise; prints OK
# style: on-policy RL trainer class; Flax linen actor returning a numpyro Normal; a jitted sampler; Python rollout loop
from functools import partial

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import numpyro.distributions as dist

jax.config.update("jax_debug_key_reuse", True)


class Actor(nn.Module):
    action_dim: int

    @nn.compact
    def __call__(self, obs):
        h = nn.tanh(nn.Dense(32)(obs))
        mean = nn.Dense(self.action_dim)(h)
        log_std = self.param("log_std", nn.initializers.zeros, (self.action_dim,))
        return dist.Normal(mean, jnp.exp(log_std)).to_event(1)


class Policy:
    def __init__(self, obs_dim, action_dim, use_sde, key):
        self.actor = Actor(action_dim)
        self.use_sde = use_sde
        init_key, self.key = jax.random.split(key)
        self.params = self.actor.init(init_key, jnp.zeros((1, obs_dim)))
        self.reset_noise()

    def reset_noise(self):
        self.key, self.noise_key = jax.random.split(self.key)

    def predict_all(self, obs, key):
        return self._predict_all(self.actor, self.params, obs, key)

    @staticmethod
    @partial(jax.jit, static_argnames=("actor",))
    def _predict_all(actor, params, obs, key):
        action_dist = actor.apply(params, obs)
        actions = action_dist.sample(key)
        standard_noise = (actions - action_dist.mean) / jnp.sqrt(action_dist.variance)
        return actions, action_dist.log_prob(actions), standard_noise


class OnPolicyTrainer:
    def __init__(self, policy, n_envs, obs_dim):
        self.policy = policy
        self.n_envs = n_envs
        self.obs_dim = obs_dim

    def collect_rollouts(self, n_steps):
        obs = np.zeros((self.n_envs, self.obs_dim), dtype=np.float32)
        noises = []
        if self.policy.use_sde:
            self.policy.reset_noise()
        for step in range(n_steps):
            if not self.policy.use_sde:
                # always sample a new stochastic action
                self.policy.reset_noise()
            actions, log_probs, noise = self.policy.predict_all(obs, self.policy.noise_key)
            noises.append(np.asarray(noise))
            obs = obs + 0.1 * np.tile(np.asarray(actions), (1, 2))  # a toy environment step
        return noises


if __name__ == "__main__":
    policy = Policy(obs_dim=4, action_dim=2, use_sde=False, key=jax.random.key(0))
    noises = OnPolicyTrainer(policy, n_envs=3, obs_dim=4).collect_rollouts(n_steps=3)
    assert not np.allclose(noises[0], noises[1]) and not np.allclose(noises[1], noises[2])
    print("OK")
