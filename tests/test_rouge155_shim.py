"""The ROUGE-1.5.5.pl stand-in runs rouge2 and prints the same report."""

import shutil
import subprocess
from pathlib import Path

import pytest

from rouge2.cli.shim import write_shim

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("perl") is None, reason="perl is needed to run the shim")
def test_shim_reproduces_the_sample_report(tmp_path):
    script = write_shim(tmp_path / "ROUGE")
    assert (tmp_path / "ROUGE" / "data").is_dir()
    args = ["-e", str(tmp_path / "ROUGE" / "data"), "-a", "-d", "-n", "2", "-m", "-2", "4", "-U",
            "-w", "1.2", "-c", "95", "-r", "1000", "resources/samples/rouge155/settings.xml"]
    out = subprocess.run(["perl", str(script), *args], cwd=REPO, capture_output=True, text=True, check=True).stdout
    assert out == (REPO / "tests/data/rouge155_sample_expected.txt").read_text()


def test_shim_refuses_a_file_path(tmp_path):
    from rouge2.errors import UserError

    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(UserError, match="not a folder"):
        write_shim(f)
