# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/huggingface/diffusers/commit/5da332b7728ce203c78e28022a1622d532465b43 ("pass PRNG key as argument and split before use")
# shown: `FlaxDDPMScheduler.step(..., seed=0)` made `key = random.PRNGKey(seed)` on every call, so every denoising step of the sampling loop added the same standard-normal noise; the probe prints the normalised noise of steps 9 and 8 (identical)
# style: diffusers Flax scheduler: a flax.struct scheduler state, a scheduler class with create_state/set_timesteps/step returning an output dataclass, a flax.linen denoiser, a pipeline object whose __call__ runs the reverse process
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


class FlaxDDPMScheduler:
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
             sample: jnp.ndarray, predict_epsilon: bool = True, seed: int = 0) -> FlaxSchedulerOutput:
        t = timestep
        alpha_prod_t = state.alphas_cumprod[t]
        alpha_prod_t_prev = jnp.where(t > 0, state.alphas_cumprod[t - 1], 1.0)
        beta_prod_t, beta_prod_t_prev = 1 - alpha_prod_t, 1 - alpha_prod_t_prev

        if predict_epsilon:
            pred_original_sample = (sample - beta_prod_t ** 0.5 * model_output) / alpha_prod_t ** 0.5
        else:
            pred_original_sample = model_output
        pred_original_sample = jnp.clip(pred_original_sample, -1, 1)

        coeff_orig = (alpha_prod_t_prev ** 0.5 * state.betas[t]) / beta_prod_t
        coeff_cur = state.alphas_cumprod[t] ** 0.5 * beta_prod_t_prev / beta_prod_t
        pred_prev_sample = coeff_orig * pred_original_sample + coeff_cur * sample

        variance = 0
        if t > 0:
            key = random.PRNGKey(seed)  # expect
            noise = random.normal(key=key, shape=model_output.shape)  # expect
            variance = (self._get_variance(state, t) ** 0.5) * noise

        return FlaxSchedulerOutput(prev_sample=pred_prev_sample + variance, state=state)


class Denoiser(nn.Module):
    features: int = 16

    @nn.compact
    def __call__(self, x, t):
        temb = jnp.sin(jnp.asarray(t, jnp.float32) * jnp.arange(1, 5))
        h = jnp.concatenate([x, jnp.broadcast_to(temb, x.shape[:-1] + (4,))], axis=-1)
        return nn.Dense(x.shape[-1])(nn.gelu(nn.Dense(self.features)(h)))


class FlaxDDPMPipeline:
    def __init__(self, unet: Denoiser, scheduler: FlaxDDPMScheduler):
        self.unet, self.scheduler = unet, scheduler

    def __call__(self, params, prng_seed: jax.Array, batch_size: int = 2, dim: int = 8):
        state = self.scheduler.create_state()
        sample = random.normal(prng_seed, (batch_size, dim))
        for t in [int(t) for t in state.timesteps]:
            model_output = self.unet.apply(params, sample, t)
            sample = self.scheduler.step(state, model_output, t, sample).prev_sample
        return sample


def main() -> None:
    init_key, sample_key = random.split(random.PRNGKey(0))
    unet = Denoiser()
    params = unet.init(init_key, jnp.zeros((1, 8)), 0)
    pipeline = FlaxDDPMPipeline(unet, FlaxDDPMScheduler())
    images = pipeline(params, sample_key)
    print("generated:", images.shape)

    # Probe the scheduler: with a zero model output and a zero sample, prev_sample is pure noise.
    scheduler = pipeline.scheduler
    state = scheduler.create_state()
    zeros = jnp.zeros((2, 8))
    added = {t: scheduler.step(state, zeros, t, zeros).prev_sample / scheduler._get_variance(state, t) ** 0.5
             for t in (9, 8)}
    print("normalised noise of step 9:", added[9][0, :4])
    print("normalised noise of step 8:", added[8][0, :4])
    if bool(jnp.allclose(added[9], added[8], atol=1e-5)):
        print("HAZARD: every denoising step adds the same noise (the key is rebuilt from seed=0 each call)")


if __name__ == "__main__":
    main()
