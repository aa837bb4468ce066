# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/PennyLaneAI/pennylane/pull/5515 ("Split prng_keys with JAX": "The current usage only split the keys at the lowest level (`_sample_state_jax`). This could cause unwanted correlations"; review: "When executing n circuits, the PRNGkey is split into n new keys ... to better simulate non-deterministic behaviour"), https://github.com/PennyLaneAI/pennylane/pull/6354 (review: "We should continue splitting the PRNGKey here, because otherwise the samples between each execution will not differ")
# shown: the device keeps the user's `seed` key in `self._prng_key` and `execute` hands it to `simulate` for every circuit of the batch, where `jax.random.choice(prng_key, ...)` draws the shots; two copies of one |+> circuit in a batch return bit-identical shot records (`HAZARD: circuits 0 and 1 of the batch returned identical shot records: [0 0 1 0 1 0 0 1 1 0]`), and under jax_debug_key_reuse the second circuit raises KeyReuseError
# style: quantum-simulator device module: a tiny gate set, a QuantumScript-like circuit dataclass, functional simulate()/sample_state() helpers, a DefaultQubit-like device class whose execute() takes a batch of circuits and a `seed` that may be a jax PRNG key
"""A minimal state-vector device with finite-shot sampling through JAX."""
import sys
from dataclasses import dataclass, field
from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

H = jnp.array([[1, 1], [1, -1]], dtype=jnp.complex64) / jnp.sqrt(2.0)
X = jnp.array([[0, 1], [1, 0]], dtype=jnp.complex64)


def RY(theta):
    c, s = jnp.cos(theta / 2), jnp.sin(theta / 2)
    return jnp.array([[c, -s], [s, c]], dtype=jnp.complex64)


@dataclass
class Operation:
    matrix: jnp.ndarray
    wire: int


@dataclass
class QuantumScript:
    operations: Sequence[Operation]
    num_wires: int
    shots: int = 10
    measured_wires: Sequence[int] = field(default_factory=lambda: [0])


def apply_operation(op: Operation, state: jnp.ndarray) -> jnp.ndarray:
    state = jnp.moveaxis(state, op.wire, 0)
    state = jnp.tensordot(op.matrix, state, axes=([1], [0]))
    return jnp.moveaxis(state, 0, op.wire)


def get_final_state(circuit: QuantumScript) -> jnp.ndarray:
    state = jnp.zeros((2,) * circuit.num_wires, dtype=jnp.complex64).at[(0,) * circuit.num_wires].set(1.0)
    for op in circuit.operations:
        state = apply_operation(op, state)
    return state


def sample_state(state, shots, wires, prng_key):
    probs = jnp.abs(state) ** 2
    other = tuple(i for i in range(state.ndim) if i not in wires)
    probs = probs.sum(axis=other).reshape(-1)
    basis_states = jnp.arange(probs.shape[0])
    return jax.random.choice(prng_key, basis_states, shape=(shots,), p=probs)


def simulate(circuit: QuantumScript, prng_key) -> np.ndarray:
    state = get_final_state(circuit)
    return np.asarray(sample_state(state, circuit.shots, tuple(circuit.measured_wires), prng_key))


class DefaultQubit:
    """Finite-shot simulator; a jax key given as `seed` drives the sampling."""

    name = "default.qubit"

    def __init__(self, wires: int, seed):
        self.num_wires = wires
        self._prng_key = seed

    def execute(self, circuits: Sequence[QuantumScript]):
        results = []
        for circuit in circuits:
            results.append(simulate(circuit, prng_key=self._prng_key))  # expect
        return results


def plus_state_circuit():
    return QuantumScript([Operation(H, 0), Operation(RY(0.3), 1)], num_wires=2, shots=10)


if __name__ == "__main__":
    dev = DefaultQubit(wires=2, seed=jax.random.PRNGKey(1234))
    first, second = dev.execute([plus_state_circuit(), plus_state_circuit()])
    print("circuit 0:", first)
    print("circuit 1:", second)
    if np.array_equal(first, second):
        print(f"HAZARD: circuits 0 and 1 of the batch returned identical shot records: {first}")
    jax.config.update("jax_debug_key_reuse", True)
    try:
        DefaultQubit(wires=2, seed=jax.random.key(1234)).execute([plus_state_circuit(), plus_state_circuit()])
    except jax.errors.KeyReuseError as err:
        print(f"HAZARD: KeyReuseError: {str(err).splitlines()[0]}")
        sys.exit(0)
    print("no KeyReuseError")
