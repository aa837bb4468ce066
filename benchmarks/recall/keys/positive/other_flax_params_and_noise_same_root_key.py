# recall-case: positive
# rule: OPT020
# class: other-library
# source: https://github.com/p-doom/jasmine/pull/36
# shown: with rngs={"params": rng, "noise": rng} the initial weights equal the first noise sample exactly (identical values)
# style: Flax linen noisy-net layer; one rng handed to two RNG streams of Module.init
import sys

import flax.linen as nn
import jax
import jax.numpy as jnp


class NoisyDense(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        w_mu = self.param("w_mu", nn.initializers.normal(stddev=1.0), (x.shape[-1], self.features))
        w_eps = jax.random.normal(self.make_rng("noise"), w_mu.shape)
        return x @ (w_mu + 0.1 * w_eps), (w_mu, w_eps)


def create_train_state(rng, sample_input):
    model = NoisyDense(features=4)
    (out, (w_mu, w_eps)), variables = model.init_with_output(
        {"params": rng, "noise": rng}, sample_input)  # expect
    return model, variables, w_mu, w_eps


if __name__ == "__main__":
    model, variables, w_mu, w_eps = create_train_state(jax.random.key(0), jnp.ones((2, 3)))
    if bool(jnp.all(w_mu == w_eps)):
        print("HAZARD: initial weights and the noise sample are identical arrays")
        sys.exit(1)
    print("streams differ")
