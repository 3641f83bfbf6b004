"""The excerpt of shared/ shipped in tests/data/shared matches shared/ itself.

Copied files must be identical, the SummEval excerpt must be the first
lines of the full file and the stemmer sample a part of the full fixture,
so the suite checks the same facts with or without shared/.  Without
shared/ (a plain clone) the excerpt's own consistency is checked.
"""

from __future__ import annotations

import gzip
from pathlib import Path

from shared_data import BUNDLED, FULL, SHARED

REPO = Path(__file__).resolve().parents[1]
EXCERPTS = {"data/summeval/summeval.jsonl", "fixtures/stemmer/rouge155_stems_sample.tsv.gz"}


def bundled_files() -> list[str]:
    return sorted(str(p.relative_to(BUNDLED)) for p in BUNDLED.rglob("*") if p.is_file())


def _stem_rows(path: Path) -> list[str]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [line for line in fh.read().splitlines() if line.strip() and not line.startswith("#")]


def test_the_excerpt_has_its_licences_and_readme():
    names = set(bundled_files())
    for licence in ("data/summeval/LICENSE", "data/summeval_toolkit/LICENSE", "data/opinosis/LICENSE",
                    "data/rouge2_java/repo_root/LICENSE"):
        assert licence in names
    readme = (REPO / "tests/data/README.md").read_text()
    for folder in ("fixtures/rouge155/", "data/summeval/summeval.jsonl", "data/rouge2_java/"):
        assert folder in readme
    assert len(_stem_rows(BUNDLED / "fixtures/stemmer/rouge155_stems_sample.tsv.gz")) == 14_246
    assert len((BUNDLED / "data/summeval/summeval.jsonl").read_text().splitlines()) == 12


def test_no_test_reads_a_fixed_shared_path():
    for path in (REPO / "tests").glob("test_*.py"):
        if path.name != "test_bundled_data.py":
            assert "/work/" + "shared" not in path.read_text(), path.name


def test_the_excerpt_is_shared_itself():
    """The excerpt holds no run outputs; with shared/, its files are shared/'s."""
    rels = bundled_files()
    assert not [r for r in rels if "rouge2-results" in r]  # no test writes into the data
    if not FULL:
        return
    for rel in rels:
        if rel not in EXCERPTS:
            assert (BUNDLED / rel).read_bytes() == (SHARED / rel).read_bytes(), rel
    full = (SHARED / "data/summeval/summeval.jsonl").read_text().splitlines()
    part = (BUNDLED / "data/summeval/summeval.jsonl").read_text().splitlines()
    assert part == full[:len(part)]
    whole = set(_stem_rows(SHARED / "fixtures/stemmer/rouge155_stems.tsv.gz"))
    assert set(_stem_rows(BUNDLED / "fixtures/stemmer/rouge155_stems_sample.tsv.gz")) <= whole
