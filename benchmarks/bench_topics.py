"""Cost of ROUGE-Topic / ROUGE-TopicUniq compared with tagging each text once.

Usage:  python benchmarks/bench_topics.py [--docs N] [--repeat R] [--synonyms] [--stem]
                                          [--shared PATH]

Data: SummEval (``data/summeval/summeval.jsonl`` under the shared folder):
100 CNN/DailyMail documents, 16 system summaries each, every system of a
document scored against the same 11 references.  That is 1,600 pairs and
1,600 x 12 = 19,200 text occurrences, but only about 2,650 distinct texts.

Two timings, each with a fresh tagger whose spaCy pipeline is loaded before
the clock starts (the load time is printed separately):

(a) tagging: every distinct text tagged once with the spaCy tagger
    (``SpacyTagger.tag_many``, batches of 512, the batching
    ``score_corpus`` uses);
(b) scoring: ``rouge2.score_corpus`` with ``rouge-topic-nn|jj`` and
    ``rouge-topicuniq-nn|jj`` over all pairs and all 11 references, tagging
    included.

The ratio (b)/(a) says what topic scoring costs beyond tagging.  The
script also counts the documents spaCy actually processed during (b) (by
wrapping ``nlp.pipe``), to show that a reference shared by 16 systems is
tagged once.  Best of ``--repeat`` runs, one process.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import rouge2  # noqa: E402
from rouge2.pos.tagger import SpacyTagger  # noqa: E402

MEASURES = ["rouge-topic-nn|jj", "rouge-topicuniq-nn|jj"]


def load_pairs(shared: Path, docs: int):
    """(candidate, [11 references]) for every system of the first ``docs`` documents."""
    pairs = []
    with open(shared / "data/summeval/summeval.jsonl", encoding="utf-8") as fh:
        for k, line in enumerate(fh):
            if k >= docs:
                break
            row = json.loads(line)
            refs = list(row["ref_summs"])
            for name in sorted(row["sys_summs"]):
                pairs.append((row["sys_summs"][name]["sys_summ"], refs))
    return pairs


def fresh_tagger():
    """A new SpacyTagger with its pipeline loaded and ``nlp.pipe`` counting documents."""
    tagger = SpacyTagger()
    t0 = time.perf_counter()
    nlp = tagger.nlp
    load = time.perf_counter() - t0
    count = [0]
    pipe = nlp.pipe

    def counting_pipe(texts, **kwargs):
        for doc in pipe(texts, **kwargs):
            count[0] += 1
            yield doc

    nlp.pipe = counting_pipe
    return tagger, count, load


def time_tagging(distinct):
    tagger, count, load = fresh_tagger()
    t0 = time.perf_counter()
    for i in range(0, len(distinct), 512):
        tagger.tag_many(distinct[i : i + 512])
    return time.perf_counter() - t0, count[0], load


def time_scoring(pairs, options):
    tagger, count, load = fresh_tagger()
    t0 = time.perf_counter()
    results = rouge2.score_corpus(pairs, measures=MEASURES, tagger=tagger, **options)
    return time.perf_counter() - t0, count[0], load, results


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=100, help="SummEval documents to use (100 = all)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--synonyms", action="store_true", help="score with synonyms=True (WordNet)")
    ap.add_argument("--stem", action="store_true", help="score with stem=True")
    ap.add_argument("--shared", default=os.environ.get("ROUGE2_SHARED", str(REPO.parent / "shared")))
    args = ap.parse_args(argv)

    pairs = load_pairs(Path(args.shared), args.docs)
    occurrences = sum(1 + len(refs) for _, refs in pairs)
    distinct = list(dict.fromkeys([c for c, _ in pairs] + [r for _, refs in pairs for r in refs]))
    options = {}
    if args.synonyms:
        options["synonyms"] = True
        rouge2.score("warm up", "the WordNet data", ["rouge-1"], synonyms=True)  # load it untimed
    if args.stem:
        options["stem"] = True

    # Untimed warm-up of spaCy/thinc in this process (first batches are slower).
    warm, _, _ = fresh_tagger()
    warm.tag_many([f"Warm-up sentence number {i} for the tagger." for i in range(64)])

    best_tag = best_score = float("inf")
    tagged_a = tagged_b = 0
    loads = []
    results = None
    for _ in range(args.repeat):
        t, tagged_a, load = time_tagging(distinct)
        best_tag = min(best_tag, t)
        loads.append(load)
        t, tagged_b, load, results = time_scoring(pairs, options)
        best_score = min(best_score, t)
        loads.append(load)

    mean = {m: sum(r[m].fmeasure for r in results) / len(results) for m in MEASURES}
    print(f"python {platform.python_version()}, rouge2 {rouge2.__version__}, "
          f"{os.cpu_count()} CPUs, best of {args.repeat}")
    print(f"options: {options or 'defaults'}; multi_reference=pooled; measures: {', '.join(MEASURES)}")
    print(f"pairs scored                       {len(pairs):>8,}  ({args.docs} documents)")
    print(f"texts scored (occurrences)         {occurrences:>8,}  (1 candidate + 11 references per pair)")
    print(f"distinct texts                     {len(distinct):>8,}")
    print(f"texts tagged in (a)                {tagged_a:>8,}")
    print(f"texts tagged in (b)                {tagged_b:>8,}")
    print(f"spaCy pipeline load (untimed)      {min(loads):8.2f} s")
    print(f"(a) tagging each distinct text     {best_tag:8.2f} s   "
          f"({len(distinct) / best_tag:,.0f} texts/s)")
    print(f"(b) topic scoring, tagging incl.   {best_score:8.2f} s   "
          f"({len(pairs) / best_score:,.0f} pairs/s)")
    print(f"overhead ratio (b)/(a)             {best_score / best_tag:8.3f}")
    print(f"scoring beyond tagging (b)-(a)     {best_score - best_tag:8.2f} s")
    for m in MEASURES:
        print(f"mean F {m:28s}{mean[m]:8.4f}")


if __name__ == "__main__":
    main()
