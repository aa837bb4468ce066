# recall-case: positive
# rule: OPT020
# class: broadcast
# source: https://github.com/gwkokab/gwkokab/commit/e9dc94afc76d32fe781f6107426baf466ee9fd13
# shown: every vmapped row draws its mass ratio at the same quantile (the lambda closes over one key), and that quantile is the one the first primary mass used
# style: numerical inverse-transform sampling on a grid; the conditional draw q | m1 is vmapped over m1 with the key closed over
import sys

import jax
import jax.numpy as jnp


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
    m1, u_m1 = inverse_transform_sample(key, log_prob_m1, mmin, mmax, (n,))  # expect
    q, u_q = jax.vmap(
        lambda m: inverse_transform_sample(
            key, lambda q: log_prob_q(m, q), mmin / m, 1.0, ()  # expect
        )
    )(m1)
    return m1, q, u_m1, u_q


if __name__ == "__main__":
    m1, q, u_m1, u_q = sample_binaries(jax.random.key(3), 6)
    print("m1", m1)
    print("q ", q)
    if bool(jnp.all(u_q == u_q[0])):
        print("HAZARD: all", u_q.shape[0], "mass ratios were drawn at the same quantile", float(u_q[0]),
              "(first m1 quantile:", float(u_m1[0]), ")")
        sys.exit(1)
