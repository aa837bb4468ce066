"""What a library's factory makes, told by a literal argument, as data: `gymnax.make("Pendulum-v1")`
returns a `Pendulum` and its parameters. `ProjectValues` reads a row where the factory's library
is the project itself (gymnax's own tests and examples): the class is then a project class, and
what its methods do with a key is read from its source, not from this table.

Each row is measured by running the factory (`class_of_made` names the class of what it made).
"""

from __future__ import annotations

from optlint.records import record


@record
class LibraryFactory:
    names: tuple[str, ...]  # the factory's qualified names (a re-export is one more)
    position: int  # where the literal is given positionally
    keyword: str
    # Where the made object is in what the factory returns: () for the value itself, (0,) for
    # the first item of a returned tuple.
    path: tuple[int, ...]
    # The class made for each literal, by its qualified name (where the library defines it).
    class_of_made: dict[str, str]


_GYMNAX = "gymnax.environments"

FACTORIES: tuple[LibraryFactory, ...] = (
    # gymnax 1.0.1: `env, params = gymnax.make(env_id)`. Measured by running make on every
    # registered id and printing type(env) (benchmarks/facts/gymnax_make_classes.py, output
    # beside it; MNISTBandit-bsuite downloads MNIST and is left out).
    LibraryFactory(
        names=("gymnax.make", "gymnax.registration.make"), position=0, keyword="env_id",
        path=(0,),
        class_of_made={
            "CartPole-v1": f"{_GYMNAX}.classic_control.cartpole.CartPole",
            "Pendulum-v1": f"{_GYMNAX}.classic_control.pendulum.Pendulum",
            "Acrobot-v1": f"{_GYMNAX}.classic_control.acrobot.Acrobot",
            "MountainCar-v0": f"{_GYMNAX}.classic_control.mountain_car.MountainCar",
            "MountainCarContinuous-v0":
                f"{_GYMNAX}.classic_control.continuous_mountain_car.ContinuousMountainCar",
            "Asterix-MinAtar": f"{_GYMNAX}.minatar.asterix.MinAsterix",
            "Breakout-MinAtar": f"{_GYMNAX}.minatar.breakout.MinBreakout",
            "Freeway-MinAtar": f"{_GYMNAX}.minatar.freeway.MinFreeway",
            "Seaquest-MinAtar": f"{_GYMNAX}.minatar.seaquest.MinSeaquest",
            "SpaceInvaders-MinAtar": f"{_GYMNAX}.minatar.space_invaders.MinSpaceInvaders",
            "Catch-bsuite": f"{_GYMNAX}.bsuite.catch.Catch",
            "DeepSea-bsuite": f"{_GYMNAX}.bsuite.deep_sea.DeepSea",
            "MemoryChain-bsuite": f"{_GYMNAX}.bsuite.memory_chain.MemoryChain",
            "UmbrellaChain-bsuite": f"{_GYMNAX}.bsuite.umbrella_chain.UmbrellaChain",
            "DiscountingChain-bsuite": f"{_GYMNAX}.bsuite.discounting_chain.DiscountingChain",
            "SimpleBandit-bsuite": f"{_GYMNAX}.bsuite.bandit.SimpleBandit",
            "FourRooms-misc": f"{_GYMNAX}.misc.rooms.FourRooms",
            "MetaMaze-misc": f"{_GYMNAX}.misc.meta_maze.MetaMaze",
            "PointRobot-misc": f"{_GYMNAX}.misc.point_robot.PointRobot",
            "BernoulliBandit-misc": f"{_GYMNAX}.misc.bernoulli_bandit.BernoulliBandit",
            "GaussianBandit-misc": f"{_GYMNAX}.misc.gaussian_bandit.GaussianBandit",
            "Reacher-misc": f"{_GYMNAX}.misc.reacher.Reacher",
            "Swimmer-misc": f"{_GYMNAX}.misc.swimmer.Swimmer",
            "Pong-misc": f"{_GYMNAX}.misc.pong.Pong",
            "FrozenLake-misc": f"{_GYMNAX}.misc.frozen_lake.FrozenLake",
        }),
)

FACTORY_BY_NAME: dict[str, LibraryFactory] = {
    name: row for row in FACTORIES for name in row.names}
