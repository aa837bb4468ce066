# recall-case: negative
# rule: OPT020
# class: project-consumer
# source: https://github.com/ins-amu/vbjax/pull/125
# shown: runs with jax_debug_key_reuse on; encode_all splits its key into one subkey per view (the review's suggestion), so the views' noises differ; prints OK
# style: Equinox multi-view variational crosscoder with an encode(view, sample, key) method and an encode_all helper
import equinox as eqx
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class Crosscoder(eqx.Module):
    encoders: dict
    parcs: tuple = eqx.field(static=True)

    def __init__(self, parcs, n_in, n_lat, key):
        keys = jax.random.split(key, len(parcs))
        self.parcs = tuple(parcs)
        self.encoders = {p: eqx.nn.Linear(n_in, 2 * n_lat, key=k) for p, k in zip(parcs, keys, strict=True)}

    def encode(self, parc, x, sample=False, key=None):
        mu, log_sigma = jnp.split(self.encoders[parc](x), 2)
        if not sample:
            return mu, jnp.zeros_like(mu)
        eps = jax.random.normal(key, mu.shape)
        return mu + jnp.exp(log_sigma) * eps, eps

    def encode_all(self, xs, sample=False, key=None):
        if not sample:
            return {parc: self.encode(parc, xs[parc]) for parc in self.parcs}
        keys = jax.random.split(key, len(self.parcs))
        return {parc: self.encode(parc, xs[parc], sample=True, key=k)
                for parc, k in zip(self.parcs, keys, strict=True)}


if __name__ == "__main__":
    model = Crosscoder(("schaefer", "glasser"), n_in=6, n_lat=3, key=jax.random.key(0))
    xs = {"schaefer": jnp.ones(6), "glasser": -jnp.ones(6)}
    out = model.encode_all(xs, sample=True, key=jax.random.key(1))
    assert not bool(jnp.all(out["schaefer"][1] == out["glasser"][1]))
    print("OK")
