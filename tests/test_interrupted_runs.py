"""Interrupted and failing runs leave nothing behind (docs/safety.md):
SIGTERM/SIGHUP like Ctrl-C, staged files of killed runs swept, one run at a
time into a folder, a full disk as one line, files with the umask's mode."""

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
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_signal_removes_staged_files(slow_run, sig):
    cfg, out = slow_run
    proc = start(cfg)
    wait_staged(proc, out)
    signum = getattr(signal, sig)
    proc.send_signal(signum)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum
    assert stderr.count("\n") == 1 and stderr.startswith("rouge2: "), stderr
    assert not out.exists()  # the folder it created is gone with the staged files


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
