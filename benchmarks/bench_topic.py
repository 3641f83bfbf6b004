"""Topic measures on the batch path (issue 22, target 3): their cost with tags
cached against ROUGE-1, and tagging's share of a SummEval topic run.

Usage:
  python benchmarks/bench_topic.py [--pairs N] [--passes P] [--min-pass S] [--docs D]
                                   [--batch-sizes 64,256,1000] [--cases cached,share,batch-size]
                                   [--shared PATH]

One process, CPU time (``time.process_time``), alternating passes with the
order rotated each pass, median over passes (``bench_settings.race``).
Every score is checked equal to the per-pair path's first.

cached      ``rouge2.score_corpus`` on the first N (default 1600) SummEval
            (system summary, first reference) pairs, the tags cached by an
            untimed warm-up call: ROUGE-1, rouge-topic-nn|jj,
            rouge-topicuniq-nn|jj; rouge-topic-nn|jj with its topic tokens
            mapped afresh (the tags still cached: the first call after the
            texts were tagged) and through the per-pair path
            (``ROUGE2_NO_BATCH``); ROUGE-1/2/L alone and with the topic
            measure.  Target: rouge-topic-nn|jj at most 2x ROUGE-1.
share       a SummEval topic run from cold tags: ``score_corpus`` with
            rouge-topic-nn|jj, rouge-topicuniq-nn|jj and ROUGE-1/2/L on the
            first D (default 100) documents, every system against the 11
            references; the CPU time spent in spaCy (``nlp.pipe``) against
            the whole call (the pipeline is loaded before the clock starts).
batch-size  the distinct sentences of those texts tagged with ``nlp.pipe`` at
            each batch size (a fresh tagger each), CPU time and sentences/s.

bench_topics.py (older) compares a topic run with tagging alone.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C
from bench_settings import race

import rouge2
from rouge2.scoring import batch
from rouge2.scoring import topic_batch as tb

TOPIC = "rouge-topic-nn|jj"
UNIQ = "rouge-topicuniq-nn|jj"
R12L = ["rouge-1", "rouge-2", "rouge-l"]


def score(pairs, measures, **opts):
    return rouge2.score_corpus(pairs, measures=measures, **opts)


def per_pair(pairs, measures):
    """The per-pair path's scores (the batch path off)."""
    batch.ENABLED = False
    try:
        return score(pairs, measures)
    finally:
        batch.ENABLED = True


def cold_tokens(pairs, measures):
    """Tags cached, topic tokens mapped afresh (a vocabulary of its own, so
    the other contenders keep theirs)."""
    shared = batch.shared_tokens
    batch.shared_tokens = lambda analyzer, tagger: tb.TopicTokens(analyzer)
    try:
        return score(pairs, measures)
    finally:
        batch.shared_tokens = shared


def check(pairs, measures) -> None:
    got, want = score(pairs, measures), per_pair(pairs, measures)
    differ = sum(g != w for g, w in zip(got, want))
    print(f"  check batch vs per-pair path, {', '.join(measures)}: {differ} of {len(pairs)} pairs differ")
    if differ:
        sys.exit("error: the batch path's topic scores differ from the per-pair path's")


def cached_case(rows, args) -> None:
    pairs = C.summeval_pairs(rows, args.pairs)
    print(f"\n[cached] {len(pairs)} SummEval pairs, first reference; tags cached; CPU ms per call (x ROUGE-1)")
    check(pairs, [TOPIC, UNIQ, *R12L])
    contenders = {
        "ROUGE-1": lambda: score(pairs, ["rouge-1"]),
        TOPIC: lambda: score(pairs, [TOPIC]),
        UNIQ: lambda: score(pairs, [UNIQ]),
        f"{TOPIC} (topic tokens afresh)": lambda: cold_tokens(pairs, [TOPIC]),
        f"{TOPIC} (per-pair path)": lambda: per_pair(pairs, [TOPIC]),
        "ROUGE-1/2/L": lambda: score(pairs, R12L),
        f"ROUGE-1/2/L + {TOPIC}": lambda: score(pairs, [*R12L, TOPIC]),
    }
    for fn in contenders.values():
        fn()  # warm: the tagger's cache of tags, the vocabularies
    med = race(contenders, args.passes, args.min_pass)
    base = med["ROUGE-1"]
    for name, t in med.items():
        print(f"  {name:<40} {t * 1e3:8.2f} ms  {t / base:6.2f}x")
    print(f"  {TOPIC} / ROUGE-1 = {med[TOPIC] / base:.2f} (target <= 2.00)")
    parts = med["ROUGE-1/2/L"] + med[TOPIC]
    print(f"  ROUGE-1/2/L + {TOPIC} in one call / the sum of the two = "
          f"{med[f'ROUGE-1/2/L + {TOPIC}'] / parts:.3f} (target <= 1.10)")


