"""The shared analysis on its own: aliases, value inference, helpers, self attributes, other files."""

from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst

from optlint.analysis.index import build_index
from optlint.analysis.inference import Inference
from optlint.analysis.project import ProjectIndex
from optlint.analysis.values import (
    ModuleValue,
    SequenceValue,
    TransformValue,
    Value,
    is_optional_part,
)


def infer_last_call_arg(source: str, path: Path | None = None, root: Path | None = None) -> Value:
    """The value of the first argument of the file's last `probe(...)` call."""
    return probe_with_evaluator(source, path, root)[0]


def probe_with_evaluator(source: str, path: Path | None = None,
                         root: Path | None = None) -> tuple[Value, Inference]:
    """The value of the file's last `probe(...)` argument, and the evaluator that reads it."""
    module = cst.parse_module(textwrap.dedent(source))
    index = build_index(module)
    project = ProjectIndex(root) if root else None
    inference = Inference(index, project, str(path) if path else None)
    site = [s for s in index.calls if isinstance(s.node.func, cst.Name)
            and s.node.func.value == "probe"][-1]
    return inference.value_of(site.node.args[0].value, site.scope, site.order), inference


def qualify_all(source: str) -> dict[str, str | None]:
    module = cst.parse_module(textwrap.dedent(source))
    index = build_index(module)
    names = {}
    for site in index.calls:
        names[module.code_for_node(site.node.func)] = index.imports.qualify(site.node.func)
    return names


def write_package(root: Path, files: dict[str, str]) -> Path:
    """`root/pkg/` with the given files; an empty `__init__.py` unless one is given."""
    package = root / "pkg"
    package.mkdir()
    for name, text in {"__init__.py": "", **files}.items():
        (package / name).write_text(text)
    return package


# A module class in its own file, for lookups that must reach it through other files.
BASE_MODULE = "import equinox as eqx\n\nclass Base(eqx.Module):\n    mlp: eqx.nn.MLP\n"


def test_import_aliases_resolve_to_qualified_names() -> None:
    names = qualify_all("""
        import optax as ox
        from optax import adamw as aw
        import equinox.nn as nn
        from jax import tree_util as jtu
        import jax
        ox.adam(1)
        aw(1)
        nn.MLP(1)
        jtu.tree_map(f, x)
        jax.tree.map(f, x)
        jax.tree_map(f, x)
        unknown.thing()
    """)
    assert names == {
        "ox.adam": "optax.adam",
        "aw": "optax.adamw",
        "nn.MLP": "equinox.nn.MLP",
        "jtu.tree_map": "jax.tree_util.tree_map",
        "jax.tree.map": "jax.tree_util.tree_map",
        "jax.tree_map": "jax.tree_util.tree_map",
        "unknown.thing": None,
    }


def test_equinox_layer_leaves_from_the_table() -> None:
    mlp = infer_last_call_arg("""
        import equinox as eqx
        probe(eqx.nn.MLP(2, 2, 4, 2, key=k))
    """)
    assert isinstance(mlp, ModuleValue) and mlp.leaves.kind == "callable"
    linear = infer_last_call_arg("""
        import equinox as eqx
        probe(eqx.nn.Linear(2, 2, key=k))
    """)
    assert isinstance(linear, ModuleValue) and linear.leaves.kind == "arrays"


def test_class_fields_decide_leaves_and_static_fields_do_not_count() -> None:
    source = """
        from typing import Callable
        import equinox as eqx
        import jax

        class WithActivation(eqx.Module):
            weight: jax.Array
            act: Callable

        class Static(eqx.Module):
            weight: jax.Array
            act: Callable = eqx.field(static=True)

        class Scalar(eqx.Module):
            weight: jax.Array
            temperature: float

        probe({name}(...))
    """
    kinds = {name: infer_last_call_arg(source.replace("{name}", name)) for name in
             ("WithActivation", "Static", "Scalar")}
    assert {name: value.leaves.kind for name, value in kinds.items()} == {  # type: ignore[union-attr]
        "WithActivation": "callable", "Static": "arrays", "Scalar": "scalar"}


def test_assignments_unpacking_helpers_and_partial() -> None:
    value = infer_last_call_arg("""
        import functools
        import equinox as eqx

        def build(key):
            model = eqx.nn.MLP(2, 2, 4, 2, key=key)
            return model

        make = functools.partial(build)
        model = make(key)
        params, static = eqx.partition(model, eqx.is_array)
        probe(static)
    """)
    assert isinstance(value, ModuleValue) and value.derived_by == "equinox.partition"
    params = infer_last_call_arg("""
        import equinox as eqx
        params, static = eqx.partition(eqx.nn.MLP(2, 2, 4, 2, key=k), eqx.is_array)
        probe(params)
    """)
    assert isinstance(params, ModuleValue) and params.filtered


