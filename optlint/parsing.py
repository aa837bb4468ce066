"""Parsing and analysing a text so that no input can take the run down.

libcst's native parser recurses on the C stack and kills the process when it runs out (a segfault,
exit 139, at ~1,500 nested brackets or ~10,000 `not`s on an 8 MiB stack), and the Python code that
walks its tree raises RecursionError on code nested ~1,000 deep (1,000 `elif`s, a 1,000-part `+`).
So a text that could be nested that deep is first screened by CPython's own parser, which guards
its recursion: a text that the running Python cannot build a tree for because of its depth is "too
deeply nested to analyse" and never reaches libcst. What passes (nested at most a few thousand deep)
is parsed and analysed on a thread with a large stack and a higher recursion limit, where that
depth fits.

The screen costs a tenth of libcst's parse, so it runs only where a cheap look at the text
(`at_risk`) finds what could go that deep: long runs of brackets or unary operators, a NUL byte, or
a text too long to look at cheaply. Elsewhere CPython is asked only when libcst rejects the text:
it is the authority on what is valid Python, and places a syntax error more precisely.
"""

from __future__ import annotations

import ast
import importlib
import itertools
import re
import sys
import threading
import warnings
from collections.abc import Callable
from types import FrameType, FunctionType

import libcst as cst

from optlint.large_stack import deep_call

_DEFAULT_RECURSION_LIMIT = 1000  # Python's own default


# Bracket nesting past this (raw, strings included) is screened: CPython rejects 200 nested
# parentheses, and libcst's native parser is at risk thousands deep. A bracket in a string can only
# hide a level from the count; hiding 100 of them takes 100 brackets in strings before the nest.
_SCREEN_BRACKET_DEPTH = 100
# Past this many characters the text is screened whatever it holds (unary chains thousands long,
# brackets hidden in strings): the screen's cost is small beside the analysis of such a file.
_SCREEN_ABOVE_CHARACTERS = 256 * 1024
_NOT_BRACKET = re.compile(r"[^()\[\]{}]+")
_BRACKET_STEP = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}
# Unary operators nest like brackets: `- - - x`, `not not x` (CPython gives up ~2,000 deep).
# Runs of 50, as brackets 100 deep: what is nested less deep is parsed unscreened. (`- not x` is
# no valid Python: a chain is `not`s, then `-`, `+` or `~`, each part a run of its own.) A run
# of dashes on a comment line (`# ------`, a section rule) nests nothing; one `not -1` in a
# message nests two deep. Both screened every such file before: a tenth of libcst's parse each.
_UNARY_RUN = re.compile(r"[-+~](?:[ \t]*[-+~]){49}")
# No `\b` before `not`: a pattern starting with a literal is searched for far faster.
_NOT_RUN = re.compile(r"not(?:[\s\\]*not\b){49}")


def at_risk(text: str) -> bool:
    """Whether `text` must be screened by CPython before libcst sees it: it could be nested deeper
    than libcst survives or than CPython accepts, or holds a NUL byte (libcst accepts one in a
    string, CPython nowhere). False says it is neither, so libcst's parse can go first."""
    if "\0" in text or len(text) > _SCREEN_ABOVE_CHARACTERS:
        return True
    if _NOT_RUN.search(text) or any(not _on_comment_line(text, run.start())
                                    for run in _UNARY_RUN.finditer(text)):
        return True
    depths = list(itertools.accumulate(map(_BRACKET_STEP.__getitem__,
                                           _NOT_BRACKET.sub("", text))))
    return bool(depths) and max(depths) - min(0, min(depths)) >= _SCREEN_BRACKET_DEPTH


