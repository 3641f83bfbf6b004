"""The topic-coverage report (outputs.topic_report) and ``rouge2 run --jobs``.

The per-pair coverage (rouge2.measures.coverage), the dataset-level analysis
(rouge2.stats.coverage) and the files (rouge2.io.topic_report); the pages are
checked in headless Chromium (tests/headless.py).
"""

import csv
import filecmp
import json
import random
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rouge2.config.yaml_config import load_config, parse_config
from rouge2.errors import UserError
from rouge2.io.atomic import OutputTransaction
from rouge2.io.inputs import InputItem
from rouge2.io.topic_report import TopicReportWriter, report_paths
from rouge2.measures.coverage import TopicCoverage, assign
from rouge2.run import parallel
from rouge2.run.runner import run
from rouge2.stats.bootstrap import bootstrap_interval
from rouge2.stats.coverage import natural_key

REPO = Path(__file__).resolve().parents[1]
PAPER = REPO / "resources" / "samples" / "paper-example"
NEWS = REPO / "resources" / "samples" / "summeval-mini.jsonl"
CHROMIUM = Path("/usr/bin/chromium")


def _tagger_available() -> bool:
    try:
        from rouge2.pos.tagger import load_tagger

        load_tagger(None)
        return True
    except Exception:
        return False


needs_tagger = pytest.mark.skipif(not _tagger_available(), reason="no POS tagger model installed")


def _paper_config(tmp_path: Path, extra: str = "", synonyms: str = "true",
                  report: str = "true") -> Path:
    cfg = tmp_path / "topics.yaml"
    cfg.write_text(
        "version: 1\nname: paper <topics>\n"
        f"inputs: {{format: java-project, path: {PAPER}}}\n"
        f"preprocess: {{tokenizer: unicode, synonyms: {synonyms}}}\n"
        'measures: [rouge-1, "rouge-topic-nn|jj", "rouge-topicuniq-nn|jj"]\n'
        "multi_reference: average\nbeta: 1\n"
        f"outputs: {{dir: {tmp_path / 'out'}, console: false, topic_report: {report}}}\n" + extra)
    return cfg


