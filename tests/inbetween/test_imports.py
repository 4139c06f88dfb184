"""In-Between's modules import one another without a cycle, and the engine never imports
the simulator.

Every import is counted, at module level or deferred inside a function (only those under
``if TYPE_CHECKING:`` are left out, since they never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

import aceydeucey

ROOT = Path(aceydeucey.__file__).parent
ENGINE = "aceydeucey.inbetween"


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports (any depth, TYPE_CHECKING left out)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for other in node.orelse:
                visit(other)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in known else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in known and m != name}


def _graph() -> dict[str, set[str]]:
    known = _modules()
    mine = {n: p for n, p in known.items() if n.startswith((ENGINE, "aceydeucey.sim.inbetween"))}
    return {n: _imports(n, p, known) for n, p in mine.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle among the graph's modules, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in graph:
                continue
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = walk(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = walk(node)
            if found:
                return found
    return None


def test_in_between_has_no_import_cycle() -> None:
    graph = _graph()
    assert "aceydeucey.inbetween.state" in graph
    assert "aceydeucey.inbetween.turns" in graph["aceydeucey.inbetween.state"]  # it reads them
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_engine_never_imports_the_simulator() -> None:
    for name, imported in _graph().items():
        if name.startswith(ENGINE):
            assert not {m for m in imported if m.startswith("aceydeucey.sim")}, name


def test_the_walk_finds_a_cycle_where_there_is_one() -> None:
    # the detector itself: two modules importing each other form a cycle
    assert _cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
