"""optlint's own modules imported from the bundle (optlint.module_bundle), not module by module.

Why: a one-file `optlint check` imports ~230 of optlint's modules, and the import system costs
each ~0.28M instructions before the module's own code runs (finders, stat calls, reading and
validating its .pyc, a spec, module locks, its attributes, most of it importlib's Python code):
130 modules of five lines importing each other take 47M instructions that way, 11M as below
(valgrind).

Only `optlint check` uses it (optlint.launch). The modules it gives have builtins of their own
whose `__import__` is `_import` below: their import statements of optlint's modules are served
from the bundle without importlib's machinery, and everyone else's imports (libcst's parser
imports in each call) go straight to the interpreter's own. A finder first on `sys.meta_path`
serves what `importlib.import_module` asks for (the output formats). Each module gets what the
import system would give it: a spec, a loader (a `SourceFileLoader` whose code comes from the
bundle, so `importlib.reload` and `importlib.resources` work), `__file__`, `__package__`,
`__path__`; its code keeps its source's file name, so tracebacks, `inspect` and `linecache` read
the .py file. A module the bundle lacks, or holds for a source since changed, is imported the
ordinary way. The check's threads take turns (the analysis thread runs while the main thread
waits), but a lock still keeps two loads apart.

After the run, a module that was imported the ordinary way but has valid bytecode now (written by
that import) gets the bundle rewritten, unless bytecode is not to be written
(`PYTHONDONTWRITEBYTECODE`, `-B`). `python -m optlint.module_bundle` writes it outright, compiling
what has no bytecode (benchmarks/bench.py does, as it compiles the .pyc files).
"""

from __future__ import annotations

import _imp
import builtins
import os
import sys
import threading
from collections.abc import Sequence
from importlib.machinery import ModuleSpec, SourceFileLoader
from types import CodeType, ModuleType
from typing import Any

from optlint.module_bundle import PACKAGE, ROOT, Bundle, Row, bundle_path, bytecode, read, write

_PREFIX = PACKAGE + "."
_ABSENT = object()

_bundle = Bundle(-1, 0, {}, [])  # none yet: it has no rows
_served: set[str] = set()  # the modules taken from the bundle in this process
_before: set[str] = set()  # optlint's modules already imported when install() ran
_lock = threading.RLock()
_original_import = builtins.__import__
# The builtins of the modules the bundle gives: the interpreter's, with `_import`.
_BUILTINS: dict[str, Any] = {}


def install() -> bool:
    """Serve optlint's modules from the bundle from now on; False (and nothing changed) where
    there is no bundle for this folder and interpreter, or under `-X importtime` or `-v`."""
    global _bundle
    _before.update(_own_modules())
    if "importtime" in sys._xoptions or sys.flags.verbose:
        return False  # the import system is asked to report each module: it imports them all
    bundle = read(ROOT)
    if bundle is None:
        return False
    _bundle = bundle
    _BUILTINS.update(builtins.__dict__, __import__=_import)
    sys.meta_path.insert(0, _Finder)
    return True


def refresh() -> None:
    """After a run: rewrite the bundle if a module was imported the ordinary way and now has
    valid bytecode to add. Never raises: the bundle is only a cache."""
    try:
        if sys.dont_write_bytecode or not os.access(os.path.dirname(bundle_path(ROOT)), os.W_OK):
            return  # (a system-wide install this user cannot write: not tried after every run)
        old = _bundle if _bundle.rows else (read(ROOT) or _bundle)
        for name in _own_modules() - _served - _before:
            path = getattr(sys.modules[name], "__file__", None)
            if old.current(name) is None and isinstance(path, str) and bytecode(path):
                write(ROOT, compile_missing=False)
                return
    except Exception:  # noqa: BLE001 - a cache that cannot be written is left as it is
        return


def _own_modules() -> set[str]:
    return {name for name in sys.modules if name == PACKAGE or name.startswith(_PREFIX)}


