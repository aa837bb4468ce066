# recall-case: positive
# rule: OPT020
# class: project-consumer
# source: https://github.com/google/trax/commit/9483a5a1221ea61d36ce2c013cb08eb029d8f843 ("Correct Scan implementation to use different rngs in different steps, add random.fold_in to fastmath")
# shown: the `Scan` combinator calls `self.sublayer.pure_fn(x_and_carry, weights, state, self.rng)` in every step of its `lax.scan`, and the sublayer's Dropout draws its mask from the rng it is handed: all 6 time steps of the recurrent cell drop the same units; with jax_debug_key_reuse the scan raises KeyReuseError
# style: a small trax-like layer library: a `Layer` base class with weights/state/rng and `pure_fn`, `Dense`, `Dropout` and `Serial` layers, a `Scan` combinator over the time axis with a carry, a model assembled from them and run in train mode
"""A tiny trax-style combinator library and a recurrent model built with it."""
import sys

import jax
import jax.numpy as jnp


class Layer:
    """Holds weights, state and an rng; `pure_fn` computes without touching them."""

    def __init__(self, n_in=1, n_out=1, name=None):
        self.n_in, self.n_out = n_in, n_out
        self.name = name or type(self).__name__
        self.weights, self.state = (), ()
        self.rng = jax.random.key(0)

    def init(self, input_shape, rng):
        init_rng, self.rng = jax.random.split(rng)
        self.weights = self.init_weights(input_shape, init_rng)
        return self.weights

    def init_weights(self, input_shape, rng):
        return ()

    def pure_fn(self, x, weights, state, rng, use_cache=False):
        raise NotImplementedError

    def __call__(self, x):
        y, self.state = self.pure_fn(x, self.weights, self.state, self.rng)
        return y


class Dense(Layer):
    def __init__(self, n_units):
        super().__init__()
        self.n_units = n_units

    def init_weights(self, input_shape, rng):
        w = jax.random.normal(rng, (input_shape[-1], self.n_units)) / jnp.sqrt(input_shape[-1])
        return w, jnp.zeros(self.n_units)

    def pure_fn(self, x, weights, state, rng, use_cache=False):
        w, b = weights
        return jnp.tanh(x @ w + b), state


class Dropout(Layer):
    def __init__(self, rate, mode="train"):
        super().__init__()
        self.rate, self.mode = rate, mode

    def pure_fn(self, x, weights, state, rng, use_cache=False):
        if self.mode != "train":
            return x, state
        keep = jax.random.bernoulli(rng, 1.0 - self.rate, x.shape)
        return jnp.where(keep, x / (1.0 - self.rate), 0.0), state


class Serial(Layer):
    def __init__(self, *sublayers):
        super().__init__()
        self.sublayers = sublayers

    def init_weights(self, input_shape, rng):
        rngs = jax.random.split(rng, len(self.sublayers))
        weights, shape = [], input_shape
        for layer, layer_rng in zip(self.sublayers, rngs, strict=True):
            weights.append(layer.init(shape, layer_rng))
            if isinstance(layer, Dense):
                shape = shape[:-1] + (layer.n_units,)
        return tuple(weights)

    def pure_fn(self, x, weights, state, rng, use_cache=False):
        rngs = jax.random.split(rng, len(self.sublayers))
        for layer, w, layer_rng in zip(self.sublayers, weights, rngs, strict=True):
            x, _ = layer.pure_fn(x, w, (), layer_rng)
        return x, state


class Scan(Layer):
    """Applies `sublayer` along `axis` of the input, threading a carry."""

    def __init__(self, sublayer, axis=0, n_carry=1):
        super().__init__(n_in=2, n_out=2)
        self.sublayer, self._axis, self._n_carry = sublayer, axis, n_carry

    def init_weights(self, input_shape, rng):
        x_shape, carry_shape = input_shape
        return self.sublayer.init(x_shape[1:-1] + (x_shape[-1] + carry_shape[-1],), rng)

    def pure_fn(self, inputs, weights, state, rng, use_cache=False):
        xs, carry0 = inputs

        def scannable_fn(carry_and_state, x):
            carry, state = carry_and_state
            x_and_carry = jnp.concatenate([x, carry], axis=-1)
            res, new_state = self.sublayer.pure_fn(x_and_carry, weights, state, self.rng, use_cache=True)  # expect
            return (res, new_state), res

        (carry, new_state), ys = jax.lax.scan(scannable_fn, (carry0, state), xs)  # expect
        return (ys, carry), new_state


def RecurrentCell(n_units, dropout):
    return Serial(Dense(n_units), Dropout(dropout))


def main() -> None:
    n_steps, batch, d_in, n_units = 6, 2, 3, 16
    model = Scan(RecurrentCell(n_units, dropout=0.5))
    xs = jax.random.normal(jax.random.key(1), (n_steps, batch, d_in))
    carry0 = jnp.zeros((batch, n_units))
    model.init(((n_steps, batch, d_in), (batch, n_units)), jax.random.key(2))
    ys, _ = model((xs, carry0))
    masks = ys == 0
    print("dropped units of example 0, steps 0..2:")
    for t in range(3):
        print("  ", masks[t, 0].astype(int))
    if bool(jnp.all(masks == masks[0])):
        print(f"HAZARD: all {n_steps} time steps dropped the same units: Scan passes self.rng to every step")

    jax.config.update("jax_debug_key_reuse", True)
    model.init(((n_steps, batch, d_in), (batch, n_units)), jax.random.key(3))
    try:
        model((xs, carry0))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")


if __name__ == "__main__":
    main()