def test_tree_map_over_a_module_is_module_shaped() -> None:
    value = infer_last_call_arg("""
        import jax
        import equinox as eqx
        model = eqx.nn.MLP(2, 2, 4, 2, key=k)
        mask = jax.tree_util.tree_map(lambda _: True, model)
        mask = eqx.tree_at(lambda m: m.layers[0].bias, mask, replace=False)
        probe(mask)
    """)
    assert isinstance(value, ModuleValue) and value.derived_by == "equinox.tree_at"
    plain = infer_last_call_arg("""
        import jax
        params = {"w": 1}
        probe(jax.tree_util.tree_map(lambda _: True, params))
    """)
    assert not isinstance(plain, ModuleValue)


def test_self_attributes_set_in_init() -> None:
    value = infer_last_call_arg("""
        import equinox as eqx
        import optax

        class Trainer:
            def __init__(self, key):
                self.model = eqx.nn.MLP(2, 2, 4, 2, key=key)
                self.optim = optax.chain(optax.clip(1.0), optax.adam(1e-3))

            def start(self):
                probe(self.optim)
    """)
    assert isinstance(value, TransformValue)
    assert [t.name for t in value.walk()] == ["optax.chain", "optax.clip", "optax.adam"]


def test_later_assignment_does_not_leak_backwards() -> None:
    value = infer_last_call_arg("""
        import equinox as eqx
        model = eqx.nn.Linear(2, 2, key=k)
        probe(model)
        model = eqx.nn.MLP(2, 2, 4, 2, key=k)
    """)
    assert isinstance(value, ModuleValue) and value.class_name == "Linear"


def test_classes_from_other_project_files(tmp_path: Path) -> None:
    package = write_package(tmp_path, {"__init__.py": "from .models import Net\n",
                                       "models.py": textwrap.dedent("""
        import equinox as eqx
        import jax

        class Net(eqx.Module):
            mlp: eqx.nn.MLP
    """)})
    train = tmp_path / "train.py"
    for source in ("from pkg.models import Net\nprobe(Net())\n",
                   "from pkg import Net\nprobe(Net())\n",
                   "import pkg.models as m\nprobe(m.Net())\n"):
        value = infer_last_call_arg(source, train, tmp_path)
        assert isinstance(value, ModuleValue), source
        assert value.class_name == "Net" and value.leaves.kind == "callable"
    relative = package / "train.py"
    value = infer_last_call_arg("from .models import Net\nprobe(Net())\n", relative, tmp_path)
    assert isinstance(value, ModuleValue) and value.leaves.kind == "callable"


def test_cycles_and_unknowns_do_not_hang() -> None:
    value = infer_last_call_arg("""
        x = f(x)
        def g():
            return g()
        probe(g())
    """)
    assert not isinstance(value, (ModuleValue, SequenceValue))


def test_a_base_class_in_a_third_file_is_followed(tmp_path: Path) -> None:
    # net.py never names equinox: it reaches it through the base class it imports.
    write_package(tmp_path, {"base.py": BASE_MODULE,
                             "net.py": "from .base import Base\n\nclass Net(Base):\n    pass\n"})
    value = infer_last_call_arg("from pkg.net import Net\nprobe(Net())\n",
                                tmp_path / "train.py", tmp_path)
    assert isinstance(value, ModuleValue) and value.class_name == "Net"
    assert value.leaves.kind == "callable"


def test_class_lookups_skip_files_that_cannot_reach_equinox_or_optax(tmp_path: Path) -> None:
    package = write_package(tmp_path, {
        "layout.py": "import numpy as np\n\nclass Tiling:\n    pass\n",
        "array.py": "from . import layout\nfrom .layout import (Tiling,\n    np)\n\n"
                    "class Fragment:\n    def __init__(self):\n        self.tiling = Tiling()\n",
        "model.py": "from .array import Fragment\nimport equinox as eqx\n"})
    project = ProjectIndex(tmp_path)
    train = str(tmp_path / "train.py")
    assert project.resolve_class("pkg.array.Fragment", train) is None
    assert project.parsed_files() == []
    # A file that mentions equinox is parsed and its classes are found.
    (package / "model.py").write_text(
        "from .array import Fragment\nimport equinox as eqx\n\nclass Net(eqx.Module):\n"
        "    fragment: Fragment\n")
    found = project.resolve_class("pkg.model.Net", train)
    assert found is not None and found[0].name == "Net"
    assert project.parsed_files() == [(package / "model.py").resolve()]


