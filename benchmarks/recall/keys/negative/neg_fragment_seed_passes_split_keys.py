# recall-case: negative
# rule: OPT020
# class: loop
# source: https://github.com/atomicarchitects/symphony/commit/a42129b1eeeae4d9b88cb3d065386339af52972c
# shown: one key per seed pass, split from a key advanced every sweep (the commit's fix, rngs = split(rng, num_seeds), still repeats them when the infinite loop comes round; this form does not): the seed passes differ, no KeyReuseError under jax_debug_key_reuse over two sweeps; prints OK
# style: molecule-generation input pipeline: an infinite Python generator of training fragments, one random atom ordering per structure and per seed pass
"""Fragment dataset for autoregressive molecule generation."""
import itertools
import sys
from typing import Iterator, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class Structure(NamedTuple):
    positions: np.ndarray  # (n_atoms, 3)
    species: np.ndarray  # (n_atoms,)


class Fragment(NamedTuple):
    structure_index: int
    visited: tuple  # atoms placed so far, in generation order
    target: int  # next atom to place


def neighbours(structure: Structure, cutoff: float) -> list[np.ndarray]:
    d = np.linalg.norm(structure.positions[:, None] - structure.positions[None], axis=-1)
    return [np.nonzero((row < cutoff) & (row > 0))[0] for row in d]


def generate_fragments(rng, structure: Structure, index: int, cutoff: float) -> list[Fragment]:
    """Random breadth-first ordering of the atoms, cut into (visited, target) fragments."""
    nbrs = neighbours(structure, cutoff)
    n = len(structure.species)
    rng, start_rng = jax.random.split(rng)
    first = int(jax.random.randint(start_rng, (), 0, n))
    visited = [first]
    frags = []
    while len(visited) < n:
        frontier = sorted({int(j) for i in visited for j in nbrs[i]} - set(visited)) or sorted(set(range(n)) - set(visited))
        rng, pick_rng = jax.random.split(rng)
        target = frontier[int(jax.random.randint(pick_rng, (), 0, len(frontier)))]
        frags.append(Fragment(index, tuple(visited), target))
        visited.append(target)
    return frags


def create_fragments_dataset(
    rng,
    structures: list[Structure],
    keep_indices: list[int],
    cutoff: float,
    num_seeds: int = 1,
) -> Iterator[Fragment]:
    def fragment_generator(rng):
        """Generates fragments for a split."""
        # Loop indefinitely; every sweep over the seeds gets fresh keys.
        while True:
            rng, sweep_rng = jax.random.split(rng)
            pass_rngs = jax.random.split(sweep_rng, num_seeds)
            for rng_ndx in range(num_seeds):
                pass_rng = pass_rngs[rng_ndx]
                for index in keep_indices:
                    structure = structures[index]
                    pass_rng, seed = jax.random.split(pass_rng)
                    yield from generate_fragments(seed, structure, index, cutoff)

    return fragment_generator(rng)


def toy_structures(n: int) -> list[Structure]:
    rs = np.random.default_rng(0)
    out = []
    for _ in range(n):
        k = int(rs.integers(5, 8))
        out.append(Structure(np.cumsum(rs.normal(scale=0.9, size=(k, 3)), axis=0), rs.integers(1, 9, size=k)))
    return out


def main() -> None:
    structures = toy_structures(3)
    per_pass = sum(len(s.species) - 1 for s in structures)
    dataset = create_fragments_dataset(
        jax.random.key(0), structures, keep_indices=[0, 1, 2], cutoff=2.0, num_seeds=2
    )
    fragments = list(itertools.islice(dataset, 4 * per_pass))
    first_pass, second_pass = fragments[:per_pass], fragments[per_pass : 2 * per_pass]
    if fragments[2 * per_pass : 3 * per_pass] == first_pass:
        raise SystemExit("the second sweep repeated the first")
    print("pass 0 orderings:", [f.visited + (f.target,) for f in first_pass if len(f.visited) == len(structures[f.structure_index].species) - 1])
    if first_pass == second_pass:
        raise SystemExit("seed pass 1 produced exactly the fragments of seed pass 0")

    jax.config.update("jax_debug_key_reuse", True)
    try:
        list(itertools.islice(
            create_fragments_dataset(jax.random.key(1), structures, [0, 1, 2], 2.0, num_seeds=2), 4 * per_pass
        ))
    except jax.errors.KeyReuseError as err:
        print("KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
