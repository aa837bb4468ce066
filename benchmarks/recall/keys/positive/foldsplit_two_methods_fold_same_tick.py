# recall-case: positive
# rule: OPT020
# class: fold-in-split
# source: https://github.com/elodin-sys/elodin/pull/375
# shown: bias drift and measurement noise at one tick come out identical (both fold_in(self.key, tick))
# style: sensor-noise model class with two methods deriving per-tick keys
import sys

import jax
import jax.numpy as jnp


class GyroNoise:
    def __init__(self, seed, device, bias_drift_std=0.01, noise_std=0.01):
        self.key = jax.random.fold_in(jax.random.key(seed), device)
        self.bias_drift_std = bias_drift_std
        self.noise_std = noise_std

    def drift_bias(self, bias, tick, dt):
        key = jax.random.fold_in(self.key, tick)  # expect
        return bias + self.bias_drift_std * jax.random.normal(key, bias.shape) * dt

    def sample(self, measurement, bias, tick):
        key = jax.random.fold_in(self.key, tick)  # expect
        return measurement + bias + self.noise_std * jax.random.normal(key, measurement.shape)


if __name__ == "__main__":
    noise = GyroNoise(seed=0, device=3)
    bias = jnp.zeros(3)
    new_bias = noise.drift_bias(bias, tick=7, dt=1.0)
    reading = noise.sample(jnp.zeros(3), jnp.zeros(3), tick=7)
    if bool(jnp.all(new_bias == reading)):
        print("HAZARD: the drift increment and the measurement noise of tick 7 are identical")
        sys.exit(1)
    print("independent")
