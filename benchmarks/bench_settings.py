"""What each setting, and each mix of measures, costs on the batch path.

Usage:
  python benchmarks/bench_settings.py [--pairs N] [--passes P] [--cases settings,modes,measures,synonyms]
                                      [--min-pass S] [--shared PATH]

One process, CPU time (``time.process_time``), every contender of a case in
alternating passes (the order rotated each pass), median over passes; a
contender faster than ``--min-pass`` CPU seconds is run back to back within
a pass and the time divided (as bench_speed.py does).  Every call is
``rouge2.score_corpus(pairs, measures=..., **settings)`` on the same pairs:
SummEval, the first N (default 1600) (system summary, reference) pairs.

settings   ROUGE-1/2/L with the default settings and with each setting the
           batch path takes: the unicode and character tokenizers, the sentence splitter,
           -l 100, -b 665, SMART stopwords, ROUGE-1.5.5 stemming, and all of
           them at once.  Target: each at most 1.5x the default; the mix at
           most the sum of its parts plus 10% (default + the sum of each
           setting's extra cost, times 1.1).
modes      ROUGE-1/2/L against all 11 references of each document, every
           multi-reference mode (pooled, the default, best, average, max-f).
measures   additivity: ROUGE-1/2/L, another measure (a topic measure, counted
           from its topic tokens; a skip distance the kernels do not take), and
           both in one call; the mix must cost at most the sum of the two
           plus 10%.  The other measures: rouge-topic-nn|jj (tags cached by
           the untimed warm-up; needs spaCy, skipped without it) and
           rouge-s<2**40> (a skip distance past the kernels' integers).
synonyms   issue 22 target 2: ROUGE-1/2/L with WordNet synonyms against
           without, each measure alone and the three together (not in the
           default cases).  Target: at most 3x without.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C

import rouge2

R12L = ["rouge-1", "rouge-2", "rouge-l"]
SETTINGS = {
    "default": {},
    "unicode tokenizer": {"tokenizer": "unicode"},
    "character tokenizer": {"tokenizer": "character"},
    "sentence splitter": {"sentences": "splitter"},
    "word limit (-l 100)": {"word_limit": 100},
    "byte limit (-b 665)": {"byte_limit": 665},
    "stopwords (smart)": {"stopwords": "smart"},
    "stemming (rouge155)": {"stem": "rouge155"},
}
MIX = {"tokenizer": "unicode", "sentences": "splitter", "word_limit": 100, "stopwords": "smart",
       "stem": "rouge155"}
HUGE_SKIP = f"rouge-s{2 ** 40}"


def timed(fn, min_pass: float):
    """A timing function for ``fn``: CPU seconds of one call, repeated back
    to back when one call is shorter than ``min_pass``."""
    gc.collect()
    t0 = time.process_time()
    fn()
    once = time.process_time() - t0
    reps = max(1, int(min_pass / max(once, 1e-6)))

    def run():
        gc.collect()
        t = time.process_time()
        for _ in range(reps):
            fn()
        return (time.process_time() - t) / reps

    return run


def race(contenders: dict, passes: int, min_pass: float) -> dict[str, float]:
    """Median CPU seconds of each contender over alternating passes."""
    runners = {name: timed(fn, min_pass) for name, fn in contenders.items()}
    times: dict[str, list[float]] = {name: [] for name in contenders}
    names = list(contenders)
    for p in range(passes):
        for name in names[p % len(names):] + names[:p % len(names)]:
            times[name].append(runners[name]())
    return {name: statistics.median(t) for name, t in times.items()}


def call(pairs, measures, **settings):
    return lambda: rouge2.score_corpus(pairs, measures=measures, **settings)


def settings_case(pairs, args) -> None:
    contenders = {name: call(pairs, R12L, **opts) for name, opts in SETTINGS.items()}
    contenders["all of them"] = call(pairs, R12L, **MIX)
    med = race(contenders, args.passes, args.min_pass)
    base = med["default"]
    print(f"\n[settings] ROUGE-1/2/L, {len(pairs)} pairs, one reference; CPU ms per call (x default)")
    for name, t in med.items():
        print(f"  {name:<22} {t * 1e3:8.2f} ms  {t / base:5.2f}x")
    parts = base + sum(med[n] - base for n, o in SETTINGS.items() if o and set(o) <= set(MIX))
    print(f"  all of them: {med['all of them'] * 1e3:.2f} ms against default + the sum of the extra costs "
          f"{parts * 1e3:.2f} ms: {med['all of them'] / parts:.2f}x (target <= 1.10)")


def modes_case(rows, args) -> None:
    pairs = C.summeval_pairs(rows, args.pairs, multi=True)
    modes = ["pooled", "best", "average", "max-f"]
    med = race({m: call(pairs, R12L, multi_reference=m) for m in modes}, args.passes, args.min_pass)
    print(f"\n[modes] ROUGE-1/2/L, {len(pairs)} pairs, {len(pairs[0][1])} references each; "
          f"CPU ms per call (x pooled)")
    for m in modes:
        print(f"  {m:<8} {med[m] * 1e3:8.2f} ms  {med[m] / med['pooled']:5.2f}x")


def measures_case(pairs, args) -> None:
    others = [HUGE_SKIP]
    if importlib.util.find_spec("spacy") is not None:
        others.insert(0, "rouge-topic-nn|jj")
    else:
        print("\n[measures] rouge-topic-nn|jj skipped: spaCy is not installed (pip install '.[topics]')")
    for other in others:
        contenders = {"R1/R2/L": call(pairs, R12L), other: call(pairs, [other]),
                      "both": call(pairs, [*R12L, other])}
        for fn in contenders.values():
            fn()  # warm: the tagger's cache of tags, the vocabulary
        med = race(contenders, args.passes, args.min_pass)
        parts = med["R1/R2/L"] + med[other]
        print(f"\n[measures] {len(pairs)} pairs: ROUGE-1/2/L and {other} in one call")
        for name, t in med.items():
            print(f"  {name:<20} {t * 1e3:9.2f} ms")
        print(f"  both / (R1/R2/L + {other}) = {med['both'] / parts:.3f} (target <= 1.10)")


def synonyms_case(pairs, args) -> None:
    contenders = {}
    for ms in (["rouge-1"], ["rouge-2"], ["rouge-l"], R12L):
        label = "/".join(m[len("rouge-"):].upper() for m in ms)
        contenders[f"{label} plain"] = call(pairs, ms)
        contenders[f"{label} wordnet"] = call(pairs, ms, synonyms="wordnet")
    for fn in contenders.values():
        fn()  # warm: WordNet and its forms loaded, the vocabulary
    med = race(contenders, args.passes, args.min_pass)
    print(f"\n[synonyms] {len(pairs)} pairs, one reference: WordNet synonyms against none "
          f"(target <= 3x)")
    for name in contenders:
        if name.endswith(" wordnet"):
            plain = med[name.replace(" wordnet", " plain")]
            print(f"  {name:<20} {med[name] * 1e3:9.2f} ms  {med[name] / plain:7.1f}x "
                  f"({plain * 1e3:.2f} ms plain)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=1600)
    ap.add_argument("--passes", type=int, default=7)
    ap.add_argument("--cases", default="settings,modes,measures")
    ap.add_argument("--min-pass", type=float, default=0.2)
    ap.add_argument("--shared", default=C.DEFAULT_SHARED)
    args = ap.parse_args(argv)
    print("bench_settings: CPU time of rouge2.score_corpus, one process, alternating passes")
    C.print_versions(peers=False)
    rows = C.summeval_rows(args.shared)
    pairs = C.summeval_pairs(rows, args.pairs)
    for case in args.cases.split(","):
        {"settings": lambda: settings_case(pairs, args), "modes": lambda: modes_case(rows, args),
         "measures": lambda: measures_case(pairs, args),
         "synonyms": lambda: synonyms_case(pairs, args)}[case.strip()]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
