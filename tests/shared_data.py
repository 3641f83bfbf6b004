"""Where the shared data live, and what to do when they are missing.

The tests read the files of ``shared/`` (the datasets, the ROUGE-1.5.5
fixtures, the Java ROUGE 2.0 samples) from :data:`DATA`:

* ``../shared`` beside the clone (or ``ROUGE2_SHARED``) when it is there: the
  full data, as CI has them;
* otherwise ``tests/data/shared/``, the excerpt shipped with the repository
  (tests/data/README.md): the same layout and the same files, except the
  first 12 SummEval documents and a sample of the stemmer fixture.  A test
  that needs the full data (:data:`FULL`) checks its property on the excerpt
  too.

In CI (``CI`` set) a missing ``shared/`` fails the tests that read it, so the
full exactness checks can never vanish silently.
"""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ROUGE2_SHARED", REPO.parent / "shared"))
#: the excerpt of shared/ shipped in the repository
BUNDLED = REPO / "tests" / "data" / "shared"
#: whether the full shared/ folder is there
FULL = SHARED.is_dir()
#: where the tests read shared files from: shared/ itself, else the excerpt
DATA = SHARED if FULL else BUNDLED
#: the stemmer fixture: the script's stems of 215,666 words, or the excerpt's sample of them
STEMMER_FIXTURE = (SHARED / "fixtures" / "stemmer" / "rouge155_stems.tsv.gz" if FULL
                   else BUNDLED / "fixtures" / "stemmer" / "rouge155_stems_sample.tsv.gz")


def missing(path: Path) -> None:
    """Skip (locally) or fail (in CI) because ``path`` is not there."""
    message = f"shared fixtures not found at {path} (set ROUGE2_SHARED)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def need_full(what: str) -> None:
    """Skip (locally) or fail (in CI) a check that only the full shared/ data can make."""
    if not FULL:
        message = f"{what} needs the full shared/ data at {SHARED} (set ROUGE2_SHARED); the excerpt checks the rest"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