def test_a_configuration_class_is_found_though_its_file_never_reaches_the_libraries(
        tmp_path: Path) -> None:
    """A NamedTuple or dataclass of settings chooses what a factory builds by its defaults."""
    write_package(tmp_path, {
        "settings.py": "from typing import NamedTuple\n\nclass Settings(NamedTuple):\n"
                       "    name: str = 'lbfgs'\n",
        "plain.py": "class Plain:\n    name = 'lbfgs'\n",
        "solvers.py": "import optax\n\nFACTORIES = {'adam': lambda s: optax.adam(1e-3),\n"
                      "             'lbfgs': lambda s: optax.lbfgs()}\n\n"
                      "def get_solver(settings):\n    return FACTORIES[settings.name](settings)\n"})
    train = tmp_path / "train.py"
    solver = infer_last_call_arg("""
        from pkg.settings import Settings
        from pkg.solvers import get_solver
        probe(get_solver(Settings()))
    """, train, tmp_path)
    assert isinstance(solver, TransformValue) and solver.name == "optax.lbfgs"
    project = ProjectIndex(tmp_path)
    assert project.resolve_class("pkg.plain.Plain", str(train)) is None
    assert project.parsed_files() == []


def test_a_module_level_jit_called_from_another_file_binds_its_parameters(
        tmp_path: Path) -> None:
    """`train_step = jax.jit(sgd_step)` imported and called elsewhere: the call runs sgd_step,
    so what it passes is what sgd_step's parameter holds, and what it gives back is sgd_step's."""
    write_package(tmp_path, {
        "steps.py": "import jax\n\ndef sgd_step(model, x):\n    probe(model)\n"
                    "    return model\n\ntrain_step = jax.jit(sgd_step)\n",
        "fit.py": "import equinox as eqx\nfrom pkg.steps import train_step\n\n"
                  "model = eqx.nn.MLP(2, 1, 8, 2, key=k)\nmodel = train_step(model, x)\n"})
    project = ProjectIndex(tmp_path)
    steps = tmp_path / "pkg" / "steps.py"
    module = cst.parse_module(steps.read_text())
    index = build_index(module)
    inference = Inference(index, project, str(steps))
    site = next(s for s in index.calls if isinstance(s.node.func, cst.Name)
                and s.node.func.value == "probe")
    model = inference.value_of(site.node.args[0].value, site.scope, site.order)
    assert isinstance(model, ModuleValue) and model.class_name == "MLP"
    returned = infer_last_call_arg(
        "import equinox as eqx\nfrom pkg.steps import train_step\n"
        "probe(train_step(eqx.nn.MLP(2, 1, 8, 2, key=k), x))\n", tmp_path / "fit2.py", tmp_path)
    assert isinstance(returned, ModuleValue) and returned.class_name == "MLP"


def test_a_closure_returned_by_a_factory_takes_what_its_callers_pass() -> None:
    """`update = make_update(opt)`, then `update(params)`: the closure's parameter holds what
    those calls pass; `optimizer.update` (an attribute) and the variables named `update` in the
    callers are no other uses of it."""
    source = """
        import optax

        def make_update(optimizer):
            def update(params, state):
                probe(params)
                return optimizer.update(params, state, params)
            return update

        def train(params):
            opt = optax.adam(1e-3)
            update = make_update(opt)
            return update([1.0], opt.init(params))
    """
    value = infer_last_call_arg(source)
    assert isinstance(value, SequenceValue) and value.kind == "list"
    # The factory's result kept under another name: its calls are not counted, so unknown.
    renamed = source.replace("update = make_update(opt)\n            return update(",
                             "step = make_update(opt)\n            return step(")
    assert renamed != source
    from optlint.analysis.values import UNKNOWN
    assert infer_last_call_arg(renamed) is UNKNOWN


def test_imported_modules_lists_every_module_an_import_may_name() -> None:
    from optlint.analysis.reach import imported_modules

    text = textwrap.dedent("""
        import a.b as ab, c
        from . import d, e as f
        from ..g import (H,
                         i)
        if x:
            from .j import k
    """)
    assert imported_modules(text) == [
        ".", ".d", ".e", ".f", "..g", "..g.H", "..g.i", ".j", ".j.k", "a.b", "c"]


