# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/AUTODIAL/AutoEIS/commit/716462263aadcc479dac32a41db0e23c780573d5
# shown: the prior-predictive draws of the shared first parameter (R0) are bit-identical for every candidate circuit, because the loop hands the same rng_key to Predictive and the same rng_key_ to MCMC.run for each circuit
# style: electrochemical-impedance toolkit: numpyro model per candidate circuit built from string expressions, prior predictive + NUTS in a loop over circuits
"""Bayesian inference on candidate equivalent circuits (EIS spectra)."""
import numpy as np
import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from jax import random
from numpyro.infer import MCMC, NUTS, Predictive

numpyro.set_host_device_count(1)


def generate_circuit_fn(circuit: str):
    """Turn a circuit string such as 'R0-[R1,C2]' into Z(params, freq)."""
    def parallel_rc(r, c, w):
        return r / (1.0 + 1j * w * r * c)

    def fn(params, freq):
        w = 2 * jnp.pi * freq
        z = params[0] + 0j
        for i in range(1, len(params) - 1, 2):
            z = z + parallel_rc(params[i], params[i + 1], w)
        return z
    return fn


def make_model(circuit_fn, variables, initial_values):
    def model(freq, Z=None):
        params = []
        for name, value in zip(variables, initial_values):
            params.append(numpyro.sample(name, dist.LogNormal(jnp.log(value), 1.0)))
        sigma = numpyro.sample("sigma", dist.HalfNormal(0.1))
        Z_pred = circuit_fn(params, freq)
        numpyro.sample("obs_real", dist.Normal(Z_pred.real, sigma * jnp.abs(Z_pred)), obs=None if Z is None else Z.real)
        numpyro.sample("obs_imag", dist.Normal(Z_pred.imag, sigma * jnp.abs(Z_pred)), obs=None if Z is None else Z.imag)
    return model


def perform_bayesian_inference(ecms, freq, Z, num_warmup=60, num_samples=60):
    # Start from this source of randomness. We will split keys for subsequent operations.
    rng_key = random.PRNGKey(0)
    rng_key, rng_key_ = random.split(rng_key)

    prior_predictions, mcmcs = [], []
    for circuit, variables, initial_values in ecms:
        circuit_fn = generate_circuit_fn(circuit)
        model_i = make_model(circuit_fn, variables, initial_values)

        prior_predictive = Predictive(model_i, num_samples=50)
        prior_prediction = prior_predictive(rng_key, freq)  # expect
        prior_predictions.append(prior_prediction)

        kernel = NUTS(model_i, target_accept_prob=0.8)
        mcmc_i = MCMC(kernel, num_warmup=num_warmup, num_samples=num_samples, num_chains=1, progress_bar=False)
        mcmc_i.run(rng_key_, freq, Z=Z)  # expect
        mcmcs.append(mcmc_i)
    return prior_predictions, mcmcs


def main() -> None:
    freq = np.logspace(-1, 4, 30)
    true_fn = generate_circuit_fn("R0-[R1,C2]")
    Z = np.asarray(true_fn([10.0, 100.0, 1e-4], freq))
    Z = Z + np.random.default_rng(0).normal(scale=0.5, size=Z.shape) * (1 + 1j)

    ecms = [
        ("R0-[R1,C2]", ["R0", "R1", "C2"], [8.0, 80.0, 2e-4]),
        ("R0-[R1,C2]-[R3,C4]", ["R0", "R1", "C2", "R3", "C4"], [8.0, 60.0, 1e-4, 30.0, 1e-2]),
    ]
    priors, mcmcs = perform_bayesian_inference(ecms, freq, Z)
    r0_a, r0_b = priors[0]["R0"], priors[1]["R0"]
    print("prior R0 draws, circuit 1:", np.asarray(r0_a[:3]), "circuit 2:", np.asarray(r0_b[:3]))
    for (circuit, *_), mcmc in zip(ecms, mcmcs):
        print(circuit, "posterior mean R0:", float(mcmc.get_samples()["R0"].mean()))
    if np.array_equal(np.asarray(r0_a), np.asarray(r0_b)):
        print("HAZARD: both circuits' prior-predictive R0 draws are identical (one rng_key for every circuit)")


if __name__ == "__main__":
    main()
