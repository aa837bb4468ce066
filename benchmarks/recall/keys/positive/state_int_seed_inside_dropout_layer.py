# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/jax-ml/jax/issues/170
# shown: the dropout layer turns a fixed int seed into a key on every call: two forward passes drop the same units
# style: stax-style (init_fun, apply_fun) layer combinators
import sys

import jax
import jax.numpy as jnp
from jax import random


def Dense(out_dim):
    def init_fun(rng, input_shape):
        return (input_shape[0], out_dim), random.normal(rng, (input_shape[-1], out_dim)) * 0.1

    def apply_fun(params, inputs, **kwargs):
        return inputs @ params

    return init_fun, apply_fun


def Dropout(rate, seed=0):
    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        rng = random.PRNGKey(seed)  # expect
        keep = random.bernoulli(rng, 1.0 - rate, inputs.shape)
        return jnp.where(keep, inputs / (1.0 - rate), 0.0)

    return init_fun, apply_fun


def serial(*layers):
    init_funs, apply_funs = zip(*layers)

    def init_fun(rng, input_shape):
        params = []
        for init in init_funs:
            rng, layer_rng = random.split(rng)
            input_shape, p = init(layer_rng, input_shape)
            params.append(p)
        return input_shape, params

    def apply_fun(params, inputs, **kwargs):
        for fn, p in zip(apply_funs, params):
            inputs = fn(p, inputs, **kwargs)
        return inputs

    return init_fun, apply_fun


if __name__ == "__main__":
    init_fun, apply_fun = serial(Dense(16), Dropout(0.5))
    _, params = init_fun(random.PRNGKey(1), (4, 3))
    x = jnp.ones((4, 3))
    first = apply_fun(params, x) != 0
    second = apply_fun(params, x) != 0  # expect
    if bool(jnp.all(first == second)):
        print("HAZARD: two training forward passes used the same dropout pattern")
        sys.exit(1)
    print("patterns differ")
