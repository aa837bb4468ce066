# recall-case: negative
# rule: OPT020
# class: broadcast
# source: https://github.com/gwkokab/gwkokab/commit/e9dc94afc76d32fe781f6107426baf466ee9fd13
# shown: runs with jax_debug_key_reuse on; the primary masses and the mass ratios use separate keys and the vmapped draw maps over one split key per row, so the rows' quantiles differ; prints OK
# style: numerical inverse-transform sampling on a grid; the conditional draw q | m1 is vmapped over m1 and over split keys
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def inverse_transform_sample(key, logpdf, low, high, shape, n_grid=400):
    grid = jnp.linspace(low, high, n_grid)
    pdf = jnp.exp(logpdf(grid))
    cdf = jnp.cumsum(pdf)
    cdf = cdf / cdf[-1]
    u = jax.random.uniform(key, shape)
    return jnp.interp(u, cdf, grid), u


def log_prob_m1(m1, alpha=2.3):
    return -alpha * jnp.log(m1)


def log_prob_q(m1, q, beta=1.1):
    return beta * jnp.log(q) + jnp.log(m1) * 0.0


def sample_binaries(key, n, mmin=5.0, mmax=80.0):
    m1_key, q_key = jax.random.split(key)
    m1, u_m1 = inverse_transform_sample(m1_key, log_prob_m1, mmin, mmax, (n,))
    q, u_q = jax.vmap(
        lambda m, k: inverse_transform_sample(
            k, lambda q: log_prob_q(m, q), mmin / m, 1.0, ()
        )
    )(m1, jax.random.split(q_key, n))
    return m1, q, u_m1, u_q


if __name__ == "__main__":
    m1, q, u_m1, u_q = sample_binaries(jax.random.key(3), 6)
    assert len(set(u_q.tolist())) == 6
    print("OK")
