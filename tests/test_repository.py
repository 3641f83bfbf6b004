"""The repository itself: no merge-conflict marker is ever committed."""

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_no_conflict_markers_in_tracked_files():
    files = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True)
    if files.returncode != 0:  # not a git checkout (an sdist): nothing to check
        return
    bad = []
    for name in files.stdout.splitlines():
        path = REPO / name
        if path.suffix in (".gz", ".png", ".whl") or not path.is_file():
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if line.startswith(("<<<<<<< ", ">>>>>>> ")) or line == "=======":
                bad.append(f"{name}:{n}")
    assert not bad, bad
