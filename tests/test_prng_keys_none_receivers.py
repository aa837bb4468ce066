"""OPT020 where a closure draws from a key through an object its function is given
(`execution.evaluate(key)`, `execution` a parameter of `run`), and one call gives that parameter
`None` (`run(None)`, representax's GradCache parity test, issue #25): the method of `None` cannot
run there, so the draw the analysis kept for the closure is not that call's; another branch may
still draw, which it does not see: `--preview` only, saying why. Two calls given objects that
draw are still reported by default. Both run with JAX's checker: silent for `run(None)` then
`run(Sampler())`, raising for `run(Sampler())` twice."""

from __future__ import annotations

from pathlib import Path

from conftest import finding_line, opt020_findings, raises_key_reuse

SOURCE = '''\
import jax


class Sampler:
    def evaluate(self, key):
        return jax.random.normal(key, (3,))


def plain(key):
    return 0.0


def parity():
    key = jax.random.key(0)

    def run(execution):
        def loss():
            return plain(key) if execution is None else execution.evaluate(key)
        return loss()

    expected = run(None)
    actual = run(Sampler())
    return expected, actual


def twice():
    key = jax.random.key(0)

    def run(execution):
        def loss():
            return plain(key) if execution is None else execution.evaluate(key)
        return loss()

    first = run(Sampler())
    second = run(Sampler())
    return first, second
'''


def _line(text: str, after: int = 0) -> int:
    return SOURCE.splitlines().index(text, after) + 1


def test_a_call_giving_none_for_the_drawing_object_is_preview(tmp_path: Path) -> None:
    evaluate = "            return plain(key) if execution is None else execution.evaluate(key)"
    in_twice = _line(evaluate, _line("def twice():"))
    assert [finding_line(f) for f in opt020_findings(tmp_path, "parity.py", SOURCE)] == [in_twice]
    preview = {finding_line(f): f["message"]
               for f in opt020_findings(tmp_path, "parity.py", SOURCE, "--preview")}
    assert "[preview: `run` gives `execution` `None`" in preview[_line(evaluate)]
    assert "[preview" not in preview[in_twice]


def test_the_checker_agrees() -> None:
    assert not raises_key_reuse(SOURCE, "parity()")
    assert raises_key_reuse(SOURCE, "twice()")
