"""The runtime half of the verifier: this file runs inside the harness subprocess only.

The linter never imports it (it would import JAX); harness.py reads its text and appends a spec and
a call to `main`. It must therefore stay self-contained: standard library, jax, optax, equinox.

For each finding and each variant (the original source, the fixed source) it executes the sliced
statements that build the objects, evaluates the role expressions (the optimizer, the params, the
mask, ...), and exercises them the way training would: `init`, jitted `update` steps with synthetic
gradients shaped like the params, `apply_updates`. Rules whose harm is silent get behavioural checks.
One JSON line per finding goes behind MARK to the records file optlint hands over (see `emit`), so
a crash keeps the results already written.
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


# Results go to a file of their own, opened by optlint and handed over as a file descriptor, not
# to stdout: the code under test may print anything, a line starting with MARK too. The variable
# is dropped before that code runs, so what it starts never learns the descriptor.
RECORDS_VARIABLE = "OPTLINT_HARNESS_RECORDS"
_RECORDS = (os.fdopen(int(os.environ.pop(RECORDS_VARIABLE)), "w", encoding="utf-8")
            if os.environ.get(RECORDS_VARIABLE, "").isdigit() else None)


def emit(record: dict[str, Any]) -> None:
    stream = _RECORDS or sys.stdout  # stdout: a harness run by hand, or a test importing this
    stream.write(MARK + json.dumps(record) + "\n")
    stream.flush()


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
        return jax.random.key(0)  # typed: JAX's key-reuse checker sees it
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
    if tree is not mask and not isinstance(tree, eqx.Module):
        # A mask function written for params (`tree_map(lambda p: p is not None and p.ndim >= 2,
        # params, ...)`) answers None with some bool: that says nothing about the params'
        # structure. Only a function that ignores its argument gives back the module it holds.
        return None
    return params_like(tree)


# building the objects --------------------------------------------------------------------------
_PACKAGE = ""  # the checked file's package (`trainer` for trainer/train.py), set by main

def build(variant: dict[str, Any], filename: str) -> tuple[dict[str, Any], list[str]]:
    """Run the slice; returns the namespace and what was replaced by stand-ins."""
    namespace: dict[str, Any] = {"__name__": "__optlint_harness__", "__file__": filename,
                                 "__package__": _PACKAGE,
                                 "__builtins__": builtins, "__optlint_like__": params_like,
                                 "__optlint_standin_params__": standin_params}
    # The slice's statements are compiled under this file's `from __future__ import
    # annotations`, so a class's annotations are strings, and dataclasses (an eqx.Module field
    # annotated `bool`) look the class's module up in sys.modules: give it one.
    sys.modules.setdefault(namespace["__name__"], types.ModuleType(namespace["__name__"]))
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


def params_kind(values: dict[str, Any], **extra: Any) -> str:
    """init (or the given state), jitted updates and apply_updates on the params as given;
    `extra` keyword arguments go to every `update`."""
    params = values["params"]
    if "apply" in values:
        updates = synthetic_grads(params)
        values["apply"](params, updates)
        return f"`apply_updates` ran on {type(params).__name__}"
    optimizer = values["optimizer"]
    state = values["state"] if "state" in values else optimizer.init(params)
    params, _ = train_steps(optimizer, params, state, **extra)
    if not all_finite(params):
        raise Misbehaved("the parameters became NaN/inf")
    return f"init, {STEPS} jitted updates and apply_updates ran"


def transform_kind(values: dict[str, Any]) -> str:
    optimizer, params = values["optimizer"], values["params"]
    state = optimizer.init(params)
    params_after, state = train_steps(optimizer, params, state)
    if not all_finite(params_after):
        raise Misbehaved("the parameters became NaN/inf")
    return f"init, {STEPS} jitted updates and apply_updates ran"


def function_kind(values: dict[str, Any]) -> str:
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


def call_kind(values: dict[str, Any]) -> str:
    """The call a finding is about ("call" / "instance" checks), made as written."""
    result = values["call"]()
    return f"the call ran and gave {type(result).__name__}"


KINDS = {"params": params_kind, "transform": transform_kind, "function": function_kind,
         "call": call_kind, "instance": call_kind}

# Behavioural checks a rule declares (`RuntimeCheck.probe`), by "module:function": each module of
# optlint/verify/probes/ the spec carries is run in its own namespace holding this file's globals.
_PROBES: dict[str, dict[str, Any]] = {}


def load_probes(sources: dict[str, str]) -> None:
    for module, text in sources.items():
        namespace = dict(globals())
        exec(compile(text, f"<optlint probe {module}>", "exec"), namespace)  # noqa: S102
        _PROBES[module] = namespace


def exercise(finding: dict[str, Any], values: dict[str, Any]) -> str:
    if finding.get("probe"):
        module, function = finding["probe"].split(":")
        return _PROBES[module][function](values)
    return KINDS[finding["kind"]](values)


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
        result["detail"] = exercise(finding, values)
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
    load_probes(spec.get("probes", {}))
    directory = os.path.dirname(os.path.abspath(spec["file"]))
    sys.path.insert(0, directory)  # the file's own helper modules (`from _models import ...`)
    package_root = directory
    while os.path.isfile(os.path.join(package_root, "__init__.py")):
        package_root = os.path.dirname(package_root)
    if package_root != directory:
        sys.path.insert(1, package_root)  # `from trainer.model import ...` inside trainer/
        # The slice runs as the module it is, so `from .config import TrainConfig` works.
        global _PACKAGE
        _PACKAGE = os.path.relpath(directory, package_root).replace(os.sep, ".")
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
