"""How often a name stands as a word in a file's text: the callers search's test of whether a
function is used other than in the calls it read (see `parameters._invocations_in`).

A name in a comment does not use the function, and in another file an import line only names it,
so the counts that decide leave those out. Cleaning a text of its comments is a scan of the whole
text with a regular expression that tries strings and comments at every quote and `#`: most
questions need no clean text, since removing comments and import lines only ever removes words
(each keeps its line break, so no two words are joined). A text as it is that uses a name no more
often than a question allows answers it for the clean text too.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Callable

from optlint.analysis.comments import without_comments
from optlint.patterns import compiled

_WORD = re.compile(r"\w+")
_WORD_CHARACTER = re.compile(r"\w")
# Every ASCII character that is not a word character (`\w`), mapped to a space: what
# `distinct_words` splits an ASCII text at.
_ASCII_NON_WORD = {code: " " for code in range(128)
                   if chr(code) not in string.ascii_letters + string.digits + "_"}
# Past this many searches of one text, its words are counted by one split of the whole text: a
# file is asked about a few names, and splitting its whole text cost more (a third of a second of
# a cold run on levanter); a big file asks about hundreds, and a search each was quadratic in its
# length.
SEARCHES_BEFORE_SPLIT = 32
_IMPORT_LINE = r"^[ \t]*(from[ \t].*|import[ \t].*)$"  # (compiled when first used)
# The texts a file's words are counted in: as it is, less its comments, less its comments and
# import lines.
_AS_IT_IS, _NO_COMMENTS, _NO_COMMENTS_OR_IMPORTS = "as it is", "no comments", "no imports"


class WordCounts:
    """One file's word counts, each text made and each word counted once."""

    def __init__(self, file_text: Callable[[], str]) -> None:
        self._file_text = file_text
        self._texts: dict[str, str] = {}
        self._counts: dict[tuple[str, str], int] = {}
        self._every_word: dict[str, Counter[str]] = {}  # see SEARCHES_BEFORE_SPLIT

    def count(self, word: str, skip_imports: bool = False) -> int:
        """How often `word` stands as a word in the file's text, comments left out (and import
        lines with `skip_imports`)."""
        return self._count(_NO_COMMENTS_OR_IMPORTS if skip_imports else _NO_COMMENTS, word)

    def more_than(self, word: str, limit: int, skip_imports: bool = False) -> bool:
        """`count(word, skip_imports) > limit`, asked of the text as it is first (see above)."""
        return self._count(_AS_IT_IS, word) > limit and self.count(word, skip_imports) > limit

    def _count(self, which: str, word: str) -> int:
        key = (which, word)
        count = self._counts.get(key)
        if count is None:
            text = self._text(which)
            every_word = self._every_word.get(which)
            if every_word is None and len(self._counts) >= SEARCHES_BEFORE_SPLIT:
                every_word = self._every_word[which] = Counter(_WORD.findall(text))
            count = self._counts[key] = (
                count_word(text, word) if every_word is None else every_word[word])
        return count

    def _text(self, which: str) -> str:
        text = self._texts.get(which)
        if text is None:
            if which == _AS_IT_IS:
                text = self._file_text()
            elif which == _NO_COMMENTS:
                text = without_comments(self._file_text())
            else:
                text = compiled(_IMPORT_LINE, re.MULTILINE).sub("", self._text(_NO_COMMENTS))
            self._texts[which] = text
        return text


def count_word(text: str, word: str) -> int:
    """How many of `text`'s words (its maximal runs of `\\w`) are `word`: each place the word
    occurs (`str.find`, which skips to it), with the characters around it checked. A regular
    expression per word cost its compilation each time (hundreds of names a run, past the `re`
    module's cache), more than the search."""
    if not _WORD.fullmatch(word):
        return 0  # no run of word characters is anything else
    count = 0
    start = text.find(word)
    while start >= 0:
        end = start + len(word)
        if ((not start or not _WORD_CHARACTER.match(text, start - 1))
                and not _WORD_CHARACTER.match(text, end)):
            count += 1
        start = text.find(word, end)
    return count


def distinct_words(text: str) -> set[str]:
    """The words of `text` (its maximal runs of `\\w`), each once: `set(re.findall(r"\\w+",
    text))`. The callers search indexes every project file's words so (levanter: 216 texts, 2.2
    MB); the regular expression made a string of every word before the set dropped the repeats.
    Here the ASCII characters that are no word characters become spaces and `str.split` cuts
    there (a third fewer instructions); `str.split` also cuts at Unicode spaces, which are no
    word characters either, and a piece still holding a non-ASCII character (`→`, `é`) is cut as
    the expression cuts it."""
    pieces = set(text.translate(_ASCII_NON_WORD).split())
    if text.isascii():
        return pieces
    words = {piece for piece in pieces if piece.isascii()}
    for piece in pieces - words:
        words.update(_WORD.findall(piece))
    return words
