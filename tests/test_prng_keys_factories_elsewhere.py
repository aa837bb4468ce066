"""A factory a caller gives, known from the project's other files: blackjax's
`find_reasonable_step_size` (PR #526) made `kernel = kernel_generator(step_size)` in a
`while_loop` step, drew from the carried `rng_key` through it and handed the same key back.
Only its tests call it, as `functools.partial(find_reasonable_step_size,
kernel_generator=kernel_generator)`, with a factory returning `functools.partial(hmc.kernel(),
...)`, whose `one_step` splits its key: that proves the draw, so it is reported by default."""

import json
from pathlib import Path

from conftest import run_optlint_in_process

HMC = """\
import jax


def kernel():
    def one_step(rng_key, state, logdensity_fn, step_size):
        key_momentum, key_integrator = jax.random.split(rng_key, 2)
        return state + step_size * jax.random.normal(key_momentum), key_integrator

    return one_step


def quiet_kernel():
    def one_step(rng_key, state, logdensity_fn, step_size):
        return state + step_size, rng_key

    return one_step
"""

STEP_SIZE = """\
from typing import NamedTuple

import jax


class SearchState(NamedTuple):
    rng_key: jax.Array
    step_size: float


def find_step_size(rng_key, kernel_generator, reference_state, initial_step_size):
    def update(search):
        rng_key, step_size = search
{split}
        kernel = kernel_generator(step_size)
        _, info = kernel({drawn}, reference_state)
        return SearchState(rng_key, step_size * 2.0)

    search = SearchState(rng_key, initial_step_size)
    return jax.lax.while_loop(lambda s: s.step_size < 1.0, update, search).step_size
"""

TEST = """\
import functools

import jax

from pkg import hmc
from pkg.step_size import find_step_size


def test_step_size():
    kernel = hmc.{kernel}()

    def kernel_generator(step_size):
        return functools.partial(kernel, logdensity_fn=abs, step_size=step_size)

    run = functools.partial(find_step_size, kernel_generator=kernel_generator)
    assert run(jax.random.key(0), reference_state=1.0, initial_step_size=0.01) > 0
{more}"""

BUGGY = ("        _, rng_key = jax.random.split(rng_key)", "rng_key")
FIXED = ("        rng_key, subkey = jax.random.split(rng_key)", "subkey")


def _findings(tmp_path: Path, code: tuple[str, str], kernel: str = "kernel", more: str = "",
              preview: bool = False) -> list[tuple[int, str]]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "hmc.py").write_text(HMC)
    (tmp_path / "pkg" / "step_size.py").write_text(STEP_SIZE.format(split=code[0],
                                                                    drawn=code[1]))
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_step_size.py").write_text(TEST.format(kernel=kernel,
                                                                      more=more))
    # Another file only mentions the function, in a docstring: no use of it.
    (tmp_path / "pkg" / "notes.py").write_text('"""See `find_step_size` for the search."""\n')
    result = run_optlint_in_process("check", ".", "--select", "OPT020", "--no-cache",
                                    "--isolated", "--output-format", "json",
                                    *(["--preview"] if preview else []), cwd=tmp_path)
    assert "internal error" not in result.stderr
    return [(finding["line"], finding["message"]) for finding in json.loads(result.stdout or "[]")
            if finding["filename"].endswith("step_size.py")]


def test_a_factory_the_tests_give_proves_the_draw(tmp_path: Path) -> None:
    findings = _findings(tmp_path, BUGGY)
    assert [line for line, _ in findings] == [16]
    assert "handed back unchanged" in findings[0][1]
    assert "preview" not in findings[0][1]


def test_the_fixed_search_is_silent(tmp_path: Path) -> None:
    assert _findings(tmp_path, FIXED, preview=True) == []


def test_a_factory_whose_function_draws_nothing_proves_nothing(tmp_path: Path) -> None:
    assert _findings(tmp_path, BUGGY, kernel="quiet_kernel") == []


def test_a_use_not_read_leaves_it_to_preview(tmp_path: Path) -> None:
    # The function handed on as a value: callers unseen may give any factory.
    escaped = "\n\nSEARCHES = [find_step_size]\n"
    assert _findings(tmp_path, BUGGY, more=escaped) == []
    findings = _findings_again(tmp_path, escaped)
    assert [line for line, _ in findings] == [16]
    assert "preview" in findings[0][1]


def _findings_again(tmp_path: Path, more: str) -> list[tuple[int, str]]:
    fresh = tmp_path / "again"
    fresh.mkdir()
    return _findings(fresh, BUGGY, more=more, preview=True)
