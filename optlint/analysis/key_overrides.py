"""A key given to an abstract method: `puzzle.get_initial_state(solve_config, key)` on a
parameter annotated with `Puzzle`, whose `get_initial_state` is an `@abstractmethod` (or a body
that only raises `NotImplementedError`), or `self.sample(key)` in the base class itself. What
runs is some subclass's override, one per subclass of the project.

The call draws from the key when every concrete override of the project's subclasses draws
from the argument the call gives it (the message names them). Where only some do, what runs
decides, which the analysis cannot see: `--preview` only, naming which do. The overrides are
found among the project files whose text defines a method of that name (parsed only when a key
reaches the abstract method), each summarised by its own file's key flow."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.index import ClassInfo
from optlint.analysis.project_kinds import ProjectFile
from optlint.analysis.project_methods import files_defining
from optlint.analysis.prng_keys import Consumption
from optlint.records import record

if TYPE_CHECKING:
    from optlint.analysis.key_foreign import ForeignFunctions
    from optlint.analysis.key_record import KeyRecorder
    from optlint.analysis.project_values import ProjectValues
    from optlint.context import RuleContext

_ABSTRACT = frozenset({"abc.abstractmethod", "abstractmethod"})
# More files defining the name than this: not read (each is parsed and summarised).
_MOST_FILES = 16


@record(eq=False)
class Abstract:
    """An abstract method, as the class defining it has it."""

    owner: ClassInfo
    file: ProjectFile
    method: cst.FunctionDef


def abstract_kind(method: cst.FunctionDef, qualify: Callable[[cst.BaseExpression], str | None]
                  ) -> Literal["plain", "abstract"] | None:
    """"plain": undecorated, a body that runs; "abstract": `@abstractmethod` alone, or an
    undecorated body that only raises; None: other decorators (what runs is not told)."""
    if not method.decorators:
        return "abstract" if only_raises(method) else "plain"
    if all((qualify(d.decorator) or "") in _ABSTRACT for d in method.decorators):
        return "abstract"
    return None


def only_raises(function: cst.FunctionDef) -> bool:
    """The body only raises (after a docstring): an interface its subclasses implement."""
    body = function.body.body if isinstance(function.body, cst.IndentedBlock) else ()
    statements = [statement for statement in body if not (
        isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))]
    return len(statements) == 1 and isinstance(statements[0], cst.SimpleStatementLine) and all(
        isinstance(small, cst.Raise) for small in statements[0].body)


# An override: the method, the class defining it, that class's file.
Override = tuple[cst.FunctionDef, ClassInfo, str]


class Overrides:
    """What calls of one file giving a key to an abstract method consume."""

    def __init__(self, ctx: RuleContext, values: Callable[[], ProjectValues],
                 foreign: ForeignFunctions) -> None:
        self.ctx = ctx
        self.values = values
        self.foreign = foreign
        # The linted file's own summaries (set by its key flow): overrides of the file.
        self.summary: Callable[[cst.FunctionDef], KeyRecorder | None] | None = None
        self._found: dict[int, list[Override] | None] = {}

    def consumptions(self, call: cst.Call, abstract: Abstract, how: str) -> list[Consumption]:
        """What `call` consumes of the keys it gives the abstract method."""
        overrides = self._overrides(abstract)
        if not overrides:
            return []
        drawing: dict[int, list[str]] = {}  # argument (by id) -> the classes drawing from it
        for method, info, path in overrides:
            flow = self._summary(method, info, path)
            if flow is None:
                continue  # not summarised: it calls nothing that consumes a key
            for param, expr in bind_arguments(method, call, True):
                use = flow.param_uses.get(param.name.value)
                if (param.name.value in flow.consumed_params and use is not None
                        and not use.unseen):
                    drawing.setdefault(id(expr), []).append(info.name)
        name = abstract.method.name.value
        every = sorted({info.name for _, info, _ in overrides})
        for arg in call.args:
            drawn = sorted(set(drawing.get(id(arg.value), ())))
            if not drawn:
                continue
            if drawn == every:
                return [Consumption(call, arg.value, how, library=False, proof=(
                    f"`{name}` is abstract in `{abstract.owner.name}`, and every override of "
                    f"the project ({', '.join(every)}) draws from the key"))]
            others = [cls for cls in every if cls not in drawn]
            return [Consumption(call, arg.value, how, library=False, unseen=(
                f"`{name}` is abstract in `{abstract.owner.name}`: of its overrides, "
                f"{', '.join(drawn)} {'draws' if len(drawn) == 1 else 'draw'} from the key, "
                f"{', '.join(others)} {'does' if len(others) == 1 else 'do'} not"))]
        return []

    def concrete(self, abstract: Abstract) -> list[Override] | None:
        """The concrete overrides of `abstract` in the project's subclasses (None: not told)."""
        return self._overrides(abstract)

    def summary_of(self, method: cst.FunctionDef, info: ClassInfo, path: str
                   ) -> KeyRecorder | None:
        """The key flow of an override, made by its own file."""
        return self._summary(method, info, path)

    def _summary(self, method: cst.FunctionDef, info: ClassInfo, path: str
                 ) -> KeyRecorder | None:
        if path == self.ctx.inference.path:
            return self.summary(method) if self.summary is not None else None
        found = self.foreign.method(info, path, method.name.value)
        owner = self.foreign.owner_of.get(id(found[0])) if found is not None else None
        return owner.summary(found[0]) if owner is not None and found is not None else None

    def _overrides(self, abstract: Abstract) -> list[Override] | None:
        key = id(abstract.method)
        if key not in self._found:
            self._found[key] = self._look_up(abstract)
        return self._found[key]

    def _look_up(self, abstract: Abstract) -> list[Override] | None:
        """The concrete overrides of the project's subclasses; None where one cannot be told
        (decorated otherwise) or too many files define the name."""
        project = self.ctx.inference.project
        name = abstract.method.name.value
        paths = files_defining(project, name) if project is not None else None
        if paths is None or len(paths) > _MOST_FILES:
            return None
        here = self.ctx.inference.path
        found: list[Override] = []
        for path in sorted(paths):
            evaluator_path = self._evaluator_path(path, here)
            if evaluator_path is None:
                continue
            file = (self.values().here if evaluator_path == here
                    else self.values().file(evaluator_path))
            if file is None:
                continue
            for info in list(file.index.classes.values()):
                method = _own(info, name)
                if method is None or info is abstract.owner:
                    continue
                order = self.values().order(info, file)
                if order is None or not any(ancestor is abstract.owner for ancestor, _ in order):
                    continue
                kind = abstract_kind(method, file.evaluator.qualify)
                if kind is None:
                    return None
                if kind == "plain":
                    found.append((method, info, evaluator_path))
        return found

    def _evaluator_path(self, path: Path, here: str | None) -> str | None:
        project = self.ctx.inference.project
        if project is None:
            return None
        if here is not None and project.real_path(here) == path:
            return here
        return str(path)


def _own(info: ClassInfo, name: str) -> cst.FunctionDef | None:
    for item in info.node.body.body:
        if isinstance(item, cst.FunctionDef) and item.name.value == name:
            return item
    return None
