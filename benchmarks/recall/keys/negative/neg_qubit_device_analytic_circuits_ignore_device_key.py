# recall-case: negative
# rule: OPT020
# class: loop
# source: https://github.com/PennyLaneAI/pennylane/pull/5515 (the device hands its `prng_key` to the simulation of every circuit; only finite-shot sampling draws from it)
# shown: the same device loop passes `self._prng_key` to `simulate` for every circuit, but these circuits are analytic (`shots=None`): `simulate` returns exact probabilities and never reaches `sample_state`, so the key is never drawn from; with typed keys under jax_debug_key_reuse a batch of three circuits raises nothing and their exact <Z> values differ; prints OK
# style: quantum-simulator device module: a tiny gate set, a QuantumScript-like circuit dataclass, functional simulate()/sample_state() helpers, a DefaultQubit-like device class whose execute() takes a batch of circuits and a `seed` that may be a jax PRNG key
"""A minimal state-vector device with finite-shot sampling through JAX."""
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
    shots: int | None = None
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


def measure_probs(state, wires):
    other = tuple(i for i in range(state.ndim) if i not in wires)
    return (jnp.abs(state) ** 2).sum(axis=other).reshape(-1)


def simulate(circuit: QuantumScript, prng_key) -> np.ndarray:
    """Exact probabilities for analytic circuits; shots are drawn from `prng_key` otherwise."""
    state = get_final_state(circuit)
    if circuit.shots is None:
        return np.asarray(measure_probs(state, tuple(circuit.measured_wires)))
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
            results.append(simulate(circuit, prng_key=self._prng_key))
        return results


def ry_circuit(theta):
    return QuantumScript([Operation(RY(theta), 0), Operation(H, 1)], num_wires=2)


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    dev = DefaultQubit(wires=2, seed=jax.random.key(1234))
    results = dev.execute([ry_circuit(0.1), ry_circuit(0.7), ry_circuit(1.3)])
    expvals = [float(p[0] - p[1]) for p in results]
    print("exact <Z0>:", np.round(expvals, 4))
    assert len(set(np.round(expvals, 6))) == 3
    print("OK")
