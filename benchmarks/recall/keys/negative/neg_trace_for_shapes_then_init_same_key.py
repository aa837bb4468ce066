# recall-case: negative
# rule: OPT020
# class: basic
# source: https://github.com/pyro-ppl/numpyro/pull/162
# shown: the model is run once with rng only to learn its sample sites' shapes (the values are discarded), then the same rng is split for the Uniform(-2, 2) initial values; the initial values equal those computed without the shape trace; prints OK (checker not applicable: it flags the shapes-only run)
# style: a small probabilistic-programming helper: trace a model to find its latent sites, then initialise them uniformly
import jax
import jax.numpy as jnp


def model(key):
    k_loc, k_scale, k_z = jax.random.split(key, 3)
    loc = jax.random.normal(k_loc, (3,))
    log_scale = jax.random.normal(k_scale, ())
    z = loc + jnp.exp(log_scale) * jax.random.normal(k_z, (4, 3))
    return {"loc": loc, "log_scale": log_scale, "z": z}


def site_shapes(model, rng):
    # Only the shapes are kept; the drawn values are thrown away.
    trace = model(rng)
    return {name: value.shape for name, value in trace.items()}


def initialize_model(rng, model):
    shapes = site_shapes(model, rng)
    keys = jax.random.split(rng, len(shapes))
    return {name: jax.random.uniform(k, shape, minval=-2.0, maxval=2.0)
            for (name, shape), k in zip(sorted(shapes.items()), keys, strict=True)}


if __name__ == "__main__":
    rng = jax.random.PRNGKey(0)
    init = initialize_model(rng, model)
    known_shapes = {"loc": (3,), "log_scale": (), "z": (4, 3)}
    keys = jax.random.split(rng, 3)
    expected = {name: jax.random.uniform(k, shape, minval=-2.0, maxval=2.0)
                for (name, shape), k in zip(sorted(known_shapes.items()), keys, strict=True)}
    assert all(bool(jnp.all(init[n] == expected[n])) for n in expected)
    print("OK")
