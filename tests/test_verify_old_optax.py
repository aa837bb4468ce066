"""`optlint verify --python` on optax 0.2.3, next to the same runs on the installed optax.

A separate environment gets optax 0.2.3 (and what it needs that is missing here: chex, etils,
toolz) from the package index, and reuses this interpreter's jax and equinox through a `.pth`
file: its own site-packages comes first on `sys.path`, so its optax wins. The verdicts asserted
are the ones the version matrix in LIBRARY_FACTS.md predicts for each version:
- OPT001's mask family raises on optax < 0.2.4 and runs from 0.2.4;
- `multi_transform` with a label function raises on Equinox params on 0.2.3 (the per-group masks
  it builds are modules), so OPT001's fix for module-shaped labels is `fix-failed` there;
- OPT002's `static_args=("mask",)` alone is not enough for a module-shaped mask on 0.2.3 (the
  static mask is still called), with `mask=lambda _: ...` it is;
- OPT004's MultiSteps NaN hazard is silent on 0.2.3 and 0.2.8 alike, and `optax.lbfgs` (OPT005)
  exists from 0.2.3.

Without the package index the environment cannot be built: the tests skip, or fail when $CI is
set (CI has the network).
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from packaging.version import Version

from conftest import FIXTURES, REPO
from verify_helpers import verify, verify_json

from optlint.verify.rule_pages import page_blocks

OLD_OPTAX = "0.2.3"
INSTALLED_OPTAX = metadata.version("optax")


def _unavailable(message: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def old_python(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An interpreter with optax 0.2.3 first on its path and this environment's jax/equinox."""
    venv = tmp_path_factory.mktemp("old-optax") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    own = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         capture_output=True, text=True, check=True).stdout.strip()
    # Appended after the venv's own site-packages: ours is found only where the venv has nothing.
    Path(own, "_optlint_parent_env.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    # Pinned to what is here, so that pip never installs a second jax or equinox into the venv.
    constraints = venv / "constraints.txt"
    constraints.write_text("".join(f"{name}=={metadata.version(name)}\n"
                                   for name in ("jax", "jaxlib", "equinox", "numpy")))
    try:
        install = subprocess.run(
            [sys.executable, "-m", "pip", "--python", python, "install", "--quiet",
             "--retries", "2", "-c", str(constraints), f"optax=={OLD_OPTAX}"],
            capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        _unavailable(f"pip install optax=={OLD_OPTAX} timed out (no package index?)")
    if install.returncode != 0:
        errors = [line for line in install.stderr.splitlines() if "ERROR" in line] or [
            install.stderr.strip().splitlines()[-1] if install.stderr.strip() else "no output"]
        _unavailable(f"pip install optax=={OLD_OPTAX} failed (no package index?): {errors[-1]}")
    probe = subprocess.run(
        [python, "-c", "import equinox, jax, optax; print(optax.__version__); "
                       "print(jax.__file__); print(equinox.__file__)"],
        capture_output=True, text=True)
    assert probe.returncode == 0, probe.stderr
    version, jax_file, equinox_file = probe.stdout.split()
    assert version == OLD_OPTAX, f"{python} imports optax {version}"
    shared = tuple(site.getsitepackages())
    assert jax_file.startswith(shared) and equinox_file.startswith(shared), (
        "jax/equinox were installed again instead of reused", jax_file, equinox_file)
    return python


def rule_rows(*args: str) -> dict[str, str]:
    done = verify("--rules", *args, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return {line.split()[0]: line for line in done.stdout.splitlines()[1:]}


def last_column(row: str) -> str:
    return row.rstrip().rsplit("  ", 1)[1].split(" (")[0]


def test_rule_pages_on_old_and_installed_optax(old_python: str) -> None:
    old, installed = rule_rows("--python", old_python), rule_rows()
    mask_family_live = Version(INSTALLED_OPTAX) < Version("0.2.4")
    assert last_column(old["OPT001"]) == "confirmed", old["OPT001"]
    assert last_column(installed["OPT001"]) == (
        "confirmed" if mask_family_live else "not-reproduced"), installed["OPT001"]
    assert "unsupported operand type(s) for @: 'bool' and 'MLP'" in old["OPT001"]
    for code in ("OPT002", "OPT003", "OPT004", "OPT005"):  # the same on both versions
        for rows in (old, installed):
            if code in rows:
                assert last_column(rows[code]) == "confirmed", rows[code]
    assert "misbehaves: a NaN gradient" in old["OPT004"]  # silent on 0.2.3, not an error
    for code in ("OPT001", "OPT002", "OPT003", "OPT004", "OPT005"):
        assert f"optax {OLD_OPTAX}," in old[code], old[code]
        assert f"optax {INSTALLED_OPTAX}," in installed[code], installed[code]


LABELS = '''\
import equinox as eqx
import jax
import optax

model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
params = eqx.filter(model, eqx.is_array)
labels = jax.tree_util.tree_map(lambda _: "train", params)
optimizer = optax.multi_transform({"train": optax.adam(1e-3)}, labels)
state = optimizer.init(params)
'''


def verdicts(python: str, lint_for: str | None, folder: Path) -> dict[str, tuple[str, str | None]]:
    """(verdict, the fixed run's exception) per file, linted as for optax `lint_for` (None: for
    the optax installed in `python`)."""
    flags = ("--optax-version", lint_for) if lint_for else ()
    rows = verify_json("--python", python, *flags, "labels.py", "module_mask.py", cwd=folder)
    for row in rows:
        assert row["versions"]["optax"] == (OLD_OPTAX if python != sys.executable
                                            else INSTALLED_OPTAX), row
    return {Path(row["filename"]).name: (row["verdict"], row["fixed"]["exception"])
            for row in rows}


def test_version_gated_fixes_on_old_and_installed_optax(old_python: str, tmp_path: Path) -> None:
    (tmp_path / "labels.py").write_text(LABELS)
    shutil.copy(FIXTURES / "OPT002" / "module_mask.py", tmp_path / "module_mask.py")
    # Linted for the optax of `--python`, 0.2.3: OPT002's fix passes the module mask as
    # `lambda _: mask` as well.
    assert verdicts(old_python, None, tmp_path) == {
        "labels.py": ("fix-failed", "TypeError"),  # multi_transform itself fails on 0.2.3
        "module_mask.py": ("confirmed", None)}
    # Linted for 0.2.8 (the command line wins over `--python`) but run on 0.2.3: `static_args`
    # alone leaves the static mask called.
    assert verdicts(old_python, "0.2.8", tmp_path)["module_mask.py"] == ("fix-failed", "TypeError")
    if Version(INSTALLED_OPTAX) >= Version("0.2.4"):
        assert verdicts(sys.executable, None, tmp_path) == {
            "labels.py": ("confirmed", None), "module_mask.py": ("confirmed", None)}


def test_python_gives_the_lint_its_versions(old_python: str, tmp_path: Path) -> None:
    """No version flag: the mask family is found (and confirmed) where `--python` has optax
    0.2.3, and not found at all on the optax installed here."""
    blocks = page_blocks((REPO / "rules" / "OPT001.md").read_text(encoding="utf-8"))
    assert blocks is not None
    (tmp_path / "example.py").write_text(blocks[0])
    old = verify("--python", old_python, "example.py", cwd=tmp_path)
    assert old.returncode == 1, old.stdout + old.stderr
    found = [line for line in old.stdout.splitlines() if not line.startswith(" ")]
    assert len(found) == 1 and found[0].split(": ")[1].startswith("OPT001 confirmed"), old.stdout
    assert "unsupported operand type(s) for @: 'bool' and 'MLP'" in found[0], found
    assert f"optax {OLD_OPTAX}, equinox" in old.stdout, old.stdout
    assert f"optax {OLD_OPTAX}, equinox {metadata.version('equinox')} (installed in " \
           f"{old_python})." in old.stderr, old.stderr
    if Version(INSTALLED_OPTAX) >= Version("0.2.4"):
        assert verify_json("example.py", cwd=tmp_path) == []
