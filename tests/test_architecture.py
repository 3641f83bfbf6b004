"""The layers of docs/architecture.md, pinned: a package imports only from layers below it.

Every ``import`` statement of every module counts, at the top of a module or
inside a function.  A new package (a folder or a top-level module of
``rouge2/``) must be given a layer here and on the architecture page.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "rouge2"

#: bottom to top; the packages of one layer do not import each other
LAYERS: list[set[str]] = [
    {"errors", "_version"},
    {"kernels", "data", "files", "limits", "registry"},
    {"analysis", "schemas"},
    {"synonyms", "pos", "compat"},
    {"aspects"},  # aspect lexicons and matching: read by measures, read the analysis and lemmas
    {"measures"},
    {"stats"},
    {"scoring", "io"},
    {"config", "__init__"},  # rouge2/__init__.py: the library API
    {"run"},
    {"cli"},
    {"__main__"},  # python -m rouge2
]
LAYER = {package: i for i, layer in enumerate(LAYERS) for package in layer}


def package_of(module: str) -> str:
    """``rouge2.scoring.options`` -> ``scoring``; ``rouge2`` -> ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` of every rouge2 module ``path`` imports."""
    return imports_in(path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py")


def imports_in(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """``(line, module)`` of every rouge2 module imported by ``source`` (module ``module``)."""
    here = module.split(".") if is_package else module.split(".")[:-1]  # where relative imports start
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(here[:len(here) - node.level + 1] + ([base] if base else []))
            # "from rouge2 import files" imports the module rouge2.files
            out += [(node.lineno, f"{base}.{a.name}" if base == "rouge2" else base) for a in node.names]
    return [(line, m) for line, m in out if m == "rouge2" or m.startswith("rouge2.")]


def modules() -> list[Path]:
    return sorted(ROOT.rglob("*.py"))


def test_every_package_has_a_layer():
    packages = {package_of(module_name(p)) for p in modules()}
    assert packages - set(LAYER) == set(), "give the new package a layer here and in docs/architecture.md"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_run_down_the_layers(path):
    mine = package_of(module_name(path))
    wrong = []
    for line, target in imported(path):
        theirs = package_of(target) if target != "rouge2" else "__init__"
        if theirs != mine and LAYER[theirs] >= LAYER[mine]:
            wrong.append(f"{path.relative_to(ROOT.parent)}:{line} imports {target} "
                         f"(layer {LAYER[theirs]}, {theirs}) from layer {LAYER[mine]} ({mine})")
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_every_kind_of_import():
    """The checker itself: absolute, package and relative imports, at the top or in a function."""
    src = ("from rouge2.scoring.options import Options\nfrom rouge2 import files\n"
           "def f():\n    from . import ngram\n    import rouge2.stats.prf\n")
    found = imports_in(src, "rouge2.measures.probe")
    assert found == [(1, "rouge2.scoring.options"), (2, "rouge2.files"), (4, "rouge2.measures"),
                     (5, "rouge2.stats.prf")]
    above = [m for _, m in found if LAYER[package_of(m)] > LAYER["measures"]]
    assert above == ["rouge2.scoring.options", "rouge2.stats.prf"]


def test_the_architecture_page_names_every_layer():
    text = (ROOT.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    for layer in LAYERS:
        for package in layer - {"__init__", "__main__", "_version"}:
            name = f"{package}/" if (ROOT / package).is_dir() else f"{package}.py"
            assert name in text, name
