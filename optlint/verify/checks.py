"""The runtime half of the verifier: this file runs inside the harness subprocess only.

The linter never imports it (it would import JAX); harness.py reads its text and appends a spec and
a call to `main`. It must therefore stay self-contained: standard library, jax, optax, equinox.

For each finding and each variant (the original source, the fixed source) it executes the sliced
statements that build the objects, evaluates the role expressions (the optimizer, the params, the
mask, ...), and exercises them the way training would: `init`, jitted `update` steps with synthetic
gradients shaped like the params, `apply_updates`. Rules whose harm is silent get behavioural checks.
One JSON line per finding goes to stdout behind MARK, so a crash keeps the results already printed.
"""

from __future__ import annotations

import builtins
import json
import keyword
import os
import re
import sys
import time
import traceback
import types
from typing import Any

MARK = "@@optlint-verify@@ "
STEPS = 2


class Unbuildable(Exception):
    """The objects could not be built from the file: the verdict is `unverifiable`."""


class Misbehaved(Exception):
    """The code ran but did the wrong thing (a silent hazard)."""


def emit(record: dict[str, Any]) -> None:
    sys.stdout.write(MARK + json.dumps(record) + "\n")
    sys.stdout.flush()


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def first_line(error: BaseException) -> str:
    """The message's first line; for an exception raised without one (`raise AttributeError`),
    where it was raised, which is then the only clue."""
    text = str(error).strip()
    if text:
        # `<function loss at 0x7f...>`: the address changes from run to run; the name is enough.
        return _ADDRESS.sub("", text.splitlines()[0])
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return ""
    where = frames[-1]
    filename = where.filename.replace(os.sep, "/").rsplit("site-packages/", 1)[-1]
    return f"(no message; raised in {where.name} at {filename}:{where.lineno})"


def error_pair(error: BaseException) -> list[str]:
    return [type(error).__name__, first_line(error)]


