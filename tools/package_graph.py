"""The package diagram of docs/architecture.md, drawn from the code's imports.

    python tools/package_graph.py     # prints the Mermaid block the document holds

Nodes are the packages and top-level modules of ``falseclaims`` (``sheets`` as its two
parts); an arrow A --> B says that A imports B (imports inside functions too, as
import-linter counts them, through grimp). An arrow implied by a longer path is left out,
so the picture shows the layers; `lint-imports` checks the full graph.
"""

from __future__ import annotations

import grimp

SPLIT = ("falseclaims.sheets.read", "falseclaims.sheets.draft")


def node(module: str) -> str | None:
    for part in SPLIT:
        if module == part or module.startswith(part + "."):
            return part.split(".", 1)[1].replace(".", "/")
    parts = module.split(".")
    if len(parts) == 1 or module == "falseclaims.sheets":
        return None  # the package roots only re-export names lazily
    return parts[1]


def package_edges() -> dict[str, set[str]]:
    graph = grimp.build_graph("falseclaims", cache_dir=None)
    edges: dict[str, set[str]] = {}
    for module in graph.modules:
        a = node(module)
        if a is None:
            continue
        edges.setdefault(a, set())
        for imported in graph.find_modules_directly_imported_by(module):
            b = node(imported)
            if b is not None and b != a:
                edges[a].add(b)
    return edges


def reduced(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """Drop A --> B where B is reached from A through another node (the graph is acyclic:
    the import contracts say so)."""
    def reach(start: str, skip: str) -> set[str]:
        seen, todo = set(), [n for n in edges[start] if n != skip]
        while todo:
            n = todo.pop()
            if n not in seen:
                seen.add(n)
                todo.extend(edges.get(n, ()))
        return seen
    return {a: {b for b in bs if b not in reach(a, b)} for a, bs in edges.items()}


def mermaid(edges: dict[str, set[str]]) -> str:
    lines = ["flowchart TD"]
    lines += [f"  {a.replace('/', '_')}[{a}] --> {b.replace('/', '_')}[{b}]"
              for a in sorted(edges) for b in sorted(edges[a])]
    lines += [f"  {a.replace('/', '_')}[{a}]" for a in sorted(edges)
              if not edges[a] and not any(a in bs for bs in edges.values())]
    return "\n".join(lines)


def main() -> int:
    print(mermaid(reduced(package_edges())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
