"""A file's words are counted one word at a time (the analysis asks about a few names per file);
the count is that of splitting the text into words, comments left out."""

from __future__ import annotations

import re
from collections import Counter

import libcst as cst
import pytest

from optlint.analysis.index import build_index
from optlint.analysis.inference import Inference
from optlint.analysis.word_counts import count_word

TEXT = '''import step_fn  # step_fn in a comment
from lib import step_fn as step
def step_fn(x_1, é):
    return step_fn_2(x_1) + step_fn(é) + _step_fn + "step_fn"  # step_fn
jitted = jax.jit(step_fn)
'''


def test_counts_as_splitting_into_words() -> None:
    words = Counter(re.findall(r"\w+", TEXT))
    for word in ("step_fn", "step", "x_1", "é", "step_fn_2", "_step_fn", "jax", "missing",
                 "jax.jit", "step_fn(", ""):
        assert count_word(TEXT, word) == words[word], word


def test_counts_as_splitting_into_words_on_random_texts() -> None:
    """Words inside longer words, repeated back to back, at either end of the text."""
    import random

    rng = random.Random(21)
    for _ in range(300):
        text = "".join(rng.choice(["ab", "a", "b", "_", "é", "1", " ", ".", "(", "\n"])
                       for _ in range(rng.randrange(0, 40)))
        words = Counter(re.findall(r"\w+", text))
        for word in ("a", "ab", "aba", "b_", "ab1", "é", "abab", *words):
            assert count_word(text, word) == words[word], (text, word)


def test_comments_and_import_lines_left_out() -> None:
    evaluator = Inference(build_index(cst.parse_module(TEXT)), None, "f.py", TEXT)
    # both imports, the def, the call in the body, the string, the jit: not the comments
    assert evaluator.parameters.words.count("step_fn") == 6
    # less the two import lines
    assert evaluator.parameters.words.count("step_fn", skip_imports=True) == 4
    assert evaluator.parameters.words.count("step") == 1
    assert evaluator.parameters.words.count("step", skip_imports=True) == 0


def test_many_words_are_counted_from_one_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """A big file asks about hundreds of names: past a few searches its text is split once
    (a search per name was quadratic in the file's length), with the same counts."""
    from optlint.analysis import word_counts

    names = [f"helper_{number}" for number in range(200)]
    text = TEXT + "".join(f"def {name}(x):\n    return {name}(x)  # {name}\n" for name in names)
    evaluator = Inference(build_index(cst.parse_module(text)), None, "f.py", text)
    searches: list[str] = []
    counted = word_counts.count_word
    monkeypatch.setattr(word_counts, "count_word",
                        lambda text, word: searches.append(word) or counted(text, word))
    for skip_imports in (False, True):
        assert [evaluator.parameters.words.count(name, skip_imports) for name in names] == [2] * 200
        assert evaluator.parameters.words.count("step_fn", skip_imports) == (4 if skip_imports else 6)
        assert evaluator.parameters.words.count("jax.jit", skip_imports) == 0
    assert len(searches) <= 2 * word_counts.SEARCHES_BEFORE_SPLIT


def test_assignments_of_a_name_across_scopes() -> None:
    text = ("x = 1\nx = 2\ndef f():\n    x = 3\n    y = x\n    def g():\n        x = 4\n"
            "class C:\n    x = 5\n    def h(self, x):\n        x = 6\n")
    index = build_index(cst.parse_module(text))
    every = {id(scope): scope for scope in index.every_scope}
    for name in ("x", "y", "f", "missing"):
        for outside in [None, *every.values()]:
            expected = sum(1 for scope in index.every_scope if scope is not outside
                           for binding in scope.bindings.get(name, [])
                           if binding.kind == "assign")
            assert index.assignments(name, outside) == expected, (name, outside)


def test_more_than_answers_as_the_clean_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """`more_than` asks the text as it is first: the same answer as the clean count for every
    limit, and no comment-free text made where the text as it is already decides."""
    from optlint.analysis import word_counts

    cleaned: list[str] = []
    clean = word_counts.without_comments
    monkeypatch.setattr(word_counts, "without_comments",
                        lambda text: cleaned.append(text) or clean(text))
    for word in ("step_fn", "step", "jitted", "missing"):
        for skip_imports in (False, True):
            for limit in range(8):
                counts = word_counts.WordCounts(lambda: TEXT)
                assert counts.more_than(word, limit, skip_imports) == (
                    counts.count(word, skip_imports) > limit), (word, skip_imports, limit)
    cleaned.clear()
    counts = word_counts.WordCounts(lambda: TEXT)
    assert not counts.more_than("step_fn", 8) and not counts.more_than("jitted", 1)
    assert cleaned == []
    assert counts.more_than("step_fn", 5)  # 8 as it is: the clean text says 6
    assert not counts.more_than("step_fn", 6)
    assert len(cleaned) == 1


def test_distinct_words_are_those_of_the_expression() -> None:
    """`distinct_words` cuts a text where `\\w+` does: at ASCII punctuation, at Unicode spaces
    and symbols, with letters and digits of other scripts kept in their words."""
    import random

    from optlint.analysis.word_counts import distinct_words

    pieces = ["ab", "a", "b", "_", "é", "1", "²", "٣", " ", ".", "(", "\n", "\t", "\x1c", "\x85",
              "\xa0", "\u2028", "\u3000", "→", "—", "日本", "ß", "\x00", "\x7f", "#", "'"]
    rng = random.Random(27)
    texts = [TEXT, "", " ", "é", "a→b", "x\xa0y", "\u2028"]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randrange(0, 60)))
              for _ in range(2000)]
    for text in texts:
        assert distinct_words(text) == set(re.findall(r"\w+", text)), repr(text)
