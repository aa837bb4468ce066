"""What a builder of harness plans gets: the planner's view of the original and fixed sources
(`Planning`, which `plan.Planner` is), and the builder's own signature. Each kind of runtime check
(`RuntimeCheck.builds`) has one builder, in its own module; `builds.BUILDERS` names them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import libcst as cst

from optlint.linted import Reported
from optlint.rules.base import RuntimeCheck
from optlint.verify.parsed_source import Source

if TYPE_CHECKING:
    from optlint.verify.parameters import ParameterValue
    from optlint.verify.slicing import Statement

# Per variant ("original", "fixed"): what the harness builds, or {"unbuildable": why}.
Variants = dict[str, dict[str, Any]]
Layers = list[tuple[list["Statement"], list[cst.Param]]]


class Planning(Protocol):
    original: Source
    fixed: Source | None  # None: no fix, or it is not being verified

    def in_fixed(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """What `node` of the original became in the fixed source, found through the edits the
        fixes made; None when they are not known or rewrote it."""
        ...

    def variant(self, source: Source, anchor: cst.CSTNode, check: RuntimeCheck,
                mask_text: str | None, roles: dict[str, str],
                extra_end: cst.CSTNode | None = None, standins: bool = False) -> dict[str, Any]:
        """The statements, bindings and roles of one variant, sliced around `anchor`."""
        ...

    def layers(self, source: Source, statement: cst.CSTNode, extra_end: cst.CSTNode | None
               ) -> tuple[Layers, dict[str, list[ParameterValue]]]:
        """The scopes to slice around `statement`, innermost first, with parameter values."""
        ...


Builder = Callable[[Planning, Reported, RuntimeCheck], Variants]
