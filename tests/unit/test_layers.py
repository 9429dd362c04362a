"""Imports point down only (docs/architecture.md): app → components, states → services → models, core."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# What each layer may not import.
FORBIDDEN = {
    "components": {"app"},
    "states": {"app"},
    "services": {"app", "components", "states", "reflex"},
    "models": {"app", "components", "states", "services", "reflex"},
    "core": {"app", "components", "states", "services", "reflex"},
}


def _imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_module_imports_a_layer_above_it(layer):
    offenders = {
        str(path.relative_to(ROOT)): sorted(_imported_packages(path) & FORBIDDEN[layer])
        for path in (ROOT / layer).rglob("*.py")
    }

    assert {path: names for path, names in offenders.items() if names} == {}
