"""Each rule's prefilter condition (its catalog row's libraries and words, read across the import
graph: optlint/prefilter.py) must hold wherever the rule reports. Checked three ways: against the
analysis's own tables (the words name every value the rule looks for), against every finding of
the fixtures and the blind recall cases with the prefilter forced open, and by comparing those
runs with the prefilter on and off."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES, REPO, run_optlint_in_process as run_optlint

from optlint.catalog import RULE_INFOS, info_of
from optlint.prefilter import Decision, Prefilter

sys.path.insert(0, str(REPO / "benchmarks" / "recall"))
import run as recall  # noqa: E402


def words_of(code: str) -> tuple[str, ...]:
    info = info_of(code)
    assert info is not None
    return info.trigger_words


def spelled(name: str, words: tuple[str, ...]) -> bool:
    """Whether the last part of `name` (what a file writes: `optax.adamw`, `from optax import
    adamw`) has one of `words`."""
    return any(word in name.rsplit(".", 1)[-1] for word in words)


def names_for(canonical: set[str]) -> set[str]:
    """`canonical` and every other name the analysis reads as one of them (`optax.partition`
    for `optax.multi_transform`)."""
    from optlint.analysis import apis
    from optlint.analysis.optax_table import all_transforms

    found = set(canonical)
    found |= {alias for alias, target in apis._CANONICAL.items() if target in canonical}
    found |= {alias for row in all_transforms() if row.name in canonical
              for alias, _ in row.aliases}
    return found


def test_the_words_name_every_value_the_rules_look_for() -> None:
    from optlint.analysis import apis
    from optlint.analysis.library_names import EQUINOX_FILTER_CALLS, OPTAX_INJECT_FACTORIES
    from optlint.analysis.optax_table import ALWAYS, all_transforms

    # OPT001: a factory some version calls a callable mask or labels tree of.
    mask_factories = {row.name for row in all_transforms()
                      for arguments, read in ((row.mask_args, row.mask_callable_pytree_ok),
                                              (row.label_args, row.labels_callable_pytree_ok))
                      if arguments and read != ALWAYS}
    # OPT009: a wrapper that passes the unmasked leaves' gradients through.
    passing = {row.name for row in all_transforms() if row.passes_unmasked_through}
    wanted = {
        "OPT001": names_for(mask_factories),
        "OPT002": names_for(set(OPTAX_INJECT_FACTORIES)),
        "OPT006": set(apis.JAX_FUNCTION_TRANSFORMS),
        "OPT009": names_for(passing),
        "OPT010": set(EQUINOX_FILTER_CALLS),  # what makes a filtered module
        "OPT011": set(EQUINOX_FILTER_CALLS),
    }
    assert len(mask_factories) > 10 and passing
    missing = {code: sorted(name for name in names if not spelled(name, words_of(code)))
               for code, names in wanted.items()}
    assert missing == {code: [] for code in wanted}


def test_a_word_missing_from_a_row_is_caught() -> None:
    """The check above can fail: without `partition`, `optax.partition` (an alias of
    multi_transform) is a mask factory OPT001's words do not name."""
    words = tuple(word for word in words_of("OPT001") if word != "partition")
    assert not spelled("optax.partition", words)
    assert spelled("optax.partition", words_of("OPT001"))


# A model with dropout built in models.py, a key drawn in run.py, and a step in train.py that
# names neither (no `random`, `rng`, `seed` nor `dropout`): OPT020 reports in train.py.
MODELS = """\
import equinox as eqx


class Net(eqx.Module):
    lin: eqx.nn.Linear
    drop: eqx.nn.Dropout

    def __init__(self, k):
        self.lin = eqx.nn.Linear(3, 3, key=k)
        self.drop = eqx.nn.Dropout(0.5)

    def __call__(self, x, *, key):
        return self.drop(self.lin(x), key=key)


def make(k):
    return Net(k)
"""
TRAIN = """\
import jax.numpy as jnp


def loss(model, x, key):
    a = model(x, key=key)
    b = model(x, key=key)
    return jnp.sum(a - b)
"""
RUN = """\
import jax
import jax.numpy as jnp

from models import make
from train import loss

k1, k2 = jax.random.split(jax.random.PRNGKey(0))
print(loss(make(k1), jnp.ones(3), k2))
"""


