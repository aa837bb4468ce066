# recall-case: negative
# rule: OPT020
# class: calls-and-state
# source: https://github.com/huggingface/diffusers/commit/5da332b7728ce203c78e28022a1622d532465b43 (the DDIM scheduler of the same commit: `step(..., key, eta=0.0)` draws `normal(key)` only `if eta > 0`)
# shown: a deterministic DDIM pipeline (eta = 0) hands its `prng_seed`, already used for the initial latents, to every `scheduler.step`; the step ignores the key at eta = 0, so nothing is drawn twice; with jax_debug_key_reuse on, two generations from different seeds raise nothing and differ; prints OK
# style: diffusers Flax scheduler: a flax.struct scheduler state, a scheduler class with create_state/step returning an output dataclass, a flax.linen denoiser, a pipeline object whose __call__ runs the reverse process
"""A Flax DDPM pipeline in the style of diffusers' early Flax schedulers."""
from dataclasses import dataclass

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
from jax import random


@flax.struct.dataclass
class DDPMSchedulerState:
    betas: jnp.ndarray
    alphas_cumprod: jnp.ndarray
    timesteps: jnp.ndarray


@dataclass
class FlaxSchedulerOutput:
    prev_sample: jnp.ndarray
    state: DDPMSchedulerState


class FlaxDDIMScheduler:
    def __init__(self, num_train_timesteps: int = 10, beta_start: float = 1e-4, beta_end: float = 0.2):
        self.num_train_timesteps = num_train_timesteps
        self.beta_start, self.beta_end = beta_start, beta_end

    def create_state(self) -> DDPMSchedulerState:
        betas = jnp.linspace(self.beta_start, self.beta_end, self.num_train_timesteps)
        alphas_cumprod = jnp.cumprod(1.0 - betas)
        return DDPMSchedulerState(betas, alphas_cumprod, jnp.arange(self.num_train_timesteps)[::-1])

    def _get_variance(self, state: DDPMSchedulerState, t):
        alpha_prod_t = state.alphas_cumprod[t]
        alpha_prod_t_prev = jnp.where(t > 0, state.alphas_cumprod[t - 1], 1.0)
        return (1 - alpha_prod_t_prev) / (1 - alpha_prod_t) * state.betas[t]

    def step(self, state: DDPMSchedulerState, model_output: jnp.ndarray, timestep: int,
             sample: jnp.ndarray, key: jax.Array, eta: float = 0.0,
             predict_epsilon: bool = True) -> FlaxSchedulerOutput:
        t = timestep
        alpha_prod_t = state.alphas_cumprod[t]
        alpha_prod_t_prev = jnp.where(t > 0, state.alphas_cumprod[t - 1], 1.0)
        beta_prod_t = 1 - alpha_prod_t

        if predict_epsilon:
            pred_original_sample = (sample - beta_prod_t ** 0.5 * model_output) / alpha_prod_t ** 0.5
        else:
            pred_original_sample = model_output
        pred_original_sample = jnp.clip(pred_original_sample, -1, 1)

        std_dev_t = eta * self._get_variance(state, t) ** 0.5
        pred_epsilon = (sample - alpha_prod_t ** 0.5 * pred_original_sample) / beta_prod_t ** 0.5
        direction = (1 - alpha_prod_t_prev - std_dev_t ** 2) ** 0.5 * pred_epsilon
        pred_prev_sample = alpha_prod_t_prev ** 0.5 * pred_original_sample + direction

        variance = 0
        if eta > 0:
            noise = random.normal(key=key, shape=model_output.shape)
            variance = std_dev_t * noise

        return FlaxSchedulerOutput(prev_sample=pred_prev_sample + variance, state=state)


class Denoiser(nn.Module):
    features: int = 16

    @nn.compact
    def __call__(self, x, t):
        temb = jnp.sin(jnp.asarray(t, jnp.float32) * jnp.arange(1, 5))
        h = jnp.concatenate([x, jnp.broadcast_to(temb, x.shape[:-1] + (4,))], axis=-1)
        return nn.Dense(x.shape[-1])(nn.gelu(nn.Dense(self.features)(h)))


class FlaxDDIMPipeline:
    def __init__(self, unet: Denoiser, scheduler: FlaxDDIMScheduler):
        self.unet, self.scheduler = unet, scheduler

    def __call__(self, params, prng_seed: jax.Array, batch_size: int = 2, dim: int = 8):
        state = self.scheduler.create_state()
        sample = random.normal(prng_seed, (batch_size, dim))
        for t in [int(t) for t in state.timesteps]:
            model_output = self.unet.apply(params, sample, t)
            sample = self.scheduler.step(state, model_output, t, sample, prng_seed).prev_sample
        return sample


def main() -> None:
    jax.config.update("jax_debug_key_reuse", True)
    init_key, seed_a, seed_b = random.split(random.key(0), 3)
    unet = Denoiser()
    params = unet.init(init_key, jnp.zeros((1, 8)), 0)
    pipeline = FlaxDDIMPipeline(unet, FlaxDDIMScheduler())
    try:
        images_a = pipeline(params, seed_a)
        images_b = pipeline(params, seed_b)
    except jax.errors.KeyReuseError as err:
        print("unexpected KeyReuseError:", str(err).splitlines()[0])
        raise SystemExit(1) from err
    print("generated:", images_a.shape, "different seeds differ:", not bool(jnp.allclose(images_a, images_b)))
    assert not bool(jnp.allclose(images_a, images_b))
    print("OK")


if __name__ == "__main__":
    main()
