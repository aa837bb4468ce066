"""Regular expressions compiled when first used, once per process.

A pattern compiled at import costs every run that imports its module, used or not: a one-file
check imported ~30 patterns and used fewer than half (compiling one takes `re`'s parser, in
Python, 20 to 200 us). `re`'s own cache compiles on first use too, but drops its oldest pattern
once 512 are held, and a run that looks for hundreds of names fills it.
"""

from __future__ import annotations

import functools
import re


@functools.cache
def compiled(source: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(source, flags)`, compiled on the first call and kept."""
    return re.compile(source, flags)
