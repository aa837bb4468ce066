# recall-case: negative
# rule: OPT020
# class: broadcast
# source: https://github.com/google-research/kauldron/commit/cdf91ee7b8a10482f63a2c5a90687c6697cff9c4 (the fix: `per_device` streams, `device_id=jax.lax.axis_index('batch')` folded into every train rng)
# shown: the streams fold in the device index inside the pmap (the `params` stream used at init, outside pmap, does not), so the two devices' dropout masks differ at every step and each stream key is derived by fold_in only; prints OK
# style: training-framework module: RngStream / RngStreams dataclasses deriving per-stream keys by fold_in from a root rng, a flax.linen model with dropout that sows its mask, a TrainStep class with a pmapped _step computing grads and pmean-ing them, a trainer loop over steps on 2 host devices
"""Data-parallel training step whose rng streams are derived from one root rng."""
import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=2")

import dataclasses  # noqa: E402
import functools  # noqa: E402
import zlib  # noqa: E402

import flax.linen as nn  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402
from flax import jax_utils  # noqa: E402
from flax.training import train_state  # noqa: E402


def _hash(name: str) -> int:
    return zlib.crc32(name.encode()) & 0x7FFFFFFF


@dataclasses.dataclass(frozen=True)
class RngStream:
    """Description of one rng stream (`params`, `dropout`, ...)."""

    name: str
    init: bool = True
    train: bool = True
    per_step: bool = True
    per_device: bool = True
    per_process: bool = True

    def make(self, rng, *, step, device_id=None, key=None):
        """Create the `rng` from the global root rng."""
        rng = jax.random.fold_in(rng, _hash(self.name))
        if self.per_step:
            rng = jax.random.fold_in(rng, step)
        if self.per_process:
            rng = jax.random.fold_in(rng, jax.process_index())
        if self.per_device:
            if device_id is None:
                raise ValueError(f"Missing `device_id` to generate rng stream: {self}")
            rng = jax.random.fold_in(rng, device_id)
        if key is not None:
            rng = jax.random.fold_in(rng, _hash(key))
        return rng


@dataclasses.dataclass(frozen=True)
class RngStreams:
    root_rng: jax.Array
    streams: tuple = (
        RngStream("params", train=False, per_step=False, per_device=False),
        RngStream("dropout", init=False),
    )

    def init_rngs(self):
        return {r.name: r.make(self.root_rng, step=0, key="init") for r in self.streams if r.init}

    def train_rngs(self, step, *, device_id):
        return {
            r.name: r.make(self.root_rng, step=step, device_id=device_id, key="train")
            for r in self.streams if r.train
        }


class Model(nn.Module):
    hidden: int = 16

    @nn.compact
    def __call__(self, x, *, is_training: bool):
        h = nn.relu(nn.Dense(self.hidden)(x))
        keep = nn.Dropout(rate=0.3, deterministic=not is_training)(jnp.ones(self.hidden))
        self.sow("intermediates", "dropout_mask", keep > 0)
        return nn.Dense(1)(h * keep)


@dataclasses.dataclass
class TrainStep:
    model: Model
    rng_streams: RngStreams
    optimizer: optax.GradientTransformation

    def init(self, batch):
        params = self.model.init(self.rng_streams.init_rngs(), batch["x"][0], is_training=False)["params"]
        return train_state.TrainState.create(apply_fn=self.model.apply, params=params, tx=self.optimizer)

    @functools.partial(jax.pmap, axis_name="batch", static_broadcasted_argnums=(0,))
    def _step(self, state, batch):
        def loss_fn(params):
            preds, aux = self.model.apply(
                {"params": params}, batch["x"], is_training=True,
                rngs=self.rng_streams.train_rngs(state.step, device_id=jax.lax.axis_index("batch")),
                mutable=["intermediates"],
            )
            return jnp.mean((preds.squeeze(-1) - batch["y"]) ** 2), aux["intermediates"]["dropout_mask"][0]

        (loss, mask), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
        grads = jax.lax.pmean(grads, "batch")
        return state.apply_gradients(grads=grads), jax.lax.pmean(loss, "batch"), mask

    def step(self, state, batch):
        return self._step(state, batch)

    def __hash__(self):
        return id(self)


def main(num_steps=3):
    n_dev = jax.local_device_count()
    rs = np.random.RandomState(0)
    trainer = TrainStep(Model(), RngStreams(jax.random.PRNGKey(0)), optax.adam(1e-2))
    state = jax_utils.replicate(trainer.init({"x": jnp.ones((1, 4, 3))}))
    masks = []
    for step in range(num_steps):
        batch = {"x": jnp.asarray(rs.randn(n_dev, 4, 3), jnp.float32), "y": jnp.asarray(rs.randn(n_dev, 4), jnp.float32)}
        state, loss, mask = trainer.step(state, batch)
        masks.append(np.asarray(mask))
        print(f"step {step}: loss {float(loss[0]):.4f}")
    return masks


if __name__ == "__main__":
    masks = main()
    assert not any(np.array_equal(m[0], m[1]) for m in masks)
    print("OK")
