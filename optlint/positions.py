"""Where nodes are: the line and column ranges libcst's PositionProvider gives.

`node_positions` gives every node's range, for one tree. `MetadataWrapper.resolve(PositionProvider)`
runs the provider's code-generation pass and then a batched visit of the whole tree for the
batchable providers asked for; with none asked for, that visit walks every node to do nothing, and
costs as much as the pass itself (measured: 77 ms against 35 ms on benchmarks/latency_train.py).
The provider is run on its own instead.

`PositionsOnDemand` gives the range of the few nodes a finding reports: the provider's pass over the
whole module costs more than parsing it (1.3x on blackjax), and a file has a handful of findings.
A node's range is worked out from a statement that holds it and begins a line (one in a module's or
an indented block's body): that statement's code is generated alone, with the provider's own
codegen state and the indentation of the blocks around it, and found in the text the module was
parsed from; the lines before it there place it. Where its code occurs twice in the text, an
enclosing statement is tried, and a top-level one is placed by the code of the statements before
it. tests/test_positions.py checks both against libcst's own provider.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator, Mapping
from typing import cast

import libcst as cst
from libcst.metadata import CodePosition, CodeRange, MetadataWrapper, PositionProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState

# Line endings as the provider counts them.
_NEWLINE = re.compile(r"\r\n?|\n")


def node_positions(module: cst.Module) -> Mapping[cst.CSTNode, CodeRange]:
    """Every node's range in `module` (1-based lines, 0-based columns), as PositionProvider."""
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    # Not lazy: every value is a CodeRange already.
    return cast(Mapping[cst.CSTNode, CodeRange], PositionProvider()._gen(wrapper))


class _Ranges:
    """Where the provider's codegen state writes the ranges it records (`_computed`)."""

    __slots__ = ("_computed",)

    def __init__(self) -> None:
        self._computed: dict[cst.CSTNode, CodeRange] = {}


