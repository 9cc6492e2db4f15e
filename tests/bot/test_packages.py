"""The core's packages import one way: each only the packages the rule below lets it.

Every module of bot/ is parsed (nothing is imported), each of its imports resolved to
the package it reaches, and an import the rule does not allow fails with its line. The
rule is the one docs/architecture.md states and each package's docstring repeats.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
ARCHITECTURE = ROOT / "docs" / "architecture.md"

# package -> the other packages of bot/ its modules may import
RULE: Mapping[str, frozenset[str]] = {
    "model": frozenset(),
    "ai": frozenset(),
    "views": frozenset({"model", "ai"}),
    "storage": frozenset({"model", "views"}),
    "picture": frozenset({"model", "views"}),
    "table": frozenset({"model", "views", "ai", "storage", "picture"}),
    "app": frozenset({"model", "views", "ai", "storage", "picture", "table"}),
}
# bot/__main__.py, the composition root, may import every package (and the adapters).
ROOT_MODULE = "bot.__main__"

MODULES = sorted(BOT.rglob("*.py"))


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package(module: str) -> str | None:
    """The package of bot/ a module belongs to; None for bot itself and its __main__."""
    parts = module.split(".")
    if parts[0] != "bot" or len(parts) < 2 or parts[1] == "__main__":
        return None
    return parts[1] if (BOT / parts[1]).is_dir() else None


def imports(path: Path) -> list[tuple[int, str]]:
    """Every module or name the file imports, as an absolute dotted name, with its line."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return imports_of(path.read_text(encoding="utf-8"), package)


def imports_of(source: str, package: str) -> list[tuple[int, str]]:
    """The imports of a module of `package`: `from bot import ai` gives bot.ai, and a
    relative import is resolved from the package."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.extend((node.lineno, f"{base}.{alias.name}") for alias in node.names)
    return found


def forbidden(path: Path, rule: Mapping[str, frozenset[str]]) -> list[str]:
    """The imports of one module that the rule does not allow."""
    module = _module_name(path)
    own = _package(module)
    if module == ROOT_MODULE:
        return []
    wrong = []
    for line, name in imports(path):
        if name.split(".")[0] == "adapters":
            wrong.append(f"line {line}: {name} (the core imports no adapter)")
            continue
        target = _package(name)
        if target is None or target == own:
            continue
        if own is None or target not in rule[own]:
            wrong.append(f"line {line}: {name} ({own or 'bot'} may not import {target})")
    return wrong


def package_edges() -> dict[str, set[str]]:
    """Which package imports which, as the modules are written."""
    edges: dict[str, set[str]] = {name: set() for name in RULE}
    for path in MODULES:
        own = _package(_module_name(path))
        if own is None:
            continue
        for _, name in imports(path):
            target = _package(name)
            if target is not None and target != own:
                edges.setdefault(own, set()).add(target)
    return edges


def a_cycle(edges: Mapping[str, Iterable[str]]) -> list[str]:
    """One cycle of the graph as the packages along it (the first repeated), or []."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str]:
        if node in path:
            return path[path.index(node) :] + [node]
        if node in done:
            return []
        for following in sorted(edges.get(node, ())):
            cycle = visit(following, [*path, node])
            if cycle:
                return cycle
        done.add(node)
        return []

    for start in sorted(edges):
        cycle = visit(start, [])
        if cycle:
            return cycle
    return []


def test_every_package_of_the_core_has_a_rule_and_nothing_else_lies_loose() -> None:
    packages = {p.parent.name for p in BOT.glob("*/__init__.py")}
    assert packages == set(RULE)
    loose = sorted(p.name for p in BOT.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py"], "a module of bot/ belongs in a package"


def test_the_rule_points_one_way() -> None:
    assert a_cycle(RULE) == []


@pytest.mark.parametrize("path", MODULES, ids=_module_name)
def test_a_module_imports_only_what_its_package_may(path: Path) -> None:
    assert forbidden(path, RULE) == [], f"{_module_name(path)} imports across the rule"


def test_the_packages_import_one_way() -> None:
    edges = package_edges()
    assert a_cycle(edges) == [], "the core's packages import each other in a circle"
    for own, targets in edges.items():
        assert targets <= RULE[own], f"{own} imports {sorted(targets - RULE[own])}"


def test_the_architecture_page_states_the_rule() -> None:
    # Its rows read | `bot/<package>/` | what it owns | the packages it may import |.
    stated = {
        row.group(1): frozenset(re.findall(r"`(\w+)`", row.group(2)))
        for row in re.finditer(
            r"^\| `bot/(\w+)/` \|.*\| ([^|]*) \|$", ARCHITECTURE.read_text(), re.M
        )
    }
    assert stated == RULE


def test_the_check_resolves_every_way_of_importing() -> None:
    source = (
        "import bot.storage.keys\nfrom bot import ai\nfrom ..table import runner\nfrom . import x\n"
    )
    assert imports_of(source, "bot.storage") == [
        (1, "bot.storage.keys"),
        (2, "bot.ai"),
        (3, "bot.table.runner"),
        (4, "bot.storage.x"),
    ]


def test_the_check_sees_a_forbidden_import_and_a_circle() -> None:
    assert a_cycle({"table": {"storage"}, "storage": {"model", "table"}}) == [
        "storage",
        "table",
        "storage",
    ]
    # The lobby's screens name the computers' levels: without views -> ai in the rule,
    # that import is refused, with its line.
    lobby = BOT / "views" / "lobby.py"
    refused = forbidden(lobby, {**RULE, "views": frozenset({"model"})})
    assert refused and all("views may not import ai" in wrong for wrong in refused)