# the environment -------------------------------------------------------------------------------
def import_libraries(device: str) -> dict[str, Any]:
    missing = []
    for name in ("jax", "optax", "equinox"):
        try:
            __import__(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise SystemExit(fatal(f"{', '.join(missing)} not installed for {sys.executable}; "
                               f"install with: {sys.executable} -m pip install "
                               f"{' '.join(missing)}"))
    import jax

    try:
        backend = jax.default_backend()
    except Exception:  # noqa: BLE001 - JAX_PLATFORMS names a platform jax cannot start
        raise SystemExit(fatal("--device gpu, but JAX finds no GPU (is jax installed with "
                               "CUDA support, e.g. `pip install jax[cuda12]`?)")) from None
    if device == "gpu" and backend != "gpu":
        raise SystemExit(fatal(f"--device gpu, but JAX finds no GPU (backend: {backend})"))
    from importlib import metadata

    return {"backend": backend, "device": str(jax.devices()[0]),
            "versions": {name: metadata.version(name) for name in ("jax", "optax", "equinox")}}


def fatal(message: str) -> int:
    emit({"fatal": message})
    return 3


# stand-ins -------------------------------------------------------------------------------------
def standin_model() -> Any:
    import equinox as eqx
    import jax

    # An MLP holds activation functions as leaves: the property the Equinox rules are about.
    return eqx.nn.MLP(3, 2, 4, 1, key=jax.random.PRNGKey(0))


def standin_value(kind: str) -> Any:
    import jax

    if kind == "key":
        return jax.random.PRNGKey(0)
    if kind == "model":
        return standin_model()
    if kind == "self":
        return types.SimpleNamespace()
    raise ValueError(kind)


def standin_params() -> Any:
    return arrays(standin_model())


def params_like(mask: Any) -> Any:
    """Params with the structure of a module-shaped mask: an array wherever it has a leaf."""
    import jax
    import jax.numpy as jnp

    return jax.tree_util.tree_map(lambda _: jnp.ones((2,)), mask)


# The role text plan.py gives params it could not find in the file.
STANDIN_PARAMS = "__optlint_standin_params__()"


def params_for_mask(mask: Any) -> Any | None:
    """Stand-in params with the structure of a mask tree (`mask=module_mask`, or the fixed
    `mask=lambda _: module_mask`), so that the optimizer fails on the hazard, not on a stand-in
    MLP whose structure differs from the mask's. None for a mask function that reads the params."""
    import equinox as eqx
    import jax

    tree = mask
    if callable(mask) and not isinstance(mask, eqx.Module):
        try:
            tree = mask(None)  # a function that ignores its argument returns the tree itself
        except Exception:  # noqa: BLE001 - it reads the params: any stand-in will do
            return None
    leaves = jax.tree_util.tree_leaves(tree)
    if not leaves or not all(isinstance(leaf, bool) for leaf in leaves):
        return None
    return params_like(tree)


# building the objects --------------------------------------------------------------------------
def build(variant: dict[str, Any], filename: str) -> tuple[dict[str, Any], list[str]]:
    """Run the slice; returns the namespace and what was replaced by stand-ins."""
    namespace: dict[str, Any] = {"__name__": "__optlint_harness__", "__file__": filename,
                                 "__builtins__": builtins, "__optlint_like__": params_like,
                                 "__optlint_standin_params__": standin_params}
    standins = []
    for name, kind in variant["bindings"].items():
        namespace[name] = standin_value(kind)
        if kind == "model":
            standins.append(f"parameter {name}")
    statements = variant["statements"]
    start, namespace = resume(statements, variant["bindings"], namespace)
    for done, statement in enumerate(statements[start:], start + 1):
        try:
            exec(compile(statement["code"], filename, "exec"), namespace)  # noqa: S102
            if not standins:  # a namespace holding a stand-in is not for sharing
                remember(statements[:done], variant["bindings"], namespace)
        except Exception as error:
            if statement["finding"]:
                raise  # the flagged statement itself raised: that is the hazard
            target = statement["writes"][0] if len(statement["writes"]) == 1 else ""
            if target in variant["model_names"]:
                namespace[target] = standin_model()
                standins.append(target)
                continue
            raise Unbuildable(f"`{statement['head']}` raised {type(error).__name__}: "
                              f"{first_line(error)}") from error
    return namespace, standins


# Variants and findings of one file share their first statements (imports, the model): run
# those once and start later slices from a copy of the namespace. JAX arrays and Equinox
# modules are immutable, so a shallow copy is enough for what a slice builds.
_PREFIXES: dict[str, dict[str, Any]] = {}


def _prefix_key(statements: list[dict[str, Any]], bindings: dict[str, str]) -> str:
    return json.dumps([bindings, [s["code"] for s in statements]])


def resume(statements: list[dict[str, Any]], bindings: dict[str, str],
           namespace: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    for length in range(len(statements), 0, -1):
        saved = _PREFIXES.get(_prefix_key(statements[:length], bindings))
        if saved is not None:
            return length, dict(saved)
    return 0, namespace


def remember(statements: list[dict[str, Any]], bindings: dict[str, str],
             namespace: dict[str, Any]) -> None:
    if bindings:
        return  # stand-ins are built afresh for each variant
    _PREFIXES.setdefault(_prefix_key(statements, bindings), dict(namespace))


def evaluate(roles: dict[str, str], namespace: dict[str, Any]) -> dict[str, Any]:
    values = {}
    for role, expression in roles.items():
        try:
            values[role] = eval(expression, namespace)
        except Exception as error:
            raise Unbuildable(f"{role} `{expression}` raised {type(error).__name__}: "
                              f"{first_line(error)}") from error
    return values


# exercising ------------------------------------------------------------------------------------
def arrays(tree: Any) -> Any:
    import equinox as eqx

    return eqx.filter(tree, eqx.is_array)


def synthetic_grads(params: Any, fill: float = 0.01) -> Any:
    import jax
    import jax.numpy as jnp

    def one(leaf: Any) -> Any:
        return jnp.full_like(leaf, fill) if jnp.issubdtype(leaf.dtype, jnp.inexact) else leaf * 0

    return jax.tree_util.tree_map(one, arrays(params))


_JITTED: dict[int, tuple[Any, Any]] = {}


def jitted_update(optimizer: Any, **extra: Any) -> Any:
    """One jitted update per optimizer object: every check of a variant reuses its trace."""
    import equinox as eqx

    cached = _JITTED.get(id(optimizer))
    if cached is not None and cached[0] is optimizer and not extra:
        return cached[1]
    # filter_jit: non-array leaves are static, so a failure is Optax's, not jit's.
    update = eqx.filter_jit(lambda grads, state, params: optimizer.update(grads, state, params,
                                                                          **extra))
    if not extra:
        _JITTED[id(optimizer)] = (optimizer, update)
    return update


def train_steps(optimizer: Any, params: Any, state: Any, steps: int = STEPS, **extra: Any) -> Any:
    import equinox as eqx

    update = jitted_update(optimizer, **extra)
    grads = synthetic_grads(params)
    for _ in range(steps):
        updates, state = update(grads, state, params)
        params = eqx.apply_updates(params, updates)
    return params, state


def all_finite(tree: Any) -> bool:
    import jax
    import jax.numpy as jnp

    return all(bool(jnp.all(jnp.isfinite(leaf))) for leaf in jax.tree_util.tree_leaves(
        arrays(tree)) if jnp.issubdtype(leaf.dtype, jnp.inexact))


def params_kind(code: str, values: dict[str, Any]) -> str:
    params = values["params"]
    if "apply" in values:
        updates = synthetic_grads(params)
        values["apply"](params, updates)
        return f"`apply_updates` ran on {type(params).__name__}"
    extra = {}
    if code == "OPT005":
        extra = line_search_arguments(params)
    optimizer = values["optimizer"]
    state = values["state"] if "state" in values else optimizer.init(params)
    params, _ = train_steps(optimizer, params, state, **extra)
    if not all_finite(params):
        raise Misbehaved("the parameters became NaN/inf")
    return f"init, {STEPS} jitted updates and apply_updates ran"


def line_search_arguments(params: Any) -> dict[str, Any]:
    import jax
    import jax.numpy as jnp

    def value_fn(p: Any) -> Any:
        return sum(jnp.sum(leaf ** 2) for leaf in jax.tree_util.tree_leaves(arrays(p)))

    value, grad = jax.value_and_grad(value_fn)(arrays(params))
    return {"value": value, "grad": grad, "value_fn": value_fn}


def transform_kind(code: str, values: dict[str, Any]) -> str:
    optimizer, params = values["optimizer"], values["params"]
    state = optimizer.init(params)
    params_after, state = train_steps(optimizer, params, state)
    if not all_finite(params_after):
        raise Misbehaved("the parameters became NaN/inf")
    detail = f"init, {STEPS} jitted updates and apply_updates ran"
    if code == "OPT002" and "mask" in values:
        detail += "; " + weight_decay_follows_mask(optimizer, params, values["mask"])
    if code == "OPT004":
        detail += "; " + nan_micro_batch_recovers(optimizer, params)
    return detail


def weight_decay_follows_mask(optimizer: Any, params: Any, mask: Any) -> str:
    """With zero gradients only weight decay moves a parameter: it must move where mask says."""
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    if isinstance(mask, eqx.Module) or not callable(mask):
        return "mask is not a function: no weight-decay check"
    selected = jax.tree_util.tree_leaves(mask(params))
    leaves = jax.tree_util.tree_leaves(arrays(params))
    zeros = jax.tree_util.tree_map(jnp.zeros_like, arrays(params))
    updates, _ = jitted_update(optimizer)(zeros, optimizer.init(params), params)
    moved = jax.tree_util.tree_leaves(updates)
    if not (len(selected) == len(leaves) == len(moved)):
        return "the mask's structure differs from the params': no weight-decay check"
    wrong = []
    for index, (want, leaf, update) in enumerate(zip(selected, leaves, moved, strict=True)):
        if not bool(jnp.any(leaf != 0)):
            continue  # an all-zero leaf has nothing to decay
        if bool(want) != bool(jnp.any(update != 0)):
            wrong.append(index)
    if wrong:
        raise Misbehaved(f"weight decay does not follow the mask: {len(wrong)} of "
                         f"{len(leaves)} leaves decay where the mask says otherwise")
    return f"weight decay applied to exactly the {sum(map(bool, selected))} leaves the mask selects"


def nan_micro_batch_recovers(optimizer: Any, params: Any) -> str:
    """A NaN gradient at a non-emitting micro-step must not poison the accumulator for good."""
    import jax
    import jax.numpy as jnp

    update = jitted_update(optimizer)
    every = emit_period(update, optimizer, params)
    if every is None or every < 2:
        return "no accumulation period found: no NaN check"
    leaves, treedef = jax.tree_util.tree_flatten(synthetic_grads(params))
    first = next(i for i, leaf in enumerate(leaves) if jnp.issubdtype(leaf.dtype, jnp.inexact))
    poisoned = list(leaves)
    poisoned[first] = leaves[first].reshape(-1).at[0].set(jnp.nan).reshape(leaves[first].shape)
    nan_grads = jax.tree_util.tree_unflatten(treedef, poisoned)
    state = optimizer.init(params)
    _, state = update(nan_grads, state, params)  # micro-step 1 of `every`: does not emit
    last = None
    grads = synthetic_grads(params)
    for step in range(2, 2 * every + 1):
        updates, state = update(grads, state, params)
        if step == every and not accumulators_finite(state):
            raise Misbehaved(f"a NaN gradient at micro-step 1 of {every} is still in the "
                             f"accumulator after the next emit")
        last = updates
    moved = jax.tree_util.tree_leaves(last)[first].reshape(-1)[0]
    if not bool(jnp.isfinite(moved)) or float(moved) == 0.0:
        raise Misbehaved("after a NaN micro-batch gradient that parameter stopped moving")
    return f"a NaN micro-batch gradient (every {every} steps) was dropped; the parameter moves"


def emit_period(update: Any, optimizer: Any, params: Any) -> int | None:
    import jax
    import jax.numpy as jnp

    state = optimizer.init(params)
    grads = synthetic_grads(params)
    for step in range(1, 17):
        updates, state = update(grads, state, params)
        if any(bool(jnp.any(u != 0)) for u in jax.tree_util.tree_leaves(updates)):
            return step
    return None


def accumulators_finite(state: Any) -> bool:
    import jax

    nodes = jax.tree_util.tree_leaves(state, is_leaf=lambda node: hasattr(node, "acc_grads"))
    return all(all_finite(node.acc_grads) for node in nodes if hasattr(node, "acc_grads"))


def function_kind(code: str, values: dict[str, Any]) -> str:
    """OPT006: the transformation as written, applied to a probe with the function's signature,
    called with the model at the flagged parameter and 1.0 everywhere else."""
    import jax

    probe = values["probe"]
    model = values["model"] if "model" in values else standin_model()
    transformed = values["transform"](probe_function(probe))
    arguments = {name: model if name == probe["model"] else 1.0
                 for name in probe["positional"] + probe["keyword_only"]}
    positional = [arguments[name] for name in probe["positional"]]
    keywords = {name: arguments[name] for name in probe["keyword_only"]}
    jax.block_until_ready(transformed(*positional, **keywords))
    return (f"the transformation ran on {type(model).__name__}, applied to a probe with "
            f"the signature of {probe['label']}")


def probe_function(probe: dict[str, Any]) -> Any:
    """A function with the transformed function's parameters, returning a scalar of their
    floating-point array leaves (and no aux for `has_aux=True`): what jit traces and grad
    differentiates is then exactly what the transformation is given."""
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    def score(*trees: Any) -> Any:
        leaves = jax.tree_util.tree_leaves(eqx.filter(trees, eqx.is_inexact_array))
        total = sum((jnp.sum(leaf) for leaf in leaves), jnp.zeros(()))
        return (total, None) if probe["has_aux"] else total

    parameters = ", ".join(probe["positional"]) + (
        ", *, " + ", ".join(probe["keyword_only"]) if probe["keyword_only"] else "")
    names = ", ".join(probe["positional"] + probe["keyword_only"])
    namespace: dict[str, Any] = {"__score__": score}
    name = probe["name"] if probe["name"].isidentifier() and not keyword.iskeyword(
        probe["name"]) else "probe"
    exec(f"def {name}({parameters}):\n    return __score__({names})\n", namespace)  # noqa: S102
    return namespace[name]


KINDS = {"params": params_kind, "transform": transform_kind, "function": function_kind}


def run_variant(finding: dict[str, Any], variant: dict[str, Any], filename: str) -> dict[str, Any]:
    started = time.perf_counter()
    result: dict[str, Any] = {"standins": []}
    try:
        namespace, result["standins"] = build(variant, filename)
        values = evaluate(variant["roles"], namespace)
        if "probe" in variant:
            values["probe"] = variant["probe"]
        if variant["roles"].get("params") == STANDIN_PARAMS and "mask" in values:
            values["params"] = params_for_mask(values["mask"]) or values["params"]
        result["detail"] = KINDS[finding["kind"]](finding["code"], values)
        result["status"] = "ok"
    except Unbuildable as error:
        result.update(status="unbuildable", detail=str(error))
    except Misbehaved as error:
        result.update(status="misbehaved", detail=str(error))
    except Exception as error:  # noqa: BLE001 - any exception is an outcome to report
        result.update(status="failed", error=error_pair(error))
    result["seconds"] = round(time.perf_counter() - started, 3)
    return result


def main(spec: dict[str, Any]) -> None:
    environment = import_libraries(spec["device"])
    emit({"environment": environment})
    directory = os.path.dirname(os.path.abspath(spec["file"]))
    sys.path.insert(0, directory)  # the file's own helper modules (`from _models import ...`)
    package_root = directory
    while os.path.isfile(os.path.join(package_root, "__init__.py")):
        package_root = os.path.dirname(package_root)
    if package_root != directory:
        sys.path.insert(1, package_root)  # `from trainer.model import ...` inside trainer/
    os.chdir(directory)
    for finding in spec["findings"]:
        record = {"id": finding["id"], "variants": {}}
        for name, variant in finding["variants"].items():
            if "unbuildable" in variant:
                record["variants"][name] = {"status": "unbuildable", "standins": [],
                                            "detail": variant["unbuildable"], "seconds": 0.0}
            else:
                record["variants"][name] = run_variant(finding, variant, spec["file"])
        emit(record)
