"""The topic-coverage report (outputs.topic_report) and ``rouge2 run --jobs``."""

import csv
import filecmp
import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rouge2.errors import UserError
from rouge2.run import parallel
from rouge2.config.yaml_config import load_config, parse_config
from rouge2.io.inputs import InputItem
from rouge2.run.runner import run
from rouge2.io.topic_report import assign

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
    assert list(rows[0]) == ["task", "system", "reference", "topic", "status", "matched_with"]
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
def test_html_is_self_contained_and_escaped(tmp_path):
    cfg = load_config(_paper_config(tmp_path))
    items = [InputItem("t<1>", "sys&<b>", "The <b>phone</b> & its screen are bright.\n",
                       ("The phone is bright & light.\n",), ("ref\"<i>",))]
    run(cfg, items=items, progress=False)
    page = (tmp_path / "out" / "topic_coverage.html").read_text(encoding="utf-8")
    assert "<b>" not in page and "<i>" not in page and "&lt;b&gt;" in page
    assert "sys&amp;&lt;b&gt;" in page and "t&lt;1&gt;" in page
    assert "<script" not in page and "http://" not in page and "https://" not in page
    assert "<link" not in page and "<style>" in page
    ET.fromstring(page.split("\n", 1)[1].replace("&middot;", "·"))  # well-formed markup
    rows = _rows(tmp_path / "out" / "topic_coverage.csv")
    assert {(r["topic"], r["status"]) for r in rows} >= {("phone", "exact"), ("bright", "exact")}


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


@needs_tagger
@pytest.mark.skipif(not CHROMIUM.exists(),
                    reason="headless Chromium not installed at /usr/bin/chromium "
                           "(Debian: apt-get install -y chromium)")
def test_html_renders_in_headless_chromium(tmp_path):
    run(load_config(_paper_config(tmp_path)), progress=False)
    page = tmp_path / "out" / "topic_coverage.html"
    flags = [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}"]
    done = subprocess.run(flags + ["--dump-dom", page.as_uri()], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    # The DOM the browser built: parse it (HTML5 serialisation of this page is well-formed XML
    # apart from the doctype and void <meta>).
    body = dom[dom.index("<body>"):dom.index("</body>") + len("</body>")]
    root = ET.fromstring(body)
    sections = {(s.get("data-system"), s.get("data-reference")): s for s in root.iter("section")}
    sec = sections[("syssum1.txt", "reference1.txt")]
    system_div, reference_div = [d for d in sec.iter("div") if "text" in (d.get("class") or "").split()]

    def marks(div):
        return [(m.get("class"), m.text) for m in div.iter("mark")]

    assert marks(reference_div) == [("exact", "phone"), ("exact", "lightweight"),
                                    ("synonym", "display"), ("exact", "bright"), ("exact", "clear")]
    assert marks(system_div) == [("exact", "Lightweight"), ("exact", "phone"), ("exact", "Bright"),
                                 ("synonym", "screen"), ("synonym", "Screen"), ("exact", "clear")]
    sec2 = sections[("syssum2.txt", "reference1.txt")]
    sys2_div = [d for d in sec2.iter("div") if "system" in (d.get("class") or "").split()][0]
    assert ("added", "superb") in marks(sys2_div) and ("added", "crisp") in marks(sys2_div)
    # the per-system table at a glance
    table = {tr.get("data-system"): {td.get("class"): td.text for td in tr.iter("td")}
             for tr in root.iter("tr") if tr.get("data-system")}
    assert table["syssum1.txt"]["covered"] == "100.0" and table["syssum1.txt"]["exact"] == "80.0"
    assert table["syssum1.txt"]["synonym"] == "20.0" and table["syssum1.txt"]["added"] == "0"
    assert table["syssum2.txt"]["added"] == "7"
    shot = tmp_path / "page.png"
    done = subprocess.run(flags + [f"--screenshot={shot}", "--window-size=1200,900", page.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


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
    _run_cli("--jobs", "2", str(cfg))
    one, two = tmp_path / "one", tmp_path / "out"
    names = sorted(p.name for p in one.iterdir())
    assert names == sorted(p.name for p in two.iterdir())
    assert ("topic_coverage.html" in names) == topics
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
