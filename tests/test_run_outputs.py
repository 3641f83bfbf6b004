"""Outputs: atomic writes, the Java CSV format, per-summary files, the summary signature, runs."""

import csv
import hashlib
import io
import json
import os
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge2.config.yaml_config import load_config
from rouge2.errors import UserError
from rouge2.io import atomic
from rouge2.io import writers as out
from rouge2.run.runner import run

REPO = Path(__file__).resolve().parents[1]
CONFIGS = REPO / "configs"


# --------------------------------------------------------------------------- atomic writing


def test_atomic_write_creates_file_and_leaves_no_temp(tmp_path):
    target = tmp_path / "a" / "b.txt"
    atomic.atomic_write_text(target, "hello\n")
    assert target.read_text() == "hello\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["b.txt"]


def test_failed_transaction_leaves_nothing(tmp_path):
    dest = tmp_path / "results"
    with pytest.raises(RuntimeError):
        with atomic.OutputTransaction() as tx:
            with tx.open(dest / "one.csv") as f:
                f.write("partial")
            tx.open(dest / "two.jsonl").write("{}")
            raise RuntimeError("scoring failed")
    assert not dest.exists()  # the folder the transaction created is gone too
    assert list(tmp_path.iterdir()) == []


def test_failed_transaction_keeps_previous_file(tmp_path):
    target = tmp_path / "results.csv"
    target.write_text("old results\n")
    with pytest.raises(ValueError):
        with atomic.OutputTransaction() as tx:
            tx.open(target).write("new but incomplete")
            raise ValueError
    assert target.read_text() == "old results\n"
    assert [p.name for p in tmp_path.iterdir()] == ["results.csv"]


def test_commit_failure_removes_temporaries(tmp_path, monkeypatch):
    tx = atomic.OutputTransaction()
    tx.open(tmp_path / "x.csv").write("x")

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(UserError) as exc:  # one line naming the folder (docs/safety.md)
        tx.commit()
    assert str(exc.value).startswith(f"cannot write in {tmp_path}: No space left on device")
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- Java CSV


def test_java_csv_header_is_exact():
    assert out.JAVA_CSV_HEADER == ("ROUGE-Type,Task Name,System Name,Avg_Recall,Avg_Precision,"
                                   "Avg_F-Score,Num Reference Summaries")


def test_java_csv_layout_matches_the_java_tool(shared):
    rows = [[out.JavaRow("ROUGE-1+StopWordRemoval", "task1", "englishSyssum2.txt",
                         0.6923076923, 0.1956521739, 0.3050847457, 2)],
            [out.JavaRow("ROUGE-1+StopWordRemoval", "task2", "persianSyssum1.txt", 0.5, 1.0, 2 / 3, 1)]]
    buf = io.StringIO()
    out.write_java_csv(buf, rows)
    assert buf.getvalue() == (
        out.JAVA_CSV_HEADER + "\n"
        "ROUGE-1+StopWordRemoval,TASK1,ENGLISHSYSSUM2.TXT,0.69231,0.19565,0.30508,2\n\n"
        "ROUGE-1+StopWordRemoval,TASK2,PERSIANSYSSUM1.TXT,0.50000,1.00000,0.66667,1\n\n")
    java = (shared / "data" / "rouge2_java" / "v1.2.2" / "results.csv").read_text()
    assert java.splitlines()[0] == out.JAVA_CSV_HEADER
    assert java.endswith("\n\n")  # groups end with an empty line, the last one too


