"""Runs with an aspect lexicon (issue 18): aspects.csv, the console table, comparisons on
any score with Holm's correction, idf weights, and the bad-input messages."""

import csv
import json
from pathlib import Path

import pytest

import rouge2
from rouge2.analysis.sentences import rule_sentences
from rouge2.cli import main
from rouge2.config.yaml_config import load_config, parse_config
from rouge2.errors import UserError
from rouge2.run.runner import run

REPO = Path(__file__).resolve().parents[1]
ASPECTS = ("building", "cleanliness", "food", "location", "rooms", "service")
TEMPLATE = "The staff were friendly, the room was clean, the location was good."


def space_rows(space: Path, systems=("full", "partial", "template", "general0")):
    """SPACE systems built from the gold summaries, against the general summaries
    of annotators 1 and 2: ``full`` (every aspect summary of annotator 0),
    ``partial`` (the same without food, location and building), the generic
    template and annotator 0's general summary (docs/aspects.md)."""
    gold = space / "gold"
    hotels = sorted({p.name.split("_")[0] for p in (gold / "general").iterdir()})

    def read(aspect, hotel, annotator):
        return (gold / aspect / f"{hotel}_{annotator}.txt").read_text(encoding="utf-8").strip()

    rows = []
    for hotel in hotels:
        refs = [read("general", hotel, k) for k in (1, 2)]
        texts = {"full": "\n".join(read(a, hotel, 0) for a in ASPECTS),
                 "partial": "\n".join(read(a, hotel, 0) for a in ("cleanliness", "rooms", "service")),
                 "template": TEMPLATE, "general0": read("general", hotel, 0),
                 "one-sentence": rule_sentences(read("general", hotel, 0))[0]}
        rows += [{"task": hotel, "system": s, "candidate": texts[s], "references": refs} for s in systems]
    return rows


def write_jsonl(path: Path, rows) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def space_run(tmp_path_factory, shared):
    tmp = tmp_path_factory.mktemp("space")
    write_jsonl(tmp / "space-aspects.jsonl", space_rows(shared / "data" / "space"))
    text = (REPO / "configs" / "space-aspects.yaml").read_text()
    text = text.replace("dir: ../out/space-aspects", f"dir: {tmp / 'out'}").replace(
        "resamples: 1000, seed: 0", "resamples: 200, seed: 0").replace("topic_report: true", "console: true")
    cfg = parse_config(text, source=tmp / "space-aspects.yaml", base=tmp)
    result = run(cfg, progress=False, stdout=open(tmp / "console.txt", "w"))
    return tmp, result


def test_space_run_writes_aspects_csv(space_run):
    tmp, result = space_run
    with (tmp / "out" / "aspects.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert tuple(rows[0]) == ("variant", "system", "aspect", "tasks", "reference_words", "covered_words",
                              "coverage", "ci_low", "ci_high", "mention_recall", "mention_precision")
    assert [(r["system"], r["aspect"]) for r in rows] == [
        (s, a) for s in ("full", "general0", "partial", "template") for a in ASPECTS]
    cov = {(r["system"], r["aspect"]): float(r["coverage"]) for r in rows}
    # done when: without food, location and building, at most half the full system's
    # coverage on those aspects, and at least 0.8 of it on the others
    for a in ("food", "location", "building"):
        assert cov[("partial", a)] <= 0.5 * cov[("full", a)], a
    for a in ("cleanliness", "rooms", "service"):
        assert cov[("partial", a)] >= 0.8 * cov[("full", a)], a
    for r in rows:
        assert float(r["ci_low"]) <= float(r["coverage"]) <= float(r["ci_high"])
        assert float(r["covered_words"]) <= float(r["reference_words"])
    assert (tmp / "out" / "aspects.html").read_text().count("<table>") >= 1


def test_aspects_csv_is_the_mean_of_the_pairs(space_run):
    tmp, result = space_run
    stats = result.aspect_stats
    row = next(r for r in result.aspects if r["system"] == "partial" and r["aspect"] == "food")
    per_task = stats.task_coverage(None, "partial", "food")
    assert row["tasks"] == len(per_task)
    assert row["coverage"] == pytest.approx(sum(per_task.values()) / len(per_task))
    # the mentions of a pair, summed over the aspects, are rouge-aspect's statistics
    # summed over the references (per_summary.jsonl)
    for line in (tmp / "out" / "per_summary.jsonl").read_text().splitlines():
        rec = json.loads(line)
        per_ref = rec["stats"]["rouge-aspect"]
        pair = stats.pairs[None][(rec["task"], rec["system"])]
        sums = [sum(getattr(c, k) for c in pair.aspects.values())
                for k in ("mention_hits", "ref_mentions", "cand_mentions")]
        assert sums == [sum(s[i] for s in per_ref) for i in range(3)]


