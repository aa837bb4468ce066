# recall-case: positive
# rule: OPT020
# class: other-library
# source: https://github.com/huggingface/diffusers/commit/ebb3e28ea0e3e45f1a95d98c64ce2c9be7eb1993
# shown: the first training step's diffusion noise is identical to the noise that generated the first prior-preservation images: both phases build their RNG from the same seed
# style: Flax NNX training script: nnx.Rngs(seed) for class-image generation, and again nnx.Rngs(seed) for the training loop
import sys
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import optax
from flax import nnx

LATENT = 16


@dataclass
class Args:
    seed: int = 0
    num_class_images: int = 4
    with_prior_preservation: bool = True


class Denoiser(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(LATENT, 32, rngs=rngs)
        self.out = nnx.Linear(32, LATENT, rngs=rngs)

    def __call__(self, x):
        return self.out(jax.nn.gelu(self.hidden(x)))


def generate_class_latents(args):
    rngs = nnx.Rngs(args.seed)
    return jax.random.normal(rngs.sample(), (args.num_class_images, LATENT))  # expect


def train(args, class_latents, steps=3):
    rngs = nnx.Rngs(args.seed)
    model = Denoiser(rngs=nnx.Rngs(params=args.seed + 1))
    optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
    first_noise = None
    for _ in range(steps):
        noise = jax.random.normal(rngs.noise(), class_latents.shape)  # expect
        first_noise = noise if first_noise is None else first_noise

        def loss_fn(m, noise=noise):
            return jnp.mean((m(class_latents + noise) - noise) ** 2)

        loss, grads = nnx.value_and_grad(loss_fn)(model)
        optimizer.update(model, grads)
    return first_noise, loss


if __name__ == "__main__":
    args = Args()
    class_latents = generate_class_latents(args)
    first_noise, loss = train(args, class_latents)
    print("final loss", float(loss))
    if bool(jnp.all(first_noise == class_latents)):
        print("HAZARD: the first training noise equals the class-image latents:", class_latents[0, :4])
        sys.exit(1)
