"""Build the topic-coverage report on SummEval (or any rouge2 JSONL) and measure it.

    python benchmarks/topic_report.py OUT_DIR [--input FILE.jsonl] [--topics nn|vb]
                                      [--screenshots DOCS_IMG_DIR]

Without --input, SummEval is read from ../shared/data/summeval/summeval.jsonl
(16 systems x 100 documents, 11 references each).  Prints the CPU time of
each step (tagging, per-pair coverage, writer.add, writer.finish), the size
of every file, and how long headless Chromium takes to open the index and
the largest task page (Navigation Timing, loadEventEnd; three loads each).
With --screenshots, writes topic-report-index.png and topic-report-task.png
there (1000 x 700 viewport).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SUMMEVAL = REPO.parent / "shared" / "data" / "summeval" / "summeval.jsonl"


def summeval_items():
    from rouge2.io.inputs import InputItem

    for line in SUMMEVAL.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        refs = tuple(row["ref_summs"])
        names = tuple(f"ref{k + 1}" for k in range(len(refs)))
        for system, v in sorted(row["sys_summs"].items()):
            yield InputItem(row["doc_id"], system, v["sys_summ"], refs, names)


def jsonl_items(path: Path):
    from rouge2.config.yaml_config import parse_config
    from rouge2.io.inputs import read_inputs

    path = path.resolve()
    cfg = parse_config(f"inputs: {{format: jsonl, path: {path}, sentences: splitter}}\n", "bench.yaml",
                       base=path.parent)
    return read_inputs(cfg.inputs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--input", type=Path)
    ap.add_argument("--topics", default="nn|vb")
    ap.add_argument("--screenshots", type=Path)
    args = ap.parse_args()

    import rouge2
    from rouge2.io.atomic import OutputTransaction
    from rouge2.io.topic_report import TopicReportWriter
    from rouge2.measures.coverage import TopicCoverage

    items = list(summeval_items() if args.input is None else jsonl_items(args.input))
    measures = [f"rouge-topic-{args.topics}", "rouge-topicuniq-nn|jj"]
    scorer = rouge2.Scorer(measures, stem=True)
    t = time.process_time()
    scorer.prefetch([x for it in items for x in (it.candidate, *it.references)])
    print(f"{len(items)} summaries; tagging {time.process_time() - t:.1f} s CPU")
    cov = TopicCoverage(scorer, args.topics)
    t = time.process_time()
    pairs = [cov.pair(it.task, it.system, it.candidate, it.references, it.reference_names) for it in items]
    print(f"TopicCoverage.pair: {time.process_time() - t:.1f} s CPU")
    out = args.out
    html_path = out / "topic_coverage.html"
    with OutputTransaction() as tx:
        writer = TopicReportWriter(tx.open(out / "topic_coverage.csv", newline=""), cov.selection,
                                   synonyms=False, title="SummEval" if args.input is None else args.input.stem,
                                   resamples=1000, seed=1, auxiliaries=cov.auxiliaries)
        t = time.process_time()
        for p in pairs:
            writer.add(p.system, p)
        print(f"writer.add: {time.process_time() - t:.1f} s CPU")
        t = time.process_time()
        with tx.open(html_path) as f:
            writer.finish(f, tx.open, html_path)
        print(f"writer.finish: {time.process_time() - t:.1f} s CPU")
    folder = out / "topic_coverage_files"
    for p in sorted(out.iterdir()):
        if p.is_file():
            print(f"  {p.name}: {p.stat().st_size:,} bytes")
    pages = sorted(folder.glob("*.html"), key=lambda p: p.stat().st_size)
    print(f"  {folder.name}/: {len(pages)} pages, {sum(p.stat().st_size for p in folder.iterdir()):,} bytes, "
          f"largest {pages[-1].name} {pages[-1].stat().st_size:,} bytes")

    sys.path.insert(0, str(REPO / "tests"))
    from headless import Browser

    with Browser() as b:
        for page in (html_path, pages[-1]):
            loads = []
            for _ in range(3):
                tab = b.open(page.as_uri())
                loads.append(tab.eval("performance.getEntriesByType('navigation')[0].loadEventEnd") / 1000)
                assert tab.errors == [], tab.errors
            print(f"  open {page.name}: " + ", ".join(f"{x:.2f} s" for x in loads))
        if args.screenshots:
            args.screenshots.mkdir(parents=True, exist_ok=True)
            tab = b.open(html_path.as_uri(), 1000, 700)
            tab.screenshot(args.screenshots / "topic-report-index.png")
            first = sorted(folder.glob("task-*.html"))[0]
            tab = b.open(first.as_uri(), 1000, 700)
            tab.eval("document.querySelectorAll('button.show')[0].click()")
            tab.eval("document.querySelectorAll('details.ref').forEach((d, k) => { d.open = k === 0; })")
            tab.eval("document.querySelectorAll('details.ref')[0].scrollIntoView()")
            tab.screenshot(args.screenshots / "topic-report-task.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
