# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/huggingface/diffusers/commit/7402c21b0c8d68767b043c7cb53badeceaf641bf ("clean up code, add prng key to loop_body", Flax SDXL pipeline with the LCM scheduler)
# shown: the pipeline draws the initial latents with `prng_seed`, then its `fori_loop` body hands the same closed-over `prng_seed` to `scheduler.step` on every step, and the LCM step injects `normal(key, shape)`: every step re-injects the initial latents as its noise (probe prints them equal); with jax_debug_key_reuse the loop raises KeyReuseError
# style: diffusers Flax pipeline: a flax.struct scheduler state, an LCM-like scheduler class (set_timesteps / scale_model_input / step returning an output with to_tuple), a flax.linen denoiser, classifier-free guidance by batch concatenation, a `_generate` method with a `loop_body(step, args)` run by `jax.lax.fori_loop`
"""Latent-consistency sampling in a small Flax pipeline."""
import sys
from dataclasses import dataclass

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp


@flax.struct.dataclass
class LCMSchedulerState:
    alphas_cumprod: jnp.ndarray
    timesteps: jnp.ndarray
    init_noise_sigma: jnp.ndarray


@dataclass
class LCMSchedulerOutput:
    prev_sample: jnp.ndarray
    state: LCMSchedulerState

    def to_tuple(self):
        return self.prev_sample, self.state


class FlaxLCMScheduler:
    def __init__(self, num_train_timesteps: int = 1000):
        betas = jnp.linspace(0.00085 ** 0.5, 0.012 ** 0.5, num_train_timesteps) ** 2
        self.alphas_cumprod = jnp.cumprod(1.0 - betas)

    def set_timesteps(self, num_inference_steps: int) -> LCMSchedulerState:
        timesteps = jnp.linspace(999, 0, num_inference_steps).astype(jnp.int32)
        return LCMSchedulerState(self.alphas_cumprod, timesteps, jnp.array(1.0))

    def scale_model_input(self, state, sample, t):
        return sample

    def step(self, state: LCMSchedulerState, model_output, timestep, sample, key) -> LCMSchedulerOutput:
        step_index = jnp.argmax(state.timesteps == timestep)
        prev_t = jnp.where(step_index + 1 < state.timesteps.shape[0],
                           state.timesteps[jnp.minimum(step_index + 1, state.timesteps.shape[0] - 1)], 0)
        alpha_prod_t = state.alphas_cumprod[timestep]
        alpha_prod_t_prev = state.alphas_cumprod[prev_t]
        denoised = (sample - jnp.sqrt(1 - alpha_prod_t) * model_output) / jnp.sqrt(alpha_prod_t)
        noise = jax.random.normal(key, model_output.shape, denoised.dtype)
        prev_sample = jnp.sqrt(alpha_prod_t_prev) * denoised + jnp.sqrt(1 - alpha_prod_t_prev) * noise
        prev_sample = jnp.where(step_index + 1 < state.timesteps.shape[0], prev_sample, denoised)
        return LCMSchedulerOutput(prev_sample, state)


class TinyUNet(nn.Module):
    channels: int = 4

    @nn.compact
    def __call__(self, latents, timestep, encoder_hidden_states):
        temb = jnp.sin(timestep[:, None] / 1000.0 * jnp.arange(1, 9))
        ctx = encoder_hidden_states.mean(axis=1)
        h = jnp.concatenate([latents.reshape(latents.shape[0], -1), temb, ctx], axis=-1)
        h = nn.silu(nn.Dense(64)(h))
        return nn.Dense(latents[0].size)(h).reshape(latents.shape)


class FlaxLCMPipeline:
    def __init__(self, unet: TinyUNet, scheduler: FlaxLCMScheduler, latent_shape=(4, 4, 4)):
        self.unet, self.scheduler, self.latent_shape = unet, scheduler, latent_shape

    def _generate(self, prompt_embeds, neg_prompt_embeds, params, prng_seed,
                  num_inference_steps: int, guidance_scale: float = 7.5):
        batch_size = prompt_embeds.shape[0]
        context = jnp.concatenate([neg_prompt_embeds, prompt_embeds], axis=0)
        guidance_scale = jnp.array([guidance_scale], dtype=jnp.float32)

        latents_shape = (batch_size, *self.latent_shape)
        latents = jax.random.normal(prng_seed, shape=latents_shape, dtype=jnp.float32)  # expect
        scheduler_state = self.scheduler.set_timesteps(num_inference_steps)
        latents = latents * scheduler_state.init_noise_sigma

        def loop_body(step, args):
            latents, scheduler_state = args
            latents_input = jnp.concatenate([latents] * 2)
            t = jnp.array(scheduler_state.timesteps, dtype=jnp.int32)[step]
            timestep = jnp.broadcast_to(t, latents_input.shape[0])
            latents_input = self.scheduler.scale_model_input(scheduler_state, latents_input, t)
            noise_pred = self.unet.apply({"params": params["unet"]}, latents_input, timestep, context)
            noise_pred_uncond, noise_prediction_text = jnp.split(noise_pred, 2, axis=0)
            noise_pred = noise_pred_uncond + guidance_scale * (noise_prediction_text - noise_pred_uncond)
            latents, scheduler_state = self.scheduler.step(
                scheduler_state, noise_pred, t, latents, prng_seed).to_tuple()  # expect
            return latents, scheduler_state

        latents, _ = jax.lax.fori_loop(0, num_inference_steps, loop_body, (latents, scheduler_state))
        return latents


def main() -> None:
    unet = TinyUNet()
    init_key, text_key = jax.random.split(jax.random.key(0))
    prompt_embeds, neg_prompt_embeds = jax.random.normal(text_key, (2, 1, 7, 16))
    params = {"unet": unet.init(init_key, jnp.zeros((2, 4, 4, 4)), jnp.zeros((2,)),
                                jnp.zeros((2, 7, 16)))["params"]}
    pipeline = FlaxLCMPipeline(unet, FlaxLCMScheduler())
    generate = jax.jit(pipeline._generate, static_argnums=(4,))
    images = generate(prompt_embeds, neg_prompt_embeds, params, jax.random.key(42), 4)
    print("latents:", images.shape, float(images.std()))

    # What the loop injects: step() with a zero sample and zero model output returns the scaled noise.
    prng_seed = jax.random.key(42)
    state = pipeline.scheduler.set_timesteps(4)
    zeros = jnp.zeros((1, 4, 4, 4))
    initial = jax.random.normal(prng_seed, (1, 4, 4, 4))
    injected = []
    for t in state.timesteps[:2]:
        a_prev = state.alphas_cumprod[state.timesteps[list(state.timesteps).index(t) + 1]]
        out = pipeline.scheduler.step(state, zeros, t, zeros, prng_seed).prev_sample
        injected.append(out / jnp.sqrt(1 - a_prev))
    print("initial latents[0,0,0]:", initial[0, 0, 0, :3], " step noise:", injected[0][0, 0, 0, :3], injected[1][0, 0, 0, :3])
    if all(bool(jnp.allclose(n, initial, atol=1e-4)) for n in injected):
        print("HAZARD: every LCM step injects the initial latents again as its noise (one prng_seed for all)")

    jax.config.update("jax_debug_key_reuse", True)
    try:
        pipeline._generate(prompt_embeds, neg_prompt_embeds, params, jax.random.key(7), 4)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")


if __name__ == "__main__":
    main()
