# recall-case: positive
# rule: OPT020
# class: other-library
# source: https://github.com/google/flax/pull/5344
# shown: actor and critic torsos built from nnx.Rngs(key) with the same key hold identical kernels
# style: Flax NNX actor-critic, one Rngs object per network made from a shared key
import sys

import jax
import jax.numpy as jnp
from flax import nnx


class Torso(nnx.Module):
    def __init__(self, din, dout, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(din, 16, rngs=rngs)
        self.out = nnx.Linear(16, dout, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


def build_agent(key, obs_dim, num_actions):
    actor = Torso(obs_dim, num_actions, rngs=nnx.Rngs(key))  # expect
    critic = Torso(obs_dim, 1, rngs=nnx.Rngs(key))  # expect
    return actor, critic


if __name__ == "__main__":
    actor, critic = build_agent(jax.random.key(0), 4, 2)
    if bool(jnp.all(actor.hidden.kernel[...] == critic.hidden.kernel[...])):
        print("HAZARD: actor and critic hidden layers were initialised identically")
        sys.exit(1)
    print("networks differ")