class PositionsOnDemand(Mapping[cst.CSTNode, CodeRange]):
    """The ranges `node_positions` gives, each worked out when first asked for (see the module's
    docstring); a node in no statement (the module, its header) is given by the whole pass.

    `source`: the text `module` was parsed from (None: generated from the tree when needed).
    `parents`: id of each node -> its parent, as `optlint.analysis.walk.parent_map` (asked for
    when a range is first worked out)."""

    def __init__(self, module: cst.Module, source: str | None,
                 parents: Callable[[], Mapping[int, cst.CSTNode]]) -> None:
        self._module = module
        self._source = source
        self._parents = parents
        self._known: dict[cst.CSTNode, CodeRange] = {}
        self._whole: Mapping[cst.CSTNode, CodeRange] | None = None
        # Where each top-level statement begins in the text, for the first ones (`_offset_of`).
        self._offsets: list[int] = []
        # Where each line ending of the text begins (`_lines_before`).
        self._line_endings: list[int] | None = None

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        if self._whole is not None:
            return self._whole[node]
        found = self._known.get(node)
        if found is None and self._locate(node):
            found = self._known.get(node)
        if found is None:
            return self._everything()[node]
        return found

    def __iter__(self) -> Iterator[cst.CSTNode]:
        return iter(self._everything())

    def __len__(self) -> int:
        return len(self._everything())

    def holding(self, node: cst.CSTNode) -> list[cst.CSTNode] | None:
        """`node` and the nodes holding it, innermost first, the module last (None: not a node
        of the module's tree, or trivia), found without any range."""
        parents = self._parents()
        path = [node]
        while (parent := parents.get(id(path[-1]))) is not None:
            path.append(parent)
        return path if path[-1] is self._module else None

    def _everything(self) -> Mapping[cst.CSTNode, CodeRange]:
        if self._whole is None:
            self._whole = node_positions(self._module)
        return self._whole

    def _text(self) -> str:
        if self._source is None:
            self._source = self._module.code
        return self._source

    def _locate(self, node: cst.CSTNode) -> bool:
        """Works out the ranges of a statement holding `node` (False: none begins a line)."""
        parents = self._parents()
        # (statement, its block), innermost first; and the node's ancestors, innermost first.
        starting_lines: list[tuple[cst.BaseStatement, cst.CSTNode]] = []
        ancestors: list[cst.CSTNode] = []
        current = node
        while (parent := parents.get(id(current))) is not None:
            if isinstance(current, cst.BaseStatement) and isinstance(
                    parent, (cst.Module, cst.IndentedBlock)):
                starting_lines.append((current, parent))
            ancestors.append(parent)
            current = parent
        if current is not self._module:
            return False  # not a node of this module's tree
        text = self._text()
        for statement, block in starting_lines:
            indents = self._indents(ancestors[ancestors.index(block):])
            ranges, code = self._generate(statement, indents)
            if block is self._module and statement is self._module.body[-1] and not (
                    self._module.has_trailing_newline or self._module.footer):
                code = code[:len(code) - len(_last_newline(code))]  # as the module leaves it
            start = text.find(code)
            if block is not self._module and (start < 0 or text.find(code, start + 1) >= 0):
                # Its code occurs twice (or, the file's last line, without its line ending):
                # an enclosing statement places it.
                continue
            if start < 0:
                return False  # the text is not the tree's: the whole pass places it
            if text.find(code, start + 1) >= 0:
                start = self._offset_of(statement)
            self._place(ranges, self._lines_before(start))
            return True
        return False

    def _indents(self, blocks: list[cst.CSTNode]) -> list[str]:
        """The indentation the indented blocks among `blocks` (innermost first) give a line."""
        return [self._module.default_indent if block.indent is None else block.indent
                for block in reversed(blocks) if isinstance(block, cst.IndentedBlock)]

    def _generate(self, statement: cst.BaseStatement,
                  indents: list[str]) -> tuple[dict[cst.CSTNode, CodeRange], str]:
        """The statement's ranges as if it began the file's first line, and its code."""
        ranges = _Ranges()
        state = PositionProvidingCodegenState(
            default_indent=self._module.default_indent,
            default_newline=self._module.default_newline,
            provider=ranges,  # type: ignore[arg-type]  # only its `_computed` is used
        )
        state.indent_tokens = indents
        statement._codegen(state)
        return ranges._computed, "".join(state.tokens)

    def _offset_of(self, statement: cst.BaseStatement) -> int:
        """Where a top-level statement begins in the text: after the module's header and the
        code of the statements before it."""
        body = self._module.body
        target = next(number for number, known in enumerate(body) if known is statement)
        if not self._offsets:
            # libcst leaves a byte-order mark out of the tree.
            self._offsets.append(int(self._text().startswith("\ufeff")) + sum(
                len(self._module.code_for_node(line)) for line in self._module.header))
        while len(self._offsets) <= target:
            before = body[len(self._offsets) - 1]
            self._offsets.append(self._offsets[-1] + len(self._module.code_for_node(before)))
        return self._offsets[target]

    def _lines_before(self, end: int) -> int:
        """The line endings in the text before `end`, as the provider counts them: found once
        for the file (a count per statement placed was quadratic in a big file's length)."""
        if self._line_endings is None:
            self._line_endings = [found.start() for found in _NEWLINE.finditer(self._text())]
        return bisect.bisect_left(self._line_endings, end)

    def _place(self, ranges: dict[cst.CSTNode, CodeRange], lines_before: int) -> None:
        known = self._known
        for node, where in ranges.items():
            known[node] = CodeRange(
                CodePosition(where.start.line + lines_before, where.start.column),
                CodePosition(where.end.line + lines_before, where.end.column))


def _last_newline(code: str) -> str:
    ending = _NEWLINE.search(code, max(len(code) - 2, 0))
    return ending.group() if ending is not None and ending.end() == len(code) else ""


