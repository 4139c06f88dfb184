"""The package's modules import one another without a cycle.

The graph is read from the source with ``ast``: every ``import`` and ``from ... import``
of a module of the package, at module level and inside functions alike (an import
deferred into a function hides a cycle from the interpreter but is still one: the two
modules cannot be understood, tested or moved apart); imports under ``if TYPE_CHECKING:``
are left out (they exist for the type checker only).  ``importlib.import_module`` by
name (the game registry's lazy loading) is not an import of a module.

Any strongly connected group of two or more modules fails the test, unless it lies
within a group of ``KNOWN_CYCLES`` (empty: the package has no cycle).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "aceydeucey"

#: Cycles allowed to remain: none (the list stays for a cycle being removed in steps).
KNOWN_CYCLES: list[frozenset[str]] = []


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of ``tree``, outside ``if TYPE_CHECKING:`` blocks."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            for other in node.orelse:
                yield from _imports(ast.Module(body=[other], type_ignores=[]))
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        else:
            yield from _imports(node)


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _imports(tree):
            if isinstance(node, ast.Import):
                graph[name].update(a.name for a in node.names if a.name in modules)
                continue
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in modules:
                    graph[name].add(sub)
                elif target in modules:
                    graph[name].add(target)
        graph[name].discard(name)
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm, iterative: the groups of two or more mutually reachable modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(group)
    return groups


def test_the_package_has_no_import_cycle_beyond_the_known_ones() -> None:
    graph = import_graph()
    assert "aceydeucey.core.game" in graph and graph["aceydeucey.core.registry"]
    new = [
        sorted(group)
        for group in strongly_connected(graph)
        if not any(group <= known for known in KNOWN_CYCLES)
    ]
    assert not new, f"import cycles: {new}"


def test_the_walk_finds_a_cycle_where_there_is_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert strongly_connected(graph) == [{"a", "b", "c"}]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


def test_deferred_and_type_checking_imports_are_told_apart() -> None:
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import typed_only\n"
        "def later():\n    import deferred\n"
    )
    names = [a.name for node in _imports(tree) for a in node.names]
    assert names == ["TYPE_CHECKING", "deferred"]
