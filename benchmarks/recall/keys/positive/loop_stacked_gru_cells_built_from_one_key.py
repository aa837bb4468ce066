# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/kscalelabs/ksim/commit/e376632d008a3fdefb3f860be4d0c89babe13184
# shown: all stacked GRU layers of the actor (and of the critic) start with identical weights (eqx.nn.GRUCell(..., key=rnn_key) for _ in range(depth)), then KeyReuseError under jax_debug_key_reuse
# style: Equinox recurrent actor-critic for a walking policy: Actor / Critic modules with input projection, a tuple of stacked GRUCells and an output head, a Model wrapper and a per-step forward with carries
"""Recurrent walking policy: actor and critic with stacked GRU cells."""
import sys
from dataclasses import dataclass

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, PRNGKeyArray


@dataclass
class WalkingConfig:
    num_inputs: int = 12
    num_joints: int = 4
    hidden_size: int = 32
    depth: int = 3
    seed: int = 0


class Actor(eqx.Module):
    input_proj: eqx.nn.Linear
    rnns: tuple[eqx.nn.GRUCell, ...]
    output_proj: eqx.nn.Linear
    num_outputs: int = eqx.field(static=True)

    def __init__(self, key: PRNGKeyArray, *, num_inputs: int, num_outputs: int, hidden_size: int, depth: int):
        key, input_proj_key = jax.random.split(key)
        self.input_proj = eqx.nn.Linear(num_inputs, hidden_size, key=input_proj_key)

        # Create RNN layer
        key, rnn_key = jax.random.split(key)
        self.rnns = tuple(
            [
                eqx.nn.GRUCell(
                    input_size=hidden_size,
                    hidden_size=hidden_size,
                    key=rnn_key,  # expect
                )
                for _ in range(depth)
            ]
        )

        key, output_key = jax.random.split(key)
        self.output_proj = eqx.nn.Linear(hidden_size, num_outputs * 2, key=output_key)
        self.num_outputs = num_outputs

    def forward(self, obs: Array, carry: Array) -> tuple[Array, Array]:
        x = self.input_proj(obs)
        out_carries = []
        for i, rnn in enumerate(self.rnns):
            x = rnn(x, carry[i])
            out_carries.append(x)
        out = self.output_proj(x)
        mean, std = out[: self.num_outputs], jax.nn.softplus(out[self.num_outputs :]) + 0.01
        return jnp.stack([mean, std]), jnp.stack(out_carries)


class Critic(eqx.Module):
    input_proj: eqx.nn.Linear
    rnns: tuple[eqx.nn.GRUCell, ...]
    output_proj: eqx.nn.Linear

    def __init__(self, key: PRNGKeyArray, *, num_inputs: int, hidden_size: int, depth: int):
        key, input_proj_key = jax.random.split(key)
        self.input_proj = eqx.nn.Linear(num_inputs, hidden_size, key=input_proj_key)
        key, rnn_key = jax.random.split(key)
        self.rnns = tuple(
            [eqx.nn.GRUCell(input_size=hidden_size, hidden_size=hidden_size, key=rnn_key) for _ in range(depth)]  # expect
        )
        key, output_key = jax.random.split(key)
        self.output_proj = eqx.nn.Linear(hidden_size, 1, key=output_key)

    def forward(self, obs: Array, carry: Array) -> tuple[Array, Array]:
        x = self.input_proj(obs)
        out_carries = []
        for i, rnn in enumerate(self.rnns):
            x = rnn(x, carry[i])
            out_carries.append(x)
        return self.output_proj(x), jnp.stack(out_carries)


class Model(eqx.Module):
    actor: Actor
    critic: Critic

    def __init__(self, key: PRNGKeyArray, cfg: WalkingConfig):
        actor_key, critic_key = jax.random.split(key)
        self.actor = Actor(
            actor_key,
            num_inputs=cfg.num_inputs,
            num_outputs=cfg.num_joints,
            hidden_size=cfg.hidden_size,
            depth=cfg.depth,
        )
        self.critic = Critic(critic_key, num_inputs=cfg.num_inputs, hidden_size=cfg.hidden_size, depth=cfg.depth)


def main() -> None:
    cfg = WalkingConfig()
    model = Model(jax.random.key(cfg.seed), cfg)
    carry = jnp.zeros((cfg.depth, cfg.hidden_size))
    dist, carry = model.actor.forward(jnp.ones(cfg.num_inputs), carry)
    value, _ = model.critic.forward(jnp.ones(cfg.num_inputs), jnp.zeros((cfg.depth, cfg.hidden_size)))
    print("action mean:", dist[0], "value:", value)

    w = [rnn.weight_hh for rnn in model.actor.rnns]
    if all(bool(jnp.array_equal(w[0], wi)) for wi in w[1:]):
        print(f"HAZARD: all {cfg.depth} actor GRU layers were initialised with identical weights")

    jax.config.update("jax_debug_key_reuse", True)
    try:
        Model(jax.random.key(cfg.seed + 1), cfg)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")


if __name__ == "__main__":
    main()
