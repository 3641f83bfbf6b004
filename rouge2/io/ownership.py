"""Which paths a command may write: only regular files rouge2 wrote itself,
never one of the command's own inputs, never a device, FIFO or folder.

Every door that writes files (``rouge2 run``, ``score --per-summary``,
``correlate --csv``, ``rouge155-shim``, ``convert-properties -o``) checks
each target here, once before any work and again, with the folder locked,
just before publishing (:meth:`OutputGuard.prepare`):

* a folder, a device, a FIFO or a socket is never written (with
  ``--overwrite`` neither): rouge2 writes regular files only;
* an input of the same command is never replaced (``--overwrite`` does not
  change that): compared by device and inode (hard links, ``/dev/stdin``,
  standard input redirected from the file) and by resolved path (``..``,
  symbolic links in the folders); a file inside a folder the command reads
  summaries from (a java-project's ``reference/`` and ``system/``) neither,
  since the next run would read it as a summary;
* a symbolic link is neither written through nor replaced (with
  ``--overwrite`` neither): ``/dev/stdout`` is a link, and replacing it as
  root would break the machine as replacing ``/dev/null`` did;
* ``-`` is not a file name here (it would create a file named ``-``);
* any other existing file is replaced only if an earlier rouge2 command
  wrote it and nobody changed it since, unless ``--overwrite``.

Each command records what it wrote in a small manifest,
``.rouge2-outputs.json``, in every folder it writes files to::

    {"rouge2_outputs": 1,
     "files": {"results.csv": {"size": 4282, "sha256": "9f86d0..."}}}

An existing file is rouge2's when the manifest of its folder lists its name
with its current size and SHA-256.  The manifest is staged in the
command's :class:`~rouge2.io.atomic.OutputTransaction` with the files it
describes (and read with the folder locked), so it is published together
with them or not at all.  Entries for files that no longer exist are
dropped; entries for other files rouge2 wrote into the same folder are kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from rouge2.errors import UserError
from rouge2.files import InputRecord, file_kind
from rouge2.io.atomic import (
    JOURNAL_NAME,
    LOCK_NAME,
    MANIFEST_NAME,
    RESERVED_NAMES,
    OutputTransaction,
    is_staged_name,
)

__all__ = ["MANIFEST", "OVERRIDE_HINT", "OutputGuard", "check_target"]

MANIFEST = MANIFEST_NAME
OVERRIDE_HINT = "set outputs.overwrite: true in the config (rouge2 run --overwrite) to replace it"
_VERSION = 1
_CHUNK = 1 << 20
_MANIFEST_MAX = 16 << 20


def _open_regular(path: Path):
    """``path`` opened for reading if it is a regular file (never through a
    link, never blocking on a FIFO); None otherwise."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return open(fd, "rb")


def _sha256(path: Path) -> str | None:
    fh = _open_regular(path)
    if fh is None:
        return None
    h = hashlib.sha256()
    with fh:
        while True:
            block = fh.read(_CHUNK)
            if not block:
                break
            h.update(block)
    return h.hexdigest()


def _read_manifest(folder: Path) -> dict[str, dict]:
    """``name -> {"size", "sha256"}`` from the folder's manifest; empty when
    there is none or it is not one rouge2 wrote (then nothing counts as rouge2's)."""
    fh = _open_regular(folder / MANIFEST)
    if fh is None:
        return {}
    try:
        with fh:
            data = json.loads(fh.read(_MANIFEST_MAX).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict) or data.get("rouge2_outputs") != _VERSION:
        return {}
    files = data.get("files")
    if not isinstance(files, dict):
        return {}
    return {name: entry for name, entry in files.items()
            if isinstance(name, str) and isinstance(entry, dict)
            and isinstance(entry.get("size"), int) and isinstance(entry.get("sha256"), str)}


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except (OSError, ValueError):
        return None


def _why_not_ours(path: Path, st: os.stat_result) -> str | None:
    """``None`` when the regular file ``path`` is rouge2's own; else the reason it is not."""
    entry = _read_manifest(path.parent).get(path.name)
    manifest = path.parent / MANIFEST
    if entry is None:
        return f"rouge2 did not write it (it is not listed in {manifest})"
    if st.st_size != entry["size"] or _sha256(path) != entry["sha256"]:
        return f"it changed since rouge2 wrote it (its size or SHA-256 differs from {manifest})"
    return None


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _input_conflict(path: Path, st: os.stat_result | None, inputs: InputRecord | None) -> str | None:
    """Why writing ``path`` would destroy an input of this command, or None."""
    if inputs is None:
        return None
    real = os.path.realpath(path.parent) + os.sep + path.name
    if st is not None:
        hit = inputs.ids.get((st.st_dev, st.st_ino))
        if hit is not None:
            same = "" if os.path.realpath(hit) == real or hit == "<stdin>" else f", as {hit}"
            return f"it is an input of this command{same}"
    hit = inputs.paths.get(real)
    if hit is not None:
        return "it is an input of this command"
    for folder, shown in inputs.folders.items():
        if _inside(real, folder):
            return (f"it is inside {shown}, which this command reads summaries from (the next run "
                    f"would read it as a summary)")
    return None


