"""Seconds to verify one file with 1, 3 and 6 findings, cold and with JAX's compilation cache warm,
next to the bare cost of `python -c "import jax, optax, equinox"` measured in the same run.

Target (issue 4): a file with 3 findings, warm, in <= 2.5x the import cost.
Run: .venv/bin/python benchmarks/bench_verify.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HEADER = '''\
import equinox as eqx
import jax
import jax.numpy as jnp
import optax

model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))


def decay_mask(params):
    return jax.tree_util.tree_map(lambda x: x.ndim > 1, params)

'''
# One finding each, of different rules, in the order a file of N findings takes them.
FINDINGS = [
    "opt1 = optax.adam(1e-3)\nstate1 = opt1.init(model)\n",
    "opt2 = optax.inject_hyperparams(optax.adamw)(learning_rate=1e-3, mask=decay_mask)\n"
    "state2 = opt2.init(eqx.filter(model, eqx.is_array))\n",
    "opt3 = optax.MultiSteps(optax.chain(optax.zero_nans(), optax.adam(1e-3)), "
    "every_k_schedule=4)\nstate3 = opt3.init(eqx.filter(model, eqx.is_array))\n",
    "opt4 = optax.sgd(1e-2, momentum=0.9)\nstate4 = opt4.init(model)\n",
    "updates = jax.tree_util.tree_map(jnp.zeros_like, eqx.filter(model, eqx.is_array))\n"
    "model5 = optax.apply_updates(model, updates)\n",
    "opt6 = optax.rmsprop(1e-3)\nstate6 = opt6.init(model)\n",
]


def median_seconds(command: list[str], repeat: int, env: dict[str, str] | None = None,
                   cwd: Path | None = None) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(command, env=env, cwd=cwd, capture_output=True, check=False)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def verify_seconds(path: Path, cache: Path) -> tuple[float, int, list[str]]:
    """In-process: lint + fix + one harness; the figure the issue asks for (per file)."""
    os.environ["OPTLINT_CACHE_DIR"] = str(cache)
    from optlint.verify.command import VerifyRequest, fix_options, verify_files

    started = time.perf_counter()
    verdicts = verify_files([path], fix_options(VerifyRequest([])),
                            VerifyRequest([]).run_settings())
    return time.perf_counter() - started, len(verdicts), [v.verdict for v in verdicts]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    bare = median_seconds([sys.executable, "-c", "import jax, optax, equinox"], args.repeat)
    print(f"python -c 'import jax, optax, equinox': {bare:.2f} s (median of {args.repeat})")
    print(f"{'findings':>8}  {'cold s':>7}  {'warm s':>7}  {'cold/import':>11}  "
          f"{'warm/import':>11}  verdicts")
    with tempfile.TemporaryDirectory() as folder:
        for count in (1, 3, 6):
            path = Path(folder) / f"train_{count}.py"
            path.write_text(HEADER + "\n".join(FINDINGS[:count]))
            cache = Path(folder) / f"cache_{count}"
            cold, found, verdicts = verify_seconds(path, cache)
            warm_runs = [verify_seconds(path, cache)[0] for _ in range(args.repeat)]
            warm = statistics.median(warm_runs)
            assert found == count, f"expected {count} verified findings, got {found}"
            print(f"{count:>8}  {cold:>7.2f}  {warm:>7.2f}  {cold / bare:>11.2f}  "
                  f"{warm / bare:>11.2f}  {', '.join(sorted(set(verdicts)))}")


if __name__ == "__main__":
    main()
