"""OPT020's wording: the message, fix title and roles of a reported key reuse, and where it is
reported. `optlint.rules.prng_key_reuse` decides which reuses are reported; this module says how,
with the key's path (where it was made, the first consumer, the second)."""

from __future__ import annotations

from dataclasses import replace

import libcst as cst

from optlint.analysis.key_calls import FileKeyCalls
from optlint.analysis.key_model_loops import BATCHING, COPIED_ITEMS, ITEM_MAPS, TREE_MAPS
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.key_texts import called_text, shown
from optlint.analysis.key_bound_partials import BoundPartial
from optlint.analysis.key_constant_seeds import ConstantDraw
from optlint.analysis.key_default_fields import DefaultKey
from optlint.analysis.key_derived import DERIVED
from optlint.analysis.key_late_binding import LATE_BOUND
from optlint.analysis.key_lifted_streams import UnsplitStream
from optlint.analysis.key_fixed_closures import FixedClosureKey
from optlint.analysis.key_trace_time import TracedDraw
from optlint.analysis.prng_keys import ITEM, Consumption, Reuse, folded_text
from optlint.context import RuleContext
from optlint.rule_helpers.key_draw_effects import draw_effect
from optlint.rule_helpers.key_fix import split_fix
from optlint.rule_helpers.key_lines import at_line, line_of
from optlint.rule_helpers.key_made_where import made_at, made_in_loop
from optlint.rule_helpers.key_folds import folded_reuse_text
from optlint.rules.base import Finding


