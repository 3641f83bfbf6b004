"""Shared test helpers: where the shared fixtures live."""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ROUGE2_SHARED", REPO.parent / "shared"))


@pytest.fixture(scope="session")
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"shared fixtures not found at {SHARED} (set ROUGE2_SHARED)")
    return SHARED
