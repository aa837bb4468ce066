"""OPT020 on a helper that draws from its key only to fill in a value its caller may give
(issue #25; whole-repository set 2: big_vision `parallel_decode.py:282`, labelled FP: the
second call is given the mixture the first drew, and draws nothing). A call giving that value
draws only if it is None at run time, which the analysis does not see: `--preview`. Calls that
leave it out, give `None`, or a helper that draws whatever it is given, are reported."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_findings, opt020_lines

SOURCE = '''\
import jax


def pick(logits, rng=None, choice=None):
    if choice is None:
        choice = jax.random.categorical(rng, logits)
    return logits[choice], choice


def pick_always(logits, rng, choice=None):
    drawn = jax.random.categorical(rng, logits)
    return logits[drawn], choice


def given_what_the_first_drew(logits, rng):
    first, choice = pick(logits, rng)
    second, _ = pick(logits, rng, choice=choice)
    return first, second


def left_out_twice(logits, rng):
    first, _ = pick(logits, rng)
    second, _ = pick(logits, rng, None)
    return first, second


def drawn_whatever_given(logits, rng, choice):
    first, _ = pick_always(logits, rng)
    second, _ = pick_always(logits, rng, choice=choice)
    return first, second
'''


def test_a_key_drawn_only_to_fill_in_a_given_value_is_preview(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "pick.py", SOURCE) == [23, 29]
    preview = opt020_findings(tmp_path, "pick.py", SOURCE, "--preview")
    assert sorted(f["line"] for f in preview) == [17, 23, 29]
    (filled,) = [f for f in preview if f["line"] == 17]
    assert "only when `choice` is None, and this call gives `choice`" in filled["message"]
