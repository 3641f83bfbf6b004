"""Atomic output: stage files, then publish all of them or none.

Nothing a command writes is visible before the whole command has succeeded:
every file is first written to a temporary file in its own folder (so the
final ``os.replace`` is a rename on one file system), flushed and fsynced,
and only renamed into place when :meth:`OutputTransaction.commit` is called.
A command that fails calls :meth:`OutputTransaction.abort` (the context
manager does), which deletes the temporary files and any folder the
transaction created.

Publication is journalled (docs/safety.md, "Outputs"):

1. every output folder is locked (``.rouge2-lock``);
2. a journal, ``.rouge2-journal``, listing every ``(staged file, final
   name)`` pair of the transaction, is written to each folder involved
   (a temporary file, fsynced, renamed into place): once every folder has
   it, the publication is decided;
3. the staged files are renamed into place, the folders fsynced, and the
   journals removed.

Signals that stop a command (SIGINT, SIGTERM, SIGHUP, SIGQUIT, ...) are
deferred during steps 2-3 (:func:`deferred_signals`) and delivered right
after, so a signal sees the old set of files or the new one, never a mix.
A process killed outright (``kill -9``, power cut) inside step 3 leaves its
journals: the next transaction that locks one of those folders completes the
publication (every journal present) or rolls it back (a journal missing:
the renames had not started), before it does anything else
(:func:`recover`).  Staged files of dead writers are then swept
(:func:`sweep_stale`).

The lock (:class:`FolderLock`) is an advisory ``flock`` on
``.rouge2-lock``, opened with ``O_NOFOLLOW | O_CREAT`` (never through a
symbolic link) and refused when it is not a regular, singly linked file
holding nothing but a process id, so a planted link or file is never
truncated.  The system releases it when its process dies; forked children
(``--jobs`` workers) close their copy at once, so an orphan can never keep a
folder locked; and a holder that is no longer alive (seen in
``/proc/locks``) is recognised as dead and its lock taken over.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import signal
import stat
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, cast

from rouge2.errors import UserError
from rouge2.files import file_kind

LOCK_NAME = ".rouge2-lock"
JOURNAL_NAME = ".rouge2-journal"
MANIFEST_NAME = ".rouge2-outputs.json"
#: names rouge2 keeps for itself in an output folder
RESERVED_NAMES = (LOCK_NAME, JOURNAL_NAME, MANIFEST_NAME)
# staged files: ".<final name>.r2-<pid>-<random>.tmp"
_STAGED = re.compile(r"^\..+\.r2-(\d+)-[A-Za-z0-9_]+\.tmp$")
#: seconds a command waits for a folder another command is publishing into
#: (``rouge2 score`` and ``correlate`` lock a folder only to publish)
PUBLISH_WAIT = 10.0
#: the signals that stop a command (deferred while it publishes)
STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM",
                "SIGVTALRM", "SIGPROF", "SIGXCPU")
_JOURNAL_MAX = 64 << 20

#: a test hook: ``hook(step, index, final path)`` is called at each step of a
#: publication ("journal" once every journal is in place, then "rename"
#: before each rename), e.g. to pause there and send a signal deterministically
publish_hook: Callable[[str, int, Path], None] | None = None
#: every file published by this process, in order (what changed, for the
#: message after a signal)
published: list[Path] = []


def is_staged_name(name: str) -> bool:
    return _STAGED.match(name) is not None


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


_HINTS = {errno.ENOSPC: "free some space or write the outputs elsewhere",
          errno.EDQUOT: "free some space or write the outputs elsewhere",
          errno.EFBIG: "the file size limit (ulimit -f) is reached; raise it or write less",
          errno.EROFS: "write the outputs to a writable folder",
          errno.EACCES: "write the outputs to a folder you may write to",
          errno.EPERM: "write the outputs to a folder you may write to"}


def _write_error(folder: Path, exc: OSError) -> UserError:
    """A failed write, as one line naming the folder."""
    reason = exc.strerror or str(exc)
    hint = _HINTS.get(exc.errno or 0)
    return UserError(f"cannot write in {folder}: {reason}; no output file was changed"
                     + (f" ({hint})" if hint else ""))


def real_folder(folder: str | os.PathLike) -> Path:
    """``folder`` with every symbolic link and ``..`` resolved: two spellings
    of one folder give one path (and one lock)."""
    return Path(os.path.realpath(folder))


# ---------------------------------------------------------------------------
# the folder lock

_HELD: dict[int, Path] = {}  # lock fds of this process -> folder


def _forget_locks_in_child() -> None:
    """In a forked child: close the inherited lock fds (the parent keeps its
    locks; a child that outlives it must not keep the folder locked)."""
    for fd in list(_HELD):
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_locks_in_child)


def lock_owner(st: os.stat_result) -> int | None:
    """The pid that took the ``flock`` on the file ``st`` describes (from
    ``/proc/locks``; a forked child that inherited it still shows its
    parent's pid), or None when it cannot be told."""
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as fh:
            text = fh.read(1 << 22)
    except OSError:
        return None
    dev = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 6 and parts[1] == "FLOCK" and parts[5] == dev:
            try:
                pid = int(parts[4])
            except ValueError:
                return None
            return pid if pid > 0 else None
    return None


class FolderLock:
    """An exclusive advisory lock on an output folder (``folder/.rouge2-lock``).

    ``folder`` is a resolved path (:func:`real_folder`); ``shown`` is how
    messages name it."""

    def __init__(self, folder: Path, shown: Path | None = None, hint: str = "choose another outputs.dir"):
        self.folder = folder
        self.shown = shown if shown is not None else folder
        self.path = folder / LOCK_NAME
        self.hint = hint
        self._fd: int | None = None
        self._ino: tuple[int, int] | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self, wait: float = 0.0) -> None:
        """Take the lock; wait up to ``wait`` seconds for another holder;
        a one-line error if it stays held."""
        try:
            import fcntl  # POSIX only: not on Windows
        except ImportError:  # pragma: no cover - no flock (Windows): no lock
            return
        deadline = time.monotonic() + wait
        for _ in range(1000):
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                busy = exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK)
                if not busy:  # flock not supported here (some network file systems)
                    os.close(fd)
                    return
                if self._held_by_the_dead(fd):
                    continue
                busy_error = self._busy(fd)
                os.close(fd)
                if time.monotonic() < deadline:
                    time.sleep(0.05)
                    continue
                raise busy_error from None
            if not self._still_ours(fd):
                os.close(fd)
                continue
            self._note_pid(fd)
            self._fd = fd
            st = os.fstat(fd)
            self._ino = (st.st_dev, st.st_ino)
            _HELD[fd] = self.folder
            return
        raise UserError(f"cannot lock the output folder {self.shown}: it keeps changing; "
                        f"is another rouge2 command starting there?")

    def _open(self) -> int:
        """The lock file, opened without following a link and checked to be
        rouge2's (a regular file with one link, holding at most a pid)."""
        try:
            st = os.lstat(self.path)
        except FileNotFoundError:
            st = None
        except OSError as exc:
            raise _write_error(self.shown, exc) from None
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise self._foreign(f"it is {_kind(st.st_mode)}")
        flags = os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | \
            getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(self.path, os.O_RDWR | flags, 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise self._foreign("it is a symbolic link") from None
            if exc.errno not in (errno.EACCES, errno.EPERM) or st is None:
                raise _write_error(self.shown, exc) from None
            try:  # another user's lock file: a read-only descriptor can flock too
                fd = os.open(self.path, os.O_RDONLY | flags & ~os.O_CREAT)
            except OSError as exc2:
                raise _write_error(self.shown, exc2) from None
        try:
            self._check_ours(fd)
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _check_ours(self, fd: int) -> None:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise self._foreign(f"it is {_kind(st.st_mode)}")
        if st.st_nlink > 1:
            raise self._foreign("it has other hard links")
        if st.st_size > 64:
            raise self._foreign("it holds more than a process id")
        try:
            text = os.pread(fd, 65, 0)
        except OSError:
            text = b""
        if text.strip() and not re.fullmatch(rb"\s*\d+\s*", text):
            raise self._foreign("it holds something else than a process id")

    def _foreign(self, why: str) -> UserError:
        return UserError(f"{self.path} is not rouge2's lock file ({why}); rouge2 will not open or "
                         f"change it: remove it, or {self.hint}")

    def _held_by_the_dead(self, fd: int) -> bool:
        """Whether the lock is held although its owner is dead (an orphan that
        inherited it); if so, the dead owner's lock file is removed so the next
        attempt creates a new one.  ``fd`` is closed then."""
        st = os.fstat(fd)
        owner = lock_owner(st)
        if owner is None or _pid_alive(owner):
            return False
        try:
            now = os.lstat(self.path)
            if (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino):
                os.unlink(self.path)
        except OSError:
            pass
        os.close(fd)
        return True

    def _busy(self, fd: int) -> UserError:
        holder = ""
        try:
            text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            holder = text if text.isdigit() else ""
        except (OSError, AttributeError):
            pass
        return UserError(f"another rouge2 run{f' (pid {holder})' if holder else ''} is writing to "
                         f"{self.shown}; wait for it to finish or {self.hint}")

    def _still_ours(self, fd: int) -> bool:
        """The path still names the file we locked (the previous holder may
        have removed it meanwhile)."""
        try:
            a, b = os.fstat(fd), os.lstat(self.path)
        except OSError:
            return False
        return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)

    def _note_pid(self, fd: int) -> None:
        try:  # checked by _check_ours: empty or a pid, so nothing is lost here
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass  # the lock holds without its note

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            st = os.lstat(self.path)
            if (st.st_dev, st.st_ino) == self._ino:
                os.unlink(self.path)
        except OSError:
            pass
        _HELD.pop(self._fd, None)
        os.close(self._fd)
        self._fd = None


