"""Streams of a Flax `rngs` mapping that nothing draws from: `model.init({'params': key,
'lstm': key}, x)` where no code asks for an `lstm` key gives `key` to one stream that draws,
not two.

Flax's own modules ask for keys only from the streams of `LIBRARY_STREAMS` (every `make_rng`
of flax 0.12.8's `linen` and `core` names `params` or `dropout`, or the `rng_collection` field
of `Dropout`, `dropout` by default); a lifted transform (`nn.scan`, `nn.vmap`) makes a key for
every stream it is given, but hands it only to code that asks for that stream by name. So a
stream whose name no project file writes as a string, but for this mapping's own key, draws
nothing, as long as every `make_rng(...)` and `rng_collection=` of the project names its stream
in place (a name read from a config could be any). `tests/test_prng_keys_unnamed_streams.py`
measures it where flax is installed: `init` with and without such a stream gives equal
parameters, and JAX's key-reuse checker raises on neither.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from optlint.context import RuleContext

# The streams a library's own modules draw from, by the library's row name.
LIBRARY_STREAMS = {"flax": frozenset({"params", "dropout"})}
# A stream asked for by what a name holds, not by a string written there.
_STREAM_FROM_NAME = re.compile(r"make_rng\(\s*[^'\")\s]|rng_collection\s*=\s*[^'\"\s]")


def unnamed_stream(ctx: RuleContext, library: str, element: cst.DictElement) -> bool:
    """`element` (an entry of a `rngs` mapping given to `library`) names a stream nothing in
    the project draws from."""
    own = LIBRARY_STREAMS.get(library)
    key = element.key
    if own is None or not isinstance(key, cst.SimpleString):
        return False
    stream = key.evaluated_value
    if not isinstance(stream, str) or stream in own or not stream.isidentifier():
        return False
    texts = _texts(ctx)
    if texts is None:
        return False
    project = ctx.inference.project
    if project is not None:  # the answer rests on every file's text: for the cache, this file
        for word in (stream, "make_rng", "rng_collection"):  # depends on those naming a stream
            project.depends_on(word)
    written = re.compile(rf"(['\"]){re.escape(stream)}\1")
    mentions = 0
    for text in texts:
        if ("make_rng" in text or "rng_collection" in text) and _STREAM_FROM_NAME.search(text):
            return False
        if stream in text:
            mentions += len(written.findall(text))
    return mentions == 1  # the mapping's own key


def _texts(ctx: RuleContext) -> list[str] | None:
    """The project's files' texts (this file's as checked), None when the project is too large
    to read; without a project, this file's alone."""
    project = ctx.inference.project
    here = ctx.source if ctx.source is not None else ctx.module.code
    if project is None:
        return [here]
    texts = project.project_texts()
    if texts is None:
        return None
    path = Path(ctx.filename).resolve()
    return [here, *(text for file, text in texts.items() if file.resolve() != path)]
