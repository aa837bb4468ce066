"""OPT020 on a method drawing from a key its object holds under a local name (`key =
self.eval_key`, then `split(key)`), which only the constructor sets, run on one object in every
step of a loop of another project file (issue #25, held-out set 8: boingkiri/diffusion 23fe4a6
starts every sampling method with `sampling_key = self.eval_key` and splits it; every FID batch
draws the same latents). As for a draw from `self.eval_key` itself
(`key_unadvanced_callers.py`), the finding is at the draw. Silent: the name bound anew from a
split of the field before the draw, a method that advances the field. Run with JAX: the second
step raises."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import raises_key_reuse, run_optlint_in_process

SAMPLER = """\
import jax


class Sampler:
    def __init__(self, n):
        self.n = n
        self.eval_key = jax.random.PRNGKey(0)

    def sample(self):
        sampling_key = self.eval_key
        sampling_key, noise_key = jax.random.split(sampling_key)
        return jax.random.normal(noise_key, (self.n,))
"""

# The local name is a fresh key split off the field, which the method advances.
ADVANCING = SAMPLER.replace(
    "        sampling_key = self.eval_key\n",
    "        self.eval_key, sampling_key = jax.random.split(self.eval_key)\n")

RUN = """\
from gen.sampling import Sampler


def fid(total):
    sampler = Sampler(3)
    done = 0
    while done < total:
        batch = sampler.sample()
        done += batch.shape[0]
    return done
"""


def _lines(tmp_path: Path, sampler: str) -> list[int]:
    package = tmp_path / "gen"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "sampling.py").write_text(sampler)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "gen"\n')
    (tmp_path / "fid.py").write_text(RUN)
    result = run_optlint_in_process("check", "gen/sampling.py", "--select", "OPT020",
                                    "--no-cache", "--isolated", "--output-format", "json",
                                    cwd=tmp_path)
    return sorted(f["line"] for f in json.loads(result.stdout))


def test_a_field_drawn_under_a_local_name_every_step(tmp_path: Path) -> None:
    assert _lines(tmp_path, SAMPLER) == [11]


def test_an_advancing_method_is_silent(tmp_path: Path) -> None:
    assert _lines(tmp_path, ADVANCING) == []


def test_jax_raises_at_the_second_batch() -> None:
    program = SAMPLER.replace("PRNGKey(0)", "key(0)") + RUN.replace(
        "from gen.sampling import Sampler\n", "")
    assert raises_key_reuse(program, "fid(6)")
