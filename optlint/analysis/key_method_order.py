"""A method that can run only after another has run on the same object, both drawing from a
key the object holds from construction (prophetverse 67a162d, "[BUG] Adjust prior predictive
usage of rng keys": `_predict` builds its `Predictive` from `self.posterior_samples_`, which
only `_infer` sets, and both draw with `self._rng_key`, which only `__init__` sets). Whenever
the second runs, the first has drawn from the same key before it, on the same object, and
nothing has set the key anew in between: the two draw the same random numbers.

What is proven, by the class's own statements:
- method B reads `self.X` in a statement of its body's top level (not under a branch, a loop
  or a `try`), and every binding of `self.X` in the class is in one other method A, not a
  constructor; no base class of the project binds it, and it is no field of the class;
- A draws from `self.K` in a statement of its top level, at or before the first one that
  binds `self.X`, or after it with no statement in between that can leave A (`return`,
  `raise`, `yield`): A cannot set `X` and return without drawing (cfa-immunization-uptake-
  projection cb96d76, held-out set 3: `fit` built `self.mcmc = MCMC(...)`, then ran
  `self.mcmc.run(self.rng_key, ...)`);
- B draws from `self.K`;
- every binding of `self.K` in the class and its project bases is in a constructor, and one
  is: the object holds the key from its construction on. A base class of a library is taken
  to set no attribute the project names (it cannot know the name).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import LATER, ClassInfo
from optlint.analysis.values import ClassRef, LibraryRef
from optlint.analysis.walk import child_nodes
from optlint.records import record

if TYPE_CHECKING:
    from optlint.analysis.key_calls import FileKeyCalls
    from optlint.analysis.key_flow import KeyFlow
    from optlint.analysis.index import FunctionInfo
    from optlint.analysis.prng_keys import Consumption

    # A function's walk for its own findings (`key_file_walks.FileWalks.walk`).
    Walk = Callable[[FunctionInfo], KeyFlow]

_CONSTRUCTORS = frozenset({"__init__", "__post_init__", "setup"})
# Expressions that evaluate their parts on some paths only.
_CONDITIONAL = (cst.IfExp, cst.BooleanOperation, cst.Lambda, cst.ListComp, cst.SetComp,
                cst.DictComp, cst.GeneratorExp)
# How many base classes up a binding is looked for.
_BASE_DEPTH = 4


@record
class OrderedDraws:
    owner: str  # the class
    first: Consumption  # A's draw
    second: Consumption  # B's draw, where the finding is
    first_method: str
    second_method: str
    read: cst.Attribute  # B's read of `self.X`
    key: str  # K


def ordered_draws(analysis: FileKeyCalls, walk: Walk) -> Iterator[OrderedDraws]:
    ctx = analysis.ctx
    consuming: set[int] | None = None  # the scopes (by node id) with a call that may consume
    for info in ctx.index.classes.values():
        methods = {item.name.value: item for item in info.node.body.body
                   if isinstance(item, cst.FunctionDef) and item.params.params
                   and not item.decorators}
        # Cheap first, from the class's bindings: the fields one method other than a
        # constructor sets; only then are the other methods' statements read.
        setters = {field: setter for field in info.attributes
                   if (setter := _only_setter(info, field, methods)) is not None}
        if not setters:
            continue
        if consuming is None:
            consuming = {id(site.scope.node) for site in ctx.calls()
                         if id(site.node) in analysis.candidates}
        # Both methods may consume a key (before any statement of theirs is read).
        setters = {field: setter for field, setter in setters.items()
                   if id(setter) in consuming}
        if not setters:
            continue
        for second in methods.values():
            if second.name.value in _CONSTRUCTORS or id(second) not in consuming:
                continue
            self_name = second.params.params[0].name.value
            for read, field in _top_level_reads(second, self_name):
                setter = setters.get(field)
                # Cheap first: a key both read, which no method of the class sets anew.
                if setter is None or setter is second or not _held_by_both(
                        info, setter, second) or _bound_in_bases(analysis, info, field):
                    continue
                yield from _draws_in_order(analysis, walk, info, setter, second, read,
                                           field)


def _draws_in_order(analysis: FileKeyCalls, walk: Walk, info: ClassInfo, first: cst.FunctionDef,
                    second: cst.FunctionDef, read: cst.Attribute, field: str
                    ) -> Iterator[OrderedDraws]:
    index = analysis.ctx.index
    first_info, second_info = index.functions.get(first), index.functions.get(second)
    if first_info is None or second_info is None:
        return
    first_self = first.params.params[0].name.value
    setting = _statements_setting(first, first_self, field)
    if not setting:
        return
    drawn_first: dict[str, Consumption] = {}
    for key, use in _self_draws(walk(first_info), first_self):
        if key not in drawn_first and any(_contains(s, use.call) for s in setting):
            drawn_first[key] = use
    if not drawn_first:
        return
    second_self = second.params.params[0].name.value
    for key, use in _self_draws(walk(second_info), second_self):
        earlier = drawn_first.get(key)
        if earlier is not None and _held_from_construction(analysis, info, key):
            # Every draw of B from the key is one (each branch of an `if` in B draws it).
            yield OrderedDraws(info.name, earlier, use, first.name.value, second.name.value,
                               read, key)


def _top_level_reads(method: cst.FunctionDef, self_name: str
                     ) -> Iterator[tuple[cst.Attribute, str]]:
    """`self.X` read in the simple statements of the method's top level."""
    body = method.body
    if not isinstance(body, cst.IndentedBlock):
        return
    for statement in body.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        stored = {id(target) for small in statement.body for target in _targets(small)}
        for node in _attributes(statement):
            if (id(node) not in stored and isinstance(node.value, cst.Name)
                    and node.value.value == self_name):
                yield node, node.attr.value


