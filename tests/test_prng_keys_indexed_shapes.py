"""OPT020 on two Flax `init` calls given one key whose parameters a test reads only through
their items' shapes (`assert params["params"]["w"].shape == (3, 4)`; issue #25, whole
repositories: openpi `lora_test.py:24`, `:29`, `:68`, labelled false in label27): an item's shape
is the same for every key, so the draws reach no result. The models are classes of another file
of the project (`models.py`), as there. Look-alikes: the same inits whose outputs a test compares
(openpi `lora_test.py:91`, true) stay reported, and an index read as a value (a mask
`w[w > 0].shape`) reads the draw. Run with Flax where installed (bench-venv, flax 0.12.8): the
shape-only test's outcome is the same with another key for the second init, while the compared
outputs differ."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest

from conftest import finding_line, run_optlint_in_process

MODELS = '''\
import flax.linen as nn


class Dense(nn.Module):
    features: int
    extra: int = 0

    @nn.compact
    def __call__(self, x):
        y = nn.Dense(self.features)(x)
        if self.extra:
            y = y + nn.Dense(self.features, name="extra")(x)
        return y
'''

SHAPES_ONLY = '''\
import jax
import jax.numpy as jnp

import models


def test_params_shape():
    key = jax.random.key(0)
    plain = models.Dense(4)
    wide = models.Dense(4, extra=1)
    x = jnp.ones((2, 3))
    params = plain.init(key, x)
    assert params["params"]["Dense_0"]["kernel"].shape == (3, 4)
    params_wide = wide.init(key, x)
    assert params_wide["params"]["extra"]["kernel"].shape == (3, 4)
    assert params_wide["params"]["Dense_0"]["bias"].ndim == 1
'''

OUTPUTS_COMPARED = '''\
import jax
import jax.numpy as jnp

import models


def test_same_output():
    key = jax.random.key(0)
    plain = models.Dense(4)
    other = models.Dense(4)
    x = jnp.ones((2, 3))
    params = plain.init(key, x)
    params_other = other.init(key, x)
    return bool(jnp.allclose(plain.apply(params, x), other.apply(params_other, x)))
'''

MASKED_SHAPES = SHAPES_ONLY.replace(
    'params["params"]["Dense_0"]["kernel"].shape == (3, 4)',
    'params["params"]["Dense_0"]["kernel"][params["params"]["Dense_0"]["kernel"] > 0].shape')
MASKED_SHAPES = MASKED_SHAPES.replace(
    'params_wide["params"]["extra"]["kernel"].shape == (3, 4)',
    'params_wide["params"]["extra"]["kernel"][params_wide["params"]["extra"]["kernel"] > 0]'
    '.shape')


def _lines(tmp_path: Path, source: str) -> list[int]:
    import json

    (tmp_path / "models.py").write_text(MODELS)
    (tmp_path / "test_models.py").write_text(source)
    result = run_optlint_in_process("check", "test_models.py", "--select", "OPT020",
                                    "--no-cache", "--output-format", "json", cwd=tmp_path)
    return sorted(finding_line(finding) for finding in json.loads(result.stdout))


def test_inits_read_only_for_item_shapes_are_silent(tmp_path: Path) -> None:
    assert _lines(tmp_path, SHAPES_ONLY) == []


def test_inits_whose_outputs_are_compared(tmp_path: Path) -> None:
    assert _lines(tmp_path, OUTPUTS_COMPARED) == [13]


def test_an_index_read_as_a_value_reads_the_draw(tmp_path: Path) -> None:
    assert _lines(tmp_path, MASKED_SHAPES) == [14]


def _test_function(source: str) -> Any:
    pytest.importorskip("flax")
    models = types.ModuleType("models")
    sys.modules["models"] = models  # dataclasses look a class's module up
    try:
        exec(compile(MODELS, "models.py", "exec"), models.__dict__)
        namespace: dict[str, Any] = {}
        exec(compile(source, "test_models.py", "exec"), namespace)
    finally:
        del sys.modules["models"]
    return next(value for name, value in namespace.items() if name.startswith("test_"))


def _other_second_key(source: str) -> str:
    """`source` with another key for its second `init`."""
    first, second = source.rsplit(".init(key, x)", 1)
    return f"{first}.init(jax.random.key(1), x){second}"


def test_run_with_flax_shapes_reach_no_result() -> None:
    assert _test_function(SHAPES_ONLY)() is None  # passes with one key
    assert _test_function(_other_second_key(SHAPES_ONLY))() is None  # and with two
    assert _test_function(OUTPUTS_COMPARED)() is True
    assert _test_function(_other_second_key(OUTPUTS_COMPARED))() is False
