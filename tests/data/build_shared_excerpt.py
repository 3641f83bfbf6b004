"""Rebuild tests/data/shared/: the excerpt of ../shared the test suite runs on
when shared/ is not beside the clone (see tests/data/README.md).

    python tests/data/build_shared_excerpt.py [SHARED]

Files are copied as they are (the ROUGE-1.5.5 fixtures, the Java samples and
the jar's outputs, the SummEval toolkit pair), except two excerpts: the first
SUMMEVAL_DOCS lines of SummEval, and a sample of the stemmer fixture (every
STEM_EVERY-th word, and every word whose -m stem differs from stem()).
tests/test_bundled_data.py checks, when shared/ is there, that the excerpt
still matches it.
"""

from __future__ import annotations

import gzip
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "shared"
SUMMEVAL_DOCS = 12
STEM_EVERY = 20
STEM_SAMPLE = "rouge155_stems_sample.tsv.gz"

COPIED = [  # (path under shared/, what it is)
    ("fixtures/rouge155", "ROUGE-1.5.5 runs with the script's reports"),
    ("data/summeval_toolkit", "one pair with ROUGE-1.5.5's scores (SummEval toolkit, MIT)"),
    ("data/summeval/LICENSE", "SummEval's licence file"),
    ("data/opinosis/LICENSE", "Opinosis's licence (the texts of the rouge155 fixtures and Java samples)"),
    ("data/rouge2_java/v1.2.2", "the Java ROUGE 2.0 sample project, properties and results"),
    ("data/rouge2_java/repo_root/LICENSE", "the Java ROUGE 2.0 licence (Apache-2.0)"),
    ("data/rouge2_java/repo_root/resources", "its stopword lists"),
    ("data/rouge2_java/repo_root/distribute/resources/stopwords-rouge-default.txt", "its CRLF stopword list"),
    ("data/rouge2_java/generated_by_jar_v1.2.2", "the jar's outputs on the Opinosis samples"),
]


def _ignore(folder: str, names: list[str]) -> list[str]:
    return [n for n in names if n in ("rouge2-results", "__pycache__")]


def build(shared: Path) -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    for rel, _ in COPIED:
        src, dst = shared / rel, OUT / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, ignore=_ignore)
        else:
            shutil.copy2(src, dst)
    lines = (shared / "data/summeval/summeval.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (OUT / "data/summeval/summeval.jsonl").write_text("".join(lines[:SUMMEVAL_DOCS]), encoding="utf-8")
    with gzip.open(shared / "fixtures/stemmer/rouge155_stems.tsv.gz", "rt", encoding="utf-8") as fh:
        rows = fh.read().splitlines(keepends=True)
    head = [r for r in rows if r.startswith("#")]
    body = [r for r in rows if r.strip() and not r.startswith("#")]
    kept = [r for i, r in enumerate(body) if i % STEM_EVERY == 0 or len(set(r.rstrip("\n").split("\t")[1:])) > 1]
    note = f"# sample of rouge155_stems.tsv.gz: every {STEM_EVERY}th word and every word whose -m stem differs\n"
    target = OUT / "fixtures/stemmer" / STEM_SAMPLE
    target.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(target, "wb", mtime=0) as gz:
        gz.write("".join([note, *head, *kept]).encode("utf-8"))
    for p in sorted(OUT.rglob("*")):
        if p.is_file():
            p.chmod(0o644)


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parents[2] / "shared")
