"""Import aliases resolved to qualified names, with a light table of our own.

libcst's QualifiedNameProvider runs full scope analysis, which costs several times the parse itself;
a dict from local names to dotted paths, filled while the indexer walks the file, is all rules need.
"""

from __future__ import annotations

import libcst as cst

from optlint.analysis.apis import canonical_name


def dotted_name(node: cst.BaseExpression) -> str | None:
    """`a.b.c` as a string, or None when the expression is not a plain dotted name."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted_name(node.value)
        return None if base is None else f"{base}.{node.attr.value}"
    return None


class ImportTable:
    """Local name -> fully qualified name, for every import in a file."""

    def __init__(self) -> None:
        self.aliases: dict[str, str] = {}
        # `from models import *`: the modules whose public names this file may use unqualified.
        self.star_modules: list[str] = []
        # id of a node asked about -> (the node, its name): every rule asks about every call's
        # callee, so each is worked out once. The node is kept so that its id is not reused.
        self._qualified: dict[int, tuple[cst.BaseExpression, str | None]] = {}

    def add_import(self, node: cst.Import) -> None:
        self._qualified.clear()
        for alias in node.names:
            full = dotted_name(alias.name)
            if full is None:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.aliases[alias.asname.name.value] = full
            else:
                # `import a.b.c` binds `a`, and `a.b.c` is then reached through it.
                head = full.split(".", 1)[0]
                self.aliases[head] = head

    def add_import_from(self, node: cst.ImportFrom) -> None:
        self._qualified.clear()
        module = dotted_name(node.module) if node.module is not None else ""
        prefix = "." * len(node.relative) + (module or "")
        if isinstance(node.names, cst.ImportStar):
            if prefix and not prefix.endswith("."):
                self.star_modules.append(prefix)
            return
        for alias in node.names:
            name = dotted_name(alias.name)
            if name is None:
                continue
            local = name
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            joiner = "" if prefix.endswith(".") or not prefix else "."
            self.aliases[local] = f"{prefix}{joiner}{name}"

    def add_alias(self, local: str, full: str) -> None:
        """`local` names `full` unless the file's own imports name it otherwise (a name a
        star-imported module imports: `star_imports.py`)."""
        if local not in self.aliases:
            self._qualified.clear()
            self.aliases[local] = full

    def qualify(self, node: cst.BaseExpression) -> str | None:
        """The canonical qualified name of `node` if its root is an imported name."""
        known = self._qualified.get(id(node))
        if known is not None and known[0] is node:
            return known[1]
        qualified = self._qualify(node)
        self._qualified[id(node)] = (node, qualified)
        return qualified

    def qualify_name(self, name: str) -> str | None:
        """`qualify` of the plain name `name`, without a node to ask about."""
        base = self.aliases.get(name)
        return None if base is None else canonical_name(base)

    def _qualify(self, node: cst.BaseExpression) -> str | None:
        dotted = dotted_name(node)
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        base = self.aliases.get(head)
        if base is None:
            return None
        return canonical_name(f"{base}.{rest}" if rest else base)

    def local_alias_for(self, module: str) -> str | None:
        """The name this file uses for `module` (e.g. `eqx` for equinox), if it imports it whole."""
        for local, full in self.aliases.items():
            if full == module:
                return local
        return None