def _spacy_tagger():
    from rouge2.pos.tagger import SpacyTagger  # lazy: spaCy only for these cases

    tagger = SpacyTagger()
    tagger.nlp  # noqa: B018  # load the pipeline before the clock starts
    return tagger


def share_case(rows, args) -> None:
    pairs = C.summeval_pairs(rows[:args.docs], None, multi=True)
    measures = [TOPIC, UNIQ, *R12L]
    tagger = _spacy_tagger()
    spent = [0.0]
    pipe = tagger.nlp.pipe

    def timed_pipe(*a, **k):  # CPU time inside spaCy, generator included
        t = time.process_time()
        for doc in pipe(*a, **k):
            spent[0] += time.process_time() - t
            yield doc
            t = time.process_time()
        spent[0] += time.process_time() - t

    tagger.nlp.pipe = timed_pipe
    tb._SHARED.clear()
    gc.collect()
    t0 = time.process_time()
    rouge2.score_corpus(pairs, measures=measures, tagger=tagger)
    total = time.process_time() - t0
    texts = len({t for c, r in pairs for t in (c, *r)})
    print(f"\n[share] SummEval topic run from cold tags: {len(pairs)} pairs x 11 references "
          f"({texts} distinct texts), {', '.join(measures)}, spaCy batch size {tagger.nlp.batch_size}")
    print(f"  whole call {total:8.2f} s CPU")
    print(f"  tagging    {spent[0]:8.2f} s CPU  ({spent[0] / total:.1%} of the call)")
    print(f"  the rest   {total - spent[0]:8.2f} s CPU  (analysis, topic tokens, counting, P/R/F)")


def batch_size_case(rows, args) -> None:
    from rouge2.pos.tagger import tagging_units  # lazy: the tagger module imports nothing heavy, for symmetry

    pairs = C.summeval_pairs(rows[:args.docs], None, multi=True)
    units = list(dict.fromkeys(u for c, r in pairs for t in (c, *r) for u in tagging_units(t)))
    print(f"\n[batch-size] {len(units)} distinct SummEval sentences tagged with nlp.pipe (one pass each)")
    for size in (int(x) for x in args.batch_sizes.split(",")):
        tagger = _spacy_tagger()
        gc.collect()
        t0 = time.process_time()
        for _ in tagger.nlp.pipe(units, batch_size=size):
            pass
        dt = time.process_time() - t0
        print(f"  batch_size {size:>5}: {dt:7.2f} s CPU  {len(units) / dt:9.0f} sentences/s")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=1600)
    ap.add_argument("--passes", type=int, default=7)
    ap.add_argument("--min-pass", type=float, default=0.2)
    ap.add_argument("--docs", type=int, default=100)
    ap.add_argument("--batch-sizes", default="64,256,1000")
    ap.add_argument("--cases", default="cached,share,batch-size")
    ap.add_argument("--shared", default=C.DEFAULT_SHARED)
    args = ap.parse_args(argv)
    print("bench_topic: CPU time of topic measures on the batch path, one process")
    C.print_versions(peers=False)
    if importlib.util.find_spec("spacy") is None:
        print("skipped: spaCy is not installed (pip install '.[topics]')")
        return 0
    rows = C.summeval_rows(args.shared)
    cases = {"cached": cached_case, "share": share_case, "batch-size": batch_size_case}
    for case in args.cases.split(","):
        cases[case.strip()](rows, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
