# recall-case: negative
# rule: OPT020
# class: other-library
# source: https://github.com/huggingface/diffusers/commit/ebb3e28ea0e3e45f1a95d98c64ce2c9be7eb1993
# shown: runs with jax_debug_key_reuse on; one nnx.Rngs(seed) object is made once and passed to both phases, its stream advances, and the training noise differs from the class-image latents; prints OK
# style: Flax NNX training script: class-image generation, then a training loop drawing diffusion noise from nnx.Rngs
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import optax
from flax import nnx

jax.config.update("jax_debug_key_reuse", True)

LATENT = 16


@dataclass
class Args:
    seed: int = 0
    num_class_images: int = 4


class Denoiser(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(LATENT, 32, rngs=rngs)
        self.out = nnx.Linear(32, LATENT, rngs=rngs)

    def __call__(self, x):
        return self.out(jax.nn.gelu(self.hidden(x)))


def generate_class_latents(args, rngs):
    return jax.random.normal(rngs.sample(), (args.num_class_images, LATENT))


def train(args, class_latents, rngs, steps=3):
    model = Denoiser(rngs=nnx.Rngs(params=args.seed + 1))
    optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
    noises = []
    for _ in range(steps):
        noise = jax.random.normal(rngs.noise(), class_latents.shape)
        noises.append(noise)

        def loss_fn(m, noise=noise):
            return jnp.mean((m(class_latents + noise) - noise) ** 2)

        loss, grads = nnx.value_and_grad(loss_fn)(model)
        optimizer.update(model, grads)
    return noises, loss


if __name__ == "__main__":
    args = Args()
    rngs = nnx.Rngs(args.seed)
    class_latents = generate_class_latents(args, rngs)
    noises, loss = train(args, class_latents, rngs)
    assert not any(bool(jnp.all(n == class_latents)) for n in noises)
    print("OK")