def reuse_finding(ctx: RuleContext, reuse: Reuse, analysis: FileKeyCalls, flow: KeyFlow) -> Finding:
    """The finding for one reported reuse, worded for how the key travelled (a loop, a row of a
    batch, a closure, a returned key, a fold), before any `--preview` mark for what is unseen."""
    key = key_text(ctx, reuse.second)
    first = shown(ctx, reuse.first.call)
    split = f"`{key}, subkey = jax.random.split({key})`"
    second = reuse.second
    inside = ""
    if second.closed is not None and not second.repeated:
        # Reported at the closure's draw: say which call runs it.
        called = f", called at {line_of(ctx, second.call)},"
        inside = f" (inside `{second.how}`{called} which closes over `{key}`)"
        second = replace(second, how=second.closed.how)
    if second.stream:
        message = (f"`{key}` draws from the rng stream in every row of `{second.over}`, "
                   f"which gives every row the same stream: every row draws the same random "
                   f"numbers (the same dropout mask)")
        return Finding(reported_at(second), message, roles=key_roles(reuse), fix_title=(
            "Give each row its own stream (`split_rng=True`)"))
    if second.repeated and second.over.startswith("calls of "):
        message = (f"`{key}` is closed over by a function that draws from it "
                   f"(`{second.how}`); that function is given"
                   f"{at_line(ctx, second.repeated_by or second.call)} where the "
                   f"{second.over} run it more than once: every call draws the same "
                   f"random numbers")
        return Finding(reported_at(second), message, roles=key_roles(reuse), fix_title=(
            "Give the function a key argument and pass a fresh key to each call"))
    if second.repeated and second.over == LATE_BOUND:
        message = (f"`{key}` is read by a lambda made in every iteration of the loop, which "
                   f"reads it when called, after the loop has ended (Python binds closures "
                   f"late): every lambda's `{second.how}` draws from the last `{key}`, the "
                   f"same random numbers in each")
        return Finding(reported_at(second), message, roles=key_roles(reuse), fix_title=(
            f"Bind it when the lambda is made (`lambda ..., {key}={key}: ...` or "
            f"`functools.partial`)"))
    if second.repeated and second.carried_on:
        # Measured with jax 0.10.2 (tests/test_prng_keys_carried_split.py): the checker raises
        # on two such steps run one after the other, not on the steps of a `jax.lax` loop.
        message = (f"`{key}` is split in every step of `{second.over}`, then drawn from by "
                   f"`{second.how}` and carried on as the next step's key, which splits it "
                   f"again: each step splits the key the previous step drew from (JAX's "
                   f"key-reuse checker rejects two such steps run in turn, though not inside "
                   f"`{second.over}`; the draws are correlated, not identical)")
        return Finding(reported_at(second), message, roles=key_roles(reuse), fix_title=(
            f"Draw from the other split key and carry this one (`{key}, draw_key = "
            f"jax.random.split({key})`, then draw from `draw_key`)"))
    if second.repeated:
        over = second.over.split(" ", 1)[0]
        batched = over in {*BATCHING, *TREE_MAPS, *ITEM_MAPS}
        where = ("leaf" if over in TREE_MAPS else "item" if over in ITEM_MAPS
                 else "row") if batched else "step"
        made = (f" (made at {line_of(ctx, second.repeated_by)})"
                if over in BATCHING and second.repeated_by is not None else "")
        copied = second.over.endswith(COPIED_ITEMS)  # `scan(f, c, jnp.array([key] * n))`
        given = ("broadcast" if batched else "copied" if copied
                 else "closed over or carried back")
        message = (f"`{key}` is consumed by `{second.how}` in every {where} of "
                   f"`{second.over}`{made}, and the {where.replace('leaf', 'leave')}s are not "
                   f"given keys of their own (it is {given} unchanged): every {where} draws "
                   f"the same random numbers")
        fix_title = (f"Split it into one key per {where} (`jax.random.split({key}, n)`), "
                     f"mapped or carried" if batched or copied else
                     f"Split it in the body and carry the new key, or fold in the step "
                     f"(`jax.random.fold_in({key}, i)`)")
        return Finding(reported_at(second), message, roles=key_roles(reuse), fix_title=fix_title)
    via = reuse.first.via
    if via is not None:
        # Reported where the returned key is consumed again, like every reuse; the roles
        # hold the callee's consumption, the cause.
        message = (f"`{key}` was returned by `{called_text(ctx, reuse.first.call)}`"
                   f"{at_line(ctx, reuse.first.call)} after `{shown(ctx, via.call)}` consumed "
                   f"it there{at_line(ctx, via.call)}, and is consumed again by "
                   f"`{second.how}`: both draw from one key")
        return Finding(reported_at(second), message, roles={**key_roles(reuse), "returned_consumed":
                                                    via.call}, fix_title=(
            f"Return a fresh key: split it (`{ctx.code(via.key)}, subkey = "
            f"jax.random.split({ctx.code(via.key)})`) and consume only `subkey`"))
    if reuse.folded:
        message, fix_title = folded_reuse_text(ctx, reuse, key, at_line)
        return Finding(reported_at(second), message, roles=key_roles(reuse), fix_title=fix_title)
    if reuse.in_loop and reuse.first.call is second.call and reuse.named_seed:
        message = (f"`{key}` is made from `{reuse.named_seed}` again in every iteration of the "
                   f"loop and consumed by `{second.how}`: one seed makes one key, so every "
                   f"iteration draws the same random numbers")
        return Finding(reported_at(second), message, roles=key_roles(reuse),
                       fix_title="Make the key once before the loop and split it in the loop")
    if reuse.in_loop and reuse.first.call is second.call and made_in_loop(ctx, reuse):
        made = (f"`{key}` makes the same key" if isinstance(second.key, cst.Call) else
                f"`{key}` is made from the seed {_seed(reuse.literal)} again")
        made += "" if reuse.origin is None else f" (at {line_of(ctx, reuse.origin)})"
        message = (f"{made} in every iteration of the loop and is consumed by `{second.how}`: "
                   f"the same seed makes the same key, so every iteration draws the same random "
                   f"numbers")
        return Finding(reported_at(second), message, roles=key_roles(reuse),
                       fix_title="Make the key once before the loop and split it in the loop")
    if reuse.in_loop and reuse.first.call is second.call:
        message = (f"`{key}`{made_at(ctx, reuse)} is consumed by `{second.how}` in every "
                   f"iteration of the loop, and the loop never reassigns it: every iteration "
                   f"draws the same random numbers")
        return Finding(reported_at(second), message, roles=key_roles(reuse), fix_title=(
            f"Split it in the loop ({split}) or fold in the step "
            f"(`jax.random.fold_in({key}, i)`)"))
    if reuse.in_loop:
        message = (f"`{key}`{made_at(ctx, reuse)} is consumed by `{second.how}`{inside} after "
                   f"`{first}`{at_line(ctx, reuse.first.call)} consumed the same key in the "
                   f"previous iteration of the loop, with no split in between: both derive "
                   f"their random numbers from one key")
        return Finding(reported_at(second), message, roles=key_roles(reuse),
                       fix_title=f"Split it ({split})")
    kinds = {reuse.first.kind, second.kind}
    if kinds == {"split", "fold"}:
        message = (f"`{key}`{made_at(ctx, reuse)} is split by `{first}`"
                   f"{at_line(ctx, reuse.first.call)} and folded by `{second.how}` "
                   if reuse.first.kind == "split" else
                   f"`{key}`{made_at(ctx, reuse)} is folded by `{first}`"
                   f"{at_line(ctx, reuse.first.call)} and split by `{second.how}` ")
        message += ("too: `fold_in(key, i)` equals `split(key, n)[i]` (threefry), so the "
                    "folded key repeats one of the split keys")
        return Finding(reported_at(second), message, roles=key_roles(reuse),
                       unproven=_drawn_apart(reuse, flow), fix_title=(
            f"Split off a key for folding (`{key}, fold_key = jax.random.split({key})`)"))
    # Two keys made from one seed are two objects to JAX's checker: a draw and a split of
    # them give correlated values, never identical ones.
    apart = ("the key is made from the seed twice and one is drawn from, the other "
             "split: the values are correlated, not identical"
             if (reuse.seed or reuse.named_seed or isinstance(second.key, cst.Integer))
             and kinds == {"draw", "split"} else None)
    effect = draw_effect(ctx, reuse.first, second)
    if isinstance(second.key, cst.Call) and second.given_as is None:
        message = (f"`{key}` makes the same key at every call: the key "
                   f"`{first}` consumed{at_line(ctx, reuse.first.call)} is the key "
                   f"`{second.how}` consumes, so both draw the same random numbers "
                   f"({effect})")
        return Finding(reported_at(second), message, roles=key_roles(reuse), unproven=apart,
                       fix_title="Make the key once and split it for each use")
    if reuse.seed and not isinstance(second.key, cst.Integer):
        made = "" if reuse.origin is None else f" at {line_of(ctx, reuse.origin)}"
        message = (f"`{key}` is made from the seed {_seed(reuse.seed)}{made}, like the key "
                   f"that `{first}` consumed{at_line(ctx, reuse.first.call)}: keys made from "
                   f"one seed are one key, so `{second.how}` draws the same random numbers "
                   f"({effect})")
        return Finding(reported_at(second), message, roles=key_roles(reuse), unproven=apart,
                       fix_title="Make one key from the seed and split it for each use")
    shown_key = f"the seed `{key}`" if isinstance(second.key, cst.Integer) else f"`{key}`"
    message = (f"{shown_key}{made_at(ctx, reuse)} was already consumed by `{first}`"
               f"{at_line(ctx, reuse.first.call)} and is consumed again by `{second.how}`"
               f"{inside} without a split: both derive their random numbers from one key "
               f"({effect})")
    if isinstance(second.key, cst.Integer):
        return Finding(reported_at(second), message, roles=key_roles(reuse), unproven=apart,
                       fix_title=(
            "Give each call its own seed, or make one key and split it"))
    if reuse.named_seed:  # a seed, not a key: splitting it is no fix
        return Finding(reported_at(second), message, roles=key_roles(reuse), unproven=apart,
                       fix_title="Make one key from the seed and split it for each use")
    return Finding(reported_at(second), message, split_fix(ctx, reuse, analysis),
                   roles=key_roles(reuse),
                   fix_title=f"Split it first ({split})")


