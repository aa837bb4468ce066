# recall-case: negative
# rule: OPT020
# class: calls-and-state
# source: https://github.com/p-doom/jasmine/pull/239
# shown: the mask keys come from the nnx.Rngs passed to mask_and_encode (the PR's intent): masks differ step to step, no KeyReuseError under jax_debug_key_reuse; prints OK
# style: flax.nnx video tokenizer (patchify, masked encoder, decoder) trained with nnx.Optimizer in a jitted train_step over a Python loop
"""Masked video tokenizer, diffusion-baseline style (training loop)."""
from dataclasses import dataclass
from typing import Dict

import jax
import jax.numpy as jnp
import optax
from flax import nnx


@dataclass
class Args:
    batch_size: int = 2
    seq_len: int = 3
    image_size: int = 8
    patch_size: int = 4
    latent_dim: int = 16
    max_mask_ratio: float = 0.9
    lr: float = 1e-3
    num_steps: int = 3
    seed: int = 0


def patchify(videos: jax.Array, size: int) -> jax.Array:
    B, T, H, W, C = videos.shape
    x = videos.reshape(B, T, H // size, size, W // size, size, C)
    return x.transpose(0, 1, 2, 4, 3, 5, 6).reshape(B, T, (H // size) * (W // size), size * size * C)


class Tokenizer(nnx.Module):
    def __init__(self, args: Args, *, rngs: nnx.Rngs):
        patch_dim = args.patch_size * args.patch_size * 3
        self.patch_size = args.patch_size
        self.max_mask_ratio = args.max_mask_ratio
        self.encoder = nnx.Linear(patch_dim, args.latent_dim, rngs=rngs)
        self.decoder = nnx.Linear(args.latent_dim, patch_dim, rngs=rngs)
        self.mask_token = nnx.Param(jnp.zeros((patch_dim,)))

    def mask_and_encode(self, videos: jax.Array, rng: nnx.Rngs, training: bool = True) -> Dict[str, jax.Array]:
        # --- Preprocess videos ---
        B, T = videos.shape[:2]
        patch_BTNP = patchify(videos, self.patch_size)
        N = patch_BTNP.shape[2]

        # --- Randomly mask patches ---
        if training:
            _rng_prob, _rng_mask = jax.random.split(rng(), 2)
            mask_prob = jax.random.uniform(_rng_prob, shape=(B * T,), minval=0.0, maxval=self.max_mask_ratio)
            mask = jax.random.bernoulli(_rng_mask, mask_prob[:, None], (B * T, N)).reshape(B, T, N)
            patch_BTNP = jnp.where(mask[..., None], self.mask_token[...], patch_BTNP)
        else:
            mask = jnp.zeros((B, T, N), bool)
        return {"latents": self.encoder(patch_BTNP), "mask": mask, "patches": patchify(videos, self.patch_size)}

    def __call__(self, videos: jax.Array, rng: nnx.Rngs, training: bool = True) -> Dict[str, jax.Array]:
        out = self.mask_and_encode(videos, rng, training)
        out["recon"] = self.decoder(out["latents"])
        return out


@nnx.jit
def train_step(model: Tokenizer, optimizer: nnx.Optimizer, videos: jax.Array, rngs: nnx.Rngs):
    def loss_fn(model, rngs):
        out = model(videos, rngs, training=True)
        err = jnp.square(out["recon"] - out["patches"]).mean(-1)
        return (err * out["mask"]).sum() / jnp.maximum(out["mask"].sum(), 1), out["mask"]

    (loss, mask), grads = nnx.value_and_grad(loss_fn, has_aux=True)(model, rngs)
    optimizer.update(model, grads)
    return loss, mask


def main() -> None:
    jax.config.update("jax_debug_key_reuse", True)
    args = Args()
    rngs = nnx.Rngs(args.seed)
    model = Tokenizer(args, rngs=rngs)
    optimizer = nnx.Optimizer(model, optax.adamw(args.lr), wrt=nnx.Param)

    data_key = jax.random.key(args.seed + 1)
    masks = []
    for step in range(args.num_steps):
        data_key, batch_key = jax.random.split(data_key)
        videos = jax.random.uniform(batch_key, (args.batch_size, args.seq_len, args.image_size, args.image_size, 3))
        loss, mask = train_step(model, optimizer, videos, rngs)
        masks.append(mask)
        print(f"step {step}: loss {float(loss):.4f}, masked patches {int(mask.sum())}")
    if any(bool(jnp.array_equal(masks[0], m)) for m in masks[1:]):
        raise SystemExit("two training steps masked exactly the same patches")
    print("OK")


if __name__ == "__main__":
    main()
