# recall-case: positive
# rule: OPT020
# class: project-consumer
# source: https://github.com/ins-amu/vbjax/pull/125
# shown: with sample=True, views of the same size get identical reparameterisation noise: encode_all forwards one key to every encode() call, then KeyReuseError under jax_debug_key_reuse
# style: Equinox multi-view variational crosscoder with an encode(view, sample, key) method and an encode_all helper
import sys

import equinox as eqx
import jax
import jax.numpy as jnp


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
        return {parc: self.encode(parc, xs[parc], sample=sample, key=key) for parc in self.parcs}  # expect


if __name__ == "__main__":
    model = Crosscoder(("schaefer", "glasser"), n_in=6, n_lat=3, key=jax.random.PRNGKey(0))
    xs = {"schaefer": jnp.ones(6), "glasser": -jnp.ones(6)}
    out = model.encode_all(xs, sample=True, key=jax.random.PRNGKey(1))
    eps_a, eps_b = out["schaefer"][1], out["glasser"][1]
    print("noise", eps_a, eps_b)
    if bool(jnp.all(eps_a == eps_b)):
        print("HAZARD: both views were sampled with identical noise:", eps_a)
    jax.config.update("jax_debug_key_reuse", True)
    try:
        model.encode_all(xs, sample=True, key=jax.random.key(1))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