def _helper_package(tmp_path: Path) -> Path:
    """pkg/masks.py defines helpers; pkg/__init__.py re-exports one of them."""
    return write_package(tmp_path, {"__init__.py": "from .masks import decay_mask\n",
                                    "masks.py": textwrap.dedent("""
        import equinox as eqx
        import jax
        import optax

        def decay_mask(model):
            return jax.tree_util.tree_map(lambda _: True, model)

        def make_model(key):
            return eqx.nn.MLP(2, 1, 8, 2, key=key)

        def make_optimizer(lr, mask=None):
            return optax.adamw(lr, mask=mask)

        def mask_function():
            return lambda params: params
    """)})


def test_helper_functions_from_other_project_files(tmp_path: Path) -> None:
    from optlint.analysis.values import UNKNOWN

    package = _helper_package(tmp_path)
    train = tmp_path / "train.py"
    model = "import equinox as eqx\nmodel = eqx.nn.MLP(2, 1, 8, 2, key=k)\n"
    for source in (f"from pkg.masks import decay_mask\n{model}probe(decay_mask(model))\n",
                   f"import pkg.masks as m\n{model}probe(m.decay_mask(model))\n",
                   f"from pkg import decay_mask\n{model}probe(decay_mask(model))\n",
                   f"from pkg.masks import decay_mask\n{model}probe(decay_mask(model=model))\n"):
        value = infer_last_call_arg(source, train, tmp_path)
        # `model` is unannotated in masks.py: it is bound to what the caller passes.
        assert isinstance(value, ModuleValue), source
        assert value.class_name == "MLP" and value.derived_by == "jax.tree_util.tree_map"
    relative = infer_last_call_arg(f"from .masks import decay_mask\n{model}probe(decay_mask(model))\n",
                                   package / "train.py", tmp_path)
    assert isinstance(relative, ModuleValue) and relative.derived_by == "jax.tree_util.tree_map"
    # Without a module passed in, the helper's result is not a module.
    assert not isinstance(infer_last_call_arg(
        "from pkg.masks import decay_mask\nprobe(decay_mask(params))\n", train, tmp_path),
        ModuleValue)
    built = infer_last_call_arg("from pkg.masks import make_model\nprobe(make_model(k))\n",
                                train, tmp_path)
    assert isinstance(built, ModuleValue) and built.class_name == "MLP"
    optimizer = infer_last_call_arg(
        f"from pkg.masks import make_optimizer, decay_mask\n{model}"
        "probe(make_optimizer(1e-3, mask=decay_mask(model)))\n", train, tmp_path)
    assert isinstance(optimizer, TransformValue) and optimizer.name == "optax.adamw"
    # A function made in another file is read through that file's scopes: not handed back.
    function = infer_last_call_arg("from pkg.masks import mask_function\nprobe(mask_function())\n",
                                   train, tmp_path)
    assert function == UNKNOWN


def test_helpers_calling_each_other_across_files_do_not_hang(tmp_path: Path) -> None:
    from optlint.analysis.values import UNKNOWN

    write_package(tmp_path, {
        "a.py": "import equinox as eqx\nfrom pkg.b import g\n\ndef f(x):\n    return g(x)\n",
        "b.py": "import optax\nfrom pkg.a import f\n\ndef g(x):\n    return f(x)\n"})
    value = infer_last_call_arg("from pkg.a import f\nprobe(f(model))\n",
                                tmp_path / "train.py", tmp_path)
    assert value == UNKNOWN


def test_function_lookups_go_through_the_reach_gate(tmp_path: Path) -> None:
    write_package(tmp_path, {
        "trees.py": "import jax\n\ndef like(tree):\n"
                    "    return jax.tree_util.tree_map(lambda _: 1, tree)\n"})
    project = ProjectIndex(tmp_path)
    train = str(tmp_path / "train.py")
    assert project.resolve_function("pkg.trees.like", train, lambda: False) is None
    assert project.parsed_files() == []
    # The file never names equinox, but the call hands it a module: worth a parse then.
    value = infer_last_call_arg(
        "import equinox as eqx\nfrom pkg.trees import like\nmodel = eqx.nn.Linear(2, 1, key=k)\n"
        "probe(like(model))\n", tmp_path / "train.py", tmp_path)
    assert isinstance(value, ModuleValue) and value.class_name == "Linear"
    assert not isinstance(infer_last_call_arg(
        "from pkg.trees import like\nprobe(like(params))\n", tmp_path / "train.py", tmp_path),
        ModuleValue)