# The Java tool prints with java.text.DecimalFormat("0.00000"): half-even on the
# exact binary value of the double.  (decimal literal, exact value of the double
# it parses to, what the jar printed for that double in its CSVs of the Java
# samples; docs/differences.md, "Rounding of the CSV numbers")
JAR_ROUNDING = [
    ("0.140625", "0.140625", "0.14062"),  # 9/64: an exact tie goes to the even digit
    ("0.265625", "0.265625", "0.26562"),
    ("0.328125", "0.328125", "0.32812"),
    ("0.015625", "0.015625", "0.01562"),
    ("0.396875", "0.39687499999999997779553950749686919152736663818359375", "0.39687"),
    ("0.459375", "0.45937499999999997779553950749686919152736663818359375", "0.45937"),
    ("0.378125", "0.378124999999999988897769753748434595763683319091796875", "0.37812"),
    ("0.065625", "0.06562500000000000277555756156289135105907917022705078125", "0.06563"),
    ("0.403125", "0.403125000000000011102230246251565404236316680908203125", "0.40313"),
]


@pytest.mark.parametrize("literal,exact,jar", JAR_ROUNDING)
def test_java_fmt5_rounds_as_the_jar(literal, exact, jar):
    x = float(literal)
    assert Decimal(x) == Decimal(exact)  # the double the jar computed for these rows
    assert out.java_fmt5(x) == jar


def test_java_fmt5_is_not_half_up_on_the_shortest_form():
    # Half-up on the shortest form (String.format, rouge2's rule until this fix)
    # gives 0.12346 for the double nearest 0.123455, which lies below the tie;
    # DecimalFormat gives 0.12345.
    assert Decimal.from_float(0.123455) < Decimal("0.123455")
    assert out.java_fmt5(0.123455) == "0.12345"
    assert out.java_fmt5(0.0) == "0.00000" and out.java_fmt5(1.0) == "1.00000"
    assert out.java_fmt5(2 / 3) == "0.66667"
    # as DecimalFormat in an English locale prints them (checked with JDK 17)
    assert out.java_fmt5(float("nan")) == "NaN"
    assert out.java_fmt5(-0.0) == "-0.00000"
    assert out.java_fmt5(1234.567895) == "1234.56789"


def _decimal_format(x: float) -> str:
    """The reference: the exact value of the double, rounded half-even to 5 decimals."""
    with localcontext() as ctx:
        ctx.prec = 1200
        return str(Decimal(x).quantize(Decimal("0.00001"), rounding=ROUND_HALF_EVEN))


@settings(max_examples=2000, deadline=None)
@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
def test_java_fmt5_equals_exact_half_even_on_any_double(x):
    assert out.java_fmt5(x) == _decimal_format(x)


@settings(max_examples=2000, deadline=None)
@given(st.integers(min_value=0, max_value=2**24), st.integers(min_value=0, max_value=30))
def test_java_fmt5_on_dyadic_values_with_exact_ties(k, m):
    # k / 2^m with m >= 6 can be an exact tie at the 5th decimal (9/64 = 0.140625)
    x = k / 2**m
    assert out.java_fmt5(x) == _decimal_format(x)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 80), st.integers(1, 80)), min_size=1, max_size=6))
def test_java_fmt5_on_averages_of_ratios(pairs):
    # what the Java CSV prints: per-reference hit/total, averaged over references
    x = sum(min(h, t) / t for h, t in pairs) / len(pairs)
    assert out.java_fmt5(x) == _decimal_format(x)


@pytest.mark.parametrize("measure,flags,label", [
    ("rouge-1", {}, "ROUGE-1"),
    ("rouge-l", {"stopwords": True}, "ROUGE-L+StopWordRemoval"),
    ("rouge-su4", {"stopwords": True, "stem": True}, "ROUGE-SU4+StopWordRemoval+Stemming"),
    ("rouge-1", {"stopwords": True, "synonyms": True}, "ROUGE-1+StopWordRemoval+Synonyms"),
    ("rouge-topic-nn|jj", {}, "ROUGE-1-topic"),
    ("rouge-topicuniq-nn|jj", {}, "ROUGE-1-topicUniq"),
    ("rouge-w-1.2", {}, "ROUGE-W-1.2"),
    ("rouge-su*", {}, "ROUGE-SU*"),
])
def test_java_labels(measure, flags, label):
    kw = {"stopwords": False, "stem": False, "synonyms": False, **flags}
    assert out.java_measure_label(measure, **kw) == label


