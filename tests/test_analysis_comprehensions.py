"""Comprehensions, `*args` and leaf-keeping tree maps in the shared analysis."""

from __future__ import annotations

import libcst as cst
from test_analysis import infer_last_call_arg

from optlint.analysis.values import ModuleValue, SequenceOf, Unknown

MODEL = """
    import jax
    import equinox as eqx

    class Net(eqx.Module):
        linear: eqx.nn.Linear
        use_relu: bool

        def __call__(self, x):
            return self.linear(x)

    net = Net(eqx.nn.Linear(2, 2, key=k), True)
"""


def test_a_list_comprehension_is_a_list_of_its_element() -> None:
    value = infer_last_call_arg("""
        import equinox as eqx
        layers = [eqx.nn.Linear(2, 2, key=k) for k in keys]
        probe(layers)
    """)
    assert isinstance(value, SequenceOf) and isinstance(value.item, ModuleValue)
    assert value.item.class_name == "Linear"


def test_a_comprehension_target_is_an_item_of_what_it_iterates() -> None:
    value = infer_last_call_arg(MODEL + """
    copies = [net, net]
    probe([eqx.filter(m, eqx.is_array) for m in copies])
    """)
    assert isinstance(value, SequenceOf) and isinstance(value.item, ModuleValue)
    assert value.item.filtered and value.item.class_name == "Net"


def test_a_comprehension_target_is_not_seen_after_it() -> None:
    value = infer_last_call_arg("""
        import equinox as eqx
        m = eqx.nn.MLP(2, 2, 4, 2, key=k)
        linears = [eqx.nn.Linear(2, 2, key=m) for m in keys]
        probe(m)
    """)
    assert isinstance(value, ModuleValue) and value.class_name == "MLP"


def test_a_comprehension_target_of_unknown_items_is_unknown() -> None:
    value = infer_last_call_arg("""
        import equinox as eqx
        probe([eqx.filter(m, eqx.is_array) for m in loaded_checkpoints()])
    """)
    assert isinstance(value, SequenceOf) and isinstance(value.item, Unknown)


def test_tree_map_over_unpacked_trees_is_shaped_like_the_first() -> None:
    value = infer_last_call_arg(MODEL + """
    arrays = [eqx.filter(m, eqx.is_array) for m in [net, net]]
    probe(jax.tree_util.tree_map(lambda *xs: sum(xs) / len(xs), *arrays))
    """)
    assert isinstance(value, ModuleValue) and value.filtered
    literal = infer_last_call_arg(MODEL + """
    probe(jax.tree_util.tree_map(lambda a, b: a + b, *[net, 1.0]))
    """)
    assert isinstance(literal, ModuleValue) and not literal.filtered


def test_an_unpacked_list_followed_by_an_argument_gives_no_tree() -> None:
    # `tree_map(f, *trees, other)`: how many trees come before `other` is not known.
    value = infer_last_call_arg(MODEL + """
    trees = [net for _ in range(3)]
    probe(jax.tree_util.tree_map(lambda *xs: xs[0], *trees, net))
    """)
    assert isinstance(value, Unknown)


def test_a_map_that_gives_non_arrays_back_keeps_the_module() -> None:
    kept = infer_last_call_arg(MODEL + """
    probe(jax.tree_util.tree_map(lambda a: a * 2 if eqx.is_array(a) else a, net))
    """)
    assert isinstance(kept, ModuleValue) and kept.derived_by is None
    assert kept.leaves.kind == "scalar"
    # Non-array leaves replaced (by None) or arrays kept: a tree whose leaves are not known.
    for mapped in ("a if eqx.is_array(a) else None", "a * 2 if callable(a) else a"):
        value = infer_last_call_arg(MODEL + f"""
    probe(jax.tree_util.tree_map(lambda a: {mapped}, net))
    """)
        assert isinstance(value, ModuleValue) and value.derived_by is not None
        assert value.leaves.kind == "unknown"


def test_a_comprehension_list_added_to_is_not_all_alike() -> None:
    value = infer_last_call_arg(MODEL + """
    trees = [eqx.filter(m, eqx.is_array) for m in [net]]
    trees.insert(0, net)
    probe(jax.tree_util.tree_map(lambda *xs: xs[0], *trees))
    """)
    assert isinstance(value, Unknown)


def test_a_module_mapped_to_new_arrays_has_not_its_class_dtypes() -> None:
    from test_analysis import probe_with_evaluator

    from optlint.analysis.dtypes import low_precision

    source = """
        import jax
        import jax.numpy as jnp
        import equinox as eqx

        class Half(eqx.Module):
            linear: eqx.nn.Linear

            def __init__(self, key):
                self.linear = eqx.nn.Linear(2, 2, dtype=jnp.bfloat16, key=key)

        def to_f32(m):
            return jax.tree_util.tree_map(
                lambda a: a.astype(jnp.float32) if eqx.is_array(a) else a, m)

        probe({call})
    """

    def dtype_of(call: str) -> str | None:
        _, inference = probe_with_evaluator(source.replace("{call}", call))
        site = [s for s in inference.index.calls if isinstance(s.node.func, cst.Name)
                and s.node.func.value == "probe"][-1]
        found = low_precision(inference, site.node.args[0].value, site.scope, site.order)
        return found[0] if found is not None else None

    assert dtype_of("Half(k)") == "bfloat16"
    assert dtype_of("to_f32(Half(k))") is None
