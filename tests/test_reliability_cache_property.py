"""The cache's property: after any sequence of edits, a cached `check` says what `--no-cache`
says, also after edits made while a run was in progress (between the files it analyses).

A small project whose findings depend on other files (a class imported from models.py, the
callers of a helper in another file) goes through random edits. CI runs a few sequences with a
fixed seed. For a long run:
    OPTLINT_CACHE_SEQUENCES=200 OPTLINT_CACHE_SEED=5 python -m pytest tests/test_reliability_cache_property.py
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from optlint import engine
from reliability_helpers import run_cli
from test_cache import (CALLER_FILTERED, CALLER_UNFILTERED, HELPERS, MODELS_ARRAYS_ONLY,
                        MODELS_WITH_FUNCTION, TRAIN, UNRELATED)

SEQUENCES = int(os.environ.get("OPTLINT_CACHE_SEQUENCES", "6"))
SEED = int(os.environ.get("OPTLINT_CACHE_SEED", "11"))
STEPS = 6

TRAIN_FILTERED = TRAIN.replace(".init(model)", ".init(eqx.filter(model, eqx.is_array))").replace(
    "import jax\n", "import equinox as eqx\nimport jax\n", 1)
HELPERS_SGD = HELPERS.replace("optax.adam(1e-3)", "optax.sgd(0.1)")
SUBMODEL = "from models import Net\n"
# Each file's possible contents; None: the file does not exist.
VARIANTS: dict[str, list[str | None]] = {
    "models.py": [MODELS_WITH_FUNCTION, MODELS_ARRAYS_ONLY, None],
    "train.py": [TRAIN, TRAIN_FILTERED],
    "helpers.py": [HELPERS, HELPERS_SGD],
    "caller.py": [CALLER_UNFILTERED, CALLER_FILTERED, None],
    "second_caller.py": [CALLER_UNFILTERED, None],
    "unrelated.py": [UNRELATED, UNRELATED + "# edited\n"],
    "reexport.py": [SUBMODEL, None],
}


# What other files' findings depend on: edited more often while a run is in progress.
DEPENDED_ON = ["models.py", "helpers.py", "caller.py", "second_caller.py"]


def edit(root: Path, rng: random.Random, names: list[str] | None = None) -> None:
    name = rng.choice(names or sorted(VARIANTS))
    text = rng.choice(VARIANTS[name])
    path = root / name
    if text is None:
        path.unlink(missing_ok=True)
    else:
        path.write_text(text)


def findings(monkeypatch: pytest.MonkeyPatch, root: Path, *options: str,
             during: bool = False) -> list[str]:
    run = run_cli(monkeypatch, root, "check", ".", "--jobs", "1", "--select", "OPT003,OPT100",
                  "--output-format", "json", *options)
    # During a run a file may vanish after it was found: one error line for it, exit 2.
    assert run.exit_code in ((0, 1, 2) if during else (0, 1)), run.stderr
    return sorted(line.strip() for line in run.stdout.splitlines())


@pytest.mark.parametrize("sequence", range(SEQUENCES))
def test_cached_runs_say_what_fresh_runs_say(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             sequence: int) -> None:
    rng = random.Random(SEED * 1000 + sequence)
    root = tmp_path
    (root / "pyproject.toml").write_text("[tool.optlint]\n")
    for name, variants in VARIANTS.items():
        if variants[0] is not None:
            (root / name).write_text(variants[0])
    check_path = engine.Linter.check_path
    for step in range(STEPS):
        for _ in range(rng.randint(0, 2)):
            edit(root, rng)
        # An edit while a run is in progress, after its k-th file; always in the first run,
        # where no file has an entry yet (an entry's own hash is taken before the run).
        if step == 0 or rng.random() < 0.5:
            after = rng.randint(1, 7)
            seen = [0]

            def check_then_edit(self, path, seen=seen, after=after):  # type: ignore[no-untyped-def]
                result = check_path(self, path)
                seen[0] += 1
                if seen[0] == after:
                    edit(root, rng, DEPENDED_ON)
                return result

            monkeypatch.setattr(engine.Linter, "check_path", check_then_edit)
            findings(monkeypatch, root, during=True)  # of either state: not compared
            monkeypatch.setattr(engine.Linter, "check_path", check_path)
        cached = findings(monkeypatch, root)
        assert cached == findings(monkeypatch, root, "--no-cache")
        assert findings(monkeypatch, root) == cached  # and once more, from the cache it wrote
