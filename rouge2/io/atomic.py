"""Atomic output: stage files, then publish all of them or none.

Nothing a run writes is visible before the whole run has succeeded: every
file is first written to a temporary file in its own folder (so the final
``os.replace`` is a rename on one file system), flushed and fsynced, and only
renamed into place when :meth:`OutputTransaction.commit` is called.  A run
that fails calls :meth:`OutputTransaction.abort` (the context manager does),
which deletes the temporary files and any folder the transaction created.
"""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path
from typing import IO, Iterable

from rouge2.errors import UserError

# ---------------------------------------------------------------------------
# atomic writing


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # not supported on this platform (e.g. Windows)
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class OutputTransaction:
    """Stage several output files; publish all of them or none.

    >>> with OutputTransaction() as tx:            # doctest: +SKIP
    ...     with tx.open(path) as f: f.write("...")
    ... # committed here; an exception aborts instead
    """

    def __init__(self) -> None:
        self._staged: list[tuple[Path, Path]] = []  # (temporary, final)
        self._handles: list[IO] = []
        self._created_dirs: list[Path] = []
        self._done = False

    def _ensure_dir(self, folder: Path) -> None:
        missing = []
        p = folder
        while not p.exists():
            missing.append(p)
            if p.parent == p:
                break
            p = p.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"cannot create the output folder {folder}: {exc.strerror}") from None
        self._created_dirs.extend(reversed(missing))

    def open(self, path: str | Path, newline: str | None = "\n") -> IO[str]:
        """A text handle (UTF-8) whose content becomes ``path`` on commit."""
        if self._done:
            raise RuntimeError("transaction already finished")
        final = Path(path)
        if final.is_dir():
            raise UserError(f"cannot write {final}: it is a folder")
        self._ensure_dir(final.parent)
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".tmp", dir=final.parent)
        except OSError as exc:
            raise UserError(f"cannot write in {final.parent}: {exc.strerror}") from None
        handle = io.open(fd, "w", encoding="utf-8", newline=newline)
        self._staged.append((Path(tmp), final))
        self._handles.append(handle)
        return _Handle(handle)

    def write_text(self, path: str | Path, text: str) -> None:
        with self.open(path, newline="") as f:
            f.write(text)

    def staged(self) -> list[tuple[Path, Path]]:
        """``(temporary file, final path)`` of every file staged so far, in
        staging order; open handles are flushed, so each temporary file can be
        read back (e.g. hashed) before :meth:`commit`."""
        for h in self._handles:
            if not h.closed:
                h.flush()
        return list(self._staged)

    def commit(self) -> list[Path]:
        """fsync every staged file, then rename each into place."""
        if self._done:
            raise RuntimeError("transaction already finished")
        try:
            for h in self._handles:
                if not h.closed:  # handles closed earlier were fsynced by _Handle.close
                    h.flush()
                    os.fsync(h.fileno())
                    h.close()
            for tmp, final in self._staged:
                os.replace(tmp, final)
            for folder in {final.parent for _, final in self._staged}:
                _fsync_dir(folder)
        except BaseException:
            self.abort()
            raise
        self._done = True
        return [final for _, final in self._staged]

    def abort(self) -> None:
        """Delete every staged temporary file and every folder created for them."""
        for h in self._handles:
            try:
                h.close()
            except Exception:
                pass
        for tmp, _ in self._staged:
            try:
                tmp.unlink()
            except FileNotFoundError:
                pass
            except OSError:
                pass
        for folder in reversed(self._created_dirs):
            try:
                folder.rmdir()  # only if empty
            except OSError:
                pass
        self._done = True

    def __enter__(self) -> "OutputTransaction":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if self._done:
            return
        if exc_type is None:
            self.commit()
        else:
            self.abort()


class _Handle:
    """A staged file: ``close`` (or leaving ``with``) only closes, never publishes."""

    def __init__(self, handle: IO[str]) -> None:
        self._h = handle

    def write(self, text: str) -> int:
        return self._h.write(text)

    def writelines(self, lines: Iterable[str]) -> None:
        self._h.writelines(lines)

    def flush(self) -> None:
        self._h.flush()

    def close(self) -> None:
        if not self._h.closed:
            self._h.flush()
            os.fsync(self._h.fileno())
            self._h.close()

    @property
    def closed(self) -> bool:
        return self._h.closed

    def __enter__(self) -> "_Handle":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write one file atomically (temporary file, fsync, ``os.replace``)."""
    with OutputTransaction() as tx:
        tx.write_text(path, text)
