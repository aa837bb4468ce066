"""OPT020 on a loop that cannot reach its second iteration, for a reason read from the project's
own files (issue #25, klax's `ficnn_non_neg_profiling.py`: `model, hist = fit(...)` then
`hist.steps`, where the package's `fit` returns `logger.history` or `None` and its `History` has
no `steps`): every value `hist` can hold lacks the attribute, so the first iteration fails with
AttributeError before the loop draws from its key again. The look-alike whose `History` stores
`steps` is still found. Both run with JAX: the first raises where the analysis says, the second
runs to its end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import finding_line
from conftest import run_optlint_in_process as run_optlint

CALLBACKS = '''\
from abc import ABC


class Callback(ABC):
    def on_step(self, step):
        pass
'''

LOGGING = '''\
from trainer.callbacks import Callback


class History:
    content: dict

    def __init__(self, content=None):
        self.content = {} if content is None else content


class Logger(Callback):
    history: History

    def __init__(self, every, history=None):
        self.every = every
        self.history = History() if history is None else history

    def on_step(self, step):
        self.history.content[step] = step
'''

TRAINING = '''\
import jax

from trainer.logging import Logger


def fit(model, *, steps=2, make_logger=True, key):
    noise = jax.random.normal(key, (steps,))
    model = model + noise.sum()
    if make_logger:
        logger = Logger(10)
        return model, logger.history
    return model, None
'''

INIT = "from trainer.training import fit as fit\n"

SCRIPT = '''\
import jax

from trainer import fit

key = jax.random.key(0)
model_key, train_key = jax.random.split(key)
curves = []
for width, color in zip([1.0, 2.0], ["red", "blue"]):
    model = width * jax.random.normal(model_key, (2,))
    model, hist = fit(model, key=train_key)
    curves.append((hist.{attr}, color))
print(curves)
'''


def _project(tmp_path: Path, logging: str = LOGGING) -> None:
    (tmp_path / "trainer").mkdir(exist_ok=True)
    (tmp_path / "trainer" / "__init__.py").write_text(INIT)
    (tmp_path / "trainer" / "callbacks.py").write_text(CALLBACKS)
    (tmp_path / "trainer" / "logging.py").write_text(logging)
    (tmp_path / "trainer" / "training.py").write_text(TRAINING)
    (tmp_path / "scripts").mkdir(exist_ok=True)


def _lines(tmp_path: Path, source: str) -> list[int]:
    (tmp_path / "scripts" / "profile.py").write_text(source)
    result = run_optlint("check", "scripts/profile.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    return sorted(finding_line(f) for f in json.loads(result.stdout))


# (the attribute read, what History stores besides, the lines OPT020 reports)
CASES = {
    "missing": ("steps", "", []),
    "stored": ("steps", "\n        self.steps = []", [10]),
    "declared": ("content", "", [10]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_an_attribute_no_value_can_have_ends_the_loop(tmp_path: Path, case: str) -> None:
    attr, stored, expected = CASES[case]
    logging = LOGGING.replace("else content", "else content" + stored)
    _project(tmp_path, logging)
    assert _lines(tmp_path, SCRIPT.format(attr=attr)) == expected


def test_an_attribute_set_from_outside_proves_nothing(tmp_path: Path) -> None:
    """Some project file sets `.steps` on an object it holds (`log.history.steps = 0`): a
    History may have it after all, so the reuse is still found."""
    _project(tmp_path)
    (tmp_path / "trainer" / "resume.py").write_text(
        "def resume(log):\n    log.history.steps = 0\n")
    assert _lines(tmp_path, SCRIPT.format(attr="steps")) == [10]


@pytest.mark.parametrize(("returned", "expected"), [("None", []), ("logger.history", [10])])
def test_setattr_anywhere_leaves_only_none_proven(tmp_path: Path, returned: str,
                                                  expected: list[int]) -> None:
    """A project file calls `setattr`: any instance may have any attribute, so only `None`
    proves the read fails (`fit` returning `None` on every path); a `History` proves nothing
    (the analysis then leaves the instances a call makes unresolved: the same answer)."""
    _project(tmp_path)
    (tmp_path / "trainer" / "resume.py").write_text(
        "def resume(log, name):\n    setattr(log, name, 0)\n")
    training = TRAINING.replace("return model, logger.history", f"return model, {returned}")
    (tmp_path / "trainer" / "training.py").write_text(training)
    assert _lines(tmp_path, SCRIPT.format(attr="steps")) == expected


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_scripts_when_run(tmp_path: Path, case: str) -> None:
    attr, stored, expected = CASES[case]
    _project(tmp_path, LOGGING.replace("else content", "else content" + stored))
    (tmp_path / "scripts" / "profile.py").write_text(SCRIPT.format(attr=attr))
    ran = subprocess.run([sys.executable, "scripts/profile.py"], cwd=tmp_path, text=True,
                         capture_output=True, env={"PYTHONPATH": str(tmp_path),
                                                   "JAX_PLATFORMS": "cpu"})
    if expected:
        assert ran.returncode == 0, ran.stderr
    else:
        assert ran.returncode != 0 and "AttributeError: 'History' object has no attribute " \
            "'steps'" in ran.stderr
