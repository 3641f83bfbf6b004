"""Shared test helpers: where the shared fixtures live (see shared_data.py)."""

import os
from pathlib import Path

import pytest
from shared_data import DATA, FULL, SHARED, missing


@pytest.fixture(scope="session")
def shared() -> Path:
    """The shared/ folder, or the excerpt of it in tests/data/shared (CI needs the full one)."""
    if not FULL and os.environ.get("CI"):
        missing(SHARED)
    return DATA


@pytest.fixture(scope="session")
def rouge155_oracle(tmp_path_factory):
    """(ROUGE-1.5.5.pl, its data folder): see tests/oracle.py."""
    from oracle import build_oracle, unavailable

    found = build_oracle(tmp_path_factory.mktemp("oracle"))
    if isinstance(found, str):
        unavailable(found)
    return found
