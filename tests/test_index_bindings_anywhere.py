"""`FileIndex.bindings_anywhere`: a name's bindings in every scope of the file, grouped once for
every name (the OPT020 helpers asking it per function and per call each walked every scope:
quadratic in a big file's length), the same bindings in the same order as that walk."""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from optlint.analysis.index import build_index

LATENCY = Path(__file__).resolve().parent.parent / "benchmarks" / "latency_train.py"


def test_the_bindings_of_every_name_as_a_walk_of_every_scope_finds_them() -> None:
    index = build_index(cst.parse_module(LATENCY.read_text()))
    names = {name for scope in index.every_scope for name in scope.bindings}
    assert {"Block", "key", "keys", "model", "x"} <= names
    for name in [*names, "not_bound_anywhere"]:
        walked = [binding for scope in index.every_scope
                  for binding in scope.bindings.get(name, ())]
        assert list(index.bindings_anywhere(name)) == walked, name