def _on_comment_line(text: str, position: int) -> bool:
    """Whether `position` is on a line whose first character past its indentation is `#` and
    that has no quote on it: a comment, or a line inside a string that does not end there; no
    code either way (a quote could end a string and start code on the same line)."""
    start = max(text.rfind("\n", 0, position), text.rfind("\r", 0, position)) + 1
    ends = [end for end in (text.find("\n", position), text.find("\r", position)) if end >= 0]
    line = text[start:min(ends, default=len(text))]
    return line.lstrip(" \t\f").startswith("#") and "'" not in line and '"' not in line


class Unanalysable(Exception):
    """A text that is not handed to libcst; reported as one line for its file."""


class TooDeep(Unanalysable):
    """A text nested too deeply to analyse."""

    def __init__(self, filename: str, reason: str) -> None:
        super().__init__(f"{filename}: too deeply nested to analyse ({reason})")


def python_syntax_error(text: str, filename: str) -> SyntaxError | None:
    """CPython's syntax error for `text`, None when it parses; TooDeep when the running Python
    cannot build its tree for depth alone. Called on the caller's thread, under the normal
    recursion limit: what this Python could not compile is not analysed either."""
    # CPython scales its parser's depth limit with the recursion limit, which may be raised here
    # (a file parsed for a class lookup, from the analysis thread): measure against the default.
    previous_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(_frames() + _DEFAULT_RECURSION_LIMIT)
    try:
        with warnings.catch_warnings():  # `"\d"` and the like: CPython's business, not ours
            warnings.simplefilter("ignore")
            if not _compiles(text, filename):
                compile(text, filename, "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as error:
        return error if error.lineno or "\0" not in text else _at_nul(error.msg, text, filename)
    except ValueError as error:  # some Pythons: "source code string cannot contain null bytes"
        return _at_nul(str(error), text, filename)
    except (RecursionError, MemoryError):  # CPython's parser's own limits on nesting
        raise TooDeep(filename, "deeper than Python's own parser accepts") from None
    finally:
        sys.setrecursionlimit(previous_limit)
    return None


def _compiles(text: str, filename: str) -> bool:
    """Whether CPython compiles `text` to bytecode: then its parser built the tree, and the
    screen's answer is None. Half the cost of asking for the tree itself (`PyCF_ONLY_AST` turns
    every node into a Python object: 1.1 s against 0.6 s for a 1 MB file, which the screen always
    sees). What fails here (the compiler rejects more than the parser: `return` outside a
    function, nesting past its own limits) is asked again for the tree, which decides as ever."""
    try:
        compile(text, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _frames() -> int:
    frame: FrameType | None = sys._getframe()
    count = 0
    while frame is not None:
        frame, count = frame.f_back, count + 1
    return count


def _at_nul(message: str, text: str, filename: str) -> SyntaxError:
    """The error placed at the first NUL character (CPython gives no position for it)."""
    before = text[:max(text.find("\0"), 0)]
    line = before.count("\n") + before.count("\r") - before.count("\r\n") + 1
    column = len(before) - max(before.rfind("\n"), before.rfind("\r"))
    return SyntaxError(message, (filename, line, column, None))


def rejects_everywhere(error: SyntaxError) -> bool:
    """A syntax error that no Python version accepts, where libcst is not asked: it accepts a NUL
    byte in a string, and crashes on the brackets nested past CPython's limit of 200. Other
    CPython errors may be newer syntax than the running Python knows (`type X = int` on 3.11),
    where libcst, which knows it, decides."""
    message = error.msg or ""
    return "null bytes" in message or message.startswith("too many nested parentheses")


def parse_screened(text: str, filename: str) -> cst.Module:
    """libcst's tree of a text that CPython's screen let through (raises Unanalysable where libcst
    could crash or is wrong, ParserSyntaxError as libcst does)."""
    if at_risk(text):
        error = python_syntax_error(text, filename)
        if error is not None and rejects_everywhere(error):
            raise Unanalysable(f"{filename}: {error.msg}")
    return deep_call(parse_module, text)


# libcst checks every node it builds (`CSTNode.__post_init__` calls `_validate`): what a program
# constructs by hand may break the node's rules, what its parser builds from a text never does
# (its grammar is CPython's). On levanter the checks are a quarter of the parse. So a text is
# parsed with them off; libcst's own comment there suggests as much ("avoid validating the tree
# when parsing a file"). tests/test_parse_unvalidated.py compares trees and errors with libcst's
# parse on every test file and on thousands of damaged texts.
_unvalidated_lock = threading.Lock()
_unvalidated_parses = 0
_VALIDATING_POST_INIT = cst.CSTNode.__post_init__


def _skip_validation(node: cst.CSTNode) -> None:
    pass


# Characters parsed in this process before libcst's node constructors are compiled again
# (optlint.node_inits): ~5 files of levanter's, whose parse pays back what installing them costs
# now that their code comes from an earlier run's (optlint/generated_code.py); when compiling
# each cost ~0.1 ms, ~40 files were needed. A one-file check stays below it.
_FAST_INITS_AFTER = 32 * 1024
_parsed_characters = 0


def parse_module(text: str) -> cst.Module:
    """`libcst.parse_module(text)`, without the checks libcst makes of each node it builds (see
    above). Nodes other threads build meanwhile skip them too: a fix's nodes are checked all
    the same, by parsing the fixed text before it is written."""
    global _unvalidated_parses, _parsed_characters
    if not _parsed_characters:  # the first parse: what analyses any tree pays back at once
        from optlint.node_checks import install as install_checks

        install_checks()
    if _parsed_characters <= _FAST_INITS_AFTER:
        _parsed_characters += len(text)
        if _parsed_characters > _FAST_INITS_AFTER:
            from optlint.node_inits import install

            install()
    with _unvalidated_lock:
        _unvalidated_parses += 1
        cst.CSTNode.__post_init__ = _skip_validation  # type: ignore[method-assign, assignment]
        _set_compiled_validation(False)
    try:
        try:
            return _parse_text(text)
        except KeyError:  # the parser asked for a module not imported yet (see below)
            return cst.parse_module(text)
    finally:
        with _unvalidated_lock:
            _unvalidated_parses -= 1
            if not _unvalidated_parses:
                cst.CSTNode.__post_init__ = _VALIDATING_POST_INIT  # type: ignore[method-assign]
                _set_compiled_validation(True)


# libcst's native parser finds the class of each node it builds by importing `libcst` again
# (`PyImport_Import`, once per node: ~940,000 times on levanter). That function calls the
# `__import__` of the builtins of the Python frame that called the parser, then takes the module
# from `sys.modules` whatever `__import__` returned (and raises KeyError where it is not there).
# The parser is called from a frame whose builtins' `__import__` is a C call that does nothing
# (`"".format` takes any arguments and ignores them): `libcst`, the one module the parser asks
# for, is imported already. 3% of the parse's instructions (valgrind, levanter's models:
# 2,492M to 2,411M); the tree is the one `libcst.parse_module` builds from a string (it calls
# the same function with the same arguments).
def _parse_calling(text: str, parse: Callable[..., cst.Module]) -> cst.Module:
    return parse(text, encoding="utf-8")


def _parser_without_imports() -> Callable[[str], cst.Module]:
    """`_parse_calling` with libcst's native parser, run with the builtins above."""
    try:
        parse = importlib.import_module("libcst.native").parse_module
    except (ImportError, AttributeError):  # another libcst: its own entry point
        return cst.parse_module
    return FunctionType(_parse_calling.__code__, {"__builtins__": {"__import__": "".format}},
                        "parse_text", (parse,))


_parse_text = _parser_without_imports()


def _set_compiled_validation(on: bool) -> None:
    """Whether the compiled node constructors (`optlint.node_inits`, once installed) call
    `__post_init__`; the call does nothing while a text is parsed."""
    if _parsed_characters > _FAST_INITS_AFTER:  # installed
        from optlint.node_inits import validating

        validating[0] = on