def _kind(mode: int) -> str:
    return file_kind(mode)


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


# ---------------------------------------------------------------------------
# journal: recovery of an interrupted publication


def _read_journal(path: Path) -> dict | None:
    """A journal rouge2 wrote (a regular file of this user), or None."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_size > _JOURNAL_MAX or \
            (hasattr(os, "geteuid") and st.st_uid != os.geteuid()):
        return None
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("rouge2_journal") != 1 or \
            not isinstance(data.get("id"), str) or not isinstance(data.get("folders"), list) or \
            not isinstance(data.get("files"), list):
        return None
    return data


def _journal_pairs(data: dict) -> list[tuple[Path, Path]]:
    """The ``(staged, final)`` pairs of a journal that are what rouge2 writes:
    both in one of the journal's folders, the staged name made from the
    final's.  Anything else is ignored (a journal can never move a file
    elsewhere)."""
    folders = {str(f) for f in data["folders"] if isinstance(f, str)}
    pairs = []
    for pair in data["files"]:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
            continue
        staged, final = Path(pair[0]), Path(pair[1])
        if staged.parent != final.parent or str(final.parent) not in folders:
            continue
        if not is_staged_name(staged.name) or not staged.name.startswith(f".{final.name}.r2-"):
            continue
        pairs.append((staged, final))
    return pairs


def recover(folder: str | os.PathLike) -> tuple[str, int] | None:
    """Finish or undo a publication interrupted in ``folder`` (its journal):
    completed when every folder of that publication has its journal (the
    renames may have started), rolled back otherwise (they had not).
    Returns ``("completed" | "rolled back", files)`` or None when there was
    nothing to do.  Call with the folder locked."""
    folder = real_folder(folder)
    data = _read_journal(folder / JOURNAL_NAME)
    if data is None:
        return None
    folders = [Path(f) for f in data["folders"] if isinstance(f, str)]
    journals = [f / JOURNAL_NAME for f in folders]
    committed = all((_read_journal(j) or {}).get("id") == data["id"] for j in journals)
    done = 0
    for staged, final in _journal_pairs(data):
        try:
            st = os.lstat(staged)
        except OSError:
            continue  # renamed already (or swept)
        if not stat.S_ISREG(st.st_mode):
            continue
        try:
            if committed:
                os.replace(staged, final)
            else:
                os.unlink(staged)
            done += 1
        except OSError:
            pass
    for f in folders:
        _fsync_dir(f)
    for j in journals:
        if (_read_journal(j) or {}).get("id") == data["id"]:
            with contextlib.suppress(OSError):
                os.unlink(j)
    for f in folders:
        _fsync_dir(f)
    return ("completed" if committed else "rolled back"), done


def sweep_stale(folder: str | os.PathLike) -> list[Path]:
    """Delete the staged files in ``folder`` left by writers that died (their
    process no longer exists); return what was deleted.  Files a pending
    journal names are kept (:func:`recover` decides about them)."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(os.fspath(folder)))
    except OSError:
        return removed
    pending = _read_journal(Path(folder) / JOURNAL_NAME)
    keep = {s.name for s, _ in _journal_pairs(pending)} if pending else set()
    for entry in entries:
        m = _STAGED.match(entry.name)
        if not m or entry.name in keep or _pid_alive(int(m.group(1))):
            continue
        try:
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            pass
    return removed