def _seed(followed: str) -> str:
    """The seed as the code writes it: `314`, not the name a flax `init`'s keys are followed
    under (`314` + `key_derived.DERIVED`)."""
    return followed.removesuffix(DERIVED)


def _drawn_apart(reuse: Reuse, flow: KeyFlow) -> str | None:
    """Why a folded key equal to a split key may still draw nothing the split keys draw
    (None: nothing says so). JAX's key-reuse checker does not see `fold_in`: the pair is a
    reuse only where the equal keys are consumed alike, giving identical values."""
    fold, split = ((reuse.first, reuse.second) if reuse.first.kind == "fold"
                   else (reuse.second, reuse.first))
    folded = flow.derived_uses.get(id(fold.call), [])
    if folded and all(use.kind == "split" for use in folded):
        return ("the folded key is split again, so its draws repeat the split keys' only "
                "where one of those is split the same way")
    split_off = flow.derived_uses.get(id(split.call), [])
    if folded and all(_derives(use) for use in folded) and not any(
            _derives(use) for use in split_off):
        return (f"the folded key is consumed only by `{folded[0].how}`, which draws from keys "
                f"it folds from it with data of its own: the split keys repeat those draws "
                f"only where they are given to such a call too")
    if folded and split_off and not {use.how for use in folded} & {
            use.how for use in split_off}:
        return (f"the folded key is consumed by `{folded[0].how}`, the split keys by "
                f"`{split_off[0].how}`: the equal keys draw different things")
    return None


