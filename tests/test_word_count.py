"""A file's words are counted one word at a time (the analysis asks about a few names per file);
the count is that of splitting the text into words, comments left out."""

from __future__ import annotations

import re
from collections import Counter

import libcst as cst

from optlint.analysis.index import build_index
from optlint.analysis.inference import Inference
from optlint.analysis.parameters import _count_word

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
        assert _count_word(TEXT, word) == words[word], word


def test_comments_and_import_lines_left_out() -> None:
    evaluator = Inference(build_index(cst.parse_module(TEXT)), None, "f.py", TEXT)
    # both imports, the def, the call in the body, the string, the jit: not the comments
    assert evaluator.word_count("step_fn") == 6
    # less the two import lines
    assert evaluator.word_count("step_fn", skip_imports=True) == 4
    assert evaluator.word_count("step") == 1
    assert evaluator.word_count("step", skip_imports=True) == 0
