"""Language presets against human judgments, beside rouge-score and rouge-score-rs.

For each language with data, every summary is scored with ROUGE-1 against
its reference by

* ``rouge-score``: rouge-score's default tokenizer (ASCII ``[a-z0-9]``, no
  stemming), the drop-in everybody uses;
* ``rs-unicode``, ``rs-character``: rouge-score-rs's ``unicode-v1`` and
  ``character-v1`` tokenizer profiles (the ``bench`` extra; rouge-score-rs
  0.2.1 ships both: ``rouge_score_rs.tokenizers``);
* ``rouge2 language=<code>``: the language's preset (``docs/languages.md``);

and the per-summary scores are correlated with the human scores: recall
with coverage, precision with focus, F with their mean (Multi-SummEval), or
F with relevance (SummEval, English). Pearson r and Kendall tau-b, each also
on the two halves of the documents (odd and even positions in the file), to
show how much a difference could be chance.

Data:

* Multi-SummEval (Koto, Lau and Baldwin, Findings of ACL 2021): 135
  documents per language, a pointer-generator and a BERT summary of each,
  with crowd-sourced focus and coverage scores (z-scores). the benchmark reads the
  texts and scores it uses from ``benchmarks/data/multi_summeval/``, which
  the user builds from the authors' repository (the README there gives the
  source, the format and why the files are not redistributed);
* SummEval (Fabbri et al., 2021; ``../shared/data/summeval``): 100 CNN/DM
  documents x 16 systems with expert relevance scores, first reference.

Usage: python benchmarks/bench_languages.py [--shared PATH] [--languages zh,en] [--markdown]

The presets were written down from what each language is (its script, its
Snowball stemmer) before any of these numbers were computed, and are not
tuned to them.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path

from _common import DEFAULT_SHARED

HERE = Path(__file__).resolve().parent
MULTI = HERE / "data" / "multi_summeval"

# --------------------------------------------------------------------------- statistics


def pearson(x: list[float], y: list[float]) -> float:
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def kendall_b(x: list[float], y: list[float]) -> float:
    concordant = discordant = tx = ty = 0
    n = len(x)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                tx += 1
            elif dy == 0:
                ty += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denom = math.sqrt((concordant + discordant + tx) * (concordant + discordant + ty))
    return (concordant - discordant) / denom if denom else float("nan")


# --------------------------------------------------------------------------- data


def multi_summeval(code: str) -> list[dict]:
    """Rows {doc, system, candidate, reference, focus, coverage} of one language."""
    if not (MULTI / f"{code}.tsv").is_file():
        sys.exit(f"bench_languages: {MULTI / (code + '.tsv')} not found; build the Multi-SummEval files "
                 f"as {MULTI / 'README.md'} describes (they are not redistributed)")
    texts = {}
    with open(MULTI / f"{code}.tsv", encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
            texts[row["id"]] = row
    rows = []
    with open(MULTI / f"{code}_scores.tsv", encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            doc = texts[row["id"]]
            rows.append({"doc": row["id"], "system": row["model"],
                         "candidate": doc[row["model"]].replace("\\n", "\n"),
                         "reference": doc["reference"].replace("\\n", "\n"),
                         "focus": float(row["focus"]), "coverage": float(row["coverage"])})
    return rows


def summeval(shared: str) -> list[dict]:
    rows = []
    with open(Path(shared) / "data" / "summeval" / "summeval.jsonl", encoding="utf-8") as fh:
        for line in fh:
            doc = json.loads(line)
            for name in sorted(doc["sys_summs"]):
                s = doc["sys_summs"][name]
                rows.append({"doc": doc["doc_id"], "system": name, "candidate": s["sys_summ"],
                             "reference": doc["ref_summ"], "relevance": s["scores"]["relevance"]})
    return rows


# --------------------------------------------------------------------------- scorers


def rouge_score_default() -> Callable[[str, str], tuple[float, float, float]]:
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=False)

    def score(cand: str, ref: str):
        s = scorer.score(ref, cand)["rouge1"]
        return s.precision, s.recall, s.fmeasure
    return score


def rouge_score_rs(profile: str) -> Callable[[str, str], tuple[float, float, float]]:
    from rouge_score_rs import rouge_scorer, tokenizers

    tok = tokenizers.UnicodeTokenizer() if profile == "unicode" else tokenizers.CharacterTokenizer()
    scorer = rouge_scorer.RougeScorer(["rouge1"], tokenizer=tok)

    def score(cand: str, ref: str):
        s = scorer.score(ref, cand)["rouge1"]
        return s.precision, s.recall, s.fmeasure
    return score


def rouge2_preset(code: str, **options) -> Callable[[str, str], tuple[float, float, float]]:
    import rouge2

    scorer = rouge2.Scorer(["rouge-1"], language=code, **options)

    def score(cand: str, ref: str):
        s = scorer.score(cand, [ref])["rouge-1"]
        return s.precision, s.recall, s.fmeasure
    return score


def scorers(code: str) -> dict[str, Callable]:
    out = {"rouge-score": rouge_score_default()}
    try:
        out["rs-unicode"] = rouge_score_rs("unicode")
        out["rs-character"] = rouge_score_rs("character")
    except ImportError:
        print("note: rouge-score-rs is not installed (pip install 'rouge2[bench]'); its profiles are left out",
              file=sys.stderr)
    out[f"rouge2 language={code}"] = rouge2_preset(code)
    return out


# --------------------------------------------------------------------------- evaluation

#: what each score is correlated with: (score index, human key)
TARGETS = {
    "multi": [("R~coverage", 1, "coverage"), ("P~focus", 0, "focus"), ("F~mean", 2, "mean")],
    "summeval": [("F~relevance", 2, "relevance"), ("R~relevance", 1, "relevance")],
}


def evaluate(rows: list[dict], kind: str, score: Callable) -> dict[str, dict[str, float]]:
    values = [score(r["candidate"], r["reference"]) for r in rows]
    for r in rows:
        if kind == "multi":
            r["mean"] = (r["focus"] + r["coverage"]) / 2
    docs = list(dict.fromkeys(r["doc"] for r in rows))
    half = {d: i % 2 for i, d in enumerate(docs)}
    out = {}
    for label, index, human in TARGETS[kind]:
        x = [v[index] for v in values]
        y = [r[human] for r in rows]
        res = {"pearson": pearson(x, y), "kendall": kendall_b(x, y)}
        for h in (0, 1):
            xs = [a for a, r in zip(x, rows) if half[r["doc"]] == h]
            ys = [b for b, r in zip(y, rows) if half[r["doc"]] == h]
            res[f"pearson_half{h + 1}"] = pearson(xs, ys)
        res["zero"] = sum(1 for v in values if v[index] == 0) / len(values)
        out[label] = res
    return out


LANGUAGES = {"zh": "multi", "tr": "multi", "id": "multi", "ru": "multi", "de": "multi", "fr": "multi",
             "es": "multi", "en": "summeval"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", default=DEFAULT_SHARED)
    ap.add_argument("--languages", default=",".join(LANGUAGES))
    ap.add_argument("--json", help="also write the numbers to this file")
    args = ap.parse_args()
    report = {}
    print("| language | data | n | scorer | target | Pearson | Kendall | Pearson half 1 / half 2 | scores 0 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for code in args.languages.split(","):
        kind = LANGUAGES[code]
        if kind == "multi":
            if not (MULTI / f"{code}.tsv").is_file():
                print(f"note: no Multi-SummEval data for {code!r} in {MULTI}", file=sys.stderr)
                continue
            rows, source = multi_summeval(code), "Multi-SummEval"
        else:
            rows, source = summeval(args.shared), "SummEval"
        report[code] = {}
        for name, score in scorers(code).items():
            result = evaluate(rows, kind, score)
            report[code][name] = result
            for label, res in result.items():
                print(f"| {code} | {source} | {len(rows)} | {name} | {label} | {res['pearson']:.3f} | "
                      f"{res['kendall']:.3f} | {res['pearson_half1']:.3f} / {res['pearson_half2']:.3f} | "
                      f"{100 * res['zero']:.0f}% |")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
