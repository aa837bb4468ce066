"""OPT020 through functions of other files of the project (issue #25, a gwkokab
fix commit: a sampler imported from the project's `utils.py` drew `m1` from the key, then a
vmapped lambda drew every row of `q` from it again). What the other file's function does with
its key is read in that file: one that draws from it consumes the caller's key, one that ignores
it does not. A lambda vmapped over rows that closes over a key draws the same numbers in every
row. The programs also run with JAX."""

from __future__ import annotations

import json
import runpy
import sys
from pathlib import Path

import numpy as np

from conftest import run_optlint_in_process as run_optlint

SAMPLING = '''\
import jax


def inverse_sample(scale, shape, *, key):
    return scale * jax.random.uniform(key, shape)


def constant_sample(scale, shape, *, key):
    return scale * jax.numpy.ones(shape)

'''

MODELS = '''\
import jax

from sampling import constant_sample, inverse_sample


def masses(key):
    m1 = inverse_sample(2.0, (3,), key=key)
    q = jax.vmap(lambda m: inverse_sample(m, (), key=key))(m1)
    return m1, q


def masses_split(key):
    key_m1, key_q = jax.random.split(key)
    m1 = inverse_sample(2.0, (3,), key=key_m1)
    keys = jax.random.split(key_q, 3)
    q = jax.vmap(lambda m, k: inverse_sample(m, (), key=k))(m1, keys)
    return m1, q


def constant_twice(key):
    return constant_sample(1.0, (3,), key=key), constant_sample(2.0, (3,), key=key)

'''


def _rows(tmp_path: Path) -> list[int]:
    (tmp_path / "sampling.py").write_text(SAMPLING)
    (tmp_path / "models.py").write_text(MODELS)
    result = run_optlint("check", "models.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    return sorted(f["location"]["row"] if "location" in f else f["line"]
                  for f in json.loads(result.stdout))


def test_a_sampler_of_another_file_consumes_the_key(tmp_path: Path) -> None:
    # 8: the vmapped lambda after `m1` drew from the key, and in every row.
    assert _rows(tmp_path) == [8, 8]


def test_the_other_file_when_run(tmp_path: Path) -> None:
    (tmp_path / "sampling.py").write_text(SAMPLING)
    (tmp_path / "models.py").write_text(MODELS)
    sys.path.insert(0, str(tmp_path))
    try:
        namespace = runpy.run_path(str(tmp_path / "models.py"))
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("sampling", None)
    import jax

    m1, q = namespace["masses"](jax.random.PRNGKey(0))
    assert np.allclose(q / m1, q[0] / m1[0])  # every row drew the same uniform
    m1, q = namespace["masses_split"](jax.random.PRNGKey(0))
    assert not np.allclose(q / m1, q[0] / m1[0])


def test_the_other_file_is_summarised_once_for_every_file_importing_it(
        tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # Both importers are flagged alike, and `sampling.py`'s key flow is made once for the run
    # (kept with its evaluator), not once per importing file.
    from optlint.analysis import key_calls

    made: list[str] = []
    original = key_calls.FileKeyCalls.__init__

    def counted(self, ctx, owners=None):  # type: ignore[no-untyped-def]
        made.append(Path(ctx.filename).name)
        original(self, ctx, owners)

    monkeypatch.setattr(key_calls.FileKeyCalls, "__init__", counted)
    (tmp_path / "sampling.py").write_text(SAMPLING)
    (tmp_path / "models.py").write_text(MODELS)
    (tmp_path / "more_models.py").write_text(MODELS)
    result = run_optlint("check", "models.py", "more_models.py", "--select", "OPT020",
                         "--no-cache", "--jobs", "1", "--output-format", "json", cwd=tmp_path)
    rows = sorted((Path(f["filename"]).name, f["line"])
                  for f in json.loads(result.stdout))
    assert rows == [("models.py", 8), ("models.py", 8), ("more_models.py", 8),
                    ("more_models.py", 8)]
    assert made.count("sampling.py") == 1
