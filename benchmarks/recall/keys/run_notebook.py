"""Run a benchmark notebook's code cells in order, as a kernel would.

The recall cases include a few `.ipynb` files; `python case.py` cannot run
those, so this runner executes every code cell top to bottom in one namespace
(with `__name__ == "__main__"`) and exits with the status the cells produce.
Usage: python run_notebook.py CASE.ipynb
"""

import json
import sys
from pathlib import Path


def code_cells(path: Path) -> list[str]:
    notebook = json.loads(path.read_text())
    cells = []
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            source = cell["source"]
            cells.append("".join(source) if isinstance(source, list) else source)
    return cells


def main(argv: list[str]) -> None:
    if len(argv) != 2:
        raise SystemExit("usage: python run_notebook.py CASE.ipynb")
    path = Path(argv[1])
    namespace: dict = {"__name__": "__main__"}
    for number, source in enumerate(code_cells(path), start=1):
        # Each cell compiles under its own name so tracebacks point at the cell.
        exec(compile(source, f"{path.name}[cell {number}]", "exec"), namespace)


if __name__ == "__main__":
    main(sys.argv)