def _rows(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


# --------------------------------------------------------------------------- the assignment


def test_assign_prefers_exact_matches():
    cand = [("phone", "phone"), ("screen", "screen")]
    ref = [("phone", "phone"), ("display", "display")]
    related = lambda a, b: {a, b} == {"screen", "display"}  # noqa: E731
    assert assign(cand, ref, related) == {0: (0, "exact"), 1: (1, "synonym")}


def test_assign_is_maximum_where_exact_first_is_not():
    # candidate {a, b}, reference {a, c}, a~c, b~a: exact-first gives 1 match, the maximum is 2
    cand = [("a", "a"), ("b", "b")]
    ref = [("a", "a"), ("c", "c")]
    related = lambda x, y: {x, y} in ({"a", "c"}, {"b", "a"})  # noqa: E731
    assert assign(cand, ref, related) == {0: (1, "synonym"), 1: (0, "synonym")}


def test_assign_without_synonyms_is_stem_equality():
    cand = [("run", "running"), ("fast", "fast")]
    ref = [("slow", "slow"), ("run", "runs")]
    assert assign(cand, ref) == {1: (0, "exact")}
    assert assign([], ref) == {} and assign(cand, []) == {}


# --------------------------------------------------------------------------- config


def test_topic_report_config_forms(tmp_path):
    (tmp_path / "p" / "reference").mkdir(parents=True)
    (tmp_path / "p" / "system").mkdir()
    head = "inputs: {format: java-project, path: p}\n"
    cfg = parse_config(head + 'measures: ["rouge-topic-nn|jj"]\noutputs: {dir: o, topic_report: true}\n',
                       "run.yaml", base=tmp_path)
    assert cfg.outputs.topic_report == tmp_path / "o" / "topic_coverage.html"
    assert cfg.outputs.topic_report_csv == tmp_path / "o" / "topic_coverage.csv"
    assert cfg.outputs.topic_report_topics is None
    cfg = parse_config(head + 'measures: ["rouge-topic-nn|jj"]\noutputs: {dir: o, topic_report: cov.html}\n',
                       "run.yaml", base=tmp_path)
    assert cfg.outputs.topic_report.name == "cov.html" and cfg.outputs.topic_report_csv.name == "cov.csv"
    cfg = parse_config(head + "measures: [rouge-1]\noutputs:\n  dir: o\n  topic_report: {topics: NN|vb}\n",
                       "run.yaml", base=tmp_path)
    assert cfg.outputs.topic_report_topics == "nn|vb"
    assert cfg.outputs.topic_report.name == "topic_coverage.html"
    assert parse_config(head + "outputs: {topic_report: false}\n", "run.yaml",
                        base=tmp_path).outputs.topic_report is None


@pytest.mark.parametrize("outputs, message", [
    ("outputs: {topic_report: true}", "run.yaml:3: outputs.topic_report: the run has no topic measure"),
    ("outputs:\n  topic_report: {topics: qq}", "run.yaml:4: outputs.topic_report.topics: unknown POS code"),
    ("outputs:\n  topic_report: {topic: nn}", "run.yaml:4: unknown key 'topic' in 'outputs.topic_report'"),
    ("outputs: {csv: cov.csv, topic_report: {topics: nn, file: cov.html}}",
     "outputs.topic_report: writes to the same file as outputs.csv"),
])
def test_topic_report_config_errors(tmp_path, outputs, message):
    (tmp_path / "p" / "reference").mkdir(parents=True)
    (tmp_path / "p" / "system").mkdir()
    text = "inputs: {format: java-project, path: p}\nmeasures: [rouge-1]\n" + outputs + "\n"
    with pytest.raises(UserError) as err:
        parse_config(text, "run.yaml", base=tmp_path)
    assert message in str(err.value)


# --------------------------------------------------------------------------- the paper's Example 1.1


@needs_tagger
def test_paper_example_csv_statuses(tmp_path):
    result = run(load_config(_paper_config(tmp_path)), progress=False)
    out = tmp_path / "out"
    rows = _rows(out / "topic_coverage.csv")
    assert list(rows[0]) == ["task", "system", "reference", "topic", "status", "matched_with", "stem", "upos",
                             "aspects"]
    sys1 = {(r["topic"], r["status"], r["matched_with"]) for r in rows if r["system"] == "syssum1.txt"}
    # Example 1.1: SysSum1 covers display through its synonym screen, the rest exactly
    assert sys1 == {("phone", "exact", "phone"), ("lightweight", "exact", "lightweight"),
                    ("display", "synonym", "screen"), ("bright", "exact", "bright"),
                    ("clear", "exact", "clear")}
    assert {r["reference"] for r in rows} == {"reference1.txt"} and {r["task"] for r in rows} == {"task1"}
    sys2 = [r for r in rows if r["system"] == "syssum2.txt"]
    added = {r["topic"] for r in sys2 if r["status"] == "added"}
    assert {"superb", "gift", "girlfriend", "nice", "crisp"} <= added
    assert "screen" not in added and "phone" not in added
    # consistent with the measure: covered/reference = TopicUniq recall, covered/(covered+added) = precision
    for system in ("syssum1.txt", "syssum2.txt"):
        mine = [r for r in rows if r["system"] == system]
        covered = sum(r["status"] in ("exact", "synonym") for r in mine)
        total = sum(r["status"] != "added" for r in mine)
        n_added = sum(r["status"] == "added" for r in mine)
        score = result.pairs[("task1", system)]["rouge-topicuniq-nn|jj"]
        r_, p_ = score.recall, score.precision
        assert covered / total == pytest.approx(r_)
        assert covered / (covered + n_added) == pytest.approx(p_)
    assert (out / "topic_coverage.html").is_file()


@needs_tagger
def test_paper_example_without_synonyms_misses_display(tmp_path):
    run(load_config(_paper_config(tmp_path, synonyms="false", report="{file: plain}")), progress=False)
    rows = _rows(tmp_path / "out" / "plain.csv")
    sys1 = {r["topic"]: r["status"] for r in rows if r["system"] == "syssum1.txt"}
    assert sys1 == {"phone": "exact", "lightweight": "exact", "display": "missed", "bright": "exact",
                    "clear": "exact", "screen": "added"}
    assert (tmp_path / "out" / "plain.html").is_file()


@needs_tagger
def test_report_pages_are_self_contained_and_escaped(tmp_path):
    # every page rouge2 run writes escapes the texts and names it shows, and
    # loads nothing from the network
    cfg = load_config(_paper_config(tmp_path))
    items = [InputItem("t<1>", "sys&<b>", "The <b>phone</b> & its screen are bright.\n",
                       ("The phone is bright & light.\n",), ("ref\"<i>",))]
    run(cfg, items=items, progress=False)
    out = tmp_path / "out"
    pages = {p: p.read_text(encoding="utf-8") for p in [out / "topic_coverage.html",
                                                         *sorted((out / "topic_coverage_files").glob("*.html"))]}
    assert len(pages) >= 2
    every = "".join(pages.values())
    for page in pages.values():
        assert "<b>" not in page and "<i>" not in page
        assert "http://" not in page and "https://" not in page and "<script src=\"http" not in page
    assert "&lt;b&gt;" in every and "sys&amp;&lt;b&gt;" in every and "t&lt;1&gt;" in every
    assert "ref&quot;&lt;i&gt;" in every
    _check_links(pages)
    rows = _rows(out / "topic_coverage.csv")
    assert {(r["topic"], r["status"]) for r in rows} >= {("phone", "exact"), ("bright", "exact")}
    assert {"topic_coverage.csv", "topic_coverage.html", "topic_coverage_files", "topic_coverage_systems.csv",
            "topic_coverage_topics.csv", "topic_coverage_summary.json"} <= {p.name for p in out.iterdir()}


# --------------------------------------------------------------------------- the split report


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if a.get(key) is not None:
                self.refs.append(a[key])


def _check_links(pages: dict[Path, str]) -> None:
    """Every href/src is relative, points to an existing file, and its #anchor exists there."""
    parsed = {}
    for path, text in pages.items():
        parsed[path.resolve()] = p = _Links()
        p.feed(text)
    for path, p in parsed.items():
        for ref in p.refs:
            assert not re.match(r"^[a-z]+:", ref), f"{path.name}: absolute link {ref!r}"
            file, _, anchor = ref.partition("#")
            target = (path.parent / file).resolve() if file else path
            assert target.exists(), f"{path.name}: {ref!r} points to a missing file"
            if anchor:
                if target not in parsed:
                    parsed[target] = q = _Links()
                    q.feed(target.read_text(encoding="utf-8"))
                assert anchor in parsed[target].ids, f"{path.name}: no #{anchor} in {target.name}"


def _report(tmp_path: Path, items, measures=("rouge-topicuniq-nn",), spec="nn", name="topic_coverage",
            scorer_options=None, **writer_kw) -> tuple[dict, list]:
    """Score ``items`` and write the split report the way the runner wires it:
    TopicCoverage.pair per item, TopicReportWriter.add, then finish(html, tx.open, html_path)."""
    import rouge2

    scorer = rouge2.Scorer(list(measures), **(scorer_options or {}))
    cov = TopicCoverage(scorer, spec)
    html_path = tmp_path / f"{name}.html"
    pairs = []
    with OutputTransaction() as tx:
        writer = TopicReportWriter(tx.open(tmp_path / f"{name}.csv", newline=""), cov.selection,
                                   synonyms=cov.relation is not None, title="test <run>",
                                   auxiliaries=cov.auxiliaries, **writer_kw)
        for it in items:
            p = cov.pair(it.task, it.system, it.candidate, it.references, it.reference_names)
            pairs.append((it, p, scorer.score(it.candidate, list(it.references))))
            writer.add(it.system, p)
        with tx.open(html_path) as f:
            written = writer.finish(f, open_file=tx.open, html_path=html_path)
    assert set(written) >= {report_paths(html_path)[k] for k in
                            ("systems_csv", "topics_csv", "contrast_csv", "summary_json")}
    return report_paths(html_path), pairs


# A hand-checked example, pre-tagged so the topic words are fixed.  Nouns only.
#   task t1, references R1 = phone screen battery, R2 = phone price
#     A: phone screen case  R1: phone, screen exact, battery missed, case added
#                           R2: phone exact, price missed, screen and case added
#                           coverage 3/5; missed words battery, price; added word case
#     B: battery price      R1: battery exact, phone and screen missed, price added
#                           R2: price exact, phone missed, battery added
#                           coverage 2/5; missed phone, screen; nothing added in both references
#   task t2, reference R1 = camera lens
#     A: camera             coverage 1/2, missed lens
#     B: lens zoom          coverage 1/2, missed camera, added zoom
#   task t10, reference R1 = screen
#     A: screen             coverage 1/1
#     B: case               coverage 0/1, missed screen, added case
HAND = [
    ("t10", "A", "screen/NN", ["screen/NN"]),
    ("t10", "B", "case/NN", ["screen/NN"]),
    ("t2", "A", "camera/NN", ["camera/NN lens/NN"]),
    ("t2", "B", "lens/NN zoom/NN", ["camera/NN lens/NN"]),
    ("t1", "A", "phone/NN screen/NN case/NN", ["phone/NN screen/NN battery/NN", "phone/NN price/NN"]),
    ("t1", "B", "battery/NN price/NN", ["phone/NN screen/NN battery/NN", "phone/NN price/NN"]),
]


def _hand_items():
    return [InputItem(t, s, c, tuple(refs), tuple(f"R{k + 1}" for k in range(len(refs))))
            for t, s, c, refs in HAND]


def test_dataset_level_analysis_on_a_hand_checked_example(tmp_path):
    paths, pairs = _report(tmp_path, _hand_items(), scorer_options={"tagger": "pretagged"},
                           resamples=500, seed=7, contrast=[("A", "B")])
    systems = {r["system"]: r for r in _rows(paths["systems_csv"])}
    assert list(systems) == ["A", "B"]
    a, b = systems["A"], systems["B"]
    assert float(a["coverage"]) == pytest.approx((3 / 5 + 1 / 2 + 1) / 3, abs=1e-15)   # 0.7
    assert float(b["coverage"]) == pytest.approx((2 / 5 + 1 / 2 + 0) / 3, abs=1e-15)   # 0.3
    assert float(a["pooled_coverage"]) == 5 / 8 and float(b["pooled_coverage"]) == 3 / 8
    # pooled rows: A's added are case (t1 R1), screen and case (t1 R2)
    assert (a["reference_topics"], a["exact"], a["synonym"], a["missed"], a["added"]) == ("8", "5", "0", "3", "3")
    assert float(a["missed_words_per_task"]) == pytest.approx(3 / 3)   # battery, price | lens | -
    assert float(b["missed_words_per_task"]) == pytest.approx(4 / 3)   # phone, screen | camera | screen
    assert float(b["added_words_per_task"]) == pytest.approx(2 / 3)    # - | zoom | case
    # the interval: the percentile bootstrap of the task values, seeded "<seed>|<system>|topic-coverage"
    for name, values in (("A", [3 / 5, 1 / 2, 1.0]), ("B", [2 / 5, 1 / 2, 0.0])):
        low, high = bootstrap_interval(values, 500, 0.95, random.Random(f"7|{name}|topic-coverage"))
        assert (float(systems[name]["ci_low"]), float(systems[name]["ci_high"])) == (low, high)
        assert min(values) <= low <= high <= max(values)

    topics = _rows(paths["topics_csv"])
    missed_all = {r["topic"]: (int(r["tasks"]), float(r["share"]), int(r["occurs"]))
                  for r in topics if r["scope"] == "all" and r["status"] == "missed"}
    # screen: missed by B in t1 and t10 (2 of 6 pairs); a reference topic in 4 pairs
    assert missed_all == {"screen": (2, 2 / 6, 4), "battery": (1, 1 / 6, 2), "camera": (1, 1 / 6, 2),
                          "lens": (1, 1 / 6, 2), "phone": (1, 1 / 6, 2), "price": (1, 1 / 6, 2)}
    assert next(r["topic"] for r in topics if r["scope"] == "all" and r["status"] == "missed") == "screen"
    assert {r["family"] for r in topics} == {"NOUN"}
    added_b = {r["topic"]: int(r["tasks"]) for r in topics
               if r["system"] == "B" and r["status"] == "added"}
    assert added_b == {"zoom": 1, "case": 1}
    added_all = {r["topic"]: int(r["tasks"]) for r in topics if r["scope"] == "all" and r["status"] == "added"}
    assert added_all == {"case": 2, "zoom": 1}

    contrast = _rows(paths["contrast_csv"])
    ab = {r["topic"]: int(r["tasks"]) for r in contrast if r["direction"] == "a_covers_b_misses"}
    ba = {r["topic"]: int(r["tasks"]) for r in contrast if r["direction"] == "b_covers_a_misses"}
    assert ab == {"screen": 2, "phone": 1, "camera": 1}
    assert ba == {"battery": 1, "price": 1, "lens": 1}

    summary = json.loads(paths["summary_json"].read_text())
    assert [t["task"] for t in summary["tasks"]] == ["t1", "t2", "t10"]   # natural order
    t1 = summary["tasks"][0]
    assert (t1["mean_coverage"], t1["best_system"], t1["worst_system"], t1["reference_topics"],
            t1["references"]) == (pytest.approx(0.5), "A", "B", 4, 2)
    assert summary["selection"] == "NN" and summary["counts"] == {"tasks": 3, "systems": 2, "pairs": 6}

    # the per-pair CSV keeps its rows: one per task, system, reference and topic word
    rows = [tuple(r.values())[:6] for r in _rows(tmp_path / "topic_coverage.csv")]
    assert rows[rows.index(("t1", "A", "R1", "phone", "exact", "phone")):][:4] == [
        ("t1", "A", "R1", "phone", "exact", "phone"), ("t1", "A", "R1", "screen", "exact", "screen"),
        ("t1", "A", "R1", "battery", "missed", ""), ("t1", "A", "R1", "case", "added", "")]
    # t10: A 1, B 1+1; t2: A 2, B 2+1; t1: A (3+1)+(2+2), B (3+1)+(2+1)
    assert len(rows) == 1 + 2 + 2 + 3 + 8 + 7
    # task pages in natural order, each summary shown once, none in the index
    folder = paths["folder"]
    assert sorted(p.name for p in folder.iterdir()) == [
        "report.css", "report.js", "system-01.html", "system-02.html",
        "task-0001.html", "task-0002.html", "task-0003.html"]
    assert "Task t10" in (folder / "task-0003.html").read_text()
    index = paths["html"].read_text()
    for k, task in enumerate(["t1", "t2", "t10"]):
        page = (folder / f"task-{k + 1:04d}.html").read_text()
        shown = re.findall(r'<section class="sys" id="[^"]*" data-system="([^"]*)".*?<p class="text">(.*?)</p>',
                           page, re.S)
        assert [(sy, re.sub(r"<[^>]+>", "", text)) for sy, text in shown] == [
            (sy, cand) for t, sy, cand, _ in sorted(HAND, key=lambda h: h[1]) if t == task]
        refs = re.findall(r'<details class="ref">', page)
        assert len(refs) == len(next(h[3] for h in HAND if h[0] == task))  # each reference once
    for _, _, cand, _ in HAND:
        assert cand not in index


def test_coverage_equals_topicuniq_recall_pooled(tmp_path):
    # Differential: each pair's coverage is ROUGE-TopicUniq's pooled recall, and a system's
    # coverage is the mean over its tasks, as the run averages a measure.
    items = [it for it in _hand_items()]
    _, pairs = _report(tmp_path, items, scorer_options={"tagger": "pretagged"})
    for it, cov, scores in pairs:
        assert cov.coverage == scores["rouge-topicuniq-nn"].recall
    summary = json.loads((tmp_path / "topic_coverage_summary.json").read_text())
    for row in summary["systems"]:
        recalls = [sc["rouge-topicuniq-nn"].recall for it, _, sc in pairs if it.system == row["system"]]
        assert row["coverage"] == pytest.approx(sum(recalls) / len(recalls), rel=1e-12)


@needs_tagger
def test_coverage_equals_topicuniq_recall_on_news(tmp_path):
    from rouge2.config.yaml_config import parse_config as _parse
    from rouge2.io.inputs import read_inputs

    cfg = _parse(f"inputs: {{format: jsonl, path: {NEWS}, sentences: splitter}}\n", "x.yaml", base=tmp_path)
    items = list(read_inputs(cfg.inputs))
    paths, pairs = _report(tmp_path, items, measures=["rouge-topicuniq-nn|vb"], spec="nn|vb",
                           scorer_options={"stem": True, "synonyms": True}, resamples=200)
    for it, cov, scores in pairs:
        assert cov.coverage == scores["rouge-topicuniq-nn|vb"].recall
        # and the per-pair counts are the CSV's rows by status
    rows = _rows(tmp_path / "topic_coverage.csv")
    by_pair = {}
    for r in rows:
        by_pair.setdefault((r["task"], r["system"]), []).append(r["status"])
    for it, cov, _ in pairs:
        st = by_pair[(it.task, it.system)]
        assert cov.counts == {"reference": sum(x != "added" for x in st), "exact": st.count("exact"),
                              "synonym": st.count("synonym"), "missed": st.count("missed"),
                              "added": st.count("added")}
    summary = json.loads(paths["summary_json"].read_text())
    assert summary["auxiliaries"] is False
    verbs = [r for r in summary["missed"]["all"] if r["family"] in ("VERB", "AUX")]
    assert verbs and {r["family"] for r in verbs} == {"VERB"}
    assert not {"was", "is", "has", "be", "been", "had", "have"} & {r["topic"] for r in verbs}
    pages = {p: p.read_text(encoding="utf-8") for p in [paths["html"], *paths["folder"].glob("*.html")]}
    _check_links(pages)
    for text in pages.values():
        assert "http://" not in text and "https://" not in text
        assert not re.search(r"<(script|link)[^>]+(src|href)=\"(?!report\.(js|css)\")", text)


def test_report_is_deterministic(tmp_path):
    outs = []
    for k in range(2):
        d = tmp_path / str(k)
        d.mkdir()
        paths, _ = _report(d, _hand_items(), scorer_options={"tagger": "pretagged"}, resamples=100)
        outs.append(d)
    names = sorted(str(p.relative_to(outs[0])) for p in outs[0].rglob("*") if p.is_file())
    assert names == sorted(str(p.relative_to(outs[1])) for p in outs[1].rglob("*") if p.is_file())
    for n in names:
        assert (outs[0] / n).read_bytes() == (outs[1] / n).read_bytes(), n


def test_writer_argument_errors(tmp_path):
    import io

    with pytest.raises(UserError, match="task order"):
        TopicReportWriter(io.StringIO(), "NN", False, task_order="random")
    with pytest.raises(UserError, match="two different system names"):
        TopicReportWriter(io.StringIO(), "NN", False, contrast=[("A", "A")])
    with pytest.raises(UserError, match="confidence"):
        TopicReportWriter(io.StringIO(), "NN", False, confidence=95)
    with pytest.raises(UserError, match="no system named 'C'; systems: A, B"):
        _report(tmp_path, _hand_items(), scorer_options={"tagger": "pretagged"}, contrast=[("A", "C")])
    w = TopicReportWriter(io.StringIO(), "NN", False)
    with pytest.raises(TypeError):
        w.finish(io.StringIO(), open_file=lambda p: io.StringIO())


def test_natural_order_of_names():
    names = ["task10", "task2", "Task1", "task1", "task02", "a", "task", "10", "9", "b1c10", "b1c9"]
    assert sorted(names, key=natural_key) == ["9", "10", "a", "b1c9", "b1c10", "task", "Task1", "task1",
                                              "task02", "task2", "task10"]


@pytest.mark.parametrize("seed", range(5))
def test_natural_order_is_numeric_for_numbered_names(seed):
    rnd = random.Random(seed)
    nums = rnd.sample(range(1, 5000), 50)
    assert [int(n[4:]) for n in sorted((f"task{n}" for n in nums), key=natural_key)] == sorted(nums)


@needs_tagger
def test_failed_run_leaves_no_report(tmp_path):
    cfg = load_config(_paper_config(tmp_path))

    def items():
        yield InputItem("t1", "a", "The phone is bright.", ("The phone.",), ("r",))
        raise RuntimeError("input broke")

    with pytest.raises(RuntimeError):
        run(cfg, items=items(), progress=False)
    assert not (tmp_path / "out").exists()


@needs_tagger
def test_opinion_topics_config_writes_the_report(tmp_path):
    text = (REPO / "configs" / "opinion-topics.yaml").read_text()
    text = text.replace("../resources/", str(REPO / "resources") + "/")
    text = text.replace("dir: ../out/", f"dir: {tmp_path}/")
    (tmp_path / "opinion.yaml").write_text(text)
    run(load_config(tmp_path / "opinion.yaml"), progress=False)
    rows = _rows(tmp_path / "opinion-topics" / "topic_coverage.csv")
    sys1 = {r["topic"]: r["status"] for r in rows if r["system"] == "syssum1.txt"}
    assert sys1["display"] == "missed" and sys1["phone"] == "exact"  # no synonyms in this config
    assert (tmp_path / "opinion-topics" / "topic_coverage.html").is_file()


# --------------------------------------------------------------------------- headless Chromium


needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="headless Chromium not installed at /usr/bin/chromium (Debian: apt-get install -y chromium)")


