# recall-case: positive
# rule: OPT020
# class: project-consumer
# source: https://github.com/micdoh/XLRON/pull/35 ("Fix model init scales, launch-power heads, and RL launch-power dispatch": "Actor and critic shared an init key. `critic_key` was split but never used; both networks were built from `actor_key`, leaving all hidden layers byte-identical at init"), code as at https://github.com/micdoh/XLRON/blob/c3173a9c671db1049955462f6a8c8025acec2872/xlron/models/mlp.py
# shown: `ActorCriticMLP.__init__` splits `actor_key, critic_key` and builds both `MLP(..., key=actor_key)`; each MLP splits its key per layer and draws orthogonal weights, so for every seed of the vmapped run the critic's hidden layers equal the actor's (`HAZARD: the critic's 2 hidden layers are byte-identical to the actor's for all 3 seeds`); with typed keys under jax_debug_key_reuse building the critic raises KeyReuseError
# style: PureJaxRL-style PPO module on Equinox: an orthogonal-init helper, an eqx MLP whose constructor splits a key per layer, an ActorCriticMLP eqx.Module, a make_train(config) closure whose train(rng) builds the network, optimiser and runner state and runs a scan of update steps, vmapped over seeds
"""PPO actor-critic on Equinox, trained for several seeds at once."""
import sys
from collections.abc import Callable, Sequence

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


def orthogonal_init(key, shape, scale=1.0):
    return jax.nn.initializers.orthogonal(scale)(key, shape)


def make_linear_with_orthogonal_init(in_features, out_features, key, scale=1.0):
    key1, key2 = jax.random.split(key)
    weight = orthogonal_init(key1, (out_features, in_features), scale=scale)
    linear = eqx.nn.Linear(in_features, out_features, key=key2)
    return eqx.tree_at(lambda layer: (layer.weight, layer.bias), linear, (weight, jnp.zeros(out_features)))


class MLP(eqx.Module):
    layers: tuple
    activation_fn: Callable = eqx.field(static=True)

    def __init__(self, features: Sequence[int], in_features: int, *, key):
        self.activation_fn = jnp.tanh
        keys = jax.random.split(key, len(features))
        layers, current_in = [], in_features
        for i, out_features in enumerate(features):
            layers.append(make_linear_with_orthogonal_init(current_in, out_features, keys[i], scale=np.sqrt(2)))
            current_in = out_features
        self.layers = tuple(layers)

    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = self.activation_fn(layer(x))
        return self.layers[-1](x)


class ActorCriticMLP(eqx.Module):
    actor: MLP
    critic: MLP

    def __init__(self, action_dim: int, input_dim: int, num_layers: int = 2, num_units: int = 32, *, key):
        actor_key, critic_key = jax.random.split(key)
        self.actor = MLP([num_units] * num_layers + [action_dim], input_dim, key=actor_key)  # expect
        self.critic = MLP([num_units] * num_layers + [1], input_dim, key=actor_key)  # expect

    def __call__(self, x):
        return self.actor(x), self.critic(x).squeeze(-1)


def make_train(config):
    def train(rng):
        rng, _rng = jax.random.split(rng)
        network = ActorCriticMLP(config["ACTION_DIM"], config["OBS_DIM"], key=_rng)
        params, static = eqx.partition(network, eqx.is_inexact_array)
        tx = optax.adam(config["LR"])
        opt_state = tx.init(params)

        def update_step(runner_state, _):
            params, opt_state, rng = runner_state
            rng, obs_rng, act_rng = jax.random.split(rng, 3)
            obs = jax.random.normal(obs_rng, (config["NUM_ENVS"], config["OBS_DIM"]))

            def loss_fn(params):
                model = eqx.combine(params, static)
                logits, values = jax.vmap(model)(obs)
                actions = jax.random.categorical(act_rng, logits)
                adv = jax.lax.stop_gradient(1.0 - values)
                logp = jax.nn.log_softmax(logits)[jnp.arange(len(actions)), actions]
                return -(logp * adv).mean() + 0.5 * (adv ** 2).mean()

            loss, grads = jax.value_and_grad(loss_fn)(params)
            updates, opt_state = tx.update(grads, opt_state)
            return (optax.apply_updates(params, updates), opt_state, rng), loss

        (params, _, _), losses = jax.lax.scan(update_step, (params, opt_state, rng), None, config["NUM_UPDATES"])
        return network, losses

    return train


CONFIG = {"ACTION_DIM": 4, "OBS_DIM": 6, "LR": 3e-4, "NUM_ENVS": 8, "NUM_UPDATES": 4, "NUM_SEEDS": 3}

if __name__ == "__main__":
    rngs = jax.random.split(jax.random.PRNGKey(30), CONFIG["NUM_SEEDS"])
    initial_networks, losses = jax.jit(jax.vmap(make_train(CONFIG)))(rngs)
    print("final losses per seed:", np.asarray(losses[:, -1]))
    actor, critic = initial_networks.actor, initial_networks.critic
    hidden_same = all(np.array_equal(actor.layers[i].weight, critic.layers[i].weight) for i in range(2))
    if hidden_same:
        print(f"HAZARD: the critic's 2 hidden layers are byte-identical to the actor's for all {CONFIG['NUM_SEEDS']} seeds")
    jax.config.update("jax_debug_key_reuse", True)
    try:
        ActorCriticMLP(4, 6, key=jax.random.key(0))
    except jax.errors.KeyReuseError as err:
        print(f"HAZARD: KeyReuseError: {str(err).splitlines()[0]}")
        sys.exit(0)
    print("no KeyReuseError")
