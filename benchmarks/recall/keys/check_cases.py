"""Run every key-reuse recall case and check that it shows what its header says.

A positive must show its hazard when run (a line starting with `HAZARD:` or a
non-zero exit) and carry `# expect` marks; a negative must exit 0 with `OK`
as its last line and carry no marks. Every case needs the header fields of
the shared format. Notebooks are run cell by cell through run_notebook.py.
Usage: python check_cases.py [--python PYTHON] [CASE ...]
"""

import argparse
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLASSES = {"project-consumer", "loop", "broadcast", "closure", "other-library",
           "calls-and-state", "fold-in-split", "notebook", "basic"}
REQUIRED = ("recall-case", "rule", "class", "source", "shown", "style")


@dataclass
class Result:
    path: Path
    ok: bool
    detail: str


def case_text(path: Path) -> str:
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text())["cells"]
        return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    return path.read_text()


def header(text: str) -> dict[str, list[str]]:
    fields: dict[str, list[str]] = {}
    for line in text.splitlines():
        match = re.match(r"#\s*([a-z-]+):\s*(.*)", line)
        if not match:
            if line.strip() and not line.startswith("#"):
                break
            continue
        fields.setdefault(match.group(1), []).append(match.group(2).strip())
    return fields


def run_case(path: Path, python: str, timeout: float) -> subprocess.CompletedProcess:
    command = [python, str(HERE / "run_notebook.py"), str(path)] if path.suffix == ".ipynb" \
        else [python, str(path)]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=path.parent)


def check(path: Path, python: str, timeout: float = 300) -> Result:
    text = case_text(path)
    fields = header(text)
    missing = [name for name in REQUIRED if name not in fields]
    if missing:
        return Result(path, False, f"header lacks {missing}")
    kind = fields["recall-case"][0]
    if fields["class"][0] not in CLASSES:
        return Result(path, False, f"unknown class {fields['class'][0]}")
    marked = "# expect" in text
    try:
        proc = run_case(path, python, timeout)
    except subprocess.TimeoutExpired:
        # One slow case (a loaded machine) must not lose the results of the others.
        return Result(path, False, f"timed out after {timeout:g} s")
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
    stdout_lines = [line for line in proc.stdout.splitlines() if line.strip()]
    if kind == "positive":
        hazards = [line for line in stdout_lines if line.startswith("HAZARD:")]
        errors = [line for line in lines if re.match(r"^[\w.]*Error: ", line)]
        shown = hazards[-1] if hazards else (errors[-1] if errors else "")
        ok = marked and (proc.returncode != 0 or bool(hazards))
        return Result(path, ok, f"rc={proc.returncode} {shown}" + ("" if marked else " (no # expect)"))
    last = stdout_lines[-1] if stdout_lines else ""
    ok = proc.returncode == 0 and last == "OK" and not marked
    return Result(path, ok, f"rc={proc.returncode} {last}" + (" (has # expect)" if marked else ""))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--timeout", type=float, default=300, help="seconds per case")
    parser.add_argument("cases", nargs="*", type=Path)
    args = parser.parse_args()
    cases = args.cases or sorted(
        p for folder in ("positive", "negative") for p in (HERE / folder).iterdir()
        if p.suffix in (".py", ".ipynb"))
    failures = 0
    for path in cases:
        result = check(path.resolve(), args.python, args.timeout)
        failures += not result.ok
        print(f"{'pass' if result.ok else 'FAIL'}  {path.parent.name}/{path.name}  {result.detail}")
    print(f"{len(cases) - failures}/{len(cases)} cases behave as labelled")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