def _derives(use: Consumption) -> bool:
    """`use` draws from keys a library derives from its key (`key_derived.py`), itself or in
    the closure it calls."""
    return use.derives or (use.closed is not None and use.closed.derives)


def key_text(ctx: RuleContext, use: Consumption) -> str:
    """The key as the code names it: `key`, or `common["key"]` for a key given in a mapping
    splatted into the call (`**common`)."""
    if use.given_as is not None:
        mapping, entry = use.given_as
        return f'{mapping}["{entry}"]'
    if use.followed and use.followed.startswith("int:"):  # a literal seed, followed as `int:0`
        return use.followed[len("int:"):]
    if use.followed:  # `keys[6]` is followed as `keys.[6]`
        return folded_text(use.followed) or use.followed.replace(ITEM, "[")
    if use.held_by and isinstance(use.key, cst.Attribute):
        return f"{use.held_by}.{use.key.attr.value}"
    return ctx.code(use.key)


def reported_at(use: Consumption) -> cst.Call:
    """Where a consumption is reported: the call, or for a function drawing from a key it
    closes over, the draw inside it (where the key must change)."""
    return use.closed.call if use.closed is not None else use.call


def key_roles(reuse: Reuse) -> dict[str, cst.CSTNode]:
    """Both consumers and the key each is given (what `optlint verify` records keys at), and
    where the key was made."""
    roles: dict[str, cst.CSTNode] = {"call": reuse.second.call, "key": reuse.second.key,
             "first_call": reuse.first.call, "first_key": reuse.first.key}
    if reuse.origin is not None:
        roles["key_origin"] = reuse.origin
    if reuse.second.repeated_by is not None:
        roles["repeated_by"] = reuse.second.repeated_by
    if reuse.second.drawn_at is not None:
        roles["drawn_at"] = reuse.second.drawn_at  # the draw each step or row repeats
    if reuse.first.returned_at is not None:
        roles["returned_at"] = reuse.first.returned_at  # where a callee handed it back
    if reuse.second.seeded_in is not None:
        roles["seeded_in"] = reuse.second.seeded_in  # where the callee makes the one key
    return roles


def traced_finding(ctx: RuleContext, found: TracedDraw) -> Finding:
    """A draw from a key fixed while `jax.jit` traces (`key_trace_time.py`)."""
    source = shown(ctx, found.source)
    if found.stream:
        how = (f"`{source}` advances its key stream in Python, which runs only while "
               f"`{found.traced}` is traced")
    else:
        how = (f"the key is made from `{source}`, which runs only while `{found.traced}` is "
               f"traced")
    message = (f"{how}: the key is a constant of the compiled function, so every call of "
               f"`{found.traced}` draws the same random numbers")
    return Finding(found.draw, message, roles={"call": found.draw, "source": found.source},
                   fix_title=f"Pass a key to `{found.traced}` and split it there")


def fixed_closure_finding(ctx: RuleContext, found: FixedClosureKey) -> Finding:
    """A returned function making its key from its factory's seed (`key_fixed_closures.py`)."""
    made = shown(ctx, found.made)
    if found.replaced:
        message = (f"`{made}` replaces the key argument `{found.replaced}` of "
                   f"`{found.closure}` (which `{found.factory}` returns) before it is read: "
                   f"whatever key each call is given, every call of `{found.closure}` makes "
                   f"the same key and draws the same random numbers in "
                   f"`{shown(ctx, found.draw)}`")
        return Finding(found.made, message, roles={"call": found.draw, "made": found.made},
                       fix_title=f"Draw from the `{found.replaced}` given, not a new key")
    message = (f"`{made}` makes the same key at every call of `{found.closure}`, which "
               f"`{found.factory}` returns: `{found.seed}` is fixed when `{found.factory}` is "
               f"called, so every call of `{found.closure}` draws the same random numbers in "
               f"`{shown(ctx, found.draw)}` (the same mask or noise)")
    return Finding(found.made, message, roles={"call": found.draw, "made": found.made},
                   fix_title=f"Give `{found.closure}` a key parameter (`rng`) and draw from it")