def test_a_key_drawn_by_an_importer_makes_the_step_worth_a_parse(tmp_path: Path) -> None:
    """A rule's words count across the import graph: with OPT020 alone selected, train.py was
    skipped for lacking OPT020's words, and the finding every rule's run makes was lost."""
    for name, text in (("models.py", MODELS), ("train.py", TRAIN), ("run.py", RUN)):
        (tmp_path / name).write_text(text)
    everything = run_optlint("check", ".", "--no-cache", "--preview", cwd=tmp_path)
    alone = run_optlint("check", ".", "--no-cache", "--preview", "--select", "OPT020",
                        cwd=tmp_path)
    found = [line.split(" ", 2)[:2] for line in everything.stdout.splitlines() if ": OPT" in line]
    assert found and all(place.startswith("train.py:") for place, _ in found)
    assert alone.stdout.splitlines()[:len(found)] == everything.stdout.splitlines()[:len(found)]


# ---- every fixture and recall case, with the prefilter on and forced open --------------------
def _fixture_projects() -> list[tuple[Path, list[Path]]]:
    folders = sorted({case.parent for case in FIXTURES.glob("OPT*/**/*.py")})
    return [(folder, sorted(path for path in folder.glob("*.py")
                            if not path.name.endswith(".fixed.py")))
            for folder in folders]


def _recall_projects(base: Path) -> list[tuple[Path, list[Path]]]:
    projects = []
    for number, case in enumerate(recall.discover()):
        project = base / str(number)
        if case.root.is_file():
            project.mkdir()
            shutil.copy2(case.root, project / case.root.name)
        else:
            shutil.copytree(case.root, project)
        projects.append((project, sorted(p for p in project.rglob("*")
                                         if p.suffix in (".py", ".ipynb"))))
    return projects


def _findings(projects: list[tuple[Path, list[Path]]]) -> list[tuple[str, Any, int, str]]:
    found = []
    for project, files in projects:
        for finding in recall.findings_in(project, files, preview=True):
            found.append((str(finding["file"]), finding["code"], finding["line"],
                          str(finding["message"])))
    return sorted(found)


@pytest.fixture(scope="module")
def benchmark_projects(tmp_path_factory: pytest.TempPathFactory
                       ) -> list[tuple[Path, list[Path]]]:
    projects = _fixture_projects() + _recall_projects(tmp_path_factory.mktemp("recall"))
    assert len(projects) > 300
    return projects


@pytest.fixture(scope="module")
def every_finding(benchmark_projects: list[tuple[Path, list[Path]]]
                  ) -> list[tuple[str, Any, int, str]]:
    """The findings with every file parsed and given to every rule (the prefilter open)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Prefilter, "decide", lambda self, text, filename: Decision(True))
        found = _findings(benchmark_projects)
    assert len(found) > 300
    return found


def test_the_prefilter_loses_no_finding_of_the_benchmarks(
        benchmark_projects: list[tuple[Path, list[Path]]],
        every_finding: list[tuple[str, Any, int, str]]) -> None:
    assert _findings(benchmark_projects) == every_finding


def test_every_finding_meets_its_rules_condition(
        benchmark_projects: list[tuple[Path, list[Path]]],
        every_finding: list[tuple[str, Any, int, str]]) -> None:
    """Each rule's own condition, not the file's: another rule's may have let the file through
    (as the rules without words did for OPT020's step in another file)."""
    from optlint.sources import open_source

    roots = {str(path.resolve()): project for project, files in benchmark_projects
             for path in files}
    infos = {info.code: info for info in RULE_INFOS}
    unmet = []
    for filename, code, line, _ in every_finding:
        if code not in infos:
            continue  # OPT000 / OPT100: the engine's, not a rule's
        source = open_source(Path(filename))
        assert source is not None
        prefilter = Prefilter([infos[code]], roots[filename])
        if not prefilter.may_report(code, source.program, filename):
            unmet.append(f"{filename}:{line}: {code}")
    assert unmet == [], "\n".join(unmet)