def test_helper_parameters_take_the_callers_arguments_in_the_same_file() -> None:
    value = infer_last_call_arg("""
        import equinox as eqx
        import jax

        def like(tree, fill=0):
            return jax.tree_util.tree_map(lambda _: fill, tree)

        model = eqx.nn.MLP(2, 1, 8, 2, key=k)
        probe(like(model))
    """)
    assert isinstance(value, ModuleValue) and value.class_name == "MLP"
    value = infer_last_call_arg("""
        import jax

        def like(tree):
            return jax.tree_util.tree_map(lambda _: 0, tree)

        probe(like(params))
    """)
    assert not isinstance(value, ModuleValue)


def test_a_helper_whose_result_is_called_is_not_followed(tmp_path: Path) -> None:
    # What another file's helper returns comes back without its functions (they are read
    # through that file's scopes), so calling it gives nothing: the file is not even parsed.
    _helper_package(tmp_path)
    source = "from pkg.masks import mask_function\nprobe(mask_function()(params))\n"
    module = cst.parse_module(source)
    index = build_index(module)
    project = ProjectIndex(tmp_path)
    inference = Inference(index, project, str(tmp_path / "train.py"))
    outer = [site for site in index.calls if isinstance(site.node.func, cst.Call)][0]
    assert isinstance(outer.node.func, cst.Call)
    inference.value_of(outer.node.func, outer.scope, outer.order)
    assert project.parsed_files() == []


def test_helpers_calling_helpers_are_inferred_once_per_arguments(tmp_path: Path) -> None:
    # Each helper returns one of two others: re-inferred along every path, 30 of them would take
    # 2**30 steps; inferred once per (helper, arguments) they take a few dozen.
    helpers = "".join(f"def f{k}(x, y):\n    if x:\n        return f{k + 1}(x, y)\n"
                      f"    return f{k + 2}(y, x)\n\n" for k in range(30))
    source = ("import equinox as eqx\n" + helpers + "def f30(x, y):\n    return x\n\n"
              "def f31(x, y):\n    return y\n\n"
              "m = eqx.nn.MLP(2, 2, 4, 2, key=k)\nprobe(f0(m, m))\n")
    module = cst.parse_module(source)
    index = build_index(module)
    inference = Inference(index, None, None)
    site = [s for s in index.calls if isinstance(s.node.func, cst.Name)
            and s.node.func.value == "probe"][-1]
    value = inference.value_of(site.node.args[0].value, site.scope, site.order)
    assert isinstance(value, ModuleValue) and value.class_name == "MLP"
    assert inference.helpers.frames_inferred <= 2 * 32


def test_a_helper_first_called_without_a_module_is_still_followed_later(tmp_path: Path) -> None:
    # `helpers.py` never reaches equinox: it is followed only for calls that pass it a module,
    # whatever calls came before (an earlier `pick(1, 2)` must not decide for later ones).
    write_package(tmp_path, {
        "__init__.py": "from .models import Base\nfrom .helpers import pick\n",
        "models.py": BASE_MODULE, "helpers.py": "def pick(a, b):\n    return a\n"})
    module = cst.parse_module("import equinox as eqx\nfrom pkg import pick\nprobe(pick(1, 2))\n"
                              "m = eqx.nn.MLP(2, 2, 4, 2, key=k)\nprobe(pick(m, m))\n")
    index = build_index(module)
    inference = Inference(index, ProjectIndex(tmp_path), str(tmp_path / "main.py"))
    first, second = [inference.value_of(s.node.args[0].value, s.scope, s.order)
                     for s in index.calls if isinstance(s.node.func, cst.Name)
                     and s.node.func.value == "probe"]
    assert not isinstance(first, ModuleValue)
    assert isinstance(second, ModuleValue) and second.class_name == "MLP"


def test_the_reach_gate_sees_imports_after_a_semicolon_or_colon(tmp_path: Path) -> None:
    package = write_package(tmp_path, {"base.py": BASE_MODULE})
    for header in ("import os; from pkg.base import Base\n",
                   "if TYPE_CHECKING: from .base import Base\n"):
        (package / "net.py").write_text(header + "\nclass Net(Base):\n    pass\n")
        value = infer_last_call_arg("from pkg.net import Net\nprobe(Net())\n",
                                    tmp_path / "train.py", tmp_path)
        assert isinstance(value, ModuleValue) and value.class_name == "Net", header


