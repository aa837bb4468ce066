"""Keys made from a seed the code names (`PRNGKey(seed)`), beside a function making its key from
the same seed: what is proven, what is `--preview`, and what the finding says."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_findings

DRAW_THEN_SPLIT = '''\
import jax


def noise(seed):
    return jax.random.normal(jax.random.PRNGKey(seed), (3,))


def run(seed):
    first = noise(seed)
    key = jax.random.PRNGKey(seed)
    key, sub = jax.random.split(key)
    return first + jax.random.normal(sub, (3,))
'''


def test_a_draw_beside_a_split_of_two_keys_of_one_seed_is_preview_and_says_so_once(
        tmp_path: Path) -> None:
    # A draw and a split of two keys made from one seed give correlated values, not identical
    # ones, and JAX's checker sees two keys: `--preview` only, as for a literal seed.
    assert opt020_findings(tmp_path, "draw_split.py", DRAW_THEN_SPLIT) == []
    [finding] = opt020_findings(tmp_path, "draw_split.py", DRAW_THEN_SPLIT, "--preview")
    assert finding["line"] == 11
    assert finding["message"].count("[preview: ") == 1, finding["message"]
    assert finding["message"].endswith("]"), finding["message"]
    assert "`noise` makes its key from `seed`" in finding["message"]


def test_a_seed_is_not_offered_a_split_fix(tmp_path: Path) -> None:
    source = DRAW_THEN_SPLIT.replace("    key, sub = jax.random.split(key)\n"
                                     "    return first + jax.random.normal(sub, (3,))",
                                     "    return first + jax.random.normal(key, (3,))")
    [finding] = opt020_findings(tmp_path, "draws.py", source)
    assert finding["fix"] is None
    assert finding["fix_title"] == "Make one key from the seed and split it for each use"
