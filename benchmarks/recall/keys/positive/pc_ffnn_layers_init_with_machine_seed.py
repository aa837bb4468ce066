# recall-case: positive
# rule: OPT020
# class: project-consumer
# source: https://github.com/netket/netket/issues/241
# shown: the two hidden layers of the feed-forward machine get identical random parameters (parameters[:30] == parameters[30:]), then KeyReuseError under jax_debug_key_reuse
# style: variational-wavefunction machine built from project layer classes, each with an init_random_parameters(key) method
import sys

import jax
import jax.numpy as jnp


class FullyConnected:
    def __init__(self, input_size, output_size, use_bias=True):
        self.input_size = input_size
        self.output_size = output_size
        self.use_bias = use_bias

    def n_par(self):
        return self.input_size * self.output_size + (self.output_size if self.use_bias else 0)

    def init_random_parameters(self, key, sigma=0.1):
        return sigma * jax.random.normal(key, (self.n_par(),))

    def __call__(self, params, x):
        w = params[: self.input_size * self.output_size].reshape(self.input_size, self.output_size)
        b = params[self.input_size * self.output_size:]
        return x @ w + (b if self.use_bias else 0.0)


class FFNN:
    def __init__(self, n_sites):
        self.hidden = FullyConnected(n_sites, n_sites)
        self.output = FullyConnected(n_sites, n_sites)

    def init_random_parameters(self, seed):
        key = jax.random.key(seed)
        hidden = self.hidden.init_random_parameters(key)  # expect
        output = self.output.init_random_parameters(key)  # expect
        return jnp.concatenate([hidden, output])

    def log_psi(self, params, sigma):
        n = self.hidden.n_par()
        h = jax.nn.relu(self.hidden(params[:n], sigma))
        return jnp.sum(self.output(params[n:], h))


if __name__ == "__main__":
    machine = FFNN(5)
    params = machine.init_random_parameters(13579)
    print("log psi", machine.log_psi(params, jnp.ones(5)))
    if bool(jnp.all(params[:30] == params[30:])):
        print("HAZARD: parameters[:30] == parameters[30:]: both layers share their initial weights")
    jax.config.update("jax_debug_key_reuse", True)
    try:
        machine.init_random_parameters(24680)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