@pytest.fixture(scope="module")
def browser():
    from headless import Browser

    with Browser(CHROMIUM) as b:
        yield b


def _column(page, table: str, col: int) -> list[str]:
    return page.eval(f"Array.from(document.querySelectorAll('#{table} tbody tr'))"
                     f".filter(r => !r.hidden).map(r => r.cells[{col}].textContent.trim())")


@needs_tagger
@needs_chromium
def test_split_report_in_headless_chromium(tmp_path, browser):
    from rouge2.config.yaml_config import parse_config as _parse
    from rouge2.io.inputs import read_inputs

    cfg = _parse(f"inputs: {{format: jsonl, path: {NEWS}, sentences: splitter}}\n", "x.yaml", base=tmp_path)
    items = list(read_inputs(cfg.inputs))
    # renamed tasks: natural order must put task2 before task10
    renamed = {t: f"task{n}" for t, n in zip(dict.fromkeys(i.task for i in items), (10, 2, 1, 33, 4))}
    items = [InputItem(renamed[i.task], i.system, i.candidate, i.references, i.reference_names) for i in items]
    paths, pairs = _report(tmp_path, items, measures=["rouge-topicuniq-nn|vb"], spec="nn|vb",
                           scorer_options={"stem": True}, resamples=200)
    index = browser.open(paths["html"].as_uri())
    assert index.errors == []
    # the overview comes first and is on screen, with its two charts
    assert index.eval("document.querySelector('main, body > section, section').id") == "overview"
    box = index.eval("(() => { const r = document.getElementById('overview').getBoundingClientRect();"
                     " return [r.top, r.height, innerHeight]; })()")
    assert 0 <= box[0] < box[2] and box[1] > 100
    assert index.eval("document.querySelectorAll('#overview svg').length") == 2
    assert index.eval("document.querySelectorAll('#overview svg circle').length") == 4  # one dot per system
    # contents list: every entry points to a section of the page
    assert index.eval("Array.from(document.querySelectorAll('nav.toc a'))"
                      ".every(a => document.getElementById(a.hash.slice(1)) !== null)")
    # tasks in natural order
    assert _column(index, "t-tasks", 0) == ["task1", "task2", "task4", "task10", "task33"]
    # sorting: a numeric header sorts descending first, then ascending
    summary = json.loads(paths["summary_json"].read_text())
    coverage = {r["system"]: r["coverage"] for r in summary["systems"]}
    index.click("#t-systems thead th:nth-child(3)")
    assert _column(index, "t-systems", 0) == sorted(coverage, key=lambda s: -coverage[s])
    assert index.eval("document.querySelector('#t-systems thead th:nth-child(3)').getAttribute('aria-sort')") \
        == "descending"
    index.click("#t-systems thead th:nth-child(3)")
    assert _column(index, "t-systems", 0) == sorted(coverage, key=lambda s: coverage[s])
    index.click("#t-tasks thead th:nth-child(1)")   # name columns sort in natural order
    assert _column(index, "t-tasks", 0) == ["task33", "task10", "task4", "task2", "task1"]
    # filter box
    index.eval("(() => { const i = document.querySelector('input[data-for=t-systems]');"
               " i.value = 'm2'; i.dispatchEvent(new Event('input')); })()")
    assert _column(index, "t-systems", 0) == ["M23", "M22"] or _column(index, "t-systems", 0) == ["M22", "M23"]
    assert index.errors == []

    # a task page: the summaries once, references collapsed, colouring on demand
    page = browser.open((paths["folder"] / "task-0002.html").as_uri())
    assert page.errors == []
    assert page.eval("document.querySelector('h2').textContent") == "Task task2"
    assert page.eval("document.querySelectorAll('section.sys').length") == 4
    assert page.eval("Array.from(document.querySelectorAll('details.ref')).every(d => !d.open)")
    assert page.eval("document.querySelectorAll('details.ref').length") == 11
    # systems in natural order: M0, M8, M22, M23 -> M23 is system-04
    cov = next(cov for it, cov, _ in pairs if it.task == "task2" and it.system == "M23")
    marks = page.eval("Array.from(document.querySelectorAll('#task-0002-system-04 p.text mark'))"
                      ".map(m => [m.className, m.textContent])")
    assert marks == [[cov.candidate_topics[i][4], cov.candidate[a:b]] for a, b, i in cov.candidate_spans]
    assert {c for c, _ in marks} <= {"exact", "synonym", "added"} and len(marks) > 5
    page.click("#task-0002-system-04 button.show")
    got = page.eval("Array.from(document.querySelectorAll('details.ref')[0].querySelectorAll('mark'))"
                    ".map(m => m.className)")
    ref0 = cov.references[0]
    spans = [ref0.statuses[i] for _, _, i in ref0.spans]
    assert got == [{"e": "exact", "s": "synonym", "m": "missed"}[c] for c in spans]
    assert page.eval("document.querySelector('.ref-system').textContent") == "M23"
    assert page.errors == []
    # a system page
    sp = browser.open((paths["folder"] / "system-01.html").as_uri())
    assert sp.errors == [] and sp.eval("document.querySelector('h2').textContent") == "System M0"
    assert _column(sp, "system-01-tasks", 0) == ["task1", "task2", "task4", "task10", "task33"]


