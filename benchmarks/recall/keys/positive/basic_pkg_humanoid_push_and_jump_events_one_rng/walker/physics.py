"""Just enough of a physics state for the events to act on."""
import equinox as eqx
import jax.numpy as jnp


class PhysicsData(eqx.Module):
    qpos: jnp.ndarray
    qvel: jnp.ndarray
    time: jnp.ndarray


def initial_data(num_dof: int = 8) -> PhysicsData:
    return PhysicsData(qpos=jnp.zeros(num_dof), qvel=jnp.zeros(num_dof), time=jnp.zeros(()))


def with_qvel(data: PhysicsData, qvel: jnp.ndarray) -> PhysicsData:
    return eqx.tree_at(lambda d: d.qvel, data, qvel)