def _held_by_both(info: ClassInfo, first: cst.FunctionDef, second: cst.FunctionDef) -> bool:
    """Some attribute both methods read that no method of the class but a constructor sets."""
    def read(method: cst.FunctionDef) -> set[str]:
        self_name = method.params.params[0].name.value
        return {node.attr.value for node in _attributes(method.body, conditional=True)
                if isinstance(node.value, cst.Name) and node.value.value == self_name}

    return any(all(binding.scope is not None and isinstance(binding.scope.node, cst.FunctionDef)
                   and binding.scope.node.name.value in _CONSTRUCTORS
                   for binding in info.attributes.get(field, []))
               for field in read(first) & read(second))


def _only_setter(info: ClassInfo, field: str, methods: dict[str, cst.FunctionDef]
                 ) -> cst.FunctionDef | None:
    """The one method of the class binding `self.<field>`, when it is no constructor."""
    bindings = info.attributes.get(field, [])
    if not bindings or field in info.fields or _class_level(info, field):
        return None
    nodes = {id(binding.scope.node) for binding in bindings if binding.scope is not None}
    if len(nodes) != 1 or len(bindings) != sum(binding.scope is not None for binding in bindings):
        return None
    setter = next((method for method in methods.values() if id(method) in nodes), None)
    return None if setter is None or setter.name.value in _CONSTRUCTORS else setter


def _class_level(info: ClassInfo, field: str) -> bool:
    return any(isinstance(statement, cst.SimpleStatementLine) and any(
        isinstance(target, cst.Name) and target.value == field
        for small in statement.body for target in _targets(small))
        for statement in info.node.body.body)


def _statements_setting(method: cst.FunctionDef, self_name: str, field: str
                        ) -> list[cst.BaseStatement]:
    """The top-level simple statements of `method` that run whenever it sets `self.<field>`
    and returns: those up to and with the first that binds it, and those after it up to the
    first statement that can leave the method (a `return`, `raise` or `yield` at any depth;
    a simple `return` is kept: its value is evaluated before it leaves). A fit-style method
    builds the sampler first and runs it after (`self.mcmc = MCMC(...)`, then
    `self.mcmc.run(self.rng_key)`): it cannot return having set the field without drawing.
    Empty when no top-level statement binds it."""
    body = method.body
    if not isinstance(body, cst.IndentedBlock):
        return []
    seen: list[cst.BaseStatement] = []
    bound = False
    for statement in body.body:
        if bound and _can_leave(statement):
            if _simple_return(statement):
                seen.append(statement)
            break
        seen.append(statement)
        bound = bound or (isinstance(statement, cst.SimpleStatementLine) and any(
            isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)
            and target.value.value == self_name and target.attr.value == field
            for small in statement.body for target in _targets(small)))
    return [s for s in seen if isinstance(s, cst.SimpleStatementLine)] if bound else []


_LEAVING = (cst.Return, cst.Raise, cst.Yield)
_OWN_SCOPES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)


def _can_leave(statement: cst.CSTNode) -> bool:
    """`statement` holds a `return`, `raise` or `yield` of the method itself."""
    pending: list[cst.CSTNode] = [statement]
    while pending:
        current = pending.pop()
        if isinstance(current, _LEAVING):
            return True
        pending.extend(child for child in child_nodes(current)
                       if not isinstance(child, _OWN_SCOPES))
    return False