@needs_tagger
@needs_chromium
def test_paper_example_highlights_in_headless_chromium(tmp_path, browser):
    # the runner's report: the task page of the paper's example, rendered by the browser
    run(load_config(_paper_config(tmp_path)), progress=False)
    page = browser.open((tmp_path / "out" / "topic_coverage_files" / "task-0001.html").as_uri())
    assert page.errors == []
    sec = "section.sys[data-system='syssum1.txt']"
    assert page.eval(f"Array.from(document.querySelectorAll(\"{sec} p.text mark\"))"
                     ".map(m => [m.className, m.textContent])") == [
        ["exact", "Lightweight"], ["exact", "phone"], ["exact", "Bright"], ["synonym", "screen"],
        ["synonym", "Screen"], ["exact", "clear"]]
    page.click(f"{sec} button.show")
    assert page.eval("Array.from(document.querySelectorAll('details.ref mark'))"
                     ".map(m => [m.className, m.textContent])") == [
        ["exact", "phone"], ["exact", "lightweight"], ["synonym", "display"], ["exact", "bright"],
        ["exact", "clear"]]
    sec2 = "section.sys[data-system='syssum2.txt']"
    added = page.eval(f"Array.from(document.querySelectorAll(\"{sec2} mark.added\")).map(m => m.textContent)")
    assert {"superb", "crisp"} <= set(added)
    assert page.errors == []
    # the systems table of the index (pooled percentages), sortable
    page = browser.open((tmp_path / "out" / "topic_coverage.html").as_uri())
    cells = page.eval("Array.from(document.querySelectorAll('#t-systems tbody tr')).map(r => "
                      "[r.dataset.system, r.querySelector('.covered').textContent, "
                      "r.querySelector('.exact').textContent, r.querySelector('.synonym').textContent])")
    assert cells == [["syssum1.txt", "100.0", "80.0", "20.0"], ["syssum2.txt", "100.0", "80.0", "20.0"]]
    shot = tmp_path / "page.png"
    assert page.screenshot(shot)[:8] == b"\x89PNG\r\n\x1a\n"
    assert page.errors == []


