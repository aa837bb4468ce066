# recall-case: negative
# rule: OPT020
# class: loop
# source: https://github.com/tumaer/lagrangebench/commit/0af50ba8cd79b058f6f2e61f7e352651e6a71ddc (the fix: `key, subkey = random.split(key, 2)` inside the refinement loop before each posterior-noise draw)
# shown: each refinement step adds noise of its own, none equal to the starting noise, and the checker stays silent with a typed key (OK)
# style: particle-simulation rollout with a conditional diffusion refiner: schedule arrays, a jitted step with a Python refinement loop over diffusion steps, a toy denoiser in place of the GNN
"""One rollout step of a conditional diffusion refiner for particle accelerations."""
import sys

import jax
import jax.numpy as jnp

STEPS = 4
BETAS = jnp.linspace(1e-3, 2e-2, STEPS)
ALPHAS = 1.0 - BETAS
ALPHAS_CUMPROD = jnp.cumprod(ALPHAS)
POSTERIOR_STD = jnp.sqrt(BETAS)


def denoiser(noised, cond, k):
    # stands in for the GNN: predicts the noise from the noised data and the history
    return 0.1 * noised - 0.05 * cond.mean(-1, keepdims=True) + 0.01 * k


@jax.jit
def forward_eval(key, history):
    n = history.shape[0]
    key, subkey, cond_key = jax.random.split(key, 3)
    d_noise = jax.random.normal(subkey, (n, 2))
    c_noise = jax.random.normal(cond_key, (n, history.shape[1]))
    added = []
    for k in reversed(range(STEPS)):
        cond = jnp.sqrt(ALPHAS_CUMPROD[k]) * history + jnp.sqrt(1.0 - ALPHAS_CUMPROD[k]) * c_noise
        pred = denoiser(d_noise, cond, k)
        d_noise = (d_noise - BETAS[k] * pred / jnp.sqrt(1.0 - ALPHAS_CUMPROD[k])) / jnp.sqrt(ALPHAS[k])
        if k != 0:
            key, subkey = jax.random.split(key, 2)
            fresh = jax.random.normal(subkey, (n, 2))
            added.append(fresh)
            d_noise = d_noise + POSTERIOR_STD[k] * fresh
    return d_noise, jnp.stack(added), key


def main() -> None:
    history = jnp.linspace(-1.0, 1.0, 6 * 4).reshape(6, 4)
    acc, added, _ = forward_eval(jax.random.PRNGKey(0), history)
    _, first_sub, _ = jax.random.split(jax.random.PRNGKey(0), 3)
    start = jax.random.normal(first_sub, (6, 2))
    print("refined accelerations:", acc[:2].ravel())
    if any(bool(jnp.array_equal(a, start)) for a in added) or bool(jnp.array_equal(added[0], added[1])):
        print("a refinement step repeated a noise draw")
        sys.exit(1)
    jax.config.update("jax_debug_key_reuse", True)
    forward_eval(jax.random.key(1), history)
    print("OK")


if __name__ == "__main__":
    main()
