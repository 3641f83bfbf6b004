"""Shared test helpers: where the shared fixtures live."""

from pathlib import Path

import pytest
from shared_data import SHARED, missing


@pytest.fixture(scope="session")
def shared() -> Path:
    if not SHARED.is_dir():
        missing(SHARED)
    return SHARED