def check_target(path: str | os.PathLike, *, overwrite: bool = False, inputs: InputRecord | None = None,
                 hint: str = OVERRIDE_HINT) -> None:
    """A one-line :class:`UserError` if the command may not write ``path``
    (see the module docs); nothing otherwise."""
    p = Path(path)
    if str(path) == "-":
        raise UserError("refusing to write a file named '-': it is not standard output here; give a "
                        "file name (./- for a file of that name)")
    if p.name in RESERVED_NAMES or is_staged_name(p.name):
        what = {MANIFEST: "record of the files it wrote", LOCK_NAME: "lock of the folder",
                JOURNAL_NAME: "journal of a publication"}.get(p.name, "name for a staged file")
        raise UserError(f"cannot write {p}: the name {p.name} is rouge2's {what}; choose another "
                        f"file name")
    st = _lstat(p)
    if st is not None and stat.S_ISLNK(st.st_mode):
        try:
            target = os.readlink(p)
        except OSError:
            target = "?"
        raise UserError(f"refusing to replace {p}: it is a symbolic link (to {target}); rouge2 neither "
                        f"writes through a link nor replaces one (even with --overwrite); remove the "
                        f"link or choose another output file")
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise UserError(f"refusing to write {p}: it is {file_kind(st.st_mode)}; rouge2 writes regular "
                        f"files only, never a device, FIFO or folder (even with --overwrite); "
                        f"choose another output file")
    conflict = _input_conflict(p, st, inputs)
    if conflict is not None:
        raise UserError(f"refusing to replace {p}: {conflict}; choose another output file "
                        f"(--overwrite never replaces an input)")
    if st is None or overwrite:
        return
    why = _why_not_ours(p, st)
    if why is not None:
        raise UserError(f"refusing to replace {p}: {why}; choose another output file, or {hint}")


class OutputGuard:
    """Refuse targets a command may not write; record the files it writes.

    >>> guard = OutputGuard(paths, overwrite=False, inputs=record)   # doctest: +SKIP
    ... # raises UserError now if a path may not be written
    >>> tx = OutputTransaction(prepare=guard.prepare)                # doctest: +SKIP
    ... # tx.commit() checks again, with the folders locked, and records the files
    """

    def __init__(self, paths: Iterable[Path | None], *, overwrite: bool = False,
                 inputs: InputRecord | None = None, hint: str = OVERRIDE_HINT, check: bool = True) -> None:
        self.paths = [Path(p) for p in paths if p is not None]
        self.overwrite = bool(overwrite)
        self.inputs = inputs
        self.hint = hint
        if check:
            self.check()

    def check(self) -> None:
        """Raise :class:`UserError` for the first path that may not be written."""
        for p in self.paths:
            check_target(p, overwrite=self.overwrite, inputs=self.inputs, hint=self.hint)

    def prepare(self, tx: OutputTransaction) -> None:
        """At commit, the folders locked: check every staged file again (a
        file may have appeared meanwhile; every input is known now) and
        stage each folder's updated manifest."""
        staged = tx.staged()
        for _, final in staged:
            check_target(final, overwrite=self.overwrite, inputs=self.inputs, hint=self.hint)
        by_folder: dict[Path, dict[str, dict]] = {}
        for tmp, final in staged:
            entry = {"size": tmp.stat().st_size, "sha256": _sha256(tmp)}
            by_folder.setdefault(final.parent, {})[final.name] = entry
        for folder, written in by_folder.items():
            files = {name: entry for name, entry in _read_manifest(folder).items()
                     if name not in written and os.path.lexists(folder / name)}
            files.update(written)
            manifest = {"rouge2_outputs": _VERSION,
                        "note": "files rouge2 wrote here; rouge2 replaces only these "
                                "(unless told to overwrite)",
                        "files": dict(sorted(files.items()))}
            tx.write_text(folder / MANIFEST, json.dumps(manifest, indent=1) + "\n")

    def commit(self, tx: OutputTransaction) -> list[Path]:
        """Commit ``tx`` through this guard; the files written, manifests left out."""
        tx.prepare = self.prepare
        return [p for p in tx.commit() if p.name != MANIFEST]
