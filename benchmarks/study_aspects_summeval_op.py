"""Meta-evaluation on SummEval-OP (docs/aspects.md, "Does it agree with people?").

How well do ROUGE-Aspect (a generic product lexicon, configs/product-aspects.tsv),
ROUGE-TopicUniq-NN|JJ recall and ROUGE-1 recall agree with the human
aspect-coverage ratings of SummEval-OP (Siledar et al. 2024: 32 products, 12
systems, the human summary as the reference), at system and summary level,
with bootstrap intervals; next to them, the summary length in words (a
baseline that uses no reference).  Numbers as measured: nothing here was
tuned to this dataset.

    python benchmarks/study_aspects_summeval_op.py --shared ../shared [--resamples 1000]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import rouge2
from rouge2.stats.correlation import correlation

REPO = Path(__file__).resolve().parents[1]
LEXICON = REPO / "configs" / "product-aspects.tsv"
DIMENSION = "Aspect Coverage"


def load(shared: Path) -> tuple[list[tuple[str, str, str, str]], dict[tuple[str, str], float]]:
    """``(task, system, summary, reference)`` rows and the human ratings by (system, task)."""
    rows, human = [], {}
    path = shared / "data" / "summeval_op" / "summeval-op.jsonl"
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        product = json.loads(line)["summaries"]
        task = f"p{i + 1:02d}"
        reference = product["human-summaries"]["summary"]
        for system, entry in product.items():
            if system == "human-summaries":
                continue
            rows.append((task, system, entry["summary"], reference))
            human[(system, task)] = entry["dimensions"][DIMENSION]
    return rows, human


METRICS = {  # name -> (measure, score)
    "rouge-aspect R": ("rouge-aspect", "recall"),
    "rouge-topicuniq-nn|jj R": ("rouge-topicuniq-nn|jj", "recall"),
    "rouge-1 R": ("rouge-1", "recall"),
    "rouge-1 F": ("rouge-1", "fmeasure"),
}


def tables(rows, **options) -> dict[str, dict[tuple[str, str], float]]:
    measures = sorted({m for m, _ in METRICS.values()})
    scores = rouge2.score_corpus([(s, [r]) for _, _, s, r in rows], measures=measures, **options)
    out: dict[str, dict[tuple[str, str], float]] = {name: {} for name in METRICS}
    for (task, system, summary, _), per in zip(rows, scores):
        for name, (m, score) in METRICS.items():
            out[name][(system, task)] = getattr(per[m], score)
    out["length (words)"] = {(system, task): float(len(summary.split())) for task, system, summary, _ in rows}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rows, human = load(args.shared)
    metric = tables(rows, stem=True, aspects=str(LEXICON))
    print(f"SummEval-OP: {len({r[0] for r in rows})} products x {len({r[1] for r in rows})} systems; "
          f"human dimension {DIMENSION!r}; bootstrap over systems and products ({args.resamples} "
          f"resamples, 95%, seed {args.seed})\n")
    print("| metric | level | Kendall tau [95% CI] | Pearson r [95% CI] | Spearman rho [95% CI] |")
    print("|---|---|---|---|---|")
    for level in ("system", "summary"):
        for name, table in metric.items():
            res = correlation(table, human, level, resampling="both", resamples=args.resamples,
                              seed=args.seed)
            cells = [f"{e.value:+.3f} [{e.ci[0]:+.3f}, {e.ci[1]:+.3f}]"
                     for e in (res.kendall, res.pearson, res.spearman)]
            print(f"| {name} | {level} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
