"""The README's first command must keep working and keep giving the original's numbers."""

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def readme_commands():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", text, re.S).group(1)
    return [line for line in block.splitlines() if line and not line.startswith("#")]


def test_readme_starts_with_two_commands():
    cmds = readme_commands()
    assert len(cmds) == 2
    assert "pip install ." in cmds[0] and "pytest" in cmds[1]


def test_readme_evaluation_reproduces_rouge155_report():
    first = readme_commands()[0]
    rouge2_args = first.split("rouge2 ", 1)[1].split()
    out = subprocess.run(
        [sys.executable, "-m", "rouge2", *rouge2_args],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout
    expected = (REPO / "tests/data/rouge155_sample_expected.txt").read_text()
    assert out == expected


def test_ci_runs_exactly_the_readme_test_command():
    # CI runs what a new user runs: the README's second command, install included
    ci = (REPO / ".ci/run").read_text(encoding="utf-8").splitlines()
    assert readme_commands()[1] in ci