def default_key_finding(ctx: RuleContext, found: DefaultKey) -> Finding:
    """A state class's default key, left in states built apart (`key_default_fields.py`)."""
    message = (f"`{shown(ctx, found.default)}` is the key every `{found.owner}` built without "
               f"`{found.field}` holds (`{shown(ctx, found.built)}`{at_line(ctx, found.built)} "
               f"leaves it out), and `{shown(ctx, found.draw)}`{at_line(ctx, found.draw)} draws "
               f"from it: states built apart (other seeds, other episodes) draw the same random "
               f"numbers")
    return Finding(found.default, message,
                   roles={"call": found.draw, "built": found.built, "default": found.default},
                   fix_title=f"Give `{found.field}` a key where `{found.owner}` is built")


def constant_seed_finding(ctx: RuleContext, found: ConstantDraw) -> Finding:
    """A key (or rng streams) made from a constant seed in a function run on every step
    (`key_constant_seeds.py`)."""
    made = shown(ctx, found.made)
    if found.draw is found.made:
        message = (f"`{made}` makes rng streams from a constant seed in {found.where}: every "
                   f"call makes the same streams and draws the same random numbers")
    else:
        message = (f"`{shown(ctx, found.draw)}` draws from `{made}`, a key made from a constant "
                   f"seed in {found.where}: every call makes the same key and draws the same "
                   f"random numbers")
    return Finding(found.draw, message, roles={"call": found.draw, "key_origin": found.made},
                   fix_title="Take a key argument (or draw from the `Rngs` given) and pass a "
                             "fresh key on every call", unproven=found.unseen)


def unsplit_stream_finding(ctx: RuleContext, found: UnsplitStream) -> Finding:
    """A Flax lifted transformation handing every step one key of a stream
    (`key_lifted_streams.py`)."""
    lifted = shown(ctx, found.transform.func)
    if found.applied is not None:
        message = (f"`{lifted}` is given `split_rngs` with `{found.stream!r}: False`, and "
                   f"`{shown(ctx, found.applied)}`{at_line(ctx, found.applied)} gives a bare "
                   f"key, which becomes the `{found.stream}` stream that every other stream "
                   f"falls back to: every row of `{found.module}` gets the same key, and "
                   f"`{shown(ctx, found.draw)}`{at_line(ctx, found.draw)} draws the same random "
                   f"numbers (the same dropout mask) in each")
        return Finding(found.entry, message, roles={
            "call": found.draw, "transform": found.transform, "applied": found.applied},
            fix_title="Give `apply` a dict of streams (`rngs={\"dropout\": key}`)")
    message = (f"`{lifted}` is given `split_rngs` with `{found.stream!r}: False`, so every "
               f"{'step' if lifted.endswith('scan') else 'row'} of `{found.module}` gets the "
               f"same `{found.stream}` key, and `{shown(ctx, found.draw)}`"
               f"{at_line(ctx, found.draw)} draws the same random numbers (the same dropout "
               f"mask) in each")
    return Finding(found.entry, message,
                   roles={"call": found.draw, "transform": found.transform},
                   fix_title=f"Split the stream (`{found.stream!r}: True`)")


def bound_partial_finding(ctx: RuleContext, found: BoundPartial) -> Finding:
    """A key bound into a kept partial of a model's apply (`key_bound_partials.py`)."""
    key = shown(ctx, found.key)
    message = (f"`{key}` is bound into `{shown(ctx, found.partial)}`, kept as "
               f"`{found.kept_in}`: the key is drawn once, when the partial is made, and every "
               f"call of it applies the model with that same key (the same dropout mask on "
               f"every step)")
    return Finding(found.key, message, roles={"call": found.partial, "key": found.key},
                   fix_title="Bind no key: pass `rngs={...}` with a fresh key at each call")