def _simple_return(statement: cst.BaseStatement) -> bool:
    return (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Return))


def _self_draws(flow: KeyFlow, self_name: str) -> Iterator[tuple[str, Consumption]]:
    """The draws and splits a method's walk records from `self.K` as it is, by K."""
    for use in flow.every:
        key = use.key
        if (use.kind in ("draw", "split") and not use.unseen and not use.repeated
                and isinstance(key, cst.Attribute) and isinstance(key.value, cst.Name)
                and key.value.value == self_name):
            yield key.attr.value, use


def _held_from_construction(analysis: FileKeyCalls, info: ClassInfo, field: str) -> bool:
    """Every binding of `self.<field>` in the class and its project bases is in a
    constructor, and there is one."""
    classes = _class_and_bases(analysis, info)
    if classes is None:
        return False
    found = False
    for cls in classes:
        for binding in cls.attributes.get(field, []):
            node = binding.scope.node if binding.scope is not None else None
            if not isinstance(node, cst.FunctionDef) or node.name.value not in _CONSTRUCTORS:
                return False
            found = True
    return found


def _bound_in_bases(analysis: FileKeyCalls, info: ClassInfo, field: str) -> bool:
    classes = _class_and_bases(analysis, info)
    return classes is None or any(field in cls.attributes or field in cls.fields
                                  for cls in classes[1:])


def _class_and_bases(analysis: FileKeyCalls, info: ClassInfo) -> list[ClassInfo] | None:
    """The class and the project classes it derives from; None when a base is a project
    class the analysis cannot find (re-exported, or too far up)."""
    found, todo = [info], [info]
    while todo:
        cls = todo.pop()
        for base in cls.bases:
            value = analysis.ctx.inference.value_of(base, cls.scope, LATER)
            if isinstance(value, ClassRef):
                ref: ClassInfo | None = value.info
            elif isinstance(value, LibraryRef):
                of_project, ref = _project_class(analysis, value)
                if of_project and ref is None:
                    return None
            else:
                continue  # `object`, `Generic[T]`: nothing of the project
            if ref is not None and all(ref is not known for known in found):
                if len(found) > _BASE_DEPTH:
                    return None
                found.append(ref)
                todo.append(ref)
    return found


def _project_class(analysis: FileKeyCalls, value: LibraryRef
                   ) -> tuple[bool, ClassInfo | None]:
    """(whether `value` names a module of the project, the class of that project file it
    names, whatever the file imports; None when not at the file's top level)."""
    project = analysis.ctx.inference.project
    module, _, name = value.name.rpartition(".")
    origin = value.origin or analysis.ctx.inference.path
    if project is None or not module or origin is None:
        return False, None
    files = project.project_files(module, origin)
    for path in files:
        owner = project.evaluator_for(str(path))
        if owner is None:
            continue
        for cls in owner.index.classes.values():
            if cls.name == name and cls.scope is owner.index.module_scope:
                return True, cls
    return bool(files), None


def _targets(small: cst.BaseSmallStatement) -> Iterator[cst.BaseExpression]:
    targets: list[cst.BaseExpression] = []
    if isinstance(small, cst.Assign):
        targets = [target.target for target in small.targets]
    elif isinstance(small, (cst.AnnAssign, cst.AugAssign)):
        targets = [small.target]
    for target in targets:
        yield target
        if isinstance(target, (cst.Tuple, cst.List)):
            yield from (element.value for element in target.elements)


def _attributes(node: cst.CSTNode, conditional: bool = False) -> list[cst.Attribute]:
    """The attributes in `node`, in source order; without `conditional`, those it surely
    evaluates. (Read with `child_nodes`: libcst's `visit` rebuilds every node it passes, and
    this reads every method of every class.)"""
    found: list[cst.Attribute] = []
    pending: list[cst.CSTNode] = [node]
    while pending:
        current = pending.pop()
        if type(current) is cst.Attribute:
            found.append(current)  # type: ignore[arg-type]
        # Read on some paths only (`x if hasattr(self, "x") else 0`, `a and self.x`), or
        # when a lambda is called, or per item: not surely read by the statement.
        if conditional or not isinstance(current, _CONDITIONAL):
            pending.extend(reversed(child_nodes(current)))
    return found


def _contains(statement: cst.CSTNode, node: cst.CSTNode) -> bool:
    pending: list[cst.CSTNode] = [statement]
    while pending:
        current = pending.pop()
        if current is node:
            return True
        pending.extend(child_nodes(current))
    return False
