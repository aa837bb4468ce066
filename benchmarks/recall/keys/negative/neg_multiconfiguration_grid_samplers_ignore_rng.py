# recall-case: negative
# rule: OPT020
# class: project-consumer
# source: https://github.com/deepqmc/deepqmc/commit/8906b58fd5bda4ec46e0fe774207eaf4f9e3f985 (look-alike: the same multi-configuration wrapper hands one `rng` to every configuration's `init`, but these samplers place their walkers on a fixed grid and take `rng` only to keep the sampler interface; nothing is drawn from it)
# shown: the walkers of both configurations sit on their grids, no key is consumed, and JAX's key-reuse checker stays silent with a typed key (OK)
# style: QMC sampler classes: a deterministic grid sampler that keeps the `init(rng, n)` signature of the random samplers, wrapped in a multi-configuration sampler
"""Deterministic grid initialisation behind the random-sampler interface."""
import jax
import jax.numpy as jnp


class GridSampler:
    """Places walkers on a regular grid around the nuclei; `rng` is part of the interface only."""

    def __init__(self, coords, n_elec, spacing=0.25):
        self.coords, self.n_elec, self.spacing = coords, n_elec, spacing

    def init(self, rng, n):
        del rng  # deterministic start: the same grid for every seed
        steps = (jnp.arange(n) - n / 2) * self.spacing
        centers = self.coords[jnp.arange(self.n_elec) % self.coords.shape[0]]
        offsets = jnp.stack([steps, jnp.zeros(n), jnp.zeros(n)], axis=-1)
        return {"r": centers[None] + offsets[:, None, :], "age": jnp.zeros(n, jnp.int32)}


class MulticonfigurationSampler:
    def __init__(self, samplers):
        self.samplers = samplers

    def init(self, rng, n):
        return [sampler.init(rng, n) for sampler in self.samplers]


def main() -> None:
    bond = jnp.array([[0.0, 0.0, 0.0], [0.0, 0.0, 1.4]])
    stretched = jnp.array([[0.0, 0.0, 0.0], [0.0, 0.0, 2.0]])
    sampler = MulticonfigurationSampler([GridSampler(c, n_elec=2) for c in (bond, stretched)])
    jax.config.update("jax_debug_key_reuse", True)
    states = sampler.init(jax.random.key(0), n=8)
    print("walker z of configuration 1:", states[1]["r"][0, :, 2])
    print("OK")


if __name__ == "__main__":
    main()
