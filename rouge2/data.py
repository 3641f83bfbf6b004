"""The data files shipped with rouge2, and their fingerprints for signatures.

Stemmer exception lists, stopword lists and the WordNet synonym table are
installed as package ``rouge2.resources`` (the repository's ``resources/``
folder).  Everything that reads them goes through :func:`read_resource`, and
the reproducibility signature records :func:`resource_sha256` of each file a
run used, so two runs with the same signature read the same data.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from rouge2.errors import UserError

_REPO_RESOURCES = Path(__file__).resolve().parents[1] / "resources"


def read_resource(*parts: str) -> bytes:
    """Bytes of a file shipped in package ``rouge2.resources``.

    ``parts`` is the path below the package, e.g. ``("rouge155",
    "adj.exc")``.  Before the package is installed, the ``resources/``
    folder of the source tree is used instead.
    """
    # lazy: importlib.resources (with tempfile, zipfile) costs start-up time
    # that scoring without a shipped file never needs
    from importlib import resources as _resources

    try:
        node = _resources.files("rouge2.resources")
        for part in parts:
            node = node.joinpath(part)
        return node.read_bytes()
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        pass
    path = _REPO_RESOURCES.joinpath(*parts)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise UserError(
            f"packaged resource {'/'.join(parts)} is missing ({path}); "
            "reinstall rouge2"
        ) from exc


@cache
def resource_sha256(*parts: str) -> str:
    """``sha256:<hex>`` of a shipped file (computed once per process)."""
    return "sha256:" + hashlib.sha256(read_resource(*parts)).hexdigest()


def sha256_json(value: Any) -> str:
    """``sha256:<hex>`` of ``value`` as canonical JSON (sorted keys)."""
    blob = json.dumps(value, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return "sha256:" + hashlib.sha256(blob).hexdigest()


def sha256_file(path: str | Path) -> str:
    """``sha256:<hex>`` of a user's file (read in blocks)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    return "sha256:" + h.hexdigest()
