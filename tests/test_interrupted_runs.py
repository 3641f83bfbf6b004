"""Interrupted and failing runs leave nothing behind (docs/safety.md):
SIGTERM/SIGHUP (and the other stopping signals) like Ctrl-C, staged files of
killed runs swept, one run at a time into a folder, a full disk as one line,
files with the umask's mode; a signal or kill -9 at any moment of the
publication leaves the old set or the new one (the publish step driven by a
hook, never by sleeping), a planted lock file is never followed or
truncated, and workers die with their run."""

import errno
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rouge2.errors import UserError
from rouge2.io import atomic

ROOT = Path(__file__).resolve().parents[1]
posix = pytest.mark.skipif(os.name != "posix", reason="POSIX signals and flock")


def env():
    return dict(os.environ, PYTHONPATH=str(ROOT))


@pytest.fixture
def slow_run(tmp_path):
    """A config whose run takes a few seconds (so a signal lands mid-run)."""
    rng = random.Random(7)
    words = [f"w{i}" for i in range(300)]
    with open(tmp_path / "rows.jsonl", "w") as f:
        for t in range(3000):
            for s in range(2):
                f.write(json.dumps({"task": f"t{t}", "system": f"s{s}",
                                    "candidate": " ".join(rng.choice(words) for _ in range(60)),
                                    "references": [" ".join(rng.choice(words) for _ in range(60))]}) + "\n")
    cfg = tmp_path / "run.yaml"
    cfg.write_text("version: 1\nname: slow\ninputs:\n  format: jsonl\n  path: rows.jsonl\n"
                   "measures: [rouge-1, rouge-2, rouge-l, rouge-s*]\noutputs:\n  dir: out\n")
    return cfg, tmp_path / "out"


