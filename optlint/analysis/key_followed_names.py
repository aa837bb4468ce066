"""The name each key a walk consumes is followed under (`FollowedNames`, the base of
`KeyRecorder`): a name, an attribute of the object holding it, a key folded with some data
(`fold_in(key, 7)`), or the seed a key was made from (`int:0` for `PRNGKey(0)`, `config.seed`),
since every key made from one seed is one key. Which call made each key from a seed is kept too:
a draw from a key made from a literal seed draws the same at every call of the function."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.key_state import KeyState
from optlint.analysis.prng_keys import FOLDED_WITH, Consumption, folded_name, key_name


class FollowedNames:
    """What one walk knows of the seeds and folds its keys come from; the walk asks `_name_of`
    for every consumption and tells `_note_seeding` and `_note_fold` what makes keys."""

    def __init__(self, made_key: Callable[[cst.BaseExpression], str | None] | None) -> None:
        # Names a key made by a call (`prng_key()`, a helper making a key from constants):
        # every such call makes the same key.
        self.made_key = made_key
        # `jax.random.PRNGKey(0)` calls, by id, with the name keys of that seed go under.
        self._seeded_calls: dict[int, str] = {}
        # Fields a key is made from (`config.seed` of `PRNGKey(config.seed)`), with the call.
        self.seeded_fields: dict[str, cst.Call] = {}
        # Consumptions of a key made from a seed the code names, with the seed's name.
        self._from_named_seed: dict[int, str] = {}
        self._seed_names: set[str] = set()
        self._made_by: dict[int, int] = {}  # consumption id -> the seeding call of its key
        self._seed_literals: dict[int, tuple[cst.Call, cst.Integer]] = {}  # by seeding call id
        # The first draw from each key made from a literal seed in the body (`int:0`), with
        # the call making the key and its seed: every call of the function draws it again.
        self.constant_uses: dict[str, tuple[Consumption, cst.Call, cst.Integer]] = {}
        self._in_place: set[int] = set()  # consumptions of a key made in place from a seed
        # `fold_in(key, data)` calls, by id, with the name the key they make goes under.
        self.folded_calls: dict[int, str] = {}
        self.first_fold: dict[str, cst.Call] = {}  # by that name, the first such call

    def _note_seeding(self, use: Consumption) -> None:
        """`use` makes a key from a seed (`PRNGKey(0)`, `PRNGKey(config.seed)`)."""
        if isinstance(use.key, cst.Integer):
            self._seeded_calls[id(use.call)] = f"int:{use.key.value}"
            self._seed_literals[id(use.call)] = (use.call, use.key)
            return
        # `rng = PRNGKey(config.seed)`: the same seed makes the same key, so a draw from
        # `rng` draws from the key of `config.seed` too, as one from another key made from
        # it does (`_consume_seed`).
        named = key_name(use.key)
        if named is not None:
            self._seeded_calls[id(use.call)] = named
            self._seed_names.add(named)
            if "." in named:
                self.seeded_fields.setdefault(named, use.call)

    def _note_fold(self, use: Consumption, name: str) -> None:
        """`use` folds data into the key followed as `name` (`fold_in(key, 7)`): the key it
        makes is followed under the two together."""
        folded_with = argument(use.call, 1, "data")
        made = None if folded_with is None else folded_name(name, folded_with.value)
        if made is not None and FOLDED_WITH not in name:
            self.folded_calls[id(use.call)] = made
            self.first_fold.setdefault(made, use.call)

    def _name_of(self, use: Consumption, state: KeyState) -> str | None:
        """The name the key `use` consumes is followed under (None: not followed)."""
        if use.followed:
            if use.followed.startswith("int:") and isinstance(use.key, cst.Integer):
                # An int seed given in place (`seed(model, rng_seed=0)`): a key made in place
                # from a literal seed, as `normal(PRNGKey(0), ...)` is.
                self._made_by[id(use)] = id(use.key)
                self._in_place.add(id(use))
            return use.followed
        if use.given_as is not None:
            return ".".join(use.given_as)
        if isinstance(use.key, cst.Call) and id(use.key) in self.folded_calls:
            return self.folded_calls[id(use.key)]  # `normal(fold_in(key, 7))`
        if use.held_by and isinstance(use.key, cst.Attribute):
            return f"{use.held_by}.{use.key.attr.value}"
        name = key_name(use.key, literal=not use.library)
        if name is None:
            seed = self._seeded_calls.get(id(use.key))
            if seed is not None and seed.startswith("int:"):
                # A key made in place from a literal seed (`normal(PRNGKey(0), ...)`): one key
                # with every other key of that seed.
                self._made_by[id(use)] = id(use.key)
                self._in_place.add(id(use))
                return seed
            return self.made_key(use.key) if self.made_key is not None else None
        return self._seed_name(name, use, state)

    def _note_constant(self, name: str, use: Consumption) -> None:
        """A draw from a key made from a literal seed: in the body (`key = PRNGKey(0)`), or
        given in place to a consumer seeding itself from an int (`seed(model, rng_seed=0)`)."""
        known = self.constant_uses.get(name)
        if known is not None and not (known[0].derives and not use.derives):
            return
        made = self._seed_literals.get(self._made_by.get(id(use), -1))
        if made is not None:
            self.constant_uses[name] = (use, *made)
        elif isinstance(use.key, cst.Integer) and use.followed == name:
            self.constant_uses[name] = (use, use.call, use.key)

    def _seed_name(self, name: str, use: Consumption, state: KeyState) -> str:
        """The name a key made from a seed is followed under (`int:0`, `config.seed`), noting
        which call made the key `use` consumes."""
        seeded = state.seeded.get(name)
        if seeded is None:
            return name
        if seeded[0] in self._seed_names:
            # Followed under its own name (what it is carried and aliased as), and consumes
            # the seed's key too (`_consume_seed`).
            self._from_named_seed[id(use)] = seeded[0]
            return name
        self._made_by[id(use)] = seeded[1]
        return seeded[0]

    def _made_from_seed(self, use: Consumption) -> bool:
        """`use` draws from a key made from a seed named in the code (`rng = PRNGKey(seed)`,
        or a callee making its key from the seed it is given), not from the seed as it is."""
        return id(use) in self._from_named_seed or seeded_by_callee(use)


def seeded_by_callee(use: Consumption) -> bool:
    """`use` calls a function making its key from the seed `use` gives it by name
    (`noise(seed)`, `init(config)` reading `config.seed`)."""
    return use.seeded_in is not None and isinstance(use.key, (cst.Name, cst.Attribute))
