"""The code-quality gates: ruff and mypy are clean, and no function is a hub.

ruff (lint and import order, with mccabe complexity at most 15) and mypy are
configured in pyproject.toml and pinned in the ``test`` extra; each test runs
the tool of the interpreter running the tests and fails listing its findings.
"""

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: no function in rouge2/ longer than this (lines from ``def`` to its last line)
MAX_FUNCTION_LINES = 60


def _run_tool(module: str, *args: str) -> subprocess.CompletedProcess:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (it is in the test extra: pip install -e '.[test]')")
    return subprocess.run([sys.executable, "-m", module, *args], cwd=REPO,
                          capture_output=True, text=True)


def test_ruff_finds_nothing():
    done = _run_tool("ruff", "check", "--no-cache", "--output-format", "concise",
                     "rouge2", "tests", "benchmarks")
    assert done.returncode == 0, "ruff check rouge2 tests benchmarks:\n" + done.stdout + done.stderr


def test_mypy_finds_nothing():
    done = _run_tool("mypy")
    assert done.returncode == 0, "mypy (configured in pyproject.toml):\n" + done.stdout + done.stderr


def long_functions(root: Path, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """``path:line name (N lines)`` of each function under ``root`` longer than ``limit``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    found.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_long_functions_are_found(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES - 1))
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(f"def short():\n{body}\n\n\ndef long():\n{body}\n    return x0\n")
    start = MAX_FUNCTION_LINES + 3
    assert long_functions(tmp_path / "pkg") == [f"pkg/m.py:{start} long ({MAX_FUNCTION_LINES + 1} lines)"]


def test_no_function_in_rouge2_is_longer_than_60_lines():
    found = long_functions(REPO / "rouge2")
    assert not found, f"functions longer than {MAX_FUNCTION_LINES} lines:\n" + "\n".join(found)