def test_topic_labels_disambiguated_only_when_needed():
    labels = out.java_labels(["rouge-topic-nn|jj", "rouge-topic-vb"], stopwords=False, stem=False,
                             synonyms=False)
    assert labels == {"rouge-topic-nn|jj": "ROUGE-1-topic-NN|JJ", "rouge-topic-vb": "ROUGE-1-topic-VB"}


# --------------------------------------------------------------------------- runs


@pytest.fixture
def crash_on(monkeypatch):
    """Make scoring crash on a candidate containing a given text (a bug mid-run)."""
    from rouge2.run.parallel import PairScorer

    def install(text):
        original, original_items = PairScorer.__call__, PairScorer.score_items

        def call(self, item):
            if text in item.candidate:
                raise RuntimeError("scorer crashed")
            return original(self, item)

        def score_items(self, items):  # the batch path: a chunk of items at a time
            if any(text in item.candidate for item in items):
                raise RuntimeError("scorer crashed")
            return original_items(self, items)

        monkeypatch.setattr(PairScorer, "__call__", call)
        monkeypatch.setattr(PairScorer, "score_items", score_items)
    return install


def make_project(tmp_path):
    root = tmp_path / "proj"
    for sub in ("reference", "system"):
        (root / sub).mkdir(parents=True)
    (root / "reference" / "t1_r1.txt").write_text("a b c d\n")
    (root / "reference" / "t1_r2.txt").write_text("a b\n")
    (root / "reference" / "t2_r1.txt").write_text("x y\n")
    (root / "system" / "t1_good.txt").write_text("a b c\n")
    (root / "system" / "t1_bad.txt").write_text("z\n")
    (root / "system" / "t2_good.txt").write_text("x y\n")
    (root / "system" / "t2_bad.txt").write_text("x q\n")
    cfg = tmp_path / "run.yaml"
    cfg.write_text("inputs: {format: java-project, path: proj}\nmeasures: [rouge-1]\n"
                   "multi_reference: average\n"
                   "bootstrap: {resamples: 50, seed: 3}\n"
                   "compare: {pairs: [[good.txt, bad.txt]], resamples: 100}\n"
                   "outputs: {dir: results, console: false}\n")
    return cfg


