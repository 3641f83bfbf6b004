"""Synonym experiments that explain themselves (issue 19.1-19.4).

* A planted dictionary (room~chamber, clean~spotless, staff~personnel)
  produces exactly its pairs in ``synonym_matches.csv``, with the counts
  worked out by hand below, and none for the variant without synonyms.
* ``variant_effects.csv``: delta is the difference of the means (computed
  here from ``per_summary.csv``), the interval and p follow the documented
  paired bootstrap (recomputed here one draw at a time), rank_tau equals
  ``scipy.stats.kendalltau`` of the system means.
* Dictionary coverage, the warning for a dictionary that matches nothing,
  the signature line's per-variant synonym sources, the API and
  ``rouge2 score --explain-synonyms``.
"""

from __future__ import annotations

import csv
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import kendalltau

import rouge2
from rouge2.config.yaml_config import load_config
from rouge2.run.runner import run
from rouge2.scoring.scorer import Scorer
from rouge2.stats.meta import Metric

PLANTED = "room, chamber\nclean, spotless\nstaff, personnel\n"

# task, system, candidate, reference
ROWS = [
    ("t1", "sysA", "the chamber was spotless and the personnel were friendly",
     "the room was clean and the staff were friendly"),
    ("t1", "sysB", "the room was clean and the staff were friendly",
     "the room was clean and the staff were friendly"),
    ("t2", "sysA", "a spotless chamber with spotless sheets", "a clean room with clean sheets"),
    ("t2", "sysB", "the staff kept the room spotless", "a clean room with clean sheets"),
]

# Hand count.  ROUGE-1: t1/sysA room~chamber, clean~spotless, staff~personnel
# once each; t2/sysA clean~spotless twice (two "clean", two "spotless"),
# room~chamber once; t2/sysB: "room" matches itself, "spotless" one of the
# two "clean" (staff has no partner).  ROUGE-2 counts a word pair once per
# matched bigram holding it: t1/sysA all 8 bigrams match, each synonym sits
# in 2; t2/sysA all 5 match, "clean" in 4 bigrams, "room" in 2; t2/sysB no
# bigram matches.  ROUGE-L: the synonym LCS covers every word of t1/sysA and
# t2/sysA, and "room ... clean" of t2/sysB (one more than the plain LCS).
EXPECTED = {
    "rouge-1": {("clean", "spotless"): 4, ("room", "chamber"): 2, ("staff", "personnel"): 1},
    "rouge-2": {("clean", "spotless"): 6, ("room", "chamber"): 4, ("staff", "personnel"): 2},
    "rouge-l": {("clean", "spotless"): 4, ("room", "chamber"): 2, ("staff", "personnel"): 1},
}


def write_inputs(tmp_path: Path, rows=ROWS) -> Path:
    path = tmp_path / "inputs.jsonl"
    path.write_text("".join(json.dumps({"task": t, "system": s, "candidate": c, "references": [r]}) + "\n"
                            for t, s, c, r in rows))
    return path


def planted_config(tmp_path: Path, extra: str = "", rows=ROWS, variants: str | None = None) -> Path:
    (tmp_path / "planted.txt").write_text(PLANTED)
    inputs = write_inputs(tmp_path, rows)
    variants = variants or "  none: {}\n  planted: {preprocess: {synonyms: planted.txt}}\n"
    cfg = tmp_path / "run.yaml"
    cfg.write_text(f"""
inputs: {{format: jsonl, path: {inputs}}}
measures: [rouge-1, rouge-2, rouge-l]
variants:
{variants}
bootstrap: {{resamples: 500, seed: 3}}
outputs: {{dir: {tmp_path / 'out'}, console: false}}
{extra}""")
    return cfg


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_planted_dictionary_fires_exactly_its_pairs(tmp_path):
    run(load_config(planted_config(tmp_path)), progress=False)
    rows = read_csv(tmp_path / "out" / "synonym_matches.csv")
    assert list(rows[0]) == ["variant", "measure", "reference_word", "candidate_word", "matches",
                             "example_task", "example_system"]
    assert {r["variant"] for r in rows} == {"planted"}  # nothing for the variant without synonyms
    got: dict[str, dict[tuple[str, str], int]] = {}
    for r in rows:
        got.setdefault(r["measure"], {})[(r["reference_word"], r["candidate_word"])] = int(r["matches"])
    assert got == EXPECTED
    first = {(r["measure"], r["reference_word"]): (r["example_task"], r["example_system"]) for r in rows}
    assert first[("rouge-1", "clean")] == ("t1", "sysA")  # the first summary where the pair matched
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    source = summary["synonyms"]["variants"]["planted"]["sources"]
    assert [(s["source"], s["entries"], s["in_data"], s["fired"]) for s in source] == \
        [("dict:planted.txt", 6, 6, 6)]