def test_analysis_imports_form_no_cycle() -> None:
    """Module-level imports between analysis modules go one way (TYPE_CHECKING and imports inside
    functions aside): the evaluator, its parts, the brains and the project index stay layered."""
    import ast

    root = Path(__file__).resolve().parents[1] / "optlint" / "analysis"
    graph: dict[str, set[str]] = {}
    for path in root.rglob("*.py"):
        module = "optlint." + ".".join(path.relative_to(root.parent).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        edges = graph.setdefault(module, set())
        for node in ast.parse(path.read_text()).body:  # top level only
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(
                    "optlint.analysis"):
                edges.add(node.module)
                edges.update(f"{node.module}.{alias.name}" for alias in node.names)
    graph = {name: {edge for edge in edges if edge in graph and edge != name}
             for name, edges in graph.items()}
    visiting: set[str] = set()
    done: set[str] = set()

    def visit(name: str, trail: tuple[str, ...]) -> None:
        assert name not in visiting, f"import cycle: {' -> '.join((*trail, name))}"
        if name in done:
            return
        visiting.add(name)
        for edge in sorted(graph[name]):
            visit(edge, (*trail, name))
        visiting.discard(name)
        done.add(name)

    for name in sorted(graph):
        visit(name, ())
    assert "optlint.analysis.inference" in graph and len(graph) > 15


def test_application_order_through_lists_wrappers_and_nested_chains() -> None:
    from optlint.analysis.optax_chain_order import application_orders

    value = infer_last_call_arg("""
        import optax
        parts = [optax.adam(1e-3)]
        parts.insert(0, optax.clip(1.0))
        inner = optax.chain(optax.inject_hyperparams(optax.sgd)(learning_rate=0.1), unknown())
        probe(optax.chain(*parts, optax.masked(optax.add_decayed_weights(1e-4), m), inner))
    """)
    orders = application_orders(value, "0.2.8")
    assert orders is not None and len(orders) == 1
    names = [(step.table.name, step.top, step.masked) if step else None for step in orders[0]]
    assert names == [("optax.clip", 0, False), ("optax.adam", 1, False),
                     ("optax.add_decayed_weights", 2, True), ("optax.sgd", 3, False), None]
def test_a_tree_map_over_filtered_params_stays_filtered_and_names_its_call() -> None:
    value = infer_last_call_arg("""
        import jax
        import equinox as eqx
        model = eqx.nn.MLP(2, 2, 4, 2, key=k)
        params, static = eqx.partition(model, eqx.is_array)
        probe(jax.tree.map(lambda p, g: p - g, params, grads))
    """)
    assert isinstance(value, ModuleValue) and value.filtered
    assert value.derived_by == "jax.tree_util.tree_map"
    assert isinstance(value.made_by, cst.Call) and value.made_by.args[1].value.value == "params"
    combined = infer_last_call_arg("""
        import jax
        import equinox as eqx
        model = eqx.nn.MLP(2, 2, 4, 2, key=k)
        params, static = eqx.partition(model, eqx.is_array)
        probe(eqx.combine(jax.tree.map(lambda p, g: p - g, params, grads), static))
    """)
    assert isinstance(combined, ModuleValue) and not combined.filtered
def test_weight_decay_as_called_and_the_whole_update() -> None:
    from optlint.analysis.optax_model import adds_decay, decay_mask_given, whole_update

    def built(expression: str) -> TransformValue:
        value = infer_last_call_arg(f"import optax\nprobe({expression})\n")
        assert isinstance(value, TransformValue)
        return value

    # add_decayed_weights takes its rate first: given by position it decays.
    assert adds_decay(built("optax.add_decayed_weights(1e-4)")) is True
    assert adds_decay(built("optax.add_decayed_weights()")) is False
    assert adds_decay(built("optax.adamw(1e-3)")) is True  # weight_decay=1e-4 by default
    assert adds_decay(built("optax.adamw(1e-3, weight_decay=0.0)")) is False
    assert adds_decay(built("optax.adamw(1e-3, weight_decay=wd)")) is None
    assert adds_decay(built("optax.adam(1e-3)")) is False
    assert decay_mask_given(built("optax.adamw(1e-3, mask=m)")) is True
    assert decay_mask_given(built("optax.adamw(1e-3, mask=None)")) is False
    whole = whole_update(built("optax.MultiSteps(optax.chain(optax.clip(1.0), "
                               "optax.masked(optax.adam(1e-3), m)), 4)"))
    assert whole is not None and whole[0].name == "optax.masked" and whole[1] is True
    two = whole_update(built("optax.chain(optax.masked(optax.adam(1e-3), m), optax.sgd(1.0))"))
    assert two is not None and two[0].name == "optax.chain"


def test_getattr_with_a_known_name_is_the_library_attribute() -> None:
    value = infer_last_call_arg("""
        import dataclasses
        import optax

        @dataclasses.dataclass
        class Config:
            name: str = "lion"

        def build(cfg: Config):
            return getattr(optax, cfg.name)(1e-4)

        probe(build(Config()))
    """)
    assert isinstance(value, TransformValue) and value.name == "optax.lion"


def test_a_known_config_takes_one_branch_of_a_factory() -> None:
    value = infer_last_call_arg("""
        import optax

        def make(name):
            if name == "lbfgs":
                return optax.lbfgs()
            return optax.adam(1e-3)

        probe(make("lbfgs"))
    """)
    assert isinstance(value, TransformValue) and value.name == "optax.lbfgs"


def test_flax_init_gives_a_parameter_tree_with_its_layer_names() -> None:
    from optlint.analysis.library_param_paths import library_path_names
    from optlint.analysis.values import ParamTree

    value, evaluator = probe_with_evaluator("""
        import flax.linen as nn

        class Block(nn.Module):
            @nn.compact
            def __call__(self, x):
                return nn.LayerNorm(name="ln_1")(nn.Dense(4)(x))

        probe(Block().init(key, x))
    """)
    assert isinstance(value, ParamTree)
    paths = library_path_names(value, evaluator)
    assert paths is not None and paths.has_part("ln_1", whole=True)
    assert paths.has_part("Dense_0", whole=True) and not paths.has_part("Dense", whole=True)
    assert paths.norms == {"LayerNorm"}


def test_a_files_evaluator_is_freed_without_the_collector(tmp_path: Path) -> None:
    """Values are plain data and the collaborators hold their evaluator weakly: once the index's
    own cycles are broken, reference counting frees a linted file's evaluator at once (the lint
    run pauses the cyclic collector)."""
    import gc
    import weakref

    text = textwrap.dedent("""
        import equinox as eqx
        import optax

        class MLP(eqx.Module):
            act: object = None

        def make(model):
            return optax.adamw(1e-3, mask=model)

        model = MLP()
        probe(make(model), model.act)
    """)
    project = ProjectIndex(tmp_path)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        inference = project.analyse(text, str(tmp_path / "train.py"))
        site = [s for s in inference.index.calls if isinstance(s.node.func, cst.Name)
                and s.node.func.value == "probe"][-1]
        for arg in site.node.args:
            inference.value_of(arg.value, site.scope, site.order)
        freed = weakref.ref(inference)
        inference.index.release()
        del inference, site, arg
        assert freed() is None
    finally:
        if was_enabled:
            gc.enable()


def _parts(value: Value) -> list[str]:
    assert isinstance(value, TransformValue), value
    return [part.name if isinstance(part, TransformValue) else
            "optional " + part.options[0].name if is_optional_part(part) else repr(part)
            for part in value.parts]


def test_a_part_appended_under_an_if_the_config_defaults_skip_is_only_possible() -> None:
    # `weight_decay > 0` with the default 0.0: the decay part is only possible; the clip part,
    # under `if max_grad_norm:` with the default 1.0, is there; `use_ema` is unknown: taken.
    source = """
        import optax
        from dataclasses import dataclass

        @dataclass
        class Config:
            weight_decay: float = 0.0
            max_grad_norm: float = 1.0

        def build(cfg, use_ema):
            parts = [optax.scale_by_adam()]
            if cfg.max_grad_norm:
                parts.insert(0, optax.clip_by_global_norm(cfg.max_grad_norm))
            if cfg.weight_decay > 0:
                parts.append(optax.add_decayed_weights(cfg.weight_decay))
            if use_ema:
                parts.append(optax.ema(0.9))
            return optax.chain(*parts)

        probe(build(Config(), flag))
    """
    assert _parts(infer_last_call_arg(source)) == [
        "optax.clip_by_global_norm", "optax.scale_by_adam", "optional optax.add_decayed_weights",
        "optax.ema"]
    decayed = infer_last_call_arg(source.replace("build(Config(), flag)",
                                                 "build(Config(weight_decay=0.1), flag)"))
    assert "optax.add_decayed_weights" in _parts(decayed)


def test_a_config_method_of_another_file_is_followed_with_its_fields(tmp_path: Path) -> None:
    package = write_package(tmp_path, {"config.py": textwrap.dedent("""
        import optax
        from dataclasses import dataclass

        @dataclass
        class TrainerConfig:
            weight_decay: float = 0.0

            def optimizer(self):
                parts = [optax.scale_by_adam()]
                if self.weight_decay > 0:
                    parts.append(optax.add_decayed_weights(self.weight_decay))
                return optax.chain(*parts)
    """)})
    main = package / "main.py"
    source = """
        from pkg.config import TrainerConfig
        probe(TrainerConfig(weight_decay=0.5).optimizer())
    """
    assert _parts(infer_last_call_arg(source, main, tmp_path)) == [
        "optax.scale_by_adam", "optax.add_decayed_weights"]
    assert _parts(infer_last_call_arg(source.replace("weight_decay=0.5", ""), main, tmp_path)) == [
        "optax.scale_by_adam", "optional optax.add_decayed_weights"]


def test_a_project_class_through_a_star_import(tmp_path: Path) -> None:
    package = write_package(tmp_path, {"models.py": BASE_MODULE})
    value = infer_last_call_arg("from pkg.models import *\nprobe(Base(1))\n",
                                package / "main.py", tmp_path)
    assert isinstance(value, ModuleValue) and value.class_name == "Base"


def test_the_if_that_skips_a_part_is_named_as_written() -> None:
    from optlint.analysis.guards import skipped_by_default
    from optlint.analysis.values import LiteralValue

    function = cst.parse_module(textwrap.dedent("""
        def build(cfg):
            parts = []
            if cfg.clip:
                pass
            else:
                parts.append(late)
            if cfg.decay > 0:
                parts.append(decayed)
            if unknown:
                parts.append(flagged)
    """)).body[0]
    known = {"cfg.clip": LiteralValue("bool", "True"), "cfg.decay": LiteralValue("number", "0.0"),
             "0": LiteralValue("number", "0")}
    module = cst.Module([])

    def evaluate(expr: cst.BaseExpression) -> Value:
        from optlint.analysis.values import UNKNOWN
        return known.get(module.code_for_node(expr), UNKNOWN)

    appends = {module.code_for_node(node.args[0].value): node
               for node in _calls(function) if module.code_for_node(node.func) == "parts.append"}
    assert skipped_by_default(function, appends["late"], None, evaluate) == "not (cfg.clip)"
    assert skipped_by_default(function, appends["decayed"], None, evaluate) == "cfg.decay > 0"
    assert skipped_by_default(function, appends["flagged"], None, evaluate) is None


def test_guards_read_from_the_files_parent_map_stop_at_the_root() -> None:
    """The map of the whole file (built once per file) answers as one built from the root
    does: the `if` around the function is above the root and does not count."""
    from optlint.analysis.guards import skipped_by_default
    from optlint.analysis.values import UNKNOWN, LiteralValue
    from optlint.analysis.walk import parent_map

    module = cst.parse_module(textwrap.dedent("""
        if cfg.decay > 0:
            def build(cfg):
                parts = []
                parts.append(always)
                if cfg.decay > 0:
                    parts.append(decayed)
    """))
    outer = module.body[0]
    assert isinstance(outer, cst.If)
    function = outer.body.body[0]
    printer = cst.Module([])

    def evaluate(expr: cst.BaseExpression) -> Value:
        code = printer.code_for_node(expr)
        return {"cfg.decay": LiteralValue("number", "0.0"),
                "0": LiteralValue("number", "0")}.get(code, UNKNOWN)

    appends = {printer.code_for_node(node.args[0].value): node for node in _calls(function)
               if printer.code_for_node(node.func) == "parts.append"}
    whole_file = parent_map(module)
    for parents in (whole_file, None):
        assert skipped_by_default(function, appends["always"], None, evaluate, parents) is None
        assert skipped_by_default(function, appends["decayed"], None, evaluate,
                                  parents) == "cfg.decay > 0"
    # Seen from the `if` inside the function, `always` is not below the root: no guard.
    inner_if = function.body.body[-1]
    assert skipped_by_default(inner_if, appends["always"], None, evaluate, whole_file) is None


def _calls(root: cst.CSTNode) -> list[cst.Call]:
    from optlint.analysis.walk import descendants
    return [node for node in descendants(root) if isinstance(node, cst.Call)]
