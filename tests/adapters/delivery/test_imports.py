"""The delivery layer is the platforms' shared part: none of its modules imports a chat
library or a platform's adapter."""

from __future__ import annotations

import ast
from pathlib import Path

import adapters.delivery

PLATFORMS = ("telegram", "discord", "adapters.telegram", "adapters.discord")


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and not node.level:
            names.add(node.module)
    return names


def test_no_module_of_the_delivery_layer_imports_a_platform() -> None:
    folder = Path(adapters.delivery.__file__).parent
    modules = sorted(folder.glob("*.py"))
    assert len(modules) > 10
    for path in modules:
        for name in imported(path):
            assert not any(
                name == platform or name.startswith(platform + ".") for platform in PLATFORMS
            ), f"{path.name} imports {name}"
