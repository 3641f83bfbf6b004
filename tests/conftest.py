"""Shared test helpers: where the shared fixtures live."""

from pathlib import Path

import pytest
from shared_data import SHARED, missing


@pytest.fixture(scope="session")
def shared() -> Path:
    if not SHARED.is_dir():
        missing(SHARED)
    return SHARED


@pytest.fixture(scope="session")
def rouge155_oracle(tmp_path_factory):
    """(ROUGE-1.5.5.pl, its data folder): see tests/oracle.py."""
    from oracle import build_oracle, unavailable

    found = build_oracle(tmp_path_factory.mktemp("oracle"))
    if isinstance(found, str):
        unavailable(found)
    return found
