# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/pyro-ppl/numpyro/pull/263
# shown: the Normal site's draw equals the normal draw inside the preceding StudentT site (the handler hands its key to the site, then does `self.rng, = split(self.rng, 1)`, and split(k, 1) == split(k, 2)[:1]), then KeyReuseError under jax_debug_key_reuse
# style: small probabilistic-programming library with effect handlers (a Messenger stack, a `seed` handler holding the key as state, a `sample` primitive) and hand-written distributions
"""A minimal effect-handler PPL (early-NumPyro style) and a model using it."""
import sys

import jax
import jax.numpy as jnp
from jax import random

_HANDLER_STACK = []


class Messenger:
    def __init__(self, fn=None):
        self.fn = fn

    def __enter__(self):
        _HANDLER_STACK.append(self)
        return self

    def __exit__(self, *exc):
        _HANDLER_STACK.pop()

    def process_message(self, msg):
        pass

    def __call__(self, *args, **kwargs):
        with self:
            return self.fn(*args, **kwargs)


class seed(Messenger):
    """Supplies a PRNG key to every `sample` site inside it."""

    def __init__(self, fn=None, rng=None):
        self.rng = rng
        super().__init__(fn)

    def process_message(self, msg):
        if msg["type"] == "sample":
            msg["kwargs"]["random_state"] = self.rng  # expect
            self.rng, = random.split(self.rng, 1)  # expect


class trace(Messenger):
    def __enter__(self):
        self.trace = {}
        return super().__enter__()

    def postprocess_message(self, msg):
        self.trace[msg["name"]] = msg

    def get_trace(self, *args, **kwargs):
        self(*args, **kwargs)
        return self.trace


def sample(name, fn, obs=None):
    msg = {"type": "sample", "name": name, "fn": fn, "kwargs": {}, "value": obs}
    for handler in reversed(_HANDLER_STACK):
        handler.process_message(msg)
    if msg["value"] is None:
        msg["value"], msg["noise"] = fn.sample(msg["kwargs"]["random_state"])
    for handler in _HANDLER_STACK:
        if hasattr(handler, "postprocess_message"):
            handler.postprocess_message(msg)
    return msg["value"]


class Normal:
    def __init__(self, loc, scale):
        self.loc, self.scale = loc, scale

    def sample(self, random_state):
        eps = random.normal(random_state, jnp.shape(self.loc))
        return self.loc + self.scale * eps, eps


class StudentT:
    def __init__(self, df, loc, scale):
        self.df, self.loc, self.scale = df, loc, scale

    def sample(self, random_state):
        key_normal, key_chi2 = random.split(random_state)
        z = random.normal(key_normal, jnp.shape(self.loc))
        chi2 = 2.0 * random.gamma(key_chi2, 0.5 * self.df, jnp.shape(self.loc))
        return self.loc + self.scale * z * jnp.sqrt(self.df / chi2), z


def robust_regression(x):
    """Heavy-tailed intercept, Gaussian slope."""
    intercept = sample("intercept", StudentT(3.0, jnp.zeros(3), 1.0))
    slope = sample("slope", Normal(jnp.zeros(3), 1.0))
    return intercept + slope * x


def main() -> None:
    x = jnp.linspace(-1.0, 1.0, 3)
    tr = trace(seed(robust_regression, rng=random.PRNGKey(2))).get_trace(x)
    z_intercept, eps_slope = tr["intercept"]["noise"], tr["slope"]["noise"]
    print("normal part of the StudentT draw:", z_intercept)
    print("noise of the slope draw:         ", eps_slope)
    if bool(jnp.array_equal(z_intercept, eps_slope)):
        print("HAZARD: the slope site reused the StudentT site's normal draw")

    jax.config.update("jax_debug_key_reuse", True)
    try:
        trace(seed(robust_regression, rng=random.key(3))).get_trace(x)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")


if __name__ == "__main__":
    main()
