# recall-case: negative
# rule: OPT020
# class: basic
# source: https://github.com/lindermanlab/ssm-jax/commit/d90c62fa671c24b8df84a01809c6434c93b295de ("fixing some keys")
# shown: the fix: the variance test vmaps over `jr.split(subkey, 20)`, so the carried `key` is only split by the next block; jax_debug_key_reuse raises nothing over a training run with evaluations; prints OK
# style: research training script: a linear-Gaussian state-space model, a bootstrap particle filter in lax.scan, an optax loop over a learned proposal shift, periodic evaluation of the bound's variance vmapped over replicate keys
"""FIVO-style training of a proposal shift on a 1-D linear-Gaussian SSM."""
import sys

import jax
import jax.numpy as jnp
import jax.random as jr
import optax

T, NUM_PARTICLES, NUM_STEPS, EVAL_EVERY = 12, 16, 6, 3


def simulate(key, a=0.9, q=0.5, r=0.3):
    k_init, k_dyn, k_obs = jr.split(key, 3)
    z0 = jr.normal(k_init)
    dyn = q * jr.normal(k_dyn, (T,))

    def step(z, e):
        z = a * z + e
        return z, z

    _, zs = jax.lax.scan(step, z0, dyn)
    return zs + r * jr.normal(k_obs, (T,))


def smc_bound(key, params, ys, a=0.9, q=0.5, r=0.3):
    """Log marginal likelihood estimate of a particle filter whose proposal is shifted by params."""

    def step(carry, y):
        key, particles, log_w, bound = carry
        key, k_prop, k_res = jr.split(key, 3)
        mean = a * particles + params["shift"] * (y - a * particles)
        new = mean + q * jr.normal(k_prop, particles.shape)
        log_p = -0.5 * ((new - a * particles) / q) ** 2
        log_q = -0.5 * ((new - mean) / q) ** 2
        log_lik = -0.5 * ((y - new) / r) ** 2 - jnp.log(r * jnp.sqrt(2 * jnp.pi))
        log_w = log_w + log_p - log_q + log_lik
        norm = jax.scipy.special.logsumexp(log_w)
        bound = bound + norm - jnp.log(NUM_PARTICLES)
        idx = jr.categorical(k_res, log_w, shape=(NUM_PARTICLES,))
        return (key, new[idx], jnp.zeros(NUM_PARTICLES), bound), None

    init = (key, jnp.zeros(NUM_PARTICLES), jnp.zeros(NUM_PARTICLES), 0.0)
    (_, _, _, bound), _ = jax.lax.scan(step, init, ys)
    return bound


def train(key, ys, num_steps=NUM_STEPS):
    params = {"shift": jnp.array(0.0)}
    opt = optax.adam(1e-2)
    opt_state = opt.init(params)

    loss_and_grad = jax.jit(jax.value_and_grad(lambda p, k: -smc_bound(k, p, ys)))
    single_fivo_eval_small_vmap = jax.jit(jax.vmap(lambda k, p: smc_bound(k, p, ys), in_axes=(0, None)))
    single_bpf_true_eval_small_vmap = jax.jit(jax.vmap(
        lambda k: smc_bound(k, {"shift": jnp.array(0.0)}, ys)))

    for _step in range(num_steps):
        key, subkey = jr.split(key)
        loss, grads = loss_and_grad(params, subkey)
        updates, opt_state = opt.update(grads, opt_state)
        params = optax.apply_updates(params, updates)

        if _step % EVAL_EVERY == 0:
            # Test the variance of the estimators.
            key, subkey = jr.split(key)
            small_fivo_lml_all = single_fivo_eval_small_vmap(jr.split(subkey, 20), params)
            small_fivo_expected_lml_var = float(jnp.var(small_fivo_lml_all))

            # Test BPF in the true model.
            key, subkey = jr.split(key)
            small_true_bpf_lml_all = single_bpf_true_eval_small_vmap(jr.split(subkey, 20))
            print(f"step {_step}: loss {float(loss):.3f}  fivo var {small_fivo_expected_lml_var:.3f}  "
                  f"bpf var {float(jnp.var(small_true_bpf_lml_all)):.3f}")
    return params


def main() -> None:
    key = jr.key(0)
    key, data_key = jr.split(key)
    ys = simulate(data_key)
    train(key, ys)

    jax.config.update("jax_debug_key_reuse", True)
    try:
        train(jr.key(1), ys, num_steps=4)
    except jax.errors.KeyReuseError as err:
        print("unexpected KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