# --------------------------------------------------------------------------- --jobs


def _jobs_config(tmp_path: Path, topics: bool) -> Path:
    measures = '[rouge-1, rouge-2, rouge-l, rouge-su4' + (', "rouge-topic-nn|jj"]' if topics else "]")
    cfg = tmp_path / "jobs.yaml"
    cfg.write_text(
        f"inputs: {{format: jsonl, path: {NEWS}, sentences: splitter}}\n"
        "preprocess: {stem: true, stopwords: smart}\n"
        f"measures: {measures}\nmulti_reference: pooled\n"
        "bootstrap: {resamples: 200, seed: 1}\n"
        "compare: {pairs: [[M22, M0]], resamples: 300}\n"
        f"outputs: {{dir: {tmp_path / 'out'}, console: false"
        + (", topic_report: true" if topics else "") + "}\n")
    return cfg


def _run_cli(*args: str) -> None:
    from rouge2.cli import main

    assert main(["run", "--progress", "off", *args]) == 0


@pytest.mark.parametrize("topics", [False, pytest.param(True, marks=needs_tagger)])
def test_jobs_give_identical_files(tmp_path, monkeypatch, topics):
    monkeypatch.setattr(parallel, "CHUNK_ITEMS", 3)  # several chunks in flight over 20 summaries
    monkeypatch.setattr(parallel, "CHUNK_MAX_ITEMS", 4)
    cfg = _jobs_config(tmp_path, topics)
    _run_cli("--jobs", "1", str(cfg))
    shutil.move(tmp_path / "out", tmp_path / "one")
    one = tmp_path / "one"
    names = sorted(str(p.relative_to(one)) for p in one.rglob("*") if p.is_file())
    assert ("topic_coverage.html" in names) == topics
    for jobs in ("2", "8"):  # more processes than chunks in flight, too
        shutil.rmtree(tmp_path / "out", ignore_errors=True)
        _run_cli("--jobs", jobs, str(cfg))
        two = tmp_path / "out"
        assert names == sorted(str(p.relative_to(two)) for p in two.rglob("*") if p.is_file())
        match, mismatch, errors = filecmp.cmpfiles(one, two, names, shallow=False)
        assert mismatch == [] and errors == [] and match == names
        assert json.loads((two / "summary.json").read_text())["counts"]["summaries"] == 20


def test_chunks_keep_tasks_together(monkeypatch):
    monkeypatch.setattr(parallel, "CHUNK_ITEMS", 2)
    monkeypatch.setattr(parallel, "CHUNK_MAX_ITEMS", 3)
    items = [InputItem(t, s, "", (), ()) for t, s in
             [("a", 1), ("a", 2), ("a", 3), ("b", 1), ("c", 1), ("c", 2), ("c", 3), ("c", 4), ("d", 1)]]
    chunks = [[(i.task, i.system) for i in c] for c in parallel.chunks(items)]
    # closed at a task boundary once 2 items are in, and at 3 items whatever the task
    assert chunks == [[("a", 1), ("a", 2), ("a", 3)], [("b", 1), ("c", 1), ("c", 2)],
                      [("c", 3), ("c", 4)], [("d", 1)]]
    assert [x for c in chunks for x in c] == [(i.task, i.system) for i in items]


def test_jobs_option_is_checked(tmp_path):
    from rouge2.cli import main

    assert main(["run", "--jobs", "x", str(tmp_path / "none.yaml")]) == 2
    with pytest.raises(UserError):
        run(load_config(_jobs_config(tmp_path, False)), jobs=-1)