def test_space_console_and_comparisons(space_run):
    tmp, result = space_run
    console = (tmp / "console.txt").read_text()
    assert "aspect coverage (%, 95% interval; n: tasks)" in console
    assert "rouge-aspect R" in console  # the aspect measure shown on its default score
    comps = result.comparisons
    assert {c["score"] for c in comps} == {"coverage"}
    assert len(comps) == 6 * 6  # 6 pairs of 4 systems x 6 aspects
    for c in comps:
        assert c["p_adjusted"] >= c["p_value"] and c["family_size"] == 6
    summary = json.loads((tmp / "out" / "summary.json").read_text())
    assert summary["aspects"]["lexicon"] == "space"
    assert summary["aspects"]["aspects"] == list(ASPECTS)


def test_pairs_all_on_each_measures_default_score(tmp_path, shared):
    rows = [r for r in space_rows(shared / "data" / "space", ("general0", "template", "partial"))
            if r["task"] < "2"]
    write_jsonl(tmp_path / "in.jsonl", rows)
    (tmp_path / "run.yaml").write_text(
        "inputs: {format: jsonl, path: in.jsonl}\naspects: space\n"
        "measures: [rouge-1, rouge-aspect]\ncompare: {pairs: all, resamples: 200}\n"
        "outputs: {dir: out, console: false}\n")
    result = run(load_config(tmp_path / "run.yaml"), progress=False)
    got = {(c["system_a"], c["system_b"], c["measure"]): c["score"] for c in result.comparisons}
    assert set(got) == {(a, b, m) for a, b in [("general0", "partial"), ("general0", "template"),
                                               ("partial", "template")] for m in ("rouge-1", "rouge-aspect")}
    assert {m: s for (_, _, m), s in got.items()} == {"rouge-1": "fmeasure", "rouge-aspect": "recall"}
    for score in ("precision", "fmeasure"):
        (tmp_path / "run.yaml").write_text(
            "inputs: {format: jsonl, path: in.jsonl}\naspects: space\n"
            f"measures: [rouge-1, rouge-aspect]\ncompare: {{pairs: all, resamples: 200, score: {score}}}\n"
            "outputs: {dir: out, console: false}\n")
        result = run(load_config(tmp_path / "run.yaml"), progress=False, overwrite=True)
        assert {c["score"] for c in result.comparisons} == {score}


def test_idf_weights_stop_a_generic_template_outranking_hotel_summaries(shared):
    """A fixed generic template against one-sentence hotel-specific summaries (the
    first sentence of annotator 0's general summary) on ROUGE-TopicUniq recall:
    it outranks them with every topic word weighing 1, not with idf weights."""
    rows = space_rows(shared / "data" / "space", ("template", "one-sentence"))
    pairs = [(r["candidate"], r["references"]) for r in rows]
    means = {}
    for weights in ("none", "idf"):
        scores = rouge2.score_corpus(pairs, measures=["rouge-topicuniq-nn|jj"], stem=True,
                                     topic_weights=weights)
        for r, s in zip(rows, scores):
            means.setdefault((weights, r["system"]), []).append(s["rouge-topicuniq-nn|jj"].recall)
    mean = {k: sum(v) / len(v) for k, v in means.items()}
    assert mean[("none", "template")] > mean[("none", "one-sentence")]
    assert mean[("idf", "template")] < mean[("idf", "one-sentence")]


def test_an_aspect_no_reference_mentions_is_a_warning(tmp_path):
    write_jsonl(tmp_path / "in.jsonl", [
        {"task": "t1", "system": "a", "candidate": "Great breakfast.", "references": ["The breakfast was good."]},
        {"task": "t1", "system": "b", "candidate": "Nice pool.", "references": ["The breakfast was good."]}])
    (tmp_path / "lex.yaml").write_text("food: [breakfast]\nbuilding: [pool, lobby]\n")
    (tmp_path / "run.yaml").write_text("inputs: {format: jsonl, path: in.jsonl}\naspects: lex.yaml\n"
                                       "measures: [rouge-aspect]\noutputs: {dir: out}\n")
    out = tmp_path / "console.txt"
    result = run(load_config(tmp_path / "run.yaml"), progress=False, stdout=out.open("w"))
    console = out.read_text()
    assert "warning: no reference mentions aspect building; its coverage is empty" in console
    row = next(r for r in result.aspects if r["system"] == "b" and r["aspect"] == "building")
    assert (row["tasks"], row["coverage"], row["mention_recall"]) == (0, None, None)
    assert row["mention_precision"] == 0.0  # b mentions it, no reference does
    with (tmp_path / "out" / "aspects.csv").open(newline="") as f:
        csv_row = next(r for r in csv.DictReader(f) if r["system"] == "b" and r["aspect"] == "building")
    assert (csv_row["coverage"], csv_row["ci_low"]) == ("", "")


