"""The verifier finds a finding's anchor in the fixed source where the fixes' own edits moved it,
not by counting statements and same-name calls (which another fix's new statement throws off)."""

from __future__ import annotations

import textwrap

from optlint.engine import Linter
from optlint.fix_moves import edit_round, moved
from optlint.verify.command import VerifyRequest, fix_options
from optlint.verify.plan import Planner

# OPT020's fix splits the key in a new statement before its first use; OPT003's fix filters the
# model that `init` is given, two statements further down.
KEY_SPLIT_BEFORE_INIT = textwrap.dedent("""\
    import equinox as eqx
    import jax
    import optax

    key = jax.random.PRNGKey(0)
    noise = jax.random.normal(key, (3,))
    more = jax.random.normal(key, (3,))
    model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(1))
    optimizer = optax.adam(1e-3)
    state = optimizer.init(model)
    """)


def _init_plan(rounds_known: bool) -> dict[str, dict[str, object]]:
    linter = Linter(fix_options(VerifyRequest([])))
    linted = linter.analyse_text(KEY_SPLIT_BEFORE_INIT, "train.py")
    fixed = linter.fix_text(KEY_SPLIT_BEFORE_INIT, "train.py")
    assert fixed.fixed is not None and "key, subkey = jax.random.split(key)" in fixed.fixed
    [(number, report)] = [(n, r) for n, r in enumerate(linted.reports)
                          if r.diagnostic.code == "OPT003"]
    planner = Planner(linted, fixed.fixed, fix_rounds=fixed.fix_rounds if rounds_known else None)
    plan = planner.plan(number, report)
    assert plan is not None
    return plan.variants


def test_an_anchor_after_a_statement_another_fix_adds_is_found_through_the_edits() -> None:
    fixed = _init_plan(rounds_known=True)["fixed"]
    assert fixed["roles"] == {"optimizer": "optimizer",
                              "params": "eqx.filter(model, eqx.is_array)"}


def test_counting_statements_loses_that_anchor() -> None:
    """What the edits replace: the fixed source's statement of the same number is the one
    before (`optimizer = ...`), which has no `init` call."""
    assert _init_plan(rounds_known=False)["fixed"] == {
        "unbuildable": "the fixed source has no matching call"}


def test_offsets_move_through_insertions_wraps_and_rounds() -> None:
    text = "a = f(x)\nb = g(y)\n"
    anchor = (text.index("g(y)"), text.index("g(y)") + 4)
    # A statement added before it, and its argument wrapped: the call moves and stretches.
    first = edit_round(text, [(0, 0, "k = h()\n"), (text.index("y"), text.index("y") + 1, "w(y)")])
    assert moved([first], *anchor) == (anchor[0] + 8, anchor[1] + 11)
    # The anchor itself wrapped (its text kept whole): it is the inner call.
    wrapped = edit_round(text, [(anchor[0], anchor[1], "outer(g(y), 1)")])
    assert moved([wrapped], *anchor) == (anchor[0] + 6, anchor[1] + 6)
    # A second round's edits apply to the first round's text.
    second = ((0, 0, "", "import m\n"),)
    assert moved([wrapped, second], *anchor) == (anchor[0] + 15, anchor[1] + 15)
    # An edit inside it stretches it; one across its start rewrote it: no place.
    inside = edit_round(text, [(anchor[0] + 2, anchor[0] + 3, "y, z")])
    assert moved([inside], *anchor) == (anchor[0], anchor[1] + 3)
    assert moved([edit_round(text, [(anchor[0] - 2, anchor[0] + 2, "= h(")])], *anchor) is None
