"""Atomic output: stage files, then publish all of them or none.

Nothing a run writes is visible before the whole run has succeeded: every
file is first written to a temporary file in its own folder (so the final
``os.replace`` is a rename on one file system), flushed and fsynced, and only
renamed into place when :meth:`OutputTransaction.commit` is called.  A run
that fails calls :meth:`OutputTransaction.abort` (the context manager does),
which deletes the temporary files and any folder the transaction created.

What stays true when things go wrong (docs/safety.md):

* a run killed outright (``kill -9``, a power cut) leaves its staged files
  behind; their names carry the writer's process id
  (``.results.csv.r2-<pid>-<random>.tmp``), and the next transaction that
  writes into that folder deletes those whose process no longer exists;
* a full disk, a quota or a read-only folder is one :class:`UserError`
  naming the folder; the staged files are deleted, nothing is half-written;
* published files get the usual mode of a new file (``0666`` less the
  umask, so ``0644`` under umask 022), not the private mode of a
  temporary file;
* :meth:`OutputTransaction.hold` takes a lock on an output folder
  (``.rouge2-lock``, holding the writer's pid) for as long as the
  transaction lives: a second run into the same folder stops at once with a
  one-line error naming the first run's pid.  The lock is an advisory
  ``flock``, released by the system when its process dies, so the lock file
  left by a killed run is simply taken over.
"""

from __future__ import annotations

import errno
import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import IO

from rouge2.errors import UserError

# ---------------------------------------------------------------------------
# atomic writing

LOCK_NAME = ".rouge2-lock"
# staged files: ".<final name>.r2-<pid>-<random>.tmp"
_STAGED = re.compile(r"^\..+\.r2-(\d+)-[A-Za-z0-9_]+\.tmp$")


def _stage_prefix(name: str) -> str:
    return f".{name}.r2-{os.getpid()}-"


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError, OverflowError):
        return True  # exists (another user's) or cannot tell: keep its files
    return True


def sweep_stale(folder: str | Path) -> list[Path]:
    """Delete the staged files in ``folder`` left by writers that died (their
    process no longer exists); return what was deleted."""
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        m = _STAGED.match(entry.name)
        if not m or _pid_alive(int(m.group(1))):
            continue
        try:
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            pass
    return removed


def new_file_mode() -> int:
    """The mode a newly created file gets: ``0o666`` less the umask."""
    mask = None
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    mask = int(line.split()[1], 8)
                    break
    except (OSError, ValueError, IndexError):
        pass
    if mask is None:  # no /proc: read it by setting it (and back at once)
        mask = os.umask(0o022)
        os.umask(mask)
    return 0o666 & ~mask


def _write_error(folder: Path, exc: OSError) -> UserError:
    """A failed write, as one line naming the folder."""
    reason = exc.strerror or str(exc)
    hint = {errno.ENOSPC: "free some space or write the outputs elsewhere",
            errno.EDQUOT: "free some space or write the outputs elsewhere",
            errno.EROFS: "write the outputs to a writable folder",
            errno.EACCES: "write the outputs to a folder you may write to",
            errno.EPERM: "write the outputs to a folder you may write to"}.get(exc.errno)
    return UserError(f"cannot write in {folder}: {reason}; no output file was changed"
                     + (f" ({hint})" if hint else ""))