@pytest.mark.parametrize("extra, message", [
    ("aspects: lex.yaml\ncompare: {pairs: all, score: coverage, aspects: [food, lobbby]}\n",
     r"run.yaml:5: compare.aspects: no aspect named 'lobbby' in the lexicon \(did you mean 'lobby'\?\)"),
    ("compare: {pairs: all, score: coverage}\n", r"run.yaml:4: compare.score: coverage is the per-aspect"),
    ("measures: [rouge-aspect]\n", r"run.yaml:4: measures: rouge-aspect needs an aspect lexicon"),
    ("aspects: {lexicon: lex.yaml, top: -1}\n", r"run.yaml:4: aspects.top: expected a whole number >= 0, got -1$"),
    ("aspects: nope/\n", r"run.yaml:4: aspects: .*nope: aspect lexicon not found"),
    ("aspects: bad.yaml\n", r"run.yaml:4: aspects: .*bad.yaml: aspect 'food' has no words"),
])
def test_bad_aspect_configs_are_one_line(tmp_path, extra, message):
    write_jsonl(tmp_path / "in.jsonl", [{"task": "t", "system": "a", "candidate": "x", "references": ["y"]}])
    (tmp_path / "lex.yaml").write_text("food: [breakfast]\nlobby: [lobby]\n")
    (tmp_path / "bad.yaml").write_text("food: []\n")
    (tmp_path / "run.yaml").write_text("version: 1\ninputs: {format: jsonl, path: in.jsonl}\n"
                                       "outputs: {dir: out}\n" + extra)
    with pytest.raises(UserError, match=message) as info:
        cfg = load_config(tmp_path / "run.yaml")
        run(cfg, progress=False)
    assert "\n" not in str(info.value)


def test_jobs_give_the_same_aspects(tmp_path, shared):
    rows = [r for r in space_rows(shared / "data" / "space", ("partial", "template")) if r["task"] < "2"]
    write_jsonl(tmp_path / "in.jsonl", rows)
    (tmp_path / "run.yaml").write_text("inputs: {format: jsonl, path: in.jsonl}\n"
                                       "preprocess: {topic_weights: idf}\naspects: space\n"
                                       "measures: [rouge-aspect]\nbootstrap: {resamples: 50}\n"
                                       "outputs: {dir: out, console: false}\n")
    one = run(load_config(tmp_path / "run.yaml"), progress=False, overwrite=True)
    two = run(load_config(tmp_path / "run.yaml"), progress=False, jobs=2, overwrite=True)
    assert one.aspects == two.aspects and one.systems == two.systems


def test_score_command_with_aspects(tmp_path, capsys, shared):
    rows = [r for r in space_rows(shared / "data" / "space", ("full", "partial", "template")) if r["task"] < "2"]
    files = {}
    for s in ("full", "partial", "template"):
        files[s] = tmp_path / f"{s}.txt"
        files[s].write_text("".join(r["candidate"].replace("\n", " ") + "\n" for r in rows if r["system"] == s))
    ref = tmp_path / "ref.txt"
    ref.write_text("".join(r["references"][0] + "\n" for r in rows if r["system"] == "full"))
    args = ["score", "-i", *map(str, files.values()), "-r", str(ref), "-m", "rouge-aspect", "--aspects", "space",
            "--pairs", "all", "--compare-score", "coverage", "--resamples", "50", "--test-resamples", "200",
            "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["comparisons"]) == 3 * 6
    assert {c["score"] for c in out["comparisons"]} == {"coverage"}
    assert all(c["p_adjusted"] >= c["p_value"] for c in out["comparisons"])
    assert {r["aspect"] for r in out["aspects"]} == set(ASPECTS)
    assert main(["score", "-i", str(files["full"]), str(files["partial"]), "-r", str(ref), "--compare-score",
                 "coverage", "--resamples", "0"]) != 0
    assert capsys.readouterr().err.strip() == ("rouge2 score: error: --compare-score coverage compares the "
                                               "per-aspect coverage: give --aspects PATH")
