# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/google/dopamine/issues/189
# shown: two training-mode applies of the noisy network return identical outputs: the noise key is a module attribute
# style: Flax linen NoisyNets Q-network whose constructor receives rng_key
import sys

import flax.linen as nn
import jax
import jax.numpy as jnp


class NoisyLinear(nn.Module):
    features: int
    rng_key: jax.Array

    @nn.compact
    def __call__(self, x):
        mu = self.param("mu", nn.initializers.lecun_normal(), (x.shape[-1], self.features))
        sigma = self.param("sigma", nn.initializers.constant(0.5), (x.shape[-1], self.features))
        eps = jax.random.normal(self.rng_key, mu.shape)  # expect
        return x @ (mu + sigma * eps)


class NoisyNetwork(nn.Module):
    rng_key: jax.Array
    num_actions: int = 3

    @nn.compact
    def __call__(self, x):
        return NoisyLinear(self.num_actions, rng_key=self.rng_key)(x)


if __name__ == "__main__":
    rng = jax.random.PRNGKey(1)
    rng, rng_net_def, rng_net_param = jax.random.split(rng, num=3)
    net_def = NoisyNetwork(rng_key=rng_net_def)
    state = jnp.ones(4)
    params = net_def.init(rng_net_param, state)
    q1 = net_def.apply(params, state)
    q2 = net_def.apply(params, state)  # expect
    if bool(jnp.all(q1 == q2)):
        print("HAZARD: two noisy forward passes gave identical Q-values:", q1)
        sys.exit(1)
    print("noise differs")