def test_run_writes_all_outputs(tmp_path):
    cfg = load_config(make_project(tmp_path))
    result = run(cfg, progress=False)
    res = tmp_path / "results"
    names = ["per_summary.csv", "per_summary.jsonl", "results.csv", "summary.json", "systems.csv"]
    assert sorted(p.name for p in res.iterdir()) == [".rouge2-outputs.json"] + names
    assert sorted(p.name for p in result.written) == names  # the record is not announced
    # the record of what rouge2 wrote: each file's size and SHA-256
    manifest = json.loads((res / ".rouge2-outputs.json").read_text())
    assert manifest["rouge2_outputs"] == 1
    assert manifest["files"] == {n: {"size": (res / n).stat().st_size,
                                     "sha256": hashlib.sha256((res / n).read_bytes()).hexdigest()}
                                 for n in names}
    lines = (res / "results.csv").read_text().split("\n")
    assert lines[0] == out.JAVA_CSV_HEADER
    # t1/good: R = (3/4 + 2/2)/2 = 0.875, P = (3/3 + 2/3)/2 = 0.83333, F from the averages
    assert lines[1] == "ROUGE-1,T1,BAD.TXT,0.00000,0.00000,0.00000,2"
    assert lines[2] == "ROUGE-1,T1,GOOD.TXT,0.87500,0.83333,0.85366,2"
    assert lines[3] == ""
    jsonl = [json.loads(x) for x in (res / "per_summary.jsonl").read_text().splitlines()]
    assert jsonl[0]["task"] == "t1" and jsonl[0]["reference_names"] == ["r1.txt", "r2.txt"]
    rows = list(csv.DictReader((res / "per_summary.csv").open()))
    assert len(rows) == 4 and set(rows[0]) == {"task", "system", "measure", "recall", "precision",
                                               "fmeasure", "num_references"}
    summary = json.loads((res / "summary.json").read_text())
    sig = summary["signature"]
    assert len(sig["sha256"]) == 64 and sig["versions"]["rouge2"]
    assert sig["settings"]["bootstrap"]["seed"] == 3
    assert sig["settings"]["options"]["multi_reference"] == "average"
    assert jsonl[0]["stats"]["rouge-1"] == [[0, 4, 1], [0, 2, 1]]  # bad.txt "z" vs "a b c d", "a b"
    good = summary["systems"]["good.txt"]["rouge-1"]
    assert good["tasks"] == 2 and len(good["ci"]["fmeasure"]) == 2
    (cmp,) = summary["comparisons"]
    assert cmp["system_a"] == "good.txt" and 0 < cmp["p_value"] <= 1
    assert result.console.startswith("rouge2 run")
    # the systems CSV: good.txt is R 0.875, P 5/6 on t1 and R = P = 1 on t2
    sys_rows = {(r["system"], r["measure"]): r for r in csv.DictReader((res / "systems.csv").open())}
    assert list(sys_rows) == [("bad.txt", "rouge-1"), ("good.txt", "rouge-1")]
    row = sys_rows[("good.txt", "rouge-1")]
    assert float(row["recall"]) == 0.9375 and float(row["precision"]) == pytest.approx(11 / 12)
    assert row["tasks"] == "2" and row["fmeasure_low"] and row["fmeasure_high"]


def test_run_is_reproducible(tmp_path):
    cfg = load_config(make_project(tmp_path))
    run(cfg, progress=False)
    first = (tmp_path / "results" / "summary.json").read_bytes()
    run(cfg, progress=False)
    assert (tmp_path / "results" / "summary.json").read_bytes() == first


def test_failed_run_leaves_no_output(tmp_path, crash_on):
    cfg = load_config(make_project(tmp_path))
    crash_on("x q")
    with pytest.raises(RuntimeError):
        run(cfg, progress=False)
    assert not (tmp_path / "results").exists()


def test_failed_run_keeps_previous_results(tmp_path, crash_on):
    cfg = load_config(make_project(tmp_path))
    run(cfg, progress=False)
    before = {p.name: p.read_bytes() for p in (tmp_path / "results").iterdir()}
    crash_on("x q")
    with pytest.raises(RuntimeError):
        run(cfg, progress=False)
    after = {p.name: p.read_bytes() for p in (tmp_path / "results").iterdir()}
    assert after == before


def test_compare_unknown_system_fails_before_writing(tmp_path):
    p = make_project(tmp_path)
    p.write_text(p.read_text().replace("[[good.txt, bad.txt]]", "[[good.txt, nope]]"))
    with pytest.raises(UserError, match="compare.pairs: no system named 'nope'.*systems: bad.txt, good.txt"):
        run(load_config(p), progress=False)
    assert not (tmp_path / "results").exists()


def test_duplicate_pair_in_rows_is_an_error(tmp_path):
    rows = tmp_path / "rows.jsonl"
    row = json.dumps({"task": "d", "system": "A", "candidate": "x", "references": "x"})
    rows.write_text(row + "\n" + row + "\n")
    cfg = tmp_path / "run.yaml"
    cfg.write_text("inputs: {format: jsonl, path: rows.jsonl}\noutputs: {console: false}\n")
    with pytest.raises(UserError, match="task 'd' has system 'A' twice"):
        run(load_config(cfg), progress=False)
    assert not (tmp_path / "rouge2-results").exists()


def test_console_table(tmp_path, capsys):
    p = make_project(tmp_path)
    p.write_text(p.read_text().replace("console: false", "console: true"))
    run(load_config(p), progress=False)
    text = capsys.readouterr().out
    assert "system" in text and "good.txt" in text and "[95% bootstrap interval]" in text
    assert "paired significance tests" in text and "wrote " in text


