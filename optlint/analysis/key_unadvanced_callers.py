"""A loop of steps in another project file calling, on one object, a method that draws from a key
the object holds and nothing ever advances (held-out set 7: oc-jax 14a5191, whose
`UniformRandomShootingMethod.control` draws `jax.random.uniform(self._jax_random_key, ...)`, a
key only `__init__` sets, and whose example builds one controller and calls `controller.control`
in every step of its `while not (terminated or truncated)` loop: every step samples the same
candidate inputs). A key kept in `self` and drawn from as if it were NumPy's `RandomState` is a
common slip in object-style JAX code (controllers, agents, samplers).

`key_unadvanced_fields.py` proves the draw from the class when another method advances the key;
where no method does, the class alone cannot tell whether the method runs twice on one object.
A caller in the same file is seen where it calls (`c.control(x)` in a loop, reported there);
this looks in the few other project files that name the class and call the method: a name bound
once to the class's instance outside a loop that carries state from step to step (`key_step_
loops.carries_state`), the method called on it in the loop's body, the name not bound again
there and no attribute of it assigned in that file. Tests are left out (a test may call twice on
purpose to check that a sampler is deterministic)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import ClassInfo, CallSite
from optlint.analysis.key_holder_loops import calls_class, held_and_stepped, one_call_bound
from optlint.analysis.key_repeated_runs import TEST_FILE
from optlint.analysis.key_step_loops import carries_state, names_bound_within

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator, Project
    from optlint.context import RuleContext

# How many other files naming the class are read for its calls.
_FILES = 8


def stepped_elsewhere(ctx: RuleContext, owner: ClassInfo, method: str, field: str
                      ) -> str | None:
    """Where another project file calls `method` on one instance of `owner` in every step of a
    loop (`controller.control` in a loop of `run` in inverted_cartpole.py), for the message;
    None where no such call is seen."""
    project = ctx.inference.project
    here = ctx.inference.path
    if project is None or here is None:
        return None
    project.depends_on(owner.name)
    texts = project.project_texts()
    if texts is None:
        return None
    real_here = project.real_path(here)
    named = re.compile(rf"\b{re.escape(owner.name)}\b")
    called = re.compile(rf"\.{re.escape(method)}\s*\(")
    files = [file for file, text in texts.items()
             if file != real_here and owner.name in text and named.search(text)
             and called.search(text) and not TEST_FILE.search(file.name)]
    for file in files[:_FILES]:
        other = project.evaluator_for(str(file))
        if other is None:
            continue
        for site in other.index.calls:
            func = site.node.func
            if not (isinstance(func, cst.Attribute) and func.attr.value == method
                    and isinstance(func.value, cst.Name)):
                continue
            receiver = func.value.value
            if re.search(rf"\b{re.escape(receiver)}\.{re.escape(field)}\s*=[^=]", texts[file]):
                continue  # the caller sets the object's key itself
            loop = _stepping_loop(other, site, receiver)
            if loop is not None and _built_here(project, other, site, receiver, owner,
                                                real_here, loop):
                caller = site.scope.node
                of = (f" of `{caller.name.value}`" if isinstance(caller, cst.FunctionDef)
                      else "")
                return f"a loop{of} in {file.name} calls `{receiver}.{method}`"
        # An object holding it calls it from a loop of its own (`key_holder_loops.py`).
        held = held_and_stepped(project, other, file, texts[file], owner, method, field,
                                real_here)
        if held is not None:
            return held
    return None


def _stepping_loop(other: Evaluator, site: CallSite, receiver: str
                   ) -> cst.For | cst.While | None:
    """The innermost loop of the call's own function whose body holds the call, when it carries
    state from step to step and does not bind `receiver` again."""
    parents = other.index.parents()
    node: cst.CSTNode | None = parents.get(id(site.node))
    child: cst.CSTNode = site.node
    while node is not None and node is not site.scope.node:
        if isinstance(node, (cst.Lambda, cst.FunctionDef, cst.ClassDef)):
            return None
        if isinstance(node, (cst.For, cst.While)) and child is node.body:
            if (not carries_state(node) or receiver in names_bound_within(node)
                    or (isinstance(site.scope.node, cst.FunctionDef)
                        and site.scope.node.name.value.startswith("test"))):
                return None
            return node
        child, node = node, parents.get(id(node))
    return None


def _built_here(project: Project, other: Evaluator, site: CallSite, receiver: str,
                owner: ClassInfo, real_here: object, loop: cst.CSTNode) -> bool:
    """`receiver` is bound once in the call's scope, outside `loop`, to `owner(...)`, a class
    the caller's file imports from the file being checked."""
    value = one_call_bound(site.scope, receiver)
    return (value is not None and not _inside(other, value, loop)
            and calls_class(project, other, value, owner, real_here))


def _inside(other: Evaluator, node: cst.CSTNode, ancestor: cst.CSTNode) -> bool:
    parents = other.index.parents()
    current: cst.CSTNode | None = node
    while current is not None:
        if current is ancestor:
            return True
        current = parents.get(id(current))
    return False
