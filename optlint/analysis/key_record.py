"""Recording what one walk of a function body consumes (`KeyRecorder`, the base of `KeyFlow`):
each consumption under the name its key is followed by (`key_followed_names.py`), the
parameters and enclosing keys the body consumes (its summary for callers), and a reuse when a
name already consumed is consumed again on the same path."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.key_aliases import linked, linked_item_fields
from optlint.analysis.key_branch_paths import SOME_PATHS, after_every_branch, some_paths_only
from optlint.analysis.key_deferred import UnreadCalls, settle
from optlint.analysis.key_chained_draws import CONDITIONED, conditioned_name
from optlint.analysis.key_derived import consume_derived
from optlint.analysis.key_followed_names import FollowedNames, seeded_by_callee
from optlint.analysis.key_literal_seeds import (IN_PLACE_SEEDS, SEED_IN_LOOP, literal_seed_unproven,
                                                same_sampler)
from optlint.analysis.key_reads import UnreadResults
from optlint.analysis.key_state import KeyState
from optlint.analysis.key_step_loops import names_bound_within
from optlint.analysis.key_syntax import chains
from optlint.analysis.prng_keys import FOLDED, FOLDED_WITH, SEEDED, Consumption, Reuse, folded_text

THROWN_AWAY = ("what it draws reaches only `{call}`, a call made as a statement whose result "
               "is thrown away: it matters only through what that call does besides returning, "
               "which the analysis does not see")


def _short(call: cst.Call) -> str:
    text = " ".join(cst.Module([]).code_for_node(call).split())
    return text if len(text) <= 40 else text[:37] + "..."


# The data a key folded with a loop's step index counted from a literal is followed under
# (`key_project_calls.fixed_fold_uses`, `key_transforms.py`): "each step of `play`".
STEPS = "each step of "


class KeyRecorder(FollowedNames):
    """The consumptions and reuses of one walk; the walk (`KeyFlow`) keeps `_block`,
    `_statement` and the loop counters up to date as it goes."""

    # Whether draws from local keys are taken as drawn until met again (`key_deferred.py`).
    defers = True

    def __init__(self, params: Sequence[str],
                 made_key: Callable[[cst.BaseExpression], str | None] | None) -> None:
        super().__init__(made_key)
        self.params = set(params)
        self.consumed_params: set[str] = set()
        # The first consumption of each parameter, and of each name the body neither binds
        # nor receives (a key of the enclosing function, for a nested function).
        self.param_uses: dict[str, Consumption] = {}
        self.free_uses: dict[str, Consumption] = {}
        # The first consumption of each attribute of a parameter (`self.key`), before the
        # walk saw it or its object reassigned.
        self.attribute_uses: dict[str, Consumption] = {}
        self.bound: set[str] = set()  # every name the walk saw bound
        self.every: list[Consumption] = []
        self.reuses: dict[tuple[int, str], Reuse] = {}
        # Consumptions whose result nothing reads: no draw for a reuse.
        self.unread = UnreadCalls()
        self._body: Sequence[cst.BaseStatement] | None = None  # the function's, set by the walk
        self._block: Sequence[cst.BaseStatement] | None = None
        self._statement: cst.BaseStatement | None = None
        self._loop_depth = 0
        self._again = 0  # inside the second walk of a loop body
        self._walking_again: list[bool] = []  # per enclosing loop: counts steps, in 2nd walk
        self._loop_nodes: list[cst.CSTNode] = []  # per enclosing loop: the loop
        self._step_loops: list[bool] = []  # per enclosing loop: carries state (`key_step_loops`)
        self._results: UnreadResults | None = None  # None: a lambda's body, one expression
        # Whether a small statement must raise (`proven_raises.py`): no path goes past it.
        self.raises: Callable[[cst.BaseSmallStatement], bool] | None = None
        # Which call of such a statement raises (its arguments still run).
        self.raising_call: Callable[[cst.BaseSmallStatement], cst.Call | None] | None = None
        # The keys a `fold_in` or a split made, by the name they were bound to (`keys =
        # split(key, n)`, `step_key = fold_in(key, i)`), and what consumed them, by the id of
        # the call that made them: whether a folded key can equal a split key's draw.
        self._derived: dict[str, Consumption] = {}
        self.derived_uses: dict[int, list[Consumption]] = {}
        # The attributes and items the body stores a value in (`info["rng"], k = split(...)`).
        self.stored_names: set[str] = set()
        # Parameters drawn from through `fold_in(param, data)` with data the body fixes (a
        # literal, an index of `fixed_indices`), with that data (`key_project_calls.fixed_fold_uses`).
        self.fixed_folds: dict[str, tuple[Consumption, str]] = {}
        self.fixed_indices: set[str] = set()  # `step` of `for step in range(n)`
        self.refolded: set[int] = set()  # `key` of `key = fold_in(key, 3)`, a parameter
        # Enclosing keys folded with a parameter, by its position, then by the key's name (a
        # `fori_loop` body's step index: `key_model_loops.LoopBody.index`).
        self.param_folds: dict[int, dict[str, Consumption]] = {}
        self._positions = {name: at for at, name in enumerate(params)}

    def free_consumed(self) -> dict[str, Consumption]:
        """The names the body consumes without ever binding them: its enclosing scope's."""
        return {name: use for name, use in self.free_uses.items()
                if name.split(".", 1)[0] not in self.bound}

    # statements ---------------------------------------------------------------------------

    def _record(self, before: Consumption, use: Consumption, name: str, state: KeyState) -> None:
        key = (id(use.call), name)
        # Seen only when a loop body is walked again: the earlier use is the last iteration's.
        in_loop = self._again > 0
        if key in self.reuses and some_paths_only(self.reuses[key]) and not use.unseen:
            del self.reuses[key]  # a proven reuse of the call replaces one on some paths
        if key in self.reuses:
            known = self.reuses[key]
            if known.in_loop and not known.counting and in_loop and self._steps_keep(name):
                # First seen in a loop over items (`for i, batch in enumerate(data)`), again in
                # the loop of steps around it, which never binds the key anew: the same numbers
                # on every step (howaboutyu/nerf-jax 4b4fcaf: `split(key, n)` for every batch
                # of every epoch).
                self.reuses[key] = replace(known, counting=True)
            return
        statement = None
        span: tuple[cst.BaseStatement, ...] = ()
        where = state.where.get(name)
        if (self._loop_depth == 0 and where is not None and where[0] == id(self._block)
                and where[1] != id(self._statement)):
            statement = where[2]
            block = list(self._block or ())
            if statement in block and self._statement in block:
                span = tuple(block[block.index(statement):block.index(self._statement) + 1])
        counting = in_loop and (any(self._walking_again) or (
            self._statement is not None and chains(self._statement, use.call)))
        unproven = literal_seed_unproven(
            use, id(use) in self._in_place or id(before) in self._in_place, any(self._step_loops))
        if unproven == IN_PLACE_SEEDS and same_sampler(before, use):
            unproven = ""  # one sampler twice from one seed: the same numbers
        conditioned = conditioned_name(span, before, use) if (
            unproven == IN_PLACE_SEEDS) else ""
        if conditioned:  # one joint sample's parts: never the same noise on purpose
            unproven = ""
            use = replace(use, proof=use.proof or CONDITIONED.format(name=conditioned))
        if unproven and not use.unseen:
            use = replace(use, unseen=unproven)  # a literal seed's draws, often equal on purpose
        # Where the key was made: the name drawn from (`key = PRNGKey(seed)`), before the
        # name it is followed under (`seed`, whose origin is the parameter).
        held = use.key.value if isinstance(use.key, cst.Name) else None
        origin = (state.origin.get(held) if held is not None and id(use) in self._from_named_seed
                  else None) or state.origin.get(name) or (
                      state.origin.get(held) if held is not None else None)
        literal = name[4:] if name.startswith("int:") else ""
        self.reuses[key] = Reuse(before, use, in_loop, statement, counting, origin, span,
                                 seed=literal if self._made_by.get(
                                     id(before)) != self._made_by.get(id(use)) else "",
                                 folded=folded_text(name), literal=literal,
                                 named_seed=name.removeprefix(SEEDED) if name.startswith(
                                     SEEDED) or seeded_by_callee(use) else "")

    def _steps_keep(self, name: str) -> bool:
        """The innermost enclosing loop that counts steps is on its second walk and binds no
        name `name` is followed under (`key`, `keys.[0]`: `keys`) anywhere in its body."""
        counting = [index for index, again in enumerate(self._walking_again) if again]
        if not counting or len(self._loop_nodes) != len(self._walking_again):
            return False
        return name.split(".", 1)[0] not in names_bound_within(self._loop_nodes[counting[-1]])

    def _consume_seed(self, seed: str, use: Consumption, state: KeyState, held: str) -> None:
        """`use` draws from a key made from `seed` (`rng = PRNGKey(config.seed)`), or calls a
        function making its key from it: so does any other key made from it, here or in a
        function given it (followed as `SEEDED` + `seed`; `held`: the name `use` consumes,
        a reuse of which is the one reported)."""
        base = seed.split(".", 1)[0]
        if "." in seed and base in self.params and base not in state.rebound:
            _first_seen(self.attribute_uses, seed, use)  # callers give the object
        name = SEEDED + seed
        before = state.consumed.get(name)
        if (before is not None and name not in state.maybe
                and (id(use.call), held) not in self.reuses):
            if self._again > 0 and not any(self._step_loops) and not use.unseen:
                use = replace(use, unseen=SEED_IN_LOOP)
            self._record(before, use, name, state)
        state.consumed[name] = use
        state.maybe.discard(name)

    def _defer(self, use: Consumption, name: str, state: KeyState) -> bool:
        """Puts off asking whether the draw's result reaches anything (True): a draw from a
        plain name the body binds, not a parameter's (callers read what the body consumes of
        those), neither consumed nor held under another name on this path (the draw is no
        reuse by itself, and changes no other key's state)."""
        statement, block = self._statement, self._block
        if (not self.defers or self._results is None or statement is None or block is None
                or not name.isidentifier() or name in self.params or name not in state.rebound
                or name in state.consumed or name + FOLDED in state.consumed
                or name in state.same):
            return False
        draw = (use.call, statement, block)
        state.pending[name] = (*state.pending.get(name, ()), draw)
        self.unread.deferred[id(use.call)] = draw
        return True

    def _result_unread(self, call: cst.Call, read_only: bool = False) -> bool:
        return self._results is not None and self._results.unread(call, self._statement,
                                                                   self._block, read_only)

    def _derived_from(self, key: cst.BaseExpression) -> Consumption | None:
        """The fold or split that made `key`: `fold_in(k, i)` itself, a name bound to its
        result, or an item of a name bound to a split's (`keys[i]`)."""
        if isinstance(key, cst.Subscript):
            key = key.value
        if isinstance(key, cst.Name):
            return self._derived.get(key.value)
        return next((use for use in reversed(self.every)
                     if use.call is key and use.kind in ("fold", "split")), None)

    def _consume(self, use: Consumption, state: KeyState) -> None:
        if (self._results is not None and use.kind == "draw" and not use.repeated
                and not use.unseen and self._statement is not None):
            thrown = self._results.thrown_away(use.call, self._statement, self._block)
            if thrown is not None:
                # What it draws reaches only a call whose result is thrown away: a reuse
                # resting on it rests on what that call does besides (`--preview`).
                use = replace(use, unseen=THROWN_AWAY.format(call=_short(thrown)))
        self.every.append(use)
        source = self._derived_from(use.key)
        if source is not None:
            self.derived_uses.setdefault(id(source.call), []).append(use)
        if use.kind == "seed":
            self._note_seeding(use)
        if use.repeated:
            # The same key on every step: a reuse by itself, the draw against itself, unless
            # what every step draws reaches nothing (`s = vmap(f)(x)`, `s` read only for its
            # shape in a check).
            every_step = use.repeated_by if use.repeated_by is not None else use.call
            if not self._result_unread(every_step):
                self.reuses.setdefault((id(use.call), "\x00repeated"),
                                       Reuse(use, use, True, None, True))
            return
        name = self._name_of(use, state)
        if name is None:  # a key not followed: whether its draw reaches a result is moot
            return
        if state.pending:  # the key (or one it holds, or folds) met again: asked now
            settle(state, [held for held in state.pending if name.startswith(held)],
                   self._results, self)
        if (use.kind in ("draw", "split")
                and (id(use.call) in self.unread.known or (
                    not self._defer(use, name, state) and self._result_unread(use.call)))):
            # Its result reaches nothing: the key stays as it was for the reuse check, and a
            # parameter drawn from only so is not consumed for callers either (a helper
            # tracing a model for its shapes gives back nothing of its key).
            self.unread.add(id(use.call))
            state.unread[name] = use
            return
        if name.startswith("int:") and use.kind in ("draw", "split"):
            self._note_constant(name, use)
        root, _, data = name.partition(FOLDED_WITH)
        base = root.split(".", 1)[0]
        # A key folded with a name of this function (`fold_in(key, i)`, `i` a parameter)
        # changes with it: not one key of the enclosing scope.
        local_data = bool(data) and (data in self.params or data in state.rebound)
        if (data and root == base and base in self.params and use.kind in ("draw", "split")
                and (base not in state.rebound or id(state.origin.get(base)) in self.refolded)
                and (data.isdigit() or data in self.fixed_indices or data.startswith(STEPS))):
            self.fixed_folds.setdefault(base, (use, data))
        elif (data in self._positions and root == base and base not in self.params
              and base not in state.rebound and use.kind in ("draw", "split")):
            self.param_folds.setdefault(self._positions[data], {}).setdefault(base, use)
        if use.kind == "seed":
            # A key made from a seed parameter: the function draws the same for the same seed;
            # from a seed of the enclosing scope, the same at every call.
            if name in self.params and name not in state.rebound:
                self.consumed_params.add(name)
                _first_seen(self.param_uses, name, use)
            elif (isinstance(use.key, cst.Name) and name == use.key.value
                  and name not in state.rebound):
                _first_seen(self.free_uses, name, use)
            return
        if use.kind == "fold":
            self._note_fold(use, name)
            split = state.consumed.get(name)
            if (split is not None and split.kind == "split" and name not in state.maybe
                    and not folds_past(use.call, split.call)):
                self._record(split, use, name, state)
            state.consumed[name + FOLDED] = use
            return
        if name in self.params and name not in state.rebound:
            self.consumed_params.add(name)
            _first_seen(self.param_uses, name, use)
        elif (base not in self.params and base not in state.rebound and not local_data
              and name not in state.rebound and not name.startswith(("int:", "made:"))):
            _first_seen(self.free_uses, name, use)
        elif "." in name and base in self.params and base not in state.rebound \
                and name not in state.rebound:
            _first_seen(self.attribute_uses, name, use)
        if use.derives:  # a flax `init` or `apply`: see `key_derived.py`
            consume_derived(use, name, state, self._record, None if (
                self._statement is None or self._block is None) else (
                    id(self._block), id(self._statement), self._statement))
            return
        folded = state.consumed.get(name + FOLDED)
        if (use.kind == "split" and folded is not None and name + FOLDED not in state.maybe
                and not folds_past(folded.call, use.call)):
            self._record(folded, use, name, state)
        before = state.consumed.get(name)
        if before is not None and name not in state.maybe:
            self._record(before, use, name, state)
        elif (before is not None and not before.unseen and not use.unseen
              and after_every_branch(self._body, self._statement, use.call,
                                    before.call, name)):
            # After a branch that consumed it: a reuse where the branch runs (`--preview`).
            self._record(before, replace(use, unseen=SOME_PATHS.format(name=name)), name, state)
        if use.unseen and before is not None and not before.unseen:
            return  # a later reuse is proven against the draw the analysis saw
        state.consumed[name] = use
        state.maybe.discard(name)
        if id(use) in self._from_named_seed:
            self._consume_seed(self._from_named_seed[id(use)], use, state, name)
        elif self._made_from_seed(use):
            self._consume_seed(name, use, state, name)  # `noise(seed)`: its key is `seed`'s
        if self._statement is not None and self._block is not None:
            state.where[name] = (id(self._block), id(self._statement), self._statement)
        else:
            state.where.pop(name, None)
        for other in linked(name, state):
            # The same value under another name (`k = key`): drawn from too.
            state.consumed[other] = use
            state.maybe.discard(other)
            state.where.pop(other, None)
            if other in self.params and other not in state.rebound:
                self.consumed_params.add(other)
                _first_seen(self.param_uses, other, use)
            elif ("." in other and other.split(".", 1)[0] in self.params
                  and other.split(".", 1)[0] not in state.rebound and other not in state.rebound):
                _first_seen(self.attribute_uses, other, use)  # `params, key = carry`: `carry[1]`
        for other in linked_item_fields(name, state):  # `carry.[1].rng_key`
            if other.split(".", 1)[0] in self.params:
                _first_seen(self.attribute_uses, other, use)


def folds_past(fold: cst.Call, split: cst.Call) -> bool:
    """`fold_in(key, n)` beside `split(key, n)`: the folded index is `n`, one past the split's
    keys `0..n-1`, so it repeats none of them."""
    data = argument(fold, 1, "data")
    count = argument(split, 1, "num")
    return data is not None and count is not None and data.value.deep_equals(count.value)


def _first_seen(uses: dict[str, Consumption], name: str, use: Consumption) -> None:
    """Keeps the first consumption of `name`, or the first the analysis saw draw (a summary
    resting on an unseen consumption only where it has no other)."""
    known = uses.get(name)
    if known is None or (known.unseen and not use.unseen) or (
            known.derives and not use.derives and not use.unseen):
        uses[name] = use  # a flax call's keys conflict with fewer draws than a sampler's
