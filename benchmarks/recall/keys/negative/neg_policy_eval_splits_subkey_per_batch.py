# recall-case: negative
# rule: OPT020
# class: loop
# source: https://github.com/ManifoldRG/MultiNet/commit/e170d5c01d63dafdc6779e5207e99848dbeb6873 (PR #895)
# shown: the fix: `key, subkey = jax.random.split(key)` at the top of every batch, `sample_actions(subkey, ...)`, and the truncation loop no longer names its variable `key`; batches 0 and 3 (the same layouts) get different action samples and jax_debug_key_reuse raises nothing, also with a truncated last batch; prints OK
# style: evaluation script of a VLA benchmark: an inference class with prepare_observation / process_output / evaluate_model, a dataloader yielding dict batches, a flax.linen flow-matching policy whose jitted `sample_actions(rng, observation, num_steps)` integrates from Gaussian noise, a main() that builds everything and prints metrics
"""Evaluate a flow-matching action policy on recorded Overcooked transitions."""
import sys
from functools import partial

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np


@flax.struct.dataclass
class Observation:
    state: jax.Array
    prompt: jax.Array

    @classmethod
    def from_dict(cls, d):
        return cls(jnp.asarray(d["state"]), jnp.asarray(d["prompt"]))


class VelocityField(nn.Module):
    action_dim: int

    @nn.compact
    def __call__(self, actions, t, obs_embedding):
        h = jnp.concatenate([actions, jnp.broadcast_to(t, actions.shape[:-1] + (1,)), obs_embedding], -1)
        return nn.Dense(self.action_dim)(nn.gelu(nn.Dense(64)(h)))


class FlowPolicy:
    """pi0-style: actions are integrated from noise along a learned velocity field."""

    def __init__(self, obs_dim: int, action_dim: int, horizon: int, key):
        self.action_dim, self.horizon = action_dim, horizon
        self.encoder = nn.Dense(16)
        self.field = VelocityField(action_dim)
        enc_key, field_key = jax.random.split(key)
        self.enc_params = self.encoder.init(enc_key, jnp.zeros((1, obs_dim)))
        self.field_params = self.field.init(field_key, jnp.zeros((1, horizon, action_dim)), 0.0,
                                            jnp.zeros((1, horizon, 16)))

    @partial(jax.jit, static_argnums=(0, 3))
    def sample_actions(self, rng, observation: Observation, num_steps: int = 10):
        batch = observation.state.shape[0]
        emb = self.encoder.apply(self.enc_params, observation.state + observation.prompt)
        emb = jnp.broadcast_to(emb[:, None], (batch, self.horizon, emb.shape[-1]))
        x = jax.random.normal(rng, (batch, self.horizon, self.action_dim))
        dt = 1.0 / num_steps
        for i in range(num_steps):
            x = x + dt * self.field.apply(self.field_params, x, i * dt, emb)
        return x


def get_dataloader(rng: np.random.Generator, num_batches: int, batch_size: int, obs_dim: int):
    layouts = rng.normal(size=(3, obs_dim)).astype(np.float32)
    batches = []
    for b in range(num_batches):
        which = [(b + i) % 3 for i in range(batch_size)] if b != 3 else [i % 3 for i in range(batch_size)]
        batches.append({
            "image_observation": layouts[which],
            "text_observation": np.zeros((batch_size, obs_dim), np.float32),
            "action": rng.integers(0, 6, size=batch_size),
        })
    return batches


class OvercookedInference:
    def prepare_observation(self, obs, batch_size: int):
        return {"state": obs["image_observation"][:batch_size], "prompt": obs["text_observation"][:batch_size]}

    def process_output(self, actions):
        return np.asarray(jnp.argmax(actions[:, 0, :], axis=-1))

    def evaluate_model(self, model, key, dataloader, max_samples=None):
        counter, samples_processed, correct = 0, 0, 0
        all_actions = []
        for batch in dataloader:
            key, subkey = jax.random.split(key)
            actual_batch_size = len(batch["image_observation"])
            if max_samples is not None and samples_processed + actual_batch_size > max_samples:
                remaining = max_samples - samples_processed
                if remaining <= 0:
                    break
                for feature in batch:
                    batch[feature] = batch[feature][:remaining]
                actual_batch_size = remaining
            obs = {"image_observation": batch["image_observation"], "text_observation": batch["text_observation"]}
            observation = Observation.from_dict(self.prepare_observation(obs, actual_batch_size))

            # Sample actions for entire batch
            actions = model.sample_actions(subkey, observation, num_steps=10)
            all_actions.append(actions)
            predicted = self.process_output(actions)
            correct += int(np.sum(predicted == np.asarray(batch["action"])))
            counter += 1
            samples_processed += actual_batch_size
        return {"accuracy": correct / max(samples_processed, 1), "batches": counter, "actions": all_actions}


def main() -> None:
    key = jax.random.key(0)
    key, model_key = jax.random.split(key)
    model = FlowPolicy(obs_dim=8, action_dim=6, horizon=4, key=model_key)
    dataloader = get_dataloader(np.random.default_rng(0), num_batches=5, batch_size=3, obs_dim=8)
    results = OvercookedInference().evaluate_model(model, key, dataloader)
    print("accuracy:", results["accuracy"], "batches:", results["batches"])
    # Batch 0 and batch 3 hold the same three layouts in the same order.
    assert not bool(jnp.array_equal(results["actions"][0], results["actions"][3]))

    jax.config.update("jax_debug_key_reuse", True)
    try:
        OvercookedInference().evaluate_model(model, jax.random.key(1), dataloader, max_samples=13)
    except jax.errors.KeyReuseError as err:
        print("unexpected KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