def test_only_the_matching_used_is_counted():
    """With ``a ~ c`` and ``b ~ a``, candidate {a, b} and reference {a, c}: the
    maximum matching is a-c, b-a (two synonym matches, no exact one)."""
    sc = Scorer(["rouge-1"], synonyms=[["a1", "c1"], ["b1", "a1"]])
    stats, matches, words = sc.explained_stats("a1 b1", ["a1 c1"])
    assert stats["rouge-1"][0][0].hit == 2
    assert matches["rouge-1"] == Counter({("c1", "a1"): 1, ("a1", "b1"): 1})
    assert words == {"a1", "b1", "c1"}
    # a synonym that could match but is not needed is not counted
    stats, matches, _ = sc.explained_stats("c1 a1", ["a1"])
    assert stats["rouge-1"][0][0].hit == 1 and matches == {}
    assert sc.relation.log is None  # the per-pair path notes nothing again


def test_rouge_l_notes_nothing_when_the_plain_hit_is_used():
    """docs/synonyms.md, "Monotone": with good ~ great the synonym union LCS
    marks fewer reference words than the plain one, so the plain hit is
    reported, and no synonym match was used."""
    sc = Scorer(["rouge-l"], synonyms=[["good", "great"]])
    stats, matches, _ = sc.explained_stats("a great\na good", ["a a great"])
    assert stats["rouge-l"][0][0].hit == 3
    assert matches == {}


def test_stems_are_not_synonyms():
    sc = Scorer(["rouge-1"], stem=True, synonyms=[["room", "chamber"]])
    _, matches, _ = sc.explained_stats("rooms chamber", ["room rooms"])
    assert matches["rouge-1"] == Counter({("room", "chamber"): 1})  # rooms = rooms by equality


def _grid_rows() -> list[tuple[str, str, str, str]]:
    """5 systems x 6 tasks of random texts over a vocabulary holding the planted words."""
    rng = random.Random(19)
    vocab = ["room", "chamber", "clean", "spotless", "staff", "personnel", "the", "a", "was", "kind", "bed",
             "view", "quiet"]
    out = []
    for t in range(6):
        ref = " ".join(rng.choice(vocab) for _ in range(12))
        for s in range(5):
            cand = " ".join(rng.choice(vocab) for _ in range(8 + s))
            out.append((f"t{t}", f"s{s}", cand, ref))
    return out


def test_variant_effects_follow_their_definitions(tmp_path):
    cfg = planted_config(tmp_path, rows=_grid_rows())
    result = run(load_config(cfg), progress=False)
    out = tmp_path / "out"
    effects = read_csv(out / "variant_effects.csv")
    assert list(effects[0]) == ["variant", "baseline", "measure", "score", "baseline_mean", "variant_mean",
                                "delta", "ci_low", "ci_high", "p_value", "changed_share", "rank_tau"]
    assert len(effects) == 3 * 3  # measures x scores
    per = read_csv(out / "per_summary.csv")
    systems = read_csv(out / "variants.csv")
    taus = []
    for e in effects:
        m, score = e["measure"], e["score"]
        b = [float(r[score]) for r in per if r["variant"] == "none" and r["measure"] == m]
        v = [float(r[score]) for r in per if r["variant"] == "planted" and r["measure"] == m]
        assert float(e["baseline_mean"]) == sum(b) / len(b)
        assert float(e["variant_mean"]) == sum(v) / len(v)
        assert float(e["delta"]) == float(e["variant_mean"]) - float(e["baseline_mean"])
        assert float(e["changed_share"]) == sum(x != y for x, y in zip(b, v)) / len(b)
        # the paired bootstrap, one draw at a time (random.randrange), numpy's percentile
        d = [y - x for x, y in zip(b, v)]
        rng = random.Random(f"3|effects|none|planted|{m}|{score}")
        means = [sum(d[rng.randrange(len(d))] for _ in d) / len(d) for _ in range(500)]
        assert float(e["ci_low"]) == pytest.approx(np.percentile(means, 2.5), abs=1e-12)
        assert float(e["ci_high"]) == pytest.approx(np.percentile(means, 97.5), abs=1e-12)
        obs = sum(d) / len(d)
        hits = sum(abs(x - obs) >= abs(obs) - 1e-12 for x in means)
        assert float(e["p_value"]) == pytest.approx((hits + 1) / 501, abs=1e-15)
        # Kendall tau between the rankings: scipy on the system means
        col = {"recall": "recall", "precision": "precision", "fmeasure": "fmeasure"}[score]
        xs = {r["system"]: float(r[col]) for r in systems if r["variant"] == "none" and r["measure"] == m}
        ys = {r["system"]: float(r[col]) for r in systems if r["variant"] == "planted" and r["measure"] == m}
        names = sorted(xs)
        want = kendalltau([xs[s] for s in names], [ys[s] for s in names]).statistic
        assert float(e["rank_tau"]) == pytest.approx(want, abs=1e-12)
        taus.append(want)
    assert any(abs(t) < 1 for t in taus)  # a ranking did change: the comparison is not trivial
    assert result.summary["variant_effects"]["pairs"] == [["none", "planted"]]
    # the same seed gives the same file
    first = (out / "variant_effects.csv").read_bytes()
    run(load_config(cfg), progress=False, overwrite=True)
    assert (out / "variant_effects.csv").read_bytes() == first