class _Loader(SourceFileLoader):
    """The source file's loader, with the bundle's code while the source is unchanged."""

    def exec_module(self, module: ModuleType) -> None:
        module.__builtins__ = _BUILTINS  # type: ignore[attr-defined]
        super().exec_module(module)

    def get_code(self, fullname: str) -> CodeType | None:
        row = _bundle.current(fullname)
        code = None if row is None else _code(row)
        if code is None:
            return super().get_code(fullname)
        _served.add(fullname)
        return code


def _code(row: Row) -> CodeType | None:
    """The module's code from the bundle; None where the file cannot give it."""
    try:
        code = _bundle.code(row)
    except (OSError, ValueError, EOFError):
        return None
    # as importlib does for a .pyc of a moved tree
    _imp._fix_co_filename(code, row[0])  # type: ignore[attr-defined]
    return code


def _spec(name: str, row: Row) -> ModuleSpec:
    path, is_package = row[0], row[1]
    spec = ModuleSpec(name, _Loader(name, path), origin=path, is_package=is_package)
    spec.has_location = True
    if is_package:
        spec.submodule_search_locations = [os.path.dirname(path)]
    return spec


class _Finder:
    """First on `sys.meta_path`: optlint's modules that `importlib.import_module` asks for."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        row = _bundle.current(name) if name.startswith(_PREFIX) else None
        return None if row is None else _spec(name, row)


def _import(name: str, globals: Any = None, locals: Any = None,  # noqa: A002 - __import__'s
            fromlist: Sequence[str] | None = (), level: int = 0) -> ModuleType:
    """`__import__`, with optlint's modules taken from the bundle without importlib's machinery;
    anything else (a relative import, another package, a module the bundle lacks or holds
    stale) the ordinary way."""
    if level == 0 and (name == PACKAGE or name.startswith(_PREFIX)):
        module = sys.modules.get(name, _ABSENT)
        if module is _ABSENT:
            module = _load(name)
        if isinstance(module, ModuleType):
            if not fromlist:
                return sys.modules[PACKAGE]
            if hasattr(module, "__path__"):
                _import_from(module, fromlist)
            return module
    return _original_import(name, globals, locals, fromlist, level)  # type: ignore[no-any-return]


def _import_from(package: ModuleType, fromlist: Sequence[str]) -> None:
    """`from package import a, b`: the submodules among the names, imported (importlib's
    `_handle_fromlist`)."""
    for item in fromlist:
        if item == "*":
            names = getattr(package, "__all__", None)
            if names is not None:
                _import_from(package, [name for name in names if name != "*"])
        elif not hasattr(package, item):
            submodule = f"{package.__name__}.{item}"
            try:
                _import(submodule)
            except ModuleNotFoundError as error:
                # not a submodule: `from package import name` then fails as it always has
                if error.name == submodule and sys.modules.get(submodule, _ABSENT) is not None:
                    continue
                raise


def _load(name: str) -> ModuleType | None:
    """Module `name` executed from the bundle, or None where the bundle cannot give it."""
    with _lock:
        row = _bundle.current(name)
        if row is None:
            return None
        parent_name, _, child = name.rpartition(".")
        if parent_name not in sys.modules:
            _import(parent_name)
        if name in sys.modules:  # its package's own code imported it
            return sys.modules[name]  # type: ignore[no-any-return]
        code = _code(row)
        if code is None:
            return None
        spec = _spec(name, row)
        module = ModuleType(name)
        module.__spec__ = spec
        module.__loader__ = spec.loader
        module.__file__ = spec.origin
        module.__package__ = name if row[1] else parent_name
        module.__builtins__ = _BUILTINS  # type: ignore[attr-defined]
        if spec.submodule_search_locations is not None:
            module.__path__ = spec.submodule_search_locations
        sys.modules[name] = module
        spec._initializing = True  # type: ignore[attr-defined]  # as importlib marks it
        try:
            exec(code, module.__dict__)
        except BaseException:
            sys.modules.pop(name, None)
            raise
        finally:
            spec._initializing = False  # type: ignore[attr-defined]
        module = sys.modules[name]
        setattr(sys.modules[parent_name], child, module)
        _served.add(name)
        return module
