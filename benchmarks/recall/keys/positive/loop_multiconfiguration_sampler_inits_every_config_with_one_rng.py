# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/deepqmc/deepqmc/commit/8906b58fd5bda4ec46e0fe774207eaf4f9e3f985 ("use separate rng keys for sampler initialization", PR #95 branch: `MulticonfigurationSampler.init` built every configuration's walkers with `sampler.init(rng, wf, n, ...)` for each `(wf, sampler)` in a list comprehension; the fix iterates `zip(hk.PRNGSequence(rng), wfs, self.samplers)`)
# shown: every molecular configuration starts its walkers at the same electron positions (HAZARD), and with a typed key JAX's key-reuse checker raises KeyReuseError at the second configuration (exit 1)
# style: QMC sampler classes: a Metropolis sampler whose init draws walkers from the Hamiltonian's initial sample, and a wrapper class holding one sampler per nuclear configuration
"""One Metropolis sampler per nuclear configuration, wrapped in a multi-configuration sampler."""
import sys

import jax
import jax.numpy as jnp


class Hamiltonian:
    def __init__(self, coords):
        self.coords = coords  # (n_nuclei, 3)

    def init_sample(self, rng, n, n_elec):
        centers = self.coords[jnp.arange(n_elec) % self.coords.shape[0]]
        return centers + jax.random.normal(rng, (n, n_elec, 3))


class MetropolisSampler:
    def __init__(self, hamil, n_elec, tau=0.1):
        self.hamil, self.n_elec, self.tau = hamil, n_elec, tau

    def init(self, rng, n):
        r = self.hamil.init_sample(rng, n, self.n_elec)
        return {"r": r, "tau": jnp.array(self.tau), "age": jnp.zeros(n, jnp.int32)}


class MulticonfigurationSampler:
    def __init__(self, samplers):
        self.samplers = samplers

    def init(self, rng, n):
        return [sampler.init(rng, n) for sampler in self.samplers]  # expect


def main() -> None:
    bond = jnp.array([[0.0, 0.0, 0.0], [0.0, 0.0, 1.4]])
    stretched = jnp.array([[0.0, 0.0, 0.0], [0.0, 0.0, 2.0]])
    sampler = MulticonfigurationSampler(
        [MetropolisSampler(Hamiltonian(c), n_elec=2) for c in (bond, stretched)]
    )
    states = sampler.init(jax.random.PRNGKey(0), n=16)
    # walkers are drawn around the nuclei: subtract the centers to compare the random parts
    offsets = [states[i]["r"] - Hamiltonian(c).coords[jnp.arange(2) % 2] for i, c in enumerate((bond, stretched))]
    print("mean walker radius per configuration:", [float(jnp.linalg.norm(o, axis=-1).mean()) for o in offsets])
    if bool(jnp.allclose(offsets[0], offsets[1], atol=1e-6)):
        print("HAZARD: both configurations start their walkers from the same random displacements")
    jax.config.update("jax_debug_key_reuse", True)
    try:
        sampler.init(jax.random.key(1), n=16)
    except Exception as err:  # jax.errors.KeyReuseError
        print("HAZARD:", type(err).__name__, str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse")


if __name__ == "__main__":
    main()
