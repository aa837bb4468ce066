"""The read-only walk enters a value when its class is a libcst node and no trivia: decided from
the class's MRO (libcst's ABC `issubclass` is slow the first time per class), which must give
what `issubclass` gives on every class libcst exports and on the plain values fields hold."""

from __future__ import annotations

import inspect

import libcst as cst

from optlint.analysis import walk


def test_the_mro_decides_as_issubclass_does() -> None:
    classes = [value for value in vars(cst).values() if inspect.isclass(value)]
    classes += [str, int, bool, tuple, list, type(None), cst.MaybeSentinel]
    assert len(classes) > 200
    for value_type in classes:
        walk._ENTER.pop(value_type, None)
        expected = issubclass(value_type, cst.CSTNode) and not issubclass(value_type, walk._TRIVIA)
        assert walk._enters(value_type) is expected, value_type
    assert walk._enters(cst.Call) and walk._enters(cst.Name)
    assert not walk._enters(cst.Comma) and not walk._enters(cst.SimpleWhitespace)