def test_drilldown_lists_the_summaries_that_moved_most(tmp_path):
    run(load_config(planted_config(tmp_path)), progress=False)
    rows = read_csv(tmp_path / "out" / "variant_drilldown.csv")
    one = [r for r in rows if r["measure"] == "rouge-1"]
    assert [(r["task"], r["system"]) for r in one] == [("t2", "sysA"), ("t1", "sysA"), ("t2", "sysB")]
    assert one[0]["variant_matches"] == "clean~spotless x2; room~chamber"
    assert float(one[0]["delta"]) == pytest.approx(0.5)  # F 0.5 -> 1.0
    assert all(r["baseline_matches"] == "" for r in rows)


def test_a_dictionary_that_matches_nothing_is_named(tmp_path):
    (tmp_path / "idle.txt").write_text("zebra, okapi\n")
    variants = ("  none: {}\n  planted: {preprocess: {synonyms: planted.txt}}\n"
                "  idle: {preprocess: {synonyms: idle.txt}}\n")
    cfg = planted_config(tmp_path, variants=variants)
    text = cfg.read_text().replace("console: false", "console: true")
    cfg.write_text(text)
    out = run(load_config(cfg), progress=False, stdout=open(tmp_path / "console.txt", "w"))
    console = out.console
    assert "warning: synonym source dict:idle.txt (variant idle) matched nothing: none of its 2 words " \
           "fired (0 occur in the data)" in console
    assert "dict:planted.txt 6 fired / 6 in the data / 6 words" in console
    block = console[console.index("what the variants changed"):]
    assert len(block.splitlines()) <= 30
    assert "syn:none=none,planted=file:planted.txt@" in console
    assert "idle=file:idle.txt@" in console


def test_signature_records_each_variants_synonym_sources(tmp_path):
    result = run(load_config(planted_config(tmp_path)), progress=False)
    sig = result.summary["signature"]
    line = result.summary["signature_line"]
    digest = sig["versions"]["variants"]["planted"]["synonyms"][0]["data"]
    assert digest.startswith("sha256:")
    assert f"planted=file:planted.txt@{digest[7:19]}/lemmas" in line
    assert "syn:none=none," in line


def test_no_synonyms_no_synonym_file(tmp_path):
    cfg = planted_config(tmp_path, variants="  a: {}\n  b: {preprocess: {stopwords: smart}}\n")
    run(load_config(cfg), progress=False)
    assert not (tmp_path / "out" / "synonym_matches.csv").exists()
    assert (tmp_path / "out" / "variant_effects.csv").exists()


def test_jobs_give_the_same_matches(tmp_path):
    cfg = planted_config(tmp_path, rows=_grid_rows())
    run(load_config(cfg), progress=False)
    one = (tmp_path / "out" / "synonym_matches.csv").read_bytes()
    run(load_config(cfg), progress=False, jobs=2, overwrite=True)
    assert (tmp_path / "out" / "synonym_matches.csv").read_bytes() == one


def test_api_explains_synonyms(tmp_path):
    (tmp_path / "planted.txt").write_text(PLANTED)
    preds = [c for _, _, c, _ in ROWS]
    refs = [r for _, _, _, r in ROWS]
    e = rouge2.evaluate(preds, refs, ["rouge-1"], synonyms=str(tmp_path / "planted.txt"),
                        explain_synonyms=True, resamples=0)
    got = {(r["reference_word"], r["candidate_word"]): r["matches"] for r in e.synonym_matches}
    assert got == EXPECTED["rouge-1"]
    assert [(c["entries"], c["fired"]) for c in e.synonym_coverage] == [(6, 6)]
    plain = rouge2.evaluate(preds, refs, ["rouge-1"], synonyms=str(tmp_path / "planted.txt"), resamples=0)
    assert plain.synonym_matches is None and plain.per_summary == e.per_summary