class FolderLock:
    """An exclusive advisory lock on an output folder (``folder/.rouge2-lock``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> None:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - no flock (Windows): no lock
            return
        for _ in range(10):
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise _write_error(self.folder, exc) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    os.close(fd)
                    return  # flock not supported here (some network file systems)
                holder = _read_holder(fd)
                os.close(fd)
                raise UserError(
                    f"another rouge2 run{f' (pid {holder})' if holder else ''} is writing to "
                    f"{self.folder}; wait for it to finish or choose another outputs.dir") from None
            try:  # the file may have been removed by the previous holder meanwhile
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except OSError:
                same = False
            if not same:
                os.close(fd)
                continue
            try:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
            except OSError:
                pass  # the lock holds without its note
            self._fd = fd
            return
        raise UserError(f"cannot lock the output folder {self.folder}: it keeps changing; "
                        f"is another run starting there?")

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            os.unlink(self.path)
        except OSError:
            pass
        os.close(self._fd)
        self._fd = None


def _read_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except (OSError, AttributeError):
        return ""
    return text if text.isdigit() else ""


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
        self._locks: list[FolderLock] = []
        self._swept: set[Path] = set()
        self._mode = new_file_mode()
        self._done = False

    def _ensure_dir(self, folder: Path, sweep: bool = True) -> None:
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
        if sweep and folder not in self._swept:
            self._swept.add(folder)
            sweep_stale(folder)

    def hold(self, folders: Iterable[str | Path]) -> None:
        """Lock each folder (created if needed) until the transaction ends;
        a one-line error if another run holds one of them."""
        if self._done:
            raise RuntimeError("transaction already finished")
        for folder in sorted({Path(f) for f in folders}):
            if any(lock.folder == folder for lock in self._locks):
                continue
            self._ensure_dir(folder, sweep=False)
            lock = FolderLock(folder)
            lock.acquire()
            self._locks.append(lock)
            self._ensure_dir(folder)  # sweeps, now that no other run may write here

    def _release(self) -> None:
        for lock in reversed(self._locks):
            lock.release()
        self._locks = []

    def open(self, path: str | Path, newline: str | None = "\n") -> IO[str]:
        """A text handle (UTF-8) whose content becomes ``path`` on commit."""
        if self._done:
            raise RuntimeError("transaction already finished")
        final = Path(path)
        if final.is_dir():
            raise UserError(f"cannot write {final}: it is a folder")
        self._ensure_dir(final.parent)
        try:
            fd, tmp = tempfile.mkstemp(prefix=_stage_prefix(final.name), suffix=".tmp", dir=final.parent)
        except OSError as exc:
            raise _write_error(final.parent, exc) from None
        self._staged.append((Path(tmp), final))
        try:
            os.fchmod(fd, self._mode)
        except (OSError, AttributeError):  # pragma: no cover - e.g. Windows
            pass
        handle = open(fd, "w", encoding="utf-8", newline=newline)
        self._handles.append(handle)
        return _Handle(handle, final.parent)

    def write_text(self, path: str | Path, text: str) -> None:
        with self.open(path, newline="") as f:
            f.write(text)

    def staged(self) -> list[tuple[Path, Path]]:
        """``(temporary file, final path)`` of every file staged so far, in
        staging order; open handles are flushed, so each temporary file can be
        read back (e.g. hashed) before :meth:`commit`."""
        for h, (_, final) in zip(self._handles, self._staged):
            if not h.closed:
                try:
                    h.flush()
                except OSError as exc:
                    raise _write_error(final.parent, exc) from None
        return list(self._staged)

    def commit(self) -> list[Path]:
        """fsync every staged file, then rename each into place."""
        if self._done:
            raise RuntimeError("transaction already finished")
        folder = None
        try:
            for h, (_, final) in zip(self._handles, self._staged):
                folder = final.parent
                if not h.closed:  # handles closed earlier were fsynced by _Handle.close
                    h.flush()
                    os.fsync(h.fileno())
                    h.close()
            for tmp, final in self._staged:
                folder = final.parent
                os.replace(tmp, final)
            for folder in {final.parent for _, final in self._staged}:
                _fsync_dir(folder)
        except OSError as exc:
            self.abort()
            raise _write_error(folder or Path("."), exc) from None
        except BaseException:
            self.abort()
            raise
        self._done = True
        self._release()
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
        self._release()
        for folder in reversed(self._created_dirs):
            try:
                folder.rmdir()  # only if empty
            except OSError:
                pass
        self._done = True

    def __enter__(self) -> OutputTransaction:
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

    def __init__(self, handle: IO[str], folder: Path) -> None:
        self._h = handle
        self._folder = folder

    def write(self, text: str) -> int:
        try:
            return self._h.write(text)
        except OSError as exc:
            raise _write_error(self._folder, exc) from None

    def writelines(self, lines: Iterable[str]) -> None:
        try:
            self._h.writelines(lines)
        except OSError as exc:
            raise _write_error(self._folder, exc) from None

    def flush(self) -> None:
        try:
            self._h.flush()
        except OSError as exc:
            raise _write_error(self._folder, exc) from None

    def close(self) -> None:
        if not self._h.closed:
            try:
                self._h.flush()
                os.fsync(self._h.fileno())
            except OSError as exc:
                raise _write_error(self._folder, exc) from None
            finally:
                try:
                    self._h.close()
                except OSError:
                    pass

    @property
    def closed(self) -> bool:
        return self._h.closed

    def __enter__(self) -> _Handle:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write one file atomically (temporary file, fsync, ``os.replace``)."""
    with OutputTransaction() as tx:
        tx.write_text(path, text)
