"""Imports point one way (docs/architecture.md "Layers and domains").

Layers: app → components → states → services → models → core, never back. Inside services/, each
domain is one folder and the domains form one line: a domain imports only those before it in
`DOMAINS`, so money depends on shifts and never the reverse. The last test feeds the checker a
deliberately wrong import to prove it fails.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
# What each layer may not import.
FORBIDDEN = {
    "components": {"app"},
    "states": {"app", "components"},
    "services": {"app", "components", "states", "reflex"},
    "models": {"app", "components", "states", "services", "reflex"},
    "core": {"app", "components", "states", "services", "models", "reflex"},
}
# services/ domains, lowest first: each may import itself and those before it.
DOMAINS = ("common", "accounts", "reach", "jobs", "shifts", "trust", "money", "screens", "privacy", "timer")


def _imports(source: str) -> list[str]:
    """Every absolute module a source imports, with `from x import y` also as `x.y`."""
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            names.extend(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _domain_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "services" and parts[1] in DOMAINS else None


def domain_offences(domain: str, source: str) -> list[str]:
    """The imports of a module in `domain` that reach a domain after it."""
    allowed = set(DOMAINS[: DOMAINS.index(domain) + 1])
    return sorted({name for name in _imports(source) if (_domain_of(name) or domain) not in allowed})


def _product_files(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_module_imports_a_layer_above_it(layer):
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            {name.split(".")[0] for name in _imports(path.read_text())} & FORBIDDEN[layer]
        )
        for path in _product_files(layer)
    }

    assert {path: names for path, names in offenders.items() if names} == {}


def test_every_service_lives_in_a_domain_folder_with_a_docstring():
    loose = [p.name for p in (ROOT / "services").glob("*.py") if p.name != "__init__.py"]
    folders = sorted(p.name for p in (ROOT / "services").iterdir() if p.is_dir() and p.name != "__pycache__")
    undocumented = [
        d for d in DOMAINS if not ast.get_docstring(ast.parse((ROOT / "services" / d / "__init__.py").read_text()))
    ]

    assert (loose, folders, undocumented) == ([], sorted(DOMAINS), [])


def test_domains_import_only_those_below_them():
    offenders = {
        str(path.relative_to(ROOT)): domain_offences(domain, path.read_text())
        for domain in DOMAINS
        for path in _product_files(f"services/{domain}")
    }

    assert {path: names for path, names in offenders.items() if names} == {}


def test_the_checker_refuses_a_deliberately_wrong_import():
    shifts_reaching_money = "from services.money import settlement\nfrom services.jobs import plans\n"
    money_reaching_shifts = "from services.shifts.hiring_lifecycle import move\n"

    assert domain_offences("shifts", shifts_reaching_money) == [
        "services.money",
        "services.money.settlement",
    ]
    assert domain_offences("money", money_reaching_shifts) == []