def start(cfg):
    return subprocess.Popen([sys.executable, "-m", "rouge2", "run", "-q", str(cfg)], env=env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_staged(proc, out: Path, timeout=60):
    """Wait until the run has staged a file in ``out`` (it is mid-run)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if out.is_dir() and any(f".r2-{proc.pid}-" in p.name for p in out.iterdir()):
            return
        if proc.poll() is not None:
            pytest.fail(f"the run ended before staging a file: {proc.stderr.read()}")
        time.sleep(0.02)
    proc.kill()
    pytest.fail("the run staged nothing in time")


@posix
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP", "SIGINT", "SIGQUIT", "SIGUSR1", "SIGALRM"])
def test_signal_removes_staged_files(slow_run, sig):
    cfg, out = slow_run
    proc = start(cfg)
    wait_staged(proc, out)
    signum = getattr(signal, sig)
    proc.send_signal(signum)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum
    assert stderr == f"rouge2: stopped by {sig}; no output file was changed\n", stderr
    assert not out.exists(), list(out.iterdir())  # the folder it created is gone with the staged files


@posix
def test_staged_files_of_a_killed_run_are_swept_by_the_next(slow_run):
    cfg, out = slow_run
    proc = start(cfg)
    wait_staged(proc, out)
    proc.kill()
    proc.communicate(timeout=60)
    left = sorted(p.name for p in out.iterdir())
    assert any(name.endswith(".tmp") for name in left)  # kill -9 cannot clean up
    r = subprocess.run([sys.executable, "-m", "rouge2", "run", "-q", str(cfg)], env=env(),
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    names = sorted(p.name for p in out.iterdir())
    assert not [n for n in names if n.endswith(".tmp") or n == atomic.LOCK_NAME]
    assert "results.csv" in names


@posix
def test_a_second_run_into_the_same_folder_is_refused(slow_run):
    cfg, out = slow_run
    first = start(cfg)
    try:
        wait_staged(first, out)
        r = subprocess.run([sys.executable, "-m", "rouge2", "run", "-q", str(cfg)], env=env(),
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and r.stdout == ""
        assert r.stderr == (f"rouge2 run: error: another rouge2 run (pid {first.pid}) is writing to "
                            f"{out}; wait for it to finish or choose another outputs.dir\n")
    finally:
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=60)


def test_sweep_keeps_files_of_live_writers_and_other_files(tmp_path):
    dead = _dead_pid()
    (tmp_path / f".results.csv.r2-{dead}-abc123.tmp").write_text("partial")
    live = tmp_path / f".results.csv.r2-{os.getpid()}-abc123.tmp"
    live.write_text("mine")
    other = tmp_path / ".notes.tmp"
    other.write_text("not ours")
    removed = atomic.sweep_stale(tmp_path)
    assert [p.name for p in removed] == [f".results.csv.r2-{dead}-abc123.tmp"]
    assert live.exists() and other.exists()


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid  # reaped: no such process now (unless reused at once)


@posix
def test_lock_of_a_dead_run_is_taken_over(tmp_path):
    (tmp_path / atomic.LOCK_NAME).write_text(f"{_dead_pid()}\n")  # left by kill -9
    with atomic.OutputTransaction() as tx:
        tx.hold([tmp_path])
        assert (tmp_path / atomic.LOCK_NAME).read_text() == f"{os.getpid()}\n"
        tx.write_text(tmp_path / "a.txt", "a")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


@posix
def test_lock_held_by_a_live_process_is_refused(tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from rouge2.io.atomic import OutputTransaction as T\n"
         "t = T(); t.hold([sys.argv[1]]); print('held', flush=True); sys.stdin.read()", str(tmp_path)],
        env=env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        tx = atomic.OutputTransaction()
        with pytest.raises(UserError, match=f"another rouge2 run \\(pid {holder.pid}\\) is writing to"):
            tx.hold([tmp_path])
        tx.abort()
    finally:
        holder.kill()
        holder.communicate(timeout=30)
    with atomic.OutputTransaction() as tx:  # released by the system when the holder died
        tx.hold([tmp_path])


def _no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_full_disk_on_write_is_one_line_and_leaves_nothing(tmp_path, monkeypatch):
    folder = tmp_path / "new" / "out"
    with pytest.raises(UserError) as exc:
        with atomic.OutputTransaction() as tx:
            tx.hold([folder])
            f = tx.open(folder / "big.jsonl")
            monkeypatch.setattr(f._h, "write", _no_space)
            f.write("x" * 100)
    assert str(exc.value).startswith(f"cannot write in {folder}: No space left on device; "
                                     f"no output file was changed")
    assert "\n" not in str(exc.value)
    assert list(tmp_path.iterdir()) == []  # staged file, lock and created folders gone


def test_full_disk_on_fsync_keeps_the_previous_outputs(tmp_path, monkeypatch):
    (tmp_path / "results.csv").write_text("previous\n")
    tx = atomic.OutputTransaction()
    with tx.open(tmp_path / "results.csv") as f:
        f.write("new\n")
        monkeypatch.setattr(os, "fsync", _no_space)
        with pytest.raises(UserError, match=f"cannot write in {tmp_path}: No space left on device"):
            f.close()
    tx.abort()
    assert [p.name for p in tmp_path.iterdir()] == ["results.csv"]
    assert (tmp_path / "results.csv").read_text() == "previous\n"


@posix
def test_full_disk_in_a_cli_run_is_one_line(tmp_path):
    sample = ROOT / "resources" / "samples" / "paper-example"
    cfg = tmp_path / "run.yaml"
    cfg.write_text(f"version: 1\nname: t\ninputs:\n  format: java-project\n  path: {sample}\n"
                   f"measures: [rouge-1]\noutputs:\n  dir: out\n")
    code = ("import errno, os, sys\n"
            "def full(fd): raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))\n"
            "os.fsync = full\n"
            "from rouge2.cli import main\n"
            "sys.exit(main(['run', '-q', sys.argv[1]]))\n")
    r = subprocess.run([sys.executable, "-c", code, str(cfg)], env=env(), capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1
    assert r.stderr.startswith(f"rouge2 run: error: cannot write in {tmp_path / 'out'}: No space left")
    assert not (tmp_path / "out").exists()


@posix
@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_outputs_follow_the_umask(tmp_path, umask, mode):
    code = ("import os, sys\nos.umask(int(sys.argv[2], 8))\n"
            "from rouge2.io.atomic import atomic_write_text\n"
            "atomic_write_text(sys.argv[1], 'x')\n")
    target = tmp_path / "f.txt"
    subprocess.run([sys.executable, "-c", code, str(target), oct(umask)[2:]], env=env(), check=True,
                   timeout=60)
    assert target.stat().st_mode & 0o777 == mode


def test_read_only_folder_is_one_line(tmp_path, monkeypatch):
    import tempfile

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    with pytest.raises(UserError) as exc:
        atomic.atomic_write_text(tmp_path / "results.csv", "x")
    assert str(exc.value) == (f"cannot write in {tmp_path}: Read-only file system; no output file "
                              f"was changed (write the outputs to a writable folder)")
    assert list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------------------- issue 21
# publication: a signal or a kill at any moment leaves the old set or the new one


HOOKED = """
import sys
from rouge2.io import atomic

def hook(step, index, path):
    if (step, index) == (sys.argv[2], int(sys.argv[3])):
        print("paused", flush=True)
        sys.stdin.readline()

atomic.publish_hook = hook
from rouge2.cli import main
sys.exit(main(["run", "-q", sys.argv[1]]))
"""


def small_run(tmp_path, words="a b c d"):
    """A run of a few files (fast); ``words`` changes its numbers."""
    rows = tmp_path / "rows.jsonl"
    rows.write_text("".join(json.dumps({"task": f"t{t}", "system": s, "candidate": words,
                                        "references": ["a b c e f"]}) + "\n"
                            for t in range(3) for s in ("A", "B")))
    cfg = tmp_path / "run.yaml"
    cfg.write_text("version: 1\ninputs: {format: jsonl, path: rows.jsonl}\nmeasures: [rouge-1]\n"
                   "outputs: {dir: out}\n")
    return cfg, tmp_path / "out"


def start_hooked(cfg, step, index):
    proc = subprocess.Popen([sys.executable, "-c", HOOKED, str(cfg), step, str(index)], env=env(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "paused\n", proc.stderr.read()
    return proc


def folder_state(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in out.iterdir()}


def assert_consistent(out: Path) -> None:
    """Every file the folder's record lists is there with its recorded SHA-256,
    and nothing else of rouge2's is left (staged files, journal, lock)."""
    import hashlib

    record = json.loads((out / ".rouge2-outputs.json").read_text())["files"]
    names = {p.name for p in out.iterdir()}
    assert names == set(record) | {".rouge2-outputs.json"}, names
    for name, entry in record.items():
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == entry["sha256"], name


def rerun(cfg, out) -> dict[str, bytes]:
    """The folder after one more (uninterrupted) run of ``cfg``: the set the run writes."""
    r = subprocess.run([sys.executable, "-m", "rouge2", "run", "-q", str(cfg)], env=env(),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return folder_state(out)


@posix
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_a_signal_during_publication_is_deferred_until_the_set_is_complete(tmp_path, sig):
    cfg, out = small_run(tmp_path)
    assert subprocess.run([sys.executable, "-m", "rouge2", "run", "-q", str(cfg)], env=env(),
                          timeout=120).returncode == 0
    old = folder_state(out)
    small_run(tmp_path, words="a b c e")  # the next run's numbers differ
    proc = start_hooked(cfg, "rename", 0)  # paused just before the first rename
    signum = getattr(signal, sig)
    proc.send_signal(signum)
    _, stderr = proc.communicate("\n", timeout=60)  # let it go on
    assert proc.returncode == 128 + signum
    assert stderr == (f"rouge2: stopped by {sig} after the outputs were published: "
                      f"{len(old) - 1} files written in {out}, complete\n")
    published = folder_state(out)
    assert_consistent(out)
    assert published != old and published == rerun(cfg, out)  # the whole new set, not a mix


@posix
def test_a_signal_before_publication_changes_nothing_and_says_so(tmp_path):
    cfg, out = small_run(tmp_path)
    assert subprocess.run([sys.executable, "-m", "rouge2", "run", "-q", str(cfg)], env=env(),
                          timeout=120).returncode == 0
    old = folder_state(out)
    small_run(tmp_path, words="a b c e")
    code = HOOKED.replace("atomic.publish_hook = hook", "atomic.OutputTransaction._sync_all = "
                          "lambda self, _f=atomic.OutputTransaction._sync_all: (hook('sync', 0, None), _f(self))")
    proc = subprocess.Popen([sys.executable, "-c", code, str(cfg), "sync", "0"], env=env(), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "paused\n"
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate("\n", timeout=60)
    assert proc.returncode == 143
    assert stderr == "rouge2: stopped by SIGTERM; no output file was changed\n"
    assert folder_state(out) == old


@posix
@pytest.mark.parametrize("step, index", [("journal", 0), ("rename", 0), ("rename", 2)])
def test_kill_9_during_publication_is_completed_by_the_next_run(tmp_path, step, index):
    cfg, out = small_run(tmp_path)
    assert subprocess.run([sys.executable, "-m", "rouge2", "run", "-q", str(cfg)], env=env(),
                          timeout=120).returncode == 0
    old = folder_state(out)
    small_run(tmp_path, words="a b c e")
    proc = start_hooked(cfg, step, index)
    proc.kill()
    proc.communicate(timeout=60)
    assert (out / atomic.JOURNAL_NAME).exists()  # the decided publication is recorded
    # the next command completes it before anything else: the killed run's whole set
    assert atomic.recover(out)[0] == "completed"
    atomic.sweep_stale(out)
    (out / atomic.LOCK_NAME).unlink(missing_ok=True)
    assert_consistent(out)
    repaired = folder_state(out)
    # and runs go on without --overwrite (they used to refuse: "changed since rouge2 wrote it")
    assert repaired != old and repaired == rerun(cfg, out)


@posix
def test_the_next_run_repairs_a_half_published_folder_and_says_so(tmp_path):
    cfg, out = small_run(tmp_path)
    assert subprocess.run([sys.executable, "-m", "rouge2", "run", "-q", str(cfg)], env=env(),
                          timeout=120).returncode == 0
    small_run(tmp_path, words="a b c e")
    proc = start_hooked(cfg, "rename", 1)
    proc.kill()
    proc.communicate(timeout=60)
    r = subprocess.run([sys.executable, "-m", "rouge2", "run", "-q", str(cfg)], env=env(),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0
    assert r.stderr.startswith(f"rouge2: warning: {out}: completed the publication of ")
    assert r.stderr.count("\n") == 1
    assert_consistent(out)


def test_a_publication_not_decided_in_every_folder_is_rolled_back(tmp_path, monkeypatch):
    a, b = tmp_path / "a", tmp_path / "b"
    for folder in (a, b):
        folder.mkdir()
        (folder / "x.csv").write_text("old\n")

    class Died(BaseException):
        pass

    real_replace = os.replace

    def replace(src, dst):
        if str(dst) == str(b / atomic.JOURNAL_NAME):
            raise Died  # the process dies between the two journals
        real_replace(src, dst)

    tx = atomic.OutputTransaction()
    tx.write_text(a / "x.csv", "new\n")
    tx.write_text(b / "x.csv", "new\n")
    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(atomic.OutputTransaction, "abort", lambda self: None)  # dead: no clean-up
    with pytest.raises(Died):
        tx.commit()
    monkeypatch.undo()
    assert (a / atomic.JOURNAL_NAME).exists() and not (b / atomic.JOURNAL_NAME).exists()
    assert atomic.recover(a) == ("rolled back", 2)  # both staged files deleted
    atomic.sweep_stale(b)
    for folder in (a, b):
        assert (folder / "x.csv").read_text() == "old\n"
        assert sorted(p.name for p in folder.iterdir()
                      if p.name != atomic.LOCK_NAME and not atomic.is_staged_name(p.name)) == ["x.csv"]


def test_a_journal_never_moves_a_file_out_of_its_folder(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out = tmp_path / "out"
    out.mkdir()
    planted = out / f".evil.r2-{_dead_pid()}-x.tmp"
    planted.write_text("pwned\n")
    (out / atomic.JOURNAL_NAME).write_text(json.dumps({
        "rouge2_journal": 1, "id": "1-x", "pid": 1, "folders": [str(out)],
        "files": [[str(planted), str(victim)], [str(planted), str(out / "..") + "/victim.txt"]]}))
    atomic.recover(out)
    assert victim.read_text() == "precious\n"


# ----------------------------------------------------------------------------- the lock


@posix
@pytest.mark.parametrize("plant", ["symlink", "hard link", "foreign text", "FIFO"])
def test_a_planted_lock_file_is_refused_and_never_changed(tmp_path, plant):
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's data\n")
    cfg, out = small_run(tmp_path)
    out.mkdir()
    lock = out / atomic.LOCK_NAME
    if plant == "symlink":
        lock.symlink_to(victim)
    elif plant == "hard link":
        os.link(victim, lock)
    elif plant == "FIFO":
        os.mkfifo(lock)
    else:
        lock.write_text("not a pid at all\n")
    r = subprocess.run([sys.executable, "-m", "rouge2", "run", "-q", str(cfg)], env=env(),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith(f"rouge2 run: error: {lock} is not rouge2's lock file (")
    assert victim.read_text() == "the user's data\n"
    if plant == "foreign text":
        assert lock.read_text() == "not a pid at all\n"
    assert not (out / "results.csv").exists()


@posix
def test_a_lock_kept_by_an_orphan_of_a_dead_run_is_taken_over(tmp_path):
    # an older rouge2's orphan worker: it inherited the lock from a run killed since
    code = ("import fcntl, os, subprocess, sys\n"
            "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\n"
            "os.write(fd, f'{os.getpid()}\\n'.encode())\n"
            "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'], pass_fds=(fd,),\n"
            "                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
            "print(child.pid, flush=True)\n")
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path / atomic.LOCK_NAME)], capture_output=True,
                       text=True, timeout=60, check=True)
    orphan = int(r.stdout)
    try:
        with atomic.OutputTransaction() as tx:  # not "another rouge2 run (pid <dead>) is writing"
            tx.hold([tmp_path])
            tx.write_text(tmp_path / "a.txt", "a")
        assert (tmp_path / "a.txt").read_text() == "a"
    finally:
        os.kill(orphan, signal.SIGKILL)


@posix
def test_two_spellings_of_one_folder_take_one_lock(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "alias").symlink_to(tmp_path / "real")
    with atomic.OutputTransaction() as tx:
        tx.hold([tmp_path / "real", tmp_path / "real" / ".." / "real", tmp_path / "alias"])
        tx.write_text(tmp_path / "alias" / "a.txt", "a")
        tx.write_text(tmp_path / "real" / "b.txt", "b")
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["a.txt", "b.txt"]


# ----------------------------------------------------------------------------- workers


def _children(pid: int) -> set[int]:
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.add(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_die_with_a_killed_run_and_leave_the_folder_free(slow_run):
    cfg, out = slow_run
    proc = subprocess.Popen([sys.executable, "-m", "rouge2", "run", "-q", "--jobs", "2", str(cfg)], env=env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < end and len(workers) < 2:
        workers = {p for p in _children(proc.pid) if _alive(p)}
        time.sleep(0.05)
    if len(workers) < 2:
        proc.kill()
        pytest.skip("the run did not start two workers (one usable core?)")
    wait_staged(proc, out)
    proc.kill()
    proc.communicate(timeout=60)
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.02)
    assert not [p for p in workers if _alive(p)]  # no orphan outlives its parent by a second
    with atomic.OutputTransaction() as tx:  # and the folder is free at once
        tx.hold([out])


@posix
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_to_the_whole_process_group_is_one_line(slow_run, sig):
    # Ctrl-C in a terminal, or a service manager stopping a unit, signals every
    # process of the group: the workers too (they inherited the run's handlers)
    cfg, out = slow_run
    proc = subprocess.Popen([sys.executable, "-m", "rouge2", "run", "-q", "--jobs", "2", str(cfg)], env=env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    wait_staged(proc, out)
    signum = getattr(signal, sig)
    os.killpg(proc.pid, signum)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum
    assert stderr == f"rouge2: stopped by {sig}; no output file was changed\n"  # no worker traceback
    assert not out.exists()



# The moments of a run with --jobs 2 where a signal to the whole group used to
# be at risk, each held open by a pause the test waits for: "fork", the run
# between forking its two workers (signals blocked); "start-up", the second
# worker still starting (no handlers of its own yet) while the first idles on
# the task queue, holding its lock.  A stopping signal then killed the first;
# the second swallowed it, and the SIGTERM the pool sends, then waited forever
# for the lock the first died with: the run hung.
PAUSED_WORKERS = """
import os, sys, time
from rouge2.run import parallel

point, marks = sys.argv[2], sys.argv[3]

def mark(name):
    os.close(os.open(os.path.join(marks, name), os.O_CREAT | os.O_EXCL | os.O_WRONLY))

def wait_for_go():
    end = time.monotonic() + 30
    while not os.path.exists(os.path.join(marks, "go")) and time.monotonic() < end:
        time.sleep(0.01)

os.register_at_fork(after_in_child=lambda: mark(f"worker-{os.getpid()}"))
if point == "fork":
    forks = []
    def after_fork():
        forks.append(1)
        if len(forks) == 1:
            mark("paused")
            wait_for_go()
    os.register_at_fork(after_in_parent=after_fork)
else:
    first_start = parallel.die_with_parent
    def die_with_parent(parent):
        first_start(parent)
        try:
            mark("first")
        except FileExistsError:  # the second worker lingers before its own handlers
            mark("second")
            time.sleep(3)
    parallel.die_with_parent = die_with_parent
    first_pool = parallel.Workers.pool
    def pool(self):
        ready = self._pool is not None
        p = first_pool(self)
        if not ready:  # the first worker now idles, holding the task queue's lock
            mark("paused")
            wait_for_go()
        return p
    parallel.Workers.pool = pool

from rouge2.cli import main
sys.exit(main(["run", "-q", "--jobs", "2", sys.argv[1]]))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux") or len(os.sched_getaffinity(0)) < 2,
                    reason="forked workers (Linux), two usable cores")
@pytest.mark.parametrize("point, sig", [("start-up", "SIGTERM"), ("start-up", "SIGHUP"), ("start-up", "SIGINT"),
                                        ("fork", "SIGTERM"), ("fork", "SIGINT")])
def test_a_signal_to_the_whole_group_ends_a_run_whose_workers_are_starting(tmp_path, point, sig):
    cfg, out = small_run(tmp_path)
    marks = tmp_path / "marks"
    marks.mkdir()
    proc = subprocess.Popen([sys.executable, "-c", PAUSED_WORKERS, str(cfg), point, str(marks)], env=env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    wanted = {"paused"} | ({"first", "second"} if point == "start-up" else set())
    end = time.monotonic() + 60
    while not wanted <= {p.name for p in marks.iterdir()}:
        if proc.poll() is not None or time.monotonic() > end:
            proc.kill()
            pytest.fail(f"the run did not pause: {proc.communicate()}")
        time.sleep(0.01)
    signum = getattr(signal, sig)
    os.killpg(proc.pid, signum)
    (marks / "go").touch()
    try:
        _, stderr = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"the run hung after {sig} to its process group")
    assert proc.returncode == 128 + signum
    assert stderr == f"rouge2: stopped by {sig}; no output file was changed\n"  # no worker traceback
    assert not out.exists()
    workers = [int(p.name.split("-")[1]) for p in marks.iterdir() if p.name.startswith("worker-")]
    # paused at the fork, the second worker is forked after the signal: the stopping run may
    # kill it before it runs a line (its mark), so only the first is sure to have marked
    assert len(workers) == 2 if point == "start-up" else 1 <= len(workers) <= 2
    deadline = time.monotonic() + 5  # no worker outlives the run
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.02)
    assert not [w for w in workers if _alive(w)]
