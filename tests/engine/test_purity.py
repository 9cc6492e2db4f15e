"""The engine is pure: it imports nothing outside the standard library."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
ALLOWED = frozenset(sys.stdlib_module_names) | {"engine"}

MODULES = sorted(ENGINE.rglob("*.py"))


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_names(tree: ast.AST) -> list[tuple[int, str]]:
    """Absolute module names imported, with line numbers (relative imports stay in the engine)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def test_the_engine_has_modules_to_check() -> None:
    assert ENGINE / "__init__.py" in MODULES


@pytest.mark.parametrize("path", MODULES, ids=_module_name)
def test_engine_modules_import_only_the_standard_library(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    foreign = [
        f"line {line}: {name}"
        for line, name in _imported_names(tree)
        if name.partition(".")[0] not in ALLOWED
    ]
    assert foreign == [], f"{_module_name(path)} imports outside the standard library"


# Run in a fresh interpreter so modules that pytest itself loaded cannot hide an import;
# only modules that appear after the start-up are counted, as site hooks may load their own.
_LOAD_EVERY_ENGINE_MODULE = """
import importlib, json, sys
before = set(sys.modules)
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def test_importing_the_engine_loads_no_third_party_module() -> None:
    # __main__ is a program, not a library module: importing it would run it.
    names = [_module_name(p) for p in MODULES if p.stem != "__main__"]
    completed = subprocess.run(
        [sys.executable, "-c", _LOAD_EVERY_ENGINE_MODULE, json.dumps(names)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    loaded = json.loads(completed.stdout)
    foreign = sorted({name.partition(".")[0] for name in loaded} - ALLOWED)
    assert foreign == [], "importing the engine loaded packages outside the standard library"
