"""Which existing files a run may replace: only those rouge2 wrote itself.

``rouge2 run`` replaces an existing output file only if an earlier rouge2
run wrote it and nobody changed it since.  So a converted Java config cannot
replace the Java tool's CSV, and a mistyped ``outputs`` path cannot replace
someone's data.  Each run records what it wrote in a small manifest,
``.rouge2-outputs.json``, in every folder it writes files to::

    {"rouge2_outputs": 1,
     "files": {"results.csv": {"size": 4282, "sha256": "9f86d0..."}}}

An existing file is rouge2's when the manifest of its folder lists its name
with its current size and SHA-256.  Any other existing file (one another
tool wrote, one rouge2 wrote but someone edited since, one written before
rouge2 kept manifests) stops the run before any text is scored, with a
one-line error naming the file and the override: ``outputs.overwrite: true``
in the config, ``run(cfg, overwrite=True)`` in Python.

The manifest is staged in the run's :class:`~rouge2.io.atomic.OutputTransaction`
with the files it describes, so it is published together with them or not
at all.  Entries for files that no longer exist are dropped; entries for
other files rouge2 wrote into the same folder are kept.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

from rouge2.errors import UserError
from rouge2.io.atomic import OutputTransaction

__all__ = ["MANIFEST", "OVERRIDE_HINT", "OutputGuard"]

MANIFEST = ".rouge2-outputs.json"
OVERRIDE_HINT = "set outputs.overwrite: true in the config (rouge2 run --overwrite) to replace it"
_VERSION = 1
_CHUNK = 1 << 20


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            block = f.read(_CHUNK)
            if not block:
                break
            h.update(block)
    return h.hexdigest()


def _read_manifest(folder: Path) -> dict[str, dict]:
    """``name -> {"size", "sha256"}`` from the folder's manifest; empty when
    there is none or it is not one rouge2 wrote (then nothing counts as rouge2's)."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("rouge2_outputs") != _VERSION:
        return {}
    files = data.get("files")
    if not isinstance(files, dict):
        return {}
    return {name: entry for name, entry in files.items()
            if isinstance(name, str) and isinstance(entry, dict)
            and isinstance(entry.get("size"), int) and isinstance(entry.get("sha256"), str)}


def _exists(path: Path) -> bool:
    return os.path.lexists(path)


def _why_not_ours(path: Path) -> str | None:
    """``None`` when ``path`` is missing or rouge2's own file; else the reason it is not."""
    if not _exists(path) or path.is_dir():
        return None  # nothing to lose here (a folder is refused by the writer itself)
    entry = _read_manifest(path.parent).get(path.name)
    manifest = path.parent / MANIFEST
    if entry is None:
        return f"rouge2 did not write it (it is not listed in {manifest})"
    try:
        same = path.stat().st_size == entry["size"] and _sha256(path) == entry["sha256"]
    except OSError as exc:
        return f"cannot read it to check that rouge2 wrote it ({exc.strerror})"
    if not same:
        return f"it changed since rouge2 wrote it (its size or SHA-256 differs from {manifest})"
    return None


class OutputGuard:
    """Refuse to replace files rouge2 did not write; record the files it writes.

    >>> guard = OutputGuard(paths, overwrite=False)   # doctest: +SKIP
    ... # raises UserError now if a path holds a file rouge2 did not write
    >>> written = guard.commit(tx)                    # doctest: +SKIP
    """

    def __init__(self, paths: Iterable[Path | None], *, overwrite: bool = False) -> None:
        self.paths = [Path(p) for p in paths if p is not None]
        self.overwrite = bool(overwrite)
        for p in self.paths:
            if p.name == MANIFEST:
                raise UserError(f"cannot write {p}: the name {MANIFEST} is rouge2's record of the "
                                f"files it wrote; choose another file name")
        self.check()

    def check(self) -> None:
        """Raise :class:`UserError` for the first path that holds a file rouge2
        may not replace (nothing to check with ``overwrite``)."""
        if self.overwrite:
            return
        for p in self.paths:
            why = _why_not_ours(p)
            if why is not None:
                raise UserError(f"refusing to replace {p}: {why}; choose another output file, or "
                                f"{OVERRIDE_HINT}")

    def commit(self, tx: OutputTransaction) -> list[Path]:
        """Check again (a file may have appeared meanwhile), stage each folder's
        updated manifest, commit ``tx``; return the files written, manifests left out."""
        self.check()
        staged = tx.staged()
        if not self.overwrite:  # every file about to be published, declared or not
            for _, final in staged:
                why = _why_not_ours(final)
                if why is not None:
                    raise UserError(f"refusing to replace {final}: {why}; choose another output "
                                    f"file, or {OVERRIDE_HINT}")
        by_folder: dict[Path, dict[str, dict]] = {}
        for tmp, final in staged:
            entry = {"size": tmp.stat().st_size, "sha256": _sha256(tmp)}
            by_folder.setdefault(final.parent, {})[final.name] = entry
        for folder, written in by_folder.items():
            files = {name: entry for name, entry in _read_manifest(folder).items()
                     if name not in written and _exists(folder / name)}
            files.update(written)
            manifest = {"rouge2_outputs": _VERSION,
                        "note": "files rouge2 wrote here; rouge2 run replaces only these "
                                "(unless outputs.overwrite is true)",
                        "files": dict(sorted(files.items()))}
            tx.write_text(folder / MANIFEST, json.dumps(manifest, indent=1) + "\n")
        return [p for p in tx.commit() if p.name != MANIFEST]
