"""Where nodes are: the line and column ranges libcst's PositionProvider gives, for one tree.

`MetadataWrapper.resolve(PositionProvider)` runs the provider's code-generation pass and then a
batched visit of the whole tree for the batchable providers asked for; with none asked for, that
visit walks every node to do nothing, and costs as much as the pass itself (measured: 77 ms
against 35 ms on benchmarks/latency_train.py). The provider is run on its own instead;
tests/test_positions.py checks that the result is libcst's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider


def node_positions(module: cst.Module) -> Mapping[cst.CSTNode, CodeRange]:
    """Every node's range in `module` (1-based lines, 0-based columns), as PositionProvider."""
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    # Not lazy: every value is a CodeRange already.
    return cast(Mapping[cst.CSTNode, CodeRange], PositionProvider()._gen(wrapper))
