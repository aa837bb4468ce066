"""OPT020 where a key is consumed on a branch a configuration's default takes (issue #25; QDax
`b77eb55c72` sac.py: `_update_alpha` split `random_key`, drew from `random_key` itself only
`if not self._config.fix_alpha:`, `SacConfig.fix_alpha: bool = False`, and returned it; the
caller's next update split it again). A key consumed on one branch only is otherwise not
reported; with the default deciding the test, the default path reuses it, and the finding says
so. Left silent: a default that takes the other branch, a call of the file setting the field,
a statement assigning it, a holder the file does not annotate, a class whose constructor may
set the field. Run with
JAX's key-reuse checker, the default configuration raises and the look-alikes do not."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import pytest

from conftest import finding_line, opt020_findings

AGENT = '''\
import dataclasses

import jax


@dataclasses.dataclass
class Config:
    batch_size: int
    fix_alpha: bool = {default}


class Agent:
    def __init__(self, config{annotation}):
        self._config = config

    def _update_alpha(self, key):
        alpha = 0.0
        if not self._config.fix_alpha:
            key, subkey = jax.random.split(key)
            alpha = jax.random.normal({drawn}, ())
        return alpha, key

    def update(self, key):
        alpha, key = self._update_alpha(key)
        key, subkey = jax.random.split(key)
        return alpha + jax.random.normal(subkey, ()), key


def main(key):
    return Agent(Config(batch_size=8{given})).update(key)
'''


def _agent(default: str = "False", annotation: str = ": Config", drawn: str = "key",
           given: str = "") -> str:
    return AGENT.format(default=default, annotation=annotation, drawn=drawn, given=given)


def test_a_key_returned_after_the_default_branch_consumed_it(tmp_path: Path) -> None:
    found = opt020_findings(tmp_path, "agent.py", _agent())
    assert [finding_line(f) for f in found] == [25]
    assert "`Config.fix_alpha` defaults to `False`" in found[0]["message"]
    assert "`not self._config.fix_alpha` is true" in found[0]["message"]


@pytest.mark.parametrize("source", [
    _agent(drawn="subkey"),  # the fix: the branch draws from the key split off
    _agent(default="True"),  # the default takes the other way
    _agent(given=", fix_alpha=True"),  # a call of the file sets the field
    _agent(annotation=""),  # nothing says what the holder holds
    _agent().replace("    fix_alpha: bool = False\n",
                     "    fix_alpha: bool = False\n\n    def __post_init__(self):\n"
                     "        self.fix_alpha = self.batch_size > 4\n"),
    _agent().replace("    return Agent(Config(batch_size=8)).update(key)",
                     "    config = Config(batch_size=8)\n    config.fix_alpha = True\n"
                     "    return Agent(config).update(key)"),
], ids=["fixed", "default-true", "set-by-call", "unannotated", "post-init", "assigned"])
def test_look_alikes_stay_silent(tmp_path: Path, source: str) -> None:
    assert opt020_findings(tmp_path, "agent.py", source) == []


FUNCTION = '''\
import dataclasses

import jax


@dataclasses.dataclass
class Config:
    mode: str = "sample"


def run(config: Config, key):
    if config.mode {operator} "sample":
        a = jax.random.normal(key, ())
    else:
        a = 0.0
    return a + jax.random.uniform(key, ())
'''


@pytest.mark.parametrize(("operator", "expected"), [("==", [16]), ("!=", [])])
def test_a_draw_after_the_default_branch_in_one_function(tmp_path: Path, operator: str,
                                                         expected: list[int]) -> None:
    found = opt020_findings(tmp_path, "run.py", FUNCTION.format(operator=operator))
    assert [finding_line(f) for f in found] == expected


@pytest.mark.parametrize(("source", "raises"), [
    (_agent(), True), (_agent(drawn="subkey"), False), (_agent(default="True"), False)])
def test_the_checker_agrees(tmp_path: Path, source: str, raises: bool) -> None:
    path = tmp_path / "agent.py"
    path.write_text(source)
    main = runpy.run_path(str(path))["main"]
    with jax.debug_key_reuse(True):
        if raises:
            with pytest.raises(jax.errors.KeyReuseError):
                main(jax.random.key(0))
        else:
            main(jax.random.key(0))
