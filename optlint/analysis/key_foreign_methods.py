"""A method of a class of another project file, called on an instance the file can name:
`model.sample_action(state, obs)` where `model = BehaviorModel(...)` is imported from the
project's `core/behavior_model.py`. The method is the one the class defines itself (not
`__init__`: a constructor's draws often depend on what it is given, `if net is None`), and it is
summarised by its own file's key flow (`key_foreign.py`), as a module-level function of another
file is. What the summary cannot see stays unseen in it.

Only the keys the objects it is given hold are followed so (`state.rng_key` where the caller
built `state = state.replace(rng_key=key)`), not a key given as an argument: following those
too (`task.init(key)`, `outer_trainer.update(state, key)`) added 58 findings on the 60
whole repositories of `benchmarks/repo_precision.py` that no one has labelled yet. A key given as
an argument to a method of an object the caller itself holds (`self.sampler(key=k)`) is followed
elsewhere, in `key_object_methods.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import CallSite
from optlint.analysis.project_methods import defined_elsewhere
from optlint.analysis.values import InstanceValue, ModuleValue

if TYPE_CHECKING:
    from optlint.analysis.key_foreign import ForeignFunctions
    from optlint.analysis.key_record import KeyRecorder
    from optlint.context import RuleContext


# The receiver of each call asked about, by the call's id (None: not another file's instance):
# kept by the file's call targets, which ask it of a call up to three times.
Receivers = dict[int, "InstanceValue | None"]


def foreign_method(ctx: RuleContext, foreign: ForeignFunctions, call: cst.Call,
                   site: CallSite, known: Receivers | None = None
                   ) -> tuple[cst.FunctionDef, bool] | None:
    """The method `call` runs (bound) when it is `receiver.method(...)` on an instance of a
    class of another project file; None when the receiver's class is not known to be one."""
    receiver = _receiver(ctx, call, site, known)
    if receiver is None or not isinstance(call.func, cst.Attribute):
        return None
    return foreign.method(receiver.info, receiver.path or "", call.func.attr.value)


def defines_foreign_method(ctx: RuleContext, call: cst.Call, site: CallSite,
                           known: Receivers | None = None) -> bool:
    """`receiver.method(...)` on an instance of a class of another project file that defines
    `method` itself: a call that may draw from a key an argument holds. Told without that
    file's key flow, which is made only when a walk asks (made while this file's is, each
    file's flow would make the next one's)."""
    receiver = _receiver(ctx, call, site, known)
    return receiver is not None and isinstance(call.func, cst.Attribute) and any(
        isinstance(item, cst.FunctionDef) and item.name.value == call.func.attr.value
        for item in receiver.info.node.body.body)


def _receiver(ctx: RuleContext, call: cst.Call, site: CallSite, known: Receivers | None
              ) -> InstanceValue | None:
    if known is None:
        return _foreign_receiver(ctx, call, site)
    if id(call) not in known:
        known[id(call)] = _foreign_receiver(ctx, call, site)
    return known[id(call)]


def _foreign_receiver(ctx: RuleContext, call: cst.Call, site: CallSite
                      ) -> InstanceValue | None:
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value in ("__init__", "__post_init__"):
        return None
    if not defined_elsewhere(ctx.inference.project, func.attr.value, ctx.inference.path):
        # No other project file defines a method of that name (`x.append(state)`): no
        # receiver can be one, and evaluating it would parse the files it comes from.
        return None
    value = ctx.value(func.value, site)
    receiver = value if isinstance(value, InstanceValue) else None
    if isinstance(value, ModuleValue) and value.derived_by is None and value.cls is not None:
        receiver = InstanceValue(value.cls.info, value.cls.path)
    if receiver is None or receiver.path is None or receiver.path == ctx.inference.path:
        return None
    return receiver


def holds_arguments(call: cst.Call) -> bool:
    """`obj.method(state, ...)`: a method call given a name or an attribute, which may hold a
    key in a field. A cheap gate (exact types) before the receiver is evaluated."""
    return type(call.func) is cst.Attribute and any(
        type(arg.value) is cst.Name or type(arg.value) is cst.Attribute for arg in call.args)


def draws_from_fields(flow: KeyRecorder) -> bool:
    """The summary of a method draws from (or splits) a key a field of one of its parameters
    holds (`state.rng_key`), as `key_fields.given_object_consumptions` reads it: what a call
    of it can consume of the objects it is given."""
    return any(use.kind in ("draw", "split") and not use.unseen and not use.repeated
               for use in flow.attribute_uses.values())
