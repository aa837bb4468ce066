"""What one file's lint read of the rest of the project: plain data, so that the engine and the
cache can name it without importing libcst."""

from __future__ import annotations

from optlint.records import record



@record
class Dependencies:
    """What one file's lint read of the rest of the project, for the cache to check later.

    `consulted`: the analysis asked about another file (a class, a function, an import's
    files), so the result holds while the files its imports reach are unchanged. `words`: the
    names whose callers were looked for in every project file, so the result also holds only
    while the files mentioning them are the same (`def:NAME`: the files defining a method
    `NAME`, see `project_methods.py`). `read`: the other project files this lint read
    for the first time in its process, each with the hash of the bytes read (a file edited while
    a run is in progress must not key an entry by content the analysis never saw)."""

    consulted: bool = False
    words: tuple[str, ...] = ()
    read: tuple[tuple[str, str], ...] = ()
