"""OPT020's findings for keys handed on already consumed: returned in the state a step gives
back (`state.replace(params=p)` after `split(state.key)`), or kept in an attribute the file
reads elsewhere (`self.state = State(key=key)` after `split(key)`). Whatever draws from them
later draws again. (Moved out of `optlint.rules.prng_key_reuse` unchanged.)"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from optlint.analysis.index import FunctionInfo
from optlint.analysis.key_fields import stores_on_object
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.key_texts import shown
from optlint.context import RuleContext
from optlint.rule_helpers.key_lines import at_line
from optlint.rules.base import Finding


def stored_findings(ctx: RuleContext, info: FunctionInfo, flow: KeyFlow,
                    reported: set[int]) -> Iterator[Finding]:
    """A key consumed, then handed back in the returned state (`state.replace(params=p)`
    after `split(state.key)`): the next step consumes it again. Not a method that sets
    attributes of its object and returns that object (`self.samples_ = ...; return
    self`): the caller already holds it, so nothing new is handed on (whether the method
    runs twice is the question of a key kept on an object, OPT020's `_field_findings`)."""
    returns_itself = info.scope.self_name is not None and isinstance(
        info.node, cst.FunctionDef) and stores_on_object(ctx.index, info.node)
    for use, returned in flow.stored:
        # A key the call returned, consumed in the callee (`via`), is not the key it was
        # given: a finding at the call about that one leaves this one standing.
        at = id(use.via.call) if use.via is not None else id(use.call)
        if (at in reported or id(use.call) in flow.discarded
                or (use.unseen and not ctx.wants_unproven)):
            continue  # drawn by what the analysis cannot see: `--preview` only
        if returns_itself and isinstance(returned, cst.Name) and (
                returned.value == info.scope.self_name):
            continue
        reported.update((at, id(use.call)))
        key = ctx.code(use.key)
        message = (f"`{key}` is consumed by `{shown(ctx, use.call)}` and then handed back "
                   f"unchanged in `{shown(ctx, returned)}`: the next step given the "
                   f"returned value consumes the same key again and draws the same "
                   f"random numbers")
        roles: dict[str, cst.CSTNode] = {"call": use.call, "key": use.key, "returned": returned}
        if use.via is not None:  # where the callee consumed the key it hands back
            roles["returned_consumed"] = use.via.call
        yield Finding(use.call, message, roles=roles,
                      unproven=use.unseen or None,
                      fix_title=(f"Split it and return the new key (`{key}, subkey = "
                                 f"jax.random.split({key})`, then store `{key}`)"))


def kept_findings(ctx: RuleContext, flow: KeyFlow, reported: set[int]) -> Iterator[Finding]:
    """A key consumed, then kept in an attribute the file reads elsewhere (`self.state =
    State(key=key)` after `split(key)`): what later draws from the kept key draws again."""
    for use, target, held in flow.kept:
        if id(use.call) in reported or use.unseen or not _read_elsewhere(ctx, target):
            continue
        reported.add(id(use.call))
        key = ctx.code(use.key)
        back = ("" if use.returned_at is None else
                f", which hands it back{at_line(ctx, use.returned_at)},")
        message = (f"`{key}` is consumed by `{shown(ctx, use.call)}`{at_line(ctx, use.call)}{back} and then kept unchanged in "
                   f"`{ctx.code(target)}`: whatever later draws from the kept key draws "
                   f"the same random numbers again")
        roles: dict[str, cst.CSTNode] = {"call": use.call, "key": use.key, "kept_in": target}
        if use.returned_at is not None:  # where the callee hands the consumed key back
            roles["returned_at"] = use.returned_at
        yield Finding(held, message, roles=roles,
                      fix_title=(f"Split it and keep the new key (`{key}, subkey = "
                                 f"jax.random.split({key})`, then keep `{key}`)"))


def _read_elsewhere(ctx: RuleContext, target: cst.Attribute) -> bool:
    """The file reads the attribute `target` sets somewhere else (`self._state.key`)."""
    return any(site.node is not target
               for site in ctx.index.attributes.get(target.attr.value, []))
