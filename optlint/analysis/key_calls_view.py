"""What the helpers of a file's key flow (held callables, transformed calls) ask of it: declared
here, implemented by `key_calls.FileKeyCalls`, so that they need not import the module that
imports them."""

from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING, Protocol

import libcst as cst

from optlint.analysis.index import CallSite
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.key_summary_cycles import SummaryCycles
from optlint.analysis.prng_keys import Consumption

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator
    from optlint.analysis.index import ClassInfo
    from optlint.analysis.values import ClassRef, Value
    from optlint.context import RuleContext


class ForeignLookups(Protocol):
    """What the helpers ask of the functions and classes of other project files
    (`key_foreign.ForeignFunctions`)."""

    owner_of: dict[int, KeyCallsView]  # the key flow summarising each foreign function

    def project_class(self, value: Value) -> ClassRef | None:
        """The class of the project `value` names, of this file or another."""
        ...

    def method(self, info: ClassInfo, path: str, name: str
               ) -> tuple[cst.FunctionDef, bool] | None:
        """The method `name` of a class of another project file, summarised by its file."""
        ...

    def owned(self, node: cst.FunctionDef, evaluator: Evaluator) -> bool:
        """Whether `node`, of the file `evaluator` reads, is summarised by that file's flow."""
        ...


class KeyCallsView(Protocol):
    ctx: RuleContext
    sites: dict[int, CallSite]  # the file's call sites by the id of their call
    stream_drawers: set[str]
    helpers: Container[str]
    summaries: dict[int, KeyFlow | None]  # of the file's functions, by id (None: none)
    cycles: SummaryCycles  # the functions being summarised

    @property
    def foreign(self) -> ForeignLookups:
        """The functions and classes of other project files the file's calls reach."""
        ...

    def callee(self, call: cst.Call) -> str:
        """What a call calls, as the messages show it."""
        ...

    def consumer(self, call: cst.Call) -> list[Consumption]:
        """The keys the call consumes."""
        ...

    def nested(self, function: cst.FunctionDef | cst.Lambda) -> bool:
        """Whether the function is defined inside another."""
        ...

    def given_function(self, name: cst.Name, site: CallSite) -> bool:
        """`name` is a parameter of the function `site` is in, or of one it is nested in."""
        ...

    def drawn_by_given(self, given: cst.Name, site: CallSite, call: cst.Call
                       ) -> tuple[set[int], str]:
        """The ids of the arguments of `call`, which calls `given` (a parameter), that every
        callable the callers give draws from (empty: not proven), and what shows it."""
        ...

    def reads_as_key(self, expr: cst.BaseExpression) -> bool:
        """A name that reads as a key."""
        ...

    def summary(self, node: cst.FunctionDef | cst.Lambda) -> KeyFlow | None:
        """The walk of a function's body."""
        ...

    def records_nothing(self, function: cst.FunctionDef) -> bool:
        """Told without its summary: the walk of `function` records no consumption (False:
        not told)."""
        ...
