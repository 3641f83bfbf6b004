"""What the command line points at exists: docs pages, example configs that run from anywhere."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from rouge2.cli.help import doc_pages, example_names, example_text

REPO = Path(__file__).resolve().parents[1]


def test_every_docs_reference_in_the_code_names_an_installed_page():
    pages = set(doc_pages())
    assert {"index", "options", "scoring", "config"} <= pages
    found = set()
    for path in (REPO / "rouge2").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r"docs/([a-z0-9-]+)\.md", text))
        found |= set(re.findall(r"rouge2 docs ([a-z][a-z0-9-]*)", text))
    assert found and not (found - pages), sorted(found - pages)


def test_docs_pages_are_the_repository_docs():
    assert set(doc_pages()) == {p.stem for p in (REPO / "docs").glob("*.md")}


def test_docs_command_prints_a_page_and_suggests():
    out = subprocess.run([sys.executable, "-m", "rouge2", "docs", "options"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("# Options")
    bad = subprocess.run([sys.executable, "-m", "rouge2", "docs", "optoins"], capture_output=True, text=True)
    assert bad.returncode == 2 and "did you mean 'options'?" in bad.stderr and bad.stderr.count("\n") == 1


@pytest.mark.parametrize("name", ["quickstart", "rouge155-equivalent", "news-summeval", "domain-synonyms",
                                  "languages-zh"])
def test_example_configs_run_from_any_folder(tmp_path, name):
    assert name in example_names()
    (tmp_path / "run.yaml").write_text(example_text(name))
    proc = subprocess.run([sys.executable, "-m", "rouge2", "run", "-q", "run.yaml"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "rouge2-results" / name / "summary.json").is_file()


def test_unknown_example():
    proc = subprocess.run([sys.executable, "-m", "rouge2", "example", "quikstart"], capture_output=True, text=True)
    assert proc.returncode == 2 and "did you mean 'quickstart'?" in proc.stderr