# ---------------------------------------------------------------------------
# signals


@contextlib.contextmanager
def deferred_signals() -> Iterator[list[int]]:
    """Hold back the signals that stop a command until the block ends, then
    deliver the first one that came (to the handler in place before).
    Only in the main thread (where Python runs signal handlers)."""
    pending: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield pending
        return
    previous: dict[int, Any] = {}

    def record(signum, frame):
        pending.append(signum)

    for name in STOP_SIGNALS:
        sig = getattr(signal, name, None)
        if sig is None:
            continue
        try:
            old = signal.getsignal(sig)
            if old is None or old is signal.SIG_IGN:
                continue
            signal.signal(sig, record)
            previous[sig] = old
        except (OSError, ValueError):  # pragma: no cover
            pass
    try:
        yield pending
    finally:
        for sig, old in previous.items():
            with contextlib.suppress(OSError, ValueError, TypeError):
                signal.signal(sig, old)
        if pending:
            signal.raise_signal(pending[0])


# ---------------------------------------------------------------------------
# the transaction


class _Staged:
    __slots__ = ("final", "handle", "shown", "tmp")

    def __init__(self, tmp: Path, final: Path, shown: Path, handle: IO[str]):
        self.tmp, self.final, self.shown, self.handle = tmp, final, shown, handle