def test_score_explain_synonyms_writes_the_file(tmp_path):
    (tmp_path / "planted.txt").write_text(PLANTED)
    (tmp_path / "p.txt").write_text("".join(c + "\n" for _, _, c, _ in ROWS))
    (tmp_path / "r.txt").write_text("".join(r + "\n" for _, _, _, r in ROWS))
    proc = subprocess.run([sys.executable, "-m", "rouge2", "score", "-i", "p.txt", "-r", "r.txt",
                           "-m", "rouge-1", "--synonyms", "planted.txt", "--resamples", "0",
                           "--explain-synonyms", "matches.csv"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    rows = read_csv(tmp_path / "matches.csv")
    assert {(r["reference_word"], r["candidate_word"]): int(r["matches"]) for r in rows} == EXPECTED["rouge-1"]
    assert {r["example_system"] for r in rows} == {"p.txt"}
    assert "dict:planted.txt 6 fired / 6 in the data / 6 words" in proc.stderr


def test_a_metric_without_score_uses_the_measures_default():
    assert Metric.parse("rouge-1@x").score == "fmeasure"
    assert Metric.parse("rouge-topicuniq-nn|jj@x").score == "recall"
    assert Metric.parse("rouge-topicuniq-nn|jj/fmeasure").score == "fmeasure"


def test_the_docs_example_is_what_the_example_config_prints(tmp_path):
    """docs/synonym-experiments.md quotes the console of configs/planted-dictionary.yaml."""
    from rouge2.cli.help import example_text
    from rouge2.config.yaml_config import parse_config

    text = example_text("planted-dictionary").replace("rouge2-results/", str(tmp_path) + "/")
    result = run(parse_config(text, base=tmp_path), progress=False, stdout=open(tmp_path / "c.txt", "w"))
    docs = (Path(__file__).resolve().parents[1] / "docs" / "synonym-experiments.md").read_text()
    quoted = docs[docs.index("what the variants changed"):docs.index("The dictionary raised")]
    for line in quoted.splitlines():
        if line.strip() and line != "..." and not line.startswith("```"):
            assert line in result.console.splitlines(), line


def test_explaining_changes_no_number_and_counts_what_synonyms_add():
    """On random texts and dictionaries: the explained statistics equal the
    plain path's, and ROUGE-1's synonym matches lie between what synonyms
    add to the hit and the whole hit (exact matches are at most the plain hit)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    words = st.sampled_from(["w%d" % i for i in range(8)])
    texts = st.lists(words, min_size=1, max_size=10).map(" ".join)
    groups = st.lists(st.lists(words, min_size=2, max_size=3, unique=True), min_size=1, max_size=4)

    @settings(max_examples=80, deadline=None)
    @given(texts, st.lists(texts, min_size=1, max_size=3), groups)
    def check(cand, refs, dictionary):
        measures = ["rouge-1", "rouge-2", "rouge-l", "rouge-w-1.2", "rouge-su4"]
        sc = Scorer(measures, synonyms=dictionary)
        plain = Scorer(["rouge-1"])
        stats, matches, _ = sc.explained_stats(cand, refs)
        assert stats == sc.pair_stats(cand, refs)
        hit = sum(s.hit for s, _ in stats["rouge-1"])
        base_hit = sum(s.hit for s, _ in plain.pair_stats(cand, refs)["rouge-1"])
        fired = sum(matches.get("rouge-1", Counter()).values())
        assert hit - base_hit <= fired <= hit
        for log in matches.values():
            assert all(r != c and k > 0 for (r, c), k in log.items())

    check()


def test_the_matching_noted_does_not_depend_on_hash_order(tmp_path):
    """Related words come from sets, whose order changes with PYTHONHASHSEED;
    the matching explained (not only its size) must not."""
    sample = Path(__file__).resolve().parents[1] / "resources" / "samples" / "summeval-mini.jsonl"
    rows = [json.loads(line) for line in sample.read_text().splitlines()[:8]]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    got = []
    for seed in ("1", "2"):
        cfg = tmp_path / f"run{seed}.yaml"
        cfg.write_text(f"""
inputs: {{format: jsonl, path: {tmp_path / 'in.jsonl'}}}
measures: [rouge-1, rouge-2, rouge-w-1.2]
preprocess: {{synonyms: true}}
outputs: {{dir: {tmp_path / seed}, console: false}}
""")
        env = {**__import__("os").environ, "PYTHONHASHSEED": seed}
        proc = subprocess.run([sys.executable, "-m", "rouge2", "run", str(cfg)], env=env,
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        got.append((tmp_path / seed / "synonym_matches.csv").read_text())
    assert got[0] == got[1] and len(got[0].splitlines()) > 20
