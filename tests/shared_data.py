"""Where the shared fixtures live, and what to do when they are missing.

Locally a missing ``shared/`` folder skips the tests that need it; in CI
(``CI`` set) it fails them, so the exactness tests can never vanish silently.
"""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ROUGE2_SHARED", REPO.parent / "shared"))


def missing(path: Path) -> None:
    """Skip (locally) or fail (in CI) because ``path`` is not there."""
    message = f"shared fixtures not found at {path} (set ROUGE2_SHARED)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)
