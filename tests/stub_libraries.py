"""Run a fixed program without JAX: `jax`, `optax` and `equinox` (and their submodules) are
stand-ins whose every attribute, call and operation gives another stand-in. A program that runs
here binds every name it uses in time (no NameError) and calls nothing with impossible arguments
of its own making; what the libraries would say is the verifier's job, not these tests'."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

_RUNNER = r'''
import importlib.abc, importlib.machinery, os, runpy, sys, types

class Anything:
    def __init__(self, *args, **kwargs): pass
    def __call__(self, *args, **kwargs): return Anything()
    def __getattr__(self, name):
        if name.startswith("__"): raise AttributeError(name)
        return Anything()
    def __iter__(self): return iter((Anything(), Anything()))
    def __getitem__(self, key): return Anything()
    def __setitem__(self, key, value): pass
    def __len__(self): return 2
    def __enter__(self): return Anything()
    def __exit__(self, *exc): return False
    def __float__(self): return 1.0
    def __int__(self): return 1
    def __mro_entries__(self, bases): return (StandIn,)
    def __bool__(self): return True
    def __index__(self): return 1
    for _op in ("add", "sub", "mul", "truediv", "floordiv", "matmul", "pow", "mod", "neg",
                "lt", "le", "gt", "ge", "and", "or"):
        locals()[f"__{_op}__"] = lambda self, *other: Anything()
        locals()[f"__r{_op}__"] = lambda self, *other: Anything()

class StandIn:
    """What a class deriving from a library class (`eqx.Module`) derives from instead."""
    def __init__(self, *args, **kwargs): pass
    def __init_subclass__(cls, **kwargs): pass
    def __getattr__(self, name):
        if name.startswith("__"): raise AttributeError(name)
        return Anything()

class Module(types.ModuleType):
    __path__ = []
    def __getattr__(self, name):
        if name.startswith("__"): raise AttributeError(name)
        return Anything()

class Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in ("jax", "optax", "equinox", "jaxtyping", "flax"):
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
    def create_module(self, spec): return Module(spec.name)
    def exec_module(self, module): pass

sys.meta_path.insert(0, Finder())
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))  # as `python file.py` does
runpy.run_path(sys.argv[1], run_name="__main__")
'''


def run_with_stubs(path: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-I", "-c", _RUNNER, str(path)], capture_output=True,
                          text=True, timeout=timeout, cwd=path.parent)


def run_cells_with_stubs(cells: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    """A notebook's code cells, run in order as one program (as a kernel runs them)."""
    program = folder / "cells_in_order.py"
    program.write_text("\n".join(cells) + "\n", encoding="utf-8")
    return run_with_stubs(program)
