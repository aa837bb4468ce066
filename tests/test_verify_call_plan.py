"""Plans for the "call" and "instance" runtime checks (no JAX: what the harness would be given)."""

from __future__ import annotations

import textwrap

from optlint.engine import Linter
from optlint.verify.command import VerifyRequest, fix_options
from optlint.verify.plan import Planner


def plans(source: str) -> list[dict]:  # type: ignore[type-arg]
    source = textwrap.dedent(source)
    options = fix_options(VerifyRequest([]))
    linted = Linter(options).analyse_text(source, "train.py")
    fixed = Linter(options).fix_text(source, "train.py").fixed
    planner = Planner(linted, fixed)
    return [planner.plan(number, report).spec()
            for number, report in enumerate(linted.reports)]


def test_call_plan_runs_the_flagged_call() -> None:
    [plan] = plans('''\
        import equinox as eqx
        import jax
        import jax.numpy as jnp

        def loss(model, x):
            return jnp.sum(jax.vmap(model)(x))

        model = eqx.nn.Linear(2, 1, key=jax.random.PRNGKey(0))
        print("training")
        grads = eqx.filter_grad(loss)(model=model, x=jnp.ones((4, 2)))
        ''')
    original = plan["variants"]["original"]
    assert plan["kind"] == "call"
    assert original["roles"] == {
        "call": "lambda: eqx.filter_grad(loss)(model=model, x=jnp.ones((4, 2)))"}
    codes = [statement["code"] for statement in original["statements"]]
    assert not any("print" in code for code in codes)
    assert any(code.startswith("def loss") for code in codes)
    assert plan["variants"]["fixed"]["roles"] == {
        "call": "lambda: eqx.filter_grad(loss)(model, x=jnp.ones((4, 2)))"}


def test_instance_plan_builds_the_model_class_with_its_annotations() -> None:
    [plan] = plans('''\
        import equinox as eqx
        import jax
        import jax.numpy as jnp
        from jaxtyping import Array, Float

        class Scaled(eqx.Module):
            weight: jax.Array
            scale: Float[Array, "n"] = eqx.field(static=True)

        def build():
            return Scaled(jnp.ones(3), jnp.full(3, 2.0))
        ''')
    original = plan["variants"]["original"]
    assert plan["kind"] == "instance" and plan["probe"] == "model_fields:static_array_stays_put"
    assert original["roles"] == {"call": "lambda: Scaled(jnp.ones(3), jnp.full(3, 2.0))"}
    codes = "".join(statement["code"] for statement in original["statements"])
    assert "from jaxtyping import Array, Float" in codes and "import jax\n" in codes
    assert original["probe"] == {"fields": ["scale"]}


def test_instance_plan_without_a_construction_is_unbuildable() -> None:
    [plan] = plans('''\
        import equinox as eqx
        import jax

        class Tied(eqx.Module):
            a: eqx.nn.Linear
            b: eqx.nn.Linear

            def __init__(self, key):
                layer = eqx.nn.Linear(2, 2, key=key)
                self.a = layer
                self.b = layer
        ''')
    assert plan["variants"]["original"] == {
        "unbuildable": "a construction of the class could not be found in this file"}