# --------------------------------------------------------------------------- bundled configs, real scorer


def _redirect(path: Path, tmp_path: Path) -> Path:
    """A copy of a bundled config writing into tmp_path (inputs stay where they are)."""
    text = path.read_text()
    text = text.replace("../resources/", str(REPO / "resources") + "/")
    text = text.replace("phone-synonyms.txt", str(CONFIGS / "phone-synonyms.txt"))
    text = text.replace("dir: ../out/", f"dir: {tmp_path}/")
    copy = tmp_path / path.name
    copy.write_text(text)
    return copy


def test_paper_example_gives_table_1(tmp_path):
    run(load_config(_redirect(CONFIGS / "paper-example-1.1.yaml", tmp_path)), progress=False)
    lines = (tmp_path / "paper-example-1.1" / "results.csv").read_text().splitlines()
    assert lines[1] == "ROUGE-1+StopWordRemoval,TASK1,SYSSUM1.TXT,0.80000,0.66667,0.72727,1"
    assert lines[2] == "ROUGE-1+StopWordRemoval,TASK1,SYSSUM2.TXT,0.80000,0.17391,0.28571,1"


def test_quickstart_runs(tmp_path):
    run(load_config(_redirect(CONFIGS / "quickstart.yaml", tmp_path)), progress=False)
    lines = (tmp_path / "quickstart" / "results.csv").read_text().splitlines()
    # Table 1 of the paper, plain ROUGE-1
    assert "ROUGE-1,TASK1,SYSSUM1.TXT,0.46154,0.75000,0.57143,1" in lines
    assert "ROUGE-1,TASK1,SYSSUM2.TXT,0.69231,0.19565,0.30508,1" in lines


def test_news_and_rouge155_configs_run(tmp_path):
    for name in ("news-summeval.yaml", "rouge155-equivalent.yaml"):
        run(load_config(_redirect(CONFIGS / name, tmp_path)), progress=False)
    news = json.loads((tmp_path / "news-summeval" / "summary.json").read_text())
    assert news["counts"] == {"tasks": 5, "systems": 4, "summaries": 20}
    assert news["signature"]["settings"]["options"]["stem"] == "rouge155"
    assert news["signature"]["versions"]["stem"]["data"].startswith("sha256:")
    eq = list(csv.DictReader((tmp_path / "rouge155-equivalent" / "per_summary.csv").open()))
    # ROUGE-1.5.5 -a -n 2 -m -s -f A -p 0.5 -d prints "M0 ROUGE-1 Eval 0.M0 R:0.40000 P:0.26923 F:0.32184"
    row = next(r for r in eq if r["task"] == "0" and r["system"] == "M0" and r["measure"] == "rouge-1")
    assert "%.5f %.5f %.5f" % (float(row["recall"]), float(row["precision"]), float(row["fmeasure"])) \
        == "0.40000 0.26923 0.32184"


@pytest.mark.parametrize("name", ["opinion-topics.yaml", "domain-synonyms.yaml"])
def test_topic_and_synonym_configs_run(tmp_path, name):
    run(load_config(_redirect(CONFIGS / name, tmp_path)), progress=False)
    lines = (tmp_path / name[:-5] / "results.csv").read_text().splitlines()
    assert any(line.startswith("ROUGE-1-topic") for line in lines)
    if name == "domain-synonyms.yaml":
        # The domain file says screen ~ display: SysSum1 gets the paper's Table 2
        # row "ROUGE-1 + StopWordRemoval + Synonyms" (1.000 / 0.833 / 0.909).
        row = next(l for l in lines if l.startswith("ROUGE-1+StopWordRemoval+Synonyms,TASK1,SYSSUM1"))
        assert row.split(",")[3:6] == ["1.00000", "0.83333", "0.90909"]
