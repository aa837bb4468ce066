"""A key given to a callable made by a function the caller gives (`kernel =
kernel_generator(step_size)`, then `kernel(rng_key, state)`): the analysis cannot see it draw,
so a reuse resting on it is `--preview` only, with the reason."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_findings

CARRIED = '''\
from typing import NamedTuple

import jax


class Search(NamedTuple):
    rng_key: jax.Array
    step_size: float


def find_step_size(rng_key, kernel_generator, state):
    def update(search):
        rng_key, step_size = search
        _, rng_key = jax.random.split(rng_key)
        kernel = kernel_generator(step_size)
        accept = kernel(rng_key, state)
        return Search(rng_key, step_size * accept)

    return jax.lax.while_loop(lambda s: s.step_size < 1.0, update, Search(rng_key, 0.1))
'''


def test_a_key_drawn_by_a_made_callable_and_carried_on_is_preview(tmp_path: Path) -> None:
    assert opt020_findings(tmp_path, "search.py", CARRIED) == []
    [finding] = opt020_findings(tmp_path, "search.py", CARRIED, "--preview")
    assert finding["line"] == 16
    assert "handed back unchanged in `Search(rng_key, step_size * accept)`" in finding["message"]
    assert finding["message"].endswith(
        "[preview: `kernel` is what `kernel_generator`, a function given by a caller, returns; "
        "the analysis cannot see it draw from the key]"), finding["message"]


def test_a_fresh_subkey_for_the_made_callable_is_silent(tmp_path: Path) -> None:
    fixed = CARRIED.replace("_, rng_key = jax.random.split(rng_key)",
                            "rng_key, subkey = jax.random.split(rng_key)").replace(
        "kernel(rng_key, state)", "kernel(subkey, state)")
    assert opt020_findings(tmp_path, "search.py", fixed, "--preview") == []