class OutputTransaction:
    """Stage several output files; publish all of them or none.

    >>> with OutputTransaction() as tx:            # doctest: +SKIP
    ...     with tx.open(path) as f: f.write("...")
    ... # committed here; an exception aborts instead

    ``prepare(tx)``, when given, runs at commit with every folder locked,
    just before publication (the ownership guard re-checks the targets and
    stages each folder's record of the files rouge2 wrote).  ``hint`` ends
    the message when another command holds a folder."""

    def __init__(self, prepare: Callable[[OutputTransaction], None] | None = None,
                 hint: str = "choose another outputs.dir") -> None:
        self._staged: list[_Staged] = []
        self._created_dirs: list[Path] = []
        self._locks: dict[Path, FolderLock] = {}
        self._ready: set[Path] = set()  # folders recovered and swept under our lock
        self._mode = new_file_mode()
        self._done = False
        self.prepare = prepare
        self.hint = hint

    # -- folders and locks -------------------------------------------------
    def _ensure_dir(self, folder: Path) -> Path:
        """Create ``folder`` (and missing parents); its resolved path."""
        missing = []
        p = folder
        while not os.path.lexists(p):
            missing.append(p)
            if p.parent == p:
                break
            p = p.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise UserError(f"cannot create the output folder {folder}: a part of the path exists and "
                            f"is not a folder") from None
        except OSError as exc:
            reason = "a part of the path is not a folder" if exc.errno == errno.ENOTDIR else exc.strerror
            raise UserError(f"cannot create the output folder {folder}: {reason}") from None
        self._created_dirs.extend(reversed(missing))
        real = real_folder(folder)
        if not real.is_dir():
            raise UserError(f"cannot write in {folder}: it is not a folder")
        return real

    def _lock(self, folder: Path, shown: Path, wait: float) -> None:
        if folder in self._locks:
            return
        lock = FolderLock(folder, shown, self.hint)
        lock.acquire(wait)
        self._locks[folder] = lock
        if folder not in self._ready:
            self._ready.add(folder)
            _repair(folder, shown)

    def hold(self, folders: Iterable[str | os.PathLike]) -> None:
        """Lock each folder (created if needed) until the transaction ends;
        a one-line error if another command holds one of them.  An
        interrupted publication found there is completed or rolled back,
        and staged files of dead writers swept."""
        if self._done:
            raise RuntimeError("transaction already finished")
        wanted: dict[Path, Path] = {}
        for f in folders:
            with deferred_signals():  # a folder created is a folder recorded (abort removes it)
                real = self._ensure_dir(Path(f))
            wanted.setdefault(real, Path(f))
        for real in sorted(wanted):
            self._lock(real, wanted[real], 0.0)

    def tidy(self, folders: Iterable[str | os.PathLike]) -> None:
        """Lock each existing folder briefly, waiting up to
        :data:`PUBLISH_WAIT` seconds for another command, to finish or undo
        a publication an interrupted command left there; the folders are
        locked again to publish."""
        wanted: dict[Path, Path] = {}
        for f in folders:
            if os.path.isdir(f):  # a folder that does not exist yet holds nothing to repair
                wanted.setdefault(real_folder(f), Path(f))
        for real in sorted(wanted):
            if real in self._locks:
                continue
            lock = FolderLock(real, wanted[real], self.hint)
            lock.acquire(PUBLISH_WAIT)
            try:
                _repair(real, wanted[real])
            finally:
                lock.release()

    def _release(self) -> None:
        for lock in reversed(list(self._locks.values())):
            lock.release()
        self._locks = {}

    # -- staging -----------------------------------------------------------
    def open(self, path: str | os.PathLike, newline: str | None = "\n", executable: bool = False) -> IO[str]:
        """A text handle (UTF-8) whose content becomes ``path`` on commit
        (``executable``: with the execute bits where the read bits are)."""
        if self._done:
            raise RuntimeError("transaction already finished")
        shown = Path(path)
        if shown.name in ("", ".", ".."):
            raise UserError(f"cannot write {shown}: give a file name")
        with deferred_signals():  # a signal here must not leave an untracked file or folder
            folder = self._ensure_dir(shown.parent)
            final = folder / shown.name
            try:
                st = os.lstat(final)
            except OSError:
                st = None
            if st is not None and not stat.S_ISREG(st.st_mode):
                raise UserError(f"cannot write {shown}: it is {_kind(st.st_mode)}; rouge2 writes "
                                f"regular files only")
            same = next((s.shown for s in self._staged if s.final == final), None)
            if same is not None:  # two spellings of one file: one would silently replace the other
                raise UserError(f"cannot write {shown}: it is the same file as {same}, which this "
                                f"command writes too; give each output its own file")
            try:
                fd, tmp = tempfile.mkstemp(prefix=_stage_prefix(final.name), suffix=".tmp", dir=folder)
            except OSError as exc:
                raise _write_error(shown.parent, exc) from None
            mode = self._mode | ((self._mode & 0o444) >> 2 if executable else 0)
            try:
                os.fchmod(fd, mode)
            except (OSError, AttributeError):  # pragma: no cover - e.g. Windows
                pass
            handle = open(fd, "w", encoding="utf-8", newline=newline)  # noqa: SIM115 - closed at commit/abort
            self._staged.append(_Staged(Path(tmp), final, shown, handle))
        # the text handle's writing part (write, writelines, flush, close, closed, with)
        return cast(IO[str], _Handle(handle, shown.parent))

    def write_text(self, path: str | os.PathLike, text: str) -> None:
        with self.open(path, newline="") as f:
            f.write(text)

    def staged(self) -> list[tuple[Path, Path]]:
        """``(temporary file, final path)`` of every file staged so far, in
        staging order (final paths with their folder resolved); open handles
        are flushed, so each temporary file can be read back (e.g. hashed)
        before :meth:`commit`."""
        for s in self._staged:
            if not s.handle.closed:
                try:
                    s.handle.flush()
                except OSError as exc:
                    raise _write_error(s.shown.parent, exc) from None
        return [(s.tmp, s.final) for s in self._staged]

    def shown(self, final: Path) -> Path:
        """How the caller spelled the staged file ``final``."""
        return next((s.shown for s in self._staged if s.final == final), final)

    # -- publishing --------------------------------------------------------
    def _sync_all(self) -> None:
        for s in self._staged:
            if not s.handle.closed:  # handles closed earlier were fsynced by _Handle.close
                try:
                    s.handle.flush()
                    os.fsync(s.handle.fileno())
                    s.handle.close()
                except OSError as exc:
                    raise _write_error(s.shown.parent, exc) from None

    def commit(self) -> list[Path]:
        """Lock the folders not held yet, run ``prepare``, fsync every staged
        file, then publish them all (journalled, signals deferred).  Returns
        the published paths as they were given to :meth:`open`."""
        if self._done:
            raise RuntimeError("transaction already finished")
        try:
            for real in sorted({s.final.parent for s in self._staged}):
                shown = next(s.shown.parent for s in self._staged if s.final.parent == real)
                self._lock(real, shown, PUBLISH_WAIT)
            if self.prepare is not None:
                self.prepare(self)
            self._sync_all()
            with deferred_signals():
                self._publish()
        except BaseException:
            if self._done:  # published, or left for the next command to complete
                self._release()
            else:
                self.abort()
            raise
        self._release()
        return [s.shown for s in self._staged]

    def _publish(self) -> None:
        if not self._staged:
            self._done = True
            return
        folders = sorted({s.final.parent for s in self._staged})
        for s in self._staged:  # every rename must be possible before the publication is decided
            _check_replaceable(s.final, s.shown)
        journal = {"rouge2_journal": 1, "id": f"{os.getpid()}-{secrets.token_hex(8)}",
                   "pid": os.getpid(), "folders": [str(f) for f in folders],
                   "files": [[str(s.tmp), str(s.final)] for s in self._staged]}
        written: list[Path] = []
        text = json.dumps(journal, indent=0) + "\n"
        try:
            for f in folders:
                written.append(self._write_journal(f, text))
            for k, f in enumerate(folders):
                os.replace(written[k], f / JOURNAL_NAME)
                written[k] = f / JOURNAL_NAME
            for f in folders:
                _fsync_dir(f)
        except OSError as exc:  # not decided: every journal goes (abort deletes the staged files)
            for j in written:
                with contextlib.suppress(OSError):
                    os.unlink(j)
            raise _write_error(folders[0], exc) from None
        self._done = True  # decided: from here on it is completed, here or by the next command
        _hook("journal", 0, folders[0])
        for i, s in enumerate(self._staged):
            _hook("rename", i, s.final)
            try:
                os.replace(s.tmp, s.final)
            except OSError as exc:
                raise UserError(f"cannot publish {s.shown}: {exc.strerror}; {i} of "
                                f"{len(self._staged)} files were replaced; the next rouge2 command "
                                f"writing to {s.shown.parent} completes the publication") from None
            published.append(s.shown)
        for f in folders:
            _fsync_dir(f)
        for f in folders:
            with contextlib.suppress(OSError):
                os.unlink(f / JOURNAL_NAME)
            _fsync_dir(f)

    def _write_journal(self, folder: Path, text: str) -> Path:
        fd, tmp = tempfile.mkstemp(prefix=_stage_prefix(JOURNAL_NAME), suffix=".tmp", dir=folder)
        try:
            with open(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        return Path(tmp)

    def abort(self) -> None:
        """Delete every staged temporary file and every folder created for them
        (a second signal waits until this is done)."""
        with deferred_signals():
            self._abort()

    def _abort(self) -> None:
        for s in self._staged:
            with contextlib.suppress(Exception):
                s.handle.close()
            with contextlib.suppress(OSError):
                s.tmp.unlink()
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
            self._release()
            return
        if exc_type is None:
            self.commit()
        else:
            self.abort()


def _check_replaceable(final: Path, shown: Path) -> None:
    """A one-line error now (nothing published) when renaming onto ``final``
    would fail: a folder we may not write, or another user's file in a
    folder with the sticky bit (``/tmp``)."""
    folder = final.parent
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _write_error(shown.parent, OSError(errno.EACCES, os.strerror(errno.EACCES)))
    try:
        dst, dst_dir = os.lstat(final), os.stat(folder)
    except OSError:
        return
    euid = os.geteuid() if hasattr(os, "geteuid") else 0
    if dst_dir.st_mode & stat.S_ISVTX and euid not in (0, dst.st_uid, dst_dir.st_uid):
        raise UserError(f"cannot replace {shown}: another user's file in a folder where only its owner "
                        f"may replace it; no output file was changed (choose another output file)")


def _hook(step: str, index: int, path: Path) -> None:
    if publish_hook is not None:
        publish_hook(step, index, path)


def _repair(folder: Path, shown: Path) -> None:
    """With ``folder`` locked: finish or undo an interrupted publication, then
    sweep the staged files of dead writers."""
    outcome = recover(folder)
    if outcome is not None and outcome[1]:
        what, n = outcome
        warnings.warn(f"{shown}: {what} the publication of {n} file{'s' if n != 1 else ''} that an "
                      f"interrupted rouge2 command had left unfinished", UserWarning, stacklevel=4)
    sweep_stale(folder)


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
                with contextlib.suppress(OSError):
                    self._h.close()

    @property
    def closed(self) -> bool:
        return self._h.closed

    def __enter__(self) -> _Handle:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write one file atomically (temporary file, fsync, ``os.replace``)."""
    with OutputTransaction() as tx:
        tx.write_text(path, text)


def stop_message(signum: int, since: int = 0) -> str:
    """The line printed after a signal stopped a command: exactly what changed
    (``since``: ``len(published)`` when the command started)."""
    try:
        name = signal.Signals(signum).name
    except ValueError:  # pragma: no cover
        name = f"signal {signum}"
    done = [p for p in published[since:] if p.name != MANIFEST_NAME]
    if not done:
        return f"rouge2: stopped by {name}; no output file was changed"
    folders = sorted({str(p.parent) for p in done})
    where = folders[0] if len(folders) == 1 else f"{len(folders)} folders"
    return (f"rouge2: stopped by {name} after the outputs were published: {len(done)} "
            f"file{'s' if len(done) != 1 else ''} written in {where}, complete")
