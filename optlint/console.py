"""Lines for standard output and standard error, as `click.echo` writes them, without importing
click: a plain `optlint check` (optlint/check_command.py) never imports it, and its messages go
through here."""

from __future__ import annotations

import sys
from typing import TextIO


def echo(message: str, err: bool = False, nl: bool = True) -> None:
    """`click.echo(message, err=err, nl=nl)`: the text and a newline, flushed at once; terminal
    colour codes dropped where the stream is not a terminal."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:  # no standard stream attached (pythonw)
        return
    text = message + "\n" if nl else message
    if not text:
        stream.flush()
        return
    if "\033" in text and not _is_terminal(stream):
        import re

        text = re.sub(r"\033\[[;?0-9]*[a-zA-Z]", "", text)  # click's own pattern (strip_ansi)
    stream.write(text)
    stream.flush()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (ValueError, AttributeError):  # closed, or a stream without a terminal behind it
        return False


def internal_error(error: BaseException) -> None:
    """What a command says of an exception nothing else caught: one `error:` line (a traceback
    too with --verbose), never a traceback alone."""
    if "--verbose" in sys.argv or "-v" in sys.argv:
        import traceback

        traceback.print_exc()
    echo(f"error: internal error: {error!r} (--verbose shows where)", err=True)
