# recall-case: positive
# rule: OPT020
# class: broadcast
# source: https://github.com/dynamiqs/dynamiqs/commit/7d9f6c4a234a72c04f99d064eacc05fc408dc79c (PR #1070 "Fix batching of keys in stochastic solvers": "trajectories are now different")
# shown: the solver vmaps over a batch of Hamiltonians with `in_axes=(0, 0, None, None)`, the trajectory keys broadcast (None), so every Hamiltonian of the batch integrates the same Wiener increments: the noise records of batch entries 0 and 1 are identical
# style: a dynamiqs-like library module: a public `dssesolve(H, L, psi0, tsave, keys)` that checks shapes, a `_vectorized_dssesolve` that vmaps the per-system solver over the batch, `_many_trajectories` vmapping one Euler-Maruyama `lax.scan` trajectory per key, an eqx.Module result
"""Diffusive stochastic Schrodinger equation, batched over Hamiltonians."""
import equinox as eqx
import jax
import jax.numpy as jnp


class DSSESolveResult(eqx.Module):
    tsave: jax.Array
    states: jax.Array  # (..., ntrajs, nt, n)
    noise: jax.Array  # Wiener increments, (..., ntrajs, nt)


def _trajectory(H, L, psi0, tsave, key):
    dt = tsave[1] - tsave[0]
    dW = jnp.sqrt(dt) * jax.random.normal(key, tsave.shape)
    Ld = L.conj().T

    def step(psi, dw):
        homodyne = jnp.vdot(psi, (L + Ld) @ psi).real
        drift = -1j * H @ psi - 0.5 * Ld @ L @ psi + 0.5 * homodyne * L @ psi
        psi = psi + drift * dt + (L @ psi - 0.5 * homodyne * psi) * dw
        psi = psi / jnp.linalg.norm(psi)
        return psi, psi

    _, states = jax.lax.scan(step, psi0, dW)
    return states, dW


def _many_trajectories(H, L, psi0, tsave, keys):
    return jax.vmap(_trajectory, in_axes=(None, None, None, None, 0))(H, L, psi0, tsave, keys)


def _vectorized_dssesolve(H, L, psi0, tsave, keys):
    # vectorize over the batch of Hamiltonians and jump operators
    in_axes = (0, 0, None, None, None)
    f = jax.vmap(_many_trajectories, in_axes=in_axes)  # expect
    return f(H, L, psi0, tsave, keys)  # expect


@jax.jit
def dssesolve(H, L, psi0, tsave, keys) -> DSSESolveResult:
    """Solve for each Hamiltonian of the batch `H` (b, n, n), one trajectory per key."""
    if H.ndim != 3 or L.shape != H.shape:
        raise ValueError("H and L must be batches of square matrices of the same shape")
    states, noise = _vectorized_dssesolve(H, L, psi0, tsave, keys)
    return DSSESolveResult(tsave, states, noise)


def main() -> None:
    sx = jnp.array([[0, 1], [1, 0]], jnp.complex64)
    sz = jnp.array([[1, 0], [0, -1]], jnp.complex64)
    sm = jnp.array([[0, 1], [0, 0]], jnp.complex64)
    detunings = jnp.array([0.5, 1.0, 2.0])
    H = jax.vmap(lambda d: d * sz + 0.3 * sx)(detunings)
    L = jnp.broadcast_to(jnp.sqrt(0.2) * sm, H.shape)
    psi0 = jnp.array([1, 0], jnp.complex64)
    tsave = jnp.linspace(0.0, 2.0, 101)
    keys = jax.random.split(jax.random.key(42), 4)

    result = dssesolve(H, L, psi0, tsave, keys)
    print("states:", result.states.shape, "noise:", result.noise.shape)
    print("first increments, detuning 0.5 vs 1.0:", result.noise[0, 0, :3], result.noise[1, 0, :3])
    if bool(jnp.array_equal(result.noise[0], result.noise[1])) and bool(jnp.array_equal(result.noise[1], result.noise[2])):
        print("HAZARD: all", len(detunings), "Hamiltonians of the batch were driven by the same Wiener increments")


if __name__ == "__main__":
    main()
