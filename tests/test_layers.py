"""The import graph of the package holds its declared layers (pokerlab/_layers.py).

Every ``.py`` file under ``pokerlab/`` is read with ``ast`` (nothing is imported); every
import counts, function-level and ``if TYPE_CHECKING`` ones included, and so does every
string that names a module of the package (``"pokerlab.mod"`` or ``"pokerlab.mod:attr"``,
as ``importlib.import_module`` or a plug-in table would load it: a hidden dependency all
the same, read as /work/shared/tools/import_cycles.py reads it).  The test fails,
listing them, on any module cycle (a strongly connected group of modules), any import from
a lower layer up to a higher one, and any cycle between the packages of one layer.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from pokerlab._layers import LAYERS, layer_of

ROOT = Path(__file__).resolve().parent.parent / "pokerlab"

Graph = Mapping[str, Mapping[str, int]]
"""module -> {imported module: line of the first such import}."""


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


STRING_IMPORT = re.compile(r"^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?::[A-Za-z_][\w.]*)?$")
"""A string naming a module (``pkg.mod``) or a member of one (``pkg.mod:attr``)."""


def _imported_names(tree: ast.AST, mod: str, is_pkg: bool) -> Iterable[tuple[str, int]]:
    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
    top = mod.split(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            m = STRING_IMPORT.match(node.value)  # a module named in a string
            if m and m.group(1).split(".")[0] == top:
                yield m.group(1), node.lineno
            continue
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                stem = base[: len(base) - node.level + 1]
                target = ".".join(stem + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield target, node.lineno
            for a in node.names:  # ``from pkg import submodule``
                yield f"{target}.{a.name}", node.lineno


def import_graph(root: Path = ROOT) -> tuple[dict[str, dict[str, int]], dict[str, Path]]:
    files = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, dict[str, int]] = {m: {} for m in files}
    for mod, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for target, line in _imported_names(tree, mod, path.name == "__init__.py"):
            while target and target not in files:
                target = target.rpartition(".")[0]
            # a module's own parent packages are imported before it anyway
            if target and target != mod and not mod.startswith(target + "."):
                graph[mod].setdefault(target, line)
    return graph, files


def strongly_connected(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The groups of more than one node that reach each other (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        work = [(start, iter(graph[start]))]
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in graph:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def top_name(mod: str) -> str:
    """``pokerlab.holdem.engine`` -> ``holdem``; the package itself -> ``__init__``."""
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def problems(graph: Graph, layer: Mapping[str, int | None] | None = None) -> list[str]:
    """Every module cycle, upward import and same-layer package cycle, one line each
    (``layer`` maps a top-level name to its layer index; default: pokerlab/_layers.py)."""
    def lay(mod: str) -> int | None:
        return layer_of(top_name(mod)) if layer is None else layer.get(top_name(mod))

    out: list[str] = []
    for g in strongly_connected(graph):
        members = set(g)
        ties = [f"{m}:{line} imports {t}" for m in g
                for t, line in sorted(graph[m].items()) if t in members]
        out.append(f"cycle of {len(g)} modules: {', '.join(g)} ({'; '.join(ties)})")
    packages: dict[str, dict[str, str]] = {}
    for m, targets in graph.items():
        lm = lay(m)
        if lm is None:
            out.append(f"no layer: {m} (add {top_name(m)!r} to pokerlab/_layers.py)")
            continue
        for t, line in targets.items():
            lt = lay(t)
            if lt is not None and lt > lm:
                out.append(f"upward: {m}:{line} imports {t}")
            if lt == lm and top_name(t) != top_name(m):
                packages.setdefault(top_name(m), {}).setdefault(top_name(t), f"{m}:{line}")
    for g in strongly_connected({p: list(ts) for p, ts in packages.items()}):
        members = set(g)
        ties = [f"{where} imports {t}" for p in g
                for t, where in sorted(packages[p].items()) if t in members]
        out.append(f"package cycle in one layer: {', '.join(g)} ({'; '.join(ties)})")
    return out


def test_every_module_has_a_layer_and_the_layers_hold() -> None:
    graph, _ = import_graph()
    assert len(graph) > 100
    found = problems(graph)
    assert not found, f"{len(found)} layer problems:\n" + "\n".join(found)


def test_layer_table_names_are_unique() -> None:
    names = [n for _, ns in LAYERS for n in ns]
    assert len(names) == len(set(names))


def test_a_synthetic_cycle_and_upward_import_are_reported() -> None:
    layer = {"low": 0, "high": 1, "side": 1}
    graph = {
        "pokerlab.low.a": {"pokerlab.low.b": 3},
        "pokerlab.low.b": {"pokerlab.low.a": 7, "pokerlab.high.x": 9},  # cycle + upward
        "pokerlab.high.x": {"pokerlab.side.y": 2},
        "pokerlab.side.y": {"pokerlab.high.z": 4},  # high <-> side: package cycle
        "pokerlab.high.z": {},
    }
    found = problems(graph, layer)
    assert any(p.startswith("cycle of 2 modules: pokerlab.low.a, pokerlab.low.b")
               for p in found), found
    assert "upward: pokerlab.low.b:9 imports pokerlab.high.x" in found
    assert any(p.startswith("package cycle in one layer: high, side") for p in found), found
    # a clean graph reports nothing
    clean = {"pokerlab.low.a": {}, "pokerlab.high.x": {"pokerlab.low.a": 1}}
    assert problems(clean, layer) == []


def test_function_level_and_type_checking_imports_are_read(tmp_path: Path) -> None:
    pkg = tmp_path / "pokerlab"
    (pkg / "low").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "low" / "__init__.py").write_text("")
    (pkg / "low" / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import b\n")
    (pkg / "low" / "b.py").write_text("def f():\n    from pokerlab.low.a import x\n")
    graph, _ = import_graph(pkg)
    assert graph["pokerlab.low.a"] == {"pokerlab.low.b": 3}
    assert graph["pokerlab.low.b"] == {"pokerlab.low.a": 2}
    assert strongly_connected(graph) == [["pokerlab.low.a", "pokerlab.low.b"]]


def test_modules_named_in_strings_are_read(tmp_path: Path) -> None:
    """A module loaded by name (``importlib.import_module("...")``, a ``"module:attr"``
    plug-in string) is an import: a cycle through one, or an upward one, is reported."""
    pkg = tmp_path / "pokerlab"
    (pkg / "low").mkdir(parents=True)
    (pkg / "high").mkdir()
    for d in (pkg, pkg / "low", pkg / "high"):
        (d / "__init__.py").write_text("")
    (pkg / "low" / "a.py").write_text(
        'import importlib\n\nTRAINER = "pokerlab.high.b:train"\n\n\n'
        'def load():\n    return importlib.import_module("pokerlab.low.c")\n')
    (pkg / "low" / "c.py").write_text('"""Not a module name: pokerlab.low.a is prose."""\n'
                                      'OTHER = "numpy.linalg"\n')
    (pkg / "high" / "b.py").write_text("from pokerlab.low import a\n")
    graph, _ = import_graph(pkg)
    assert graph["pokerlab.low.a"] == {"pokerlab.high.b": 3, "pokerlab.low.c": 7}
    assert graph["pokerlab.low.c"] == {}  # prose and other packages' names are not imports
    assert strongly_connected(graph) == [["pokerlab.high.b", "pokerlab.low.a"]]
    found = problems(graph, {"low": 0, "high": 1, "__init__": 0})
    assert "upward: pokerlab.low.a:3 imports pokerlab.high.b" in found
    assert any(p.startswith("cycle of 2 modules: pokerlab.high.b, pokerlab.low.a")
               for p in found), found
