"""Every shared ROUGE-1.5.5 fixture reproduces the script's report byte for byte."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from shared_data import DATA, missing

from rouge2.cli.rouge155 import run

CASES_DIR = DATA / "fixtures" / "rouge155"
CASES = sorted(p.name for p in CASES_DIR.iterdir() if (p / "expected.txt").exists()) if CASES_DIR.is_dir() else []


def run_case(case_dir: Path, argv: list[str]) -> tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(case_dir)
    try:
        rc = run(argv, out, err)
    finally:
        os.chdir(old)
    return rc, out.getvalue(), err.getvalue()


@pytest.mark.skipif(not CASES, reason=f"no fixtures under {CASES_DIR}")
@pytest.mark.parametrize("kernels", ["default", "pure-python"])
@pytest.mark.parametrize("case", CASES)
def test_fixture_reproduces_expected_report(case, kernels):
    case_dir = CASES_DIR / case
    flags = (case_dir / "flags.txt").read_text().split()
    expected = (case_dir / "expected.txt").read_bytes()
    if kernels == "default":
        rc, out, err = run_case(case_dir, flags + ["config.xml"])
        assert rc == 0, err
    else:  # a fresh process: the kernels are chosen once, at import
        proc = subprocess.run([sys.executable, "-m", "rouge2", "rouge155", *flags, "config.xml"],
                              cwd=case_dir, capture_output=True,
                              env=dict(os.environ, ROUGE2_PURE_PYTHON="1"))
        assert proc.returncode == 0, proc.stderr.decode()
        out = proc.stdout
    assert out == expected


@pytest.mark.skipif(not CASES, reason=f"no fixtures under {CASES_DIR}")
def test_fixture_runs_from_another_directory(tmp_path):
    """Paths missing relative to the current directory are looked up next to
    the settings file."""
    case_dir = CASES_DIR / CASES[0]
    flags = (case_dir / "flags.txt").read_text().split()
    rc, out, err = run_case(tmp_path, flags + [str(case_dir / "config.xml")])
    assert rc == 0, err
    assert out == (case_dir / "expected.txt").read_bytes()


def test_single_system_and_missing_peer_warning(tmp_path):
    (tmp_path / "m").mkdir()
    (tmp_path / "p").mkdir()
    (tmp_path / "m" / "a.txt").write_text("the cat sat on the mat\n")
    (tmp_path / "p" / "a.txt").write_text("the cat sat\n")
    (tmp_path / "c.xml").write_text(
        '<ROUGE-EVAL><EVAL ID="1"><PEER-ROOT>p</PEER-ROOT><MODEL-ROOT>m</MODEL-ROOT>'
        '<INPUT-FORMAT TYPE="SPL"/><PEERS><P ID="S">a.txt</P></PEERS>'
        '<MODELS><M ID="A">a.txt</M></MODELS></EVAL>'
        '<eval ID="2"><peer-root>p</peer-root><model-root>m</model-root>'
        '<input-format TYPE="spl"/><peers><p ID="T">a.txt</p></peers>'
        '<models><m ID="A">a.txt</m></models></eval></ROUGE-EVAL>'
    )
    rc, out, err = run_case(tmp_path, ["-n", "1", "-x", "-d", "c.xml", "S"])
    assert rc == 0
    lines = out.decode().splitlines()
    assert lines[1] == "S ROUGE-1 Average_R: 0.50000 (95%-conf.int. 0.50000 - 0.50000)"
    assert lines[-1] == "S ROUGE-1 Eval 1.S R:0.50000 P:1.00000 F:0.66667"
    assert "*ROUGE Warning: test instance for peer S does not exist for evaluation 2" in err


def test_missing_model_is_a_one_line_error(tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "a.txt").write_text("x\n")
    (tmp_path / "c.xml").write_text(
        '<ROUGE-EVAL><EVAL ID="1"><PEER-ROOT>p</PEER-ROOT><MODEL-ROOT>m</MODEL-ROOT>'
        '<INPUT-FORMAT TYPE="SPL"/><PEERS><P ID="S">a.txt</P></PEERS>'
        '<MODELS><M ID="A">gone.txt</M></MODELS></EVAL></ROUGE-EVAL>'
    )
    rc, out, err = run_case(tmp_path, ["-a", "c.xml"])
    assert rc == 2
    assert err == "rouge2 rouge155: error: Cannot find model summary: m/gone.txt\n"


def test_raw_counts_mode_2(tmp_path):
    (tmp_path / "a.txt").write_text("the cat sat on the mat\n")
    (tmp_path / "b.txt").write_text("the cat sat\nthe dog\n")
    (tmp_path / "list.txt").write_text("# peer model\nb.txt a.txt a.txt\n")
    rc, out, err = run_case(tmp_path, ["-z", "SPL", "-n", "1", "-x", "-t", "2", "-d", "list.txt"])
    assert rc == 0, err
    assert out.decode().splitlines() == [
        "-" * 45,
        "X ROUGE-1 M_count: 12 P_count: 10 H_count: 8",
        "." * 45,
        "X ROUGE-1 Eval 1.X R:12 P:10 F:8",
    ]


def test_fixture_cases_are_present():
    if not CASES:
        missing(CASES_DIR)
    assert len(CASES) >= 8
