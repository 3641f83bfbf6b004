"""``rouge2 run`` through the batch path gives the outputs of the per-pair path.

The run scores each variant whose settings allow it through the batch path
(rouge2.scoring.batch) and the others pair by pair.  Here each config runs
with the batch path on and with it off (``batch.ENABLED``, what
``ROUGE2_NO_BATCH=1`` sets), in one process and in worker processes; every
output file must be byte-identical.  Under ``ROUGE2_PURE_PYTHON=1`` there is
no batch path and both runs take the per-pair path.
"""

from __future__ import annotations

import filecmp
import json
import shutil
from pathlib import Path

import pytest
from shared_data import DATA, missing

from rouge2 import kernels
from rouge2.cli import main
from rouge2.run import parallel
from rouge2.run.parallel import PairScorer
from rouge2.scoring import batch

REPO = Path(__file__).resolve().parents[1]
NEWS = REPO / "resources" / "samples" / "summeval-mini.jsonl"
PAPER = REPO / "resources" / "samples" / "paper-example"
SUMMEVAL = DATA / "data" / "summeval" / "summeval.jsonl"

OUTPUTS = ("csv: results.csv, per_summary_jsonl: per.jsonl, per_summary_csv: per.csv, "
           "summary_json: summary.json, systems_csv: systems.csv, console: false")


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def _run_both(tmp_path: Path, cfg: Path, monkeypatch, jobs=(1,), batched: bool = True) -> dict:
    """Run ``cfg`` (outputs to tmp_path/out) with the batch path off, then on
    at each of ``jobs``, then with ``--threads 3`` (small chunks); assert
    identical output folders, and that the runs in this process used the
    batch path when ``batched`` (and C is built)."""
    calls = []
    original = batch.BatchPlan.chunk

    def counted(self, *args, **kwargs):
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(batch.BatchPlan, "chunk", counted)
    folders = {}
    runs = [("off", False, 1, 1)] + [(f"on{j}", True, j, 1) for j in jobs] + [("threads", True, 1, 3)]
    for label, enabled, j, t in runs:
        monkeypatch.setattr(batch, "ENABLED", enabled)
        monkeypatch.setattr(batch, "CHUNK", 4 if t > 1 else batch.CHUNK)  # several chunks in flight
        monkeypatch.setattr(parallel, "CHUNK", 4 if t > 1 else parallel.CHUNK)
        assert main(["run", "-q", "--progress", "off", "--jobs", str(j), "--threads", str(t), str(cfg)]) == 0
        folders[label] = tmp_path / label
        shutil.move(tmp_path / "out", folders[label])
    names = _files(folders["off"])
    assert names
    for label, folder in folders.items():
        assert _files(folder) == names, label
        match, mismatch, errors = filecmp.cmpfiles(folders["off"], folder, names, shallow=False)
        assert (mismatch, errors) == ([], []), label
    assert bool(calls) == (batched and kernels.HAVE_C)
    return folders


@pytest.fixture
def two_cores(monkeypatch):
    """Worker processes really run, with small chunks."""
    monkeypatch.setattr(parallel, "usable_cores", lambda: 2)
    monkeypatch.setattr(parallel, "CHUNK_ITEMS", 3)
    monkeypatch.setattr(parallel, "CHUNK_MAX_ITEMS", 5)


def test_quickstart(tmp_path, monkeypatch, two_cores):
    cfg = tmp_path / "quick.yaml"
    cfg.write_text(f"inputs: {{format: java-project, path: {PAPER}}}\n"
                   "measures: [rouge-1, rouge-2, rouge-l, rouge-w-1.2, rouge-su4, 'rouge-s*', rouge-l-flat]\n"
                   f"outputs: {{dir: {tmp_path / 'out'}, {OUTPUTS}}}\n")
    _run_both(tmp_path, cfg, monkeypatch, jobs=(1, 2))


def test_shipped_quickstart_config(tmp_path, monkeypatch):
    text = (REPO / "configs" / "quickstart.yaml").read_text()
    text = text.replace("path: ../", f"path: {REPO}/").replace("dir: ../out/quickstart",
                                                               f"dir: {tmp_path / 'out'}")
    cfg = tmp_path / "quickstart.yaml"
    cfg.write_text(text)
    _run_both(tmp_path, cfg, monkeypatch)


@pytest.mark.parametrize("sentences", ["splitter", "lines", "none"])
def test_news_config(tmp_path, monkeypatch, two_cores, sentences):
    """The shipped news config (the sentence splitter) and the same settings
    with line / no sentences (stem and stopwords on): all on the batch path."""
    text = (REPO / "configs" / "news-summeval.yaml").read_text()
    text = text.replace("path: ../", f"path: {REPO}/").replace("dir: ../out/news-summeval",
                                                               f"dir: {tmp_path / 'out'}")
    text = text.replace("sentences: splitter", f"sentences: {sentences}")
    text = text.replace("resamples: 1000", "resamples: 100").replace("resamples: 2000", "resamples: 100")
    cfg = tmp_path / "news.yaml"
    cfg.write_text(text)
    _run_both(tmp_path, cfg, monkeypatch, jobs=(1, 2))


def _news_with_empties(tmp_path: Path) -> Path:
    """summeval-mini plus a system whose summaries are empty, all stopwords,
    or punctuation, and a task with an all-stopword reference."""
    rows = [json.loads(x) for x in NEWS.read_text().splitlines()]
    tasks = sorted({r["task"] for r in rows})
    refs = {r["task"]: r["references"] for r in rows}
    for i, t in enumerate(tasks):
        rows.append({"task": t, "system": "Mx", "candidate": ["", "the of and", ". , ;", "a b"][i % 4],
                     "references": refs[t]})
    rows.append({"task": "extra", "system": "M0", "candidate": "a cat sat on the mat",
                 "references": ["the of", "a cat sat", "the cat sat on the mat\nit was fun"]})
    path = tmp_path / "news.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.mark.parametrize("first", ["plain", "syn", "stop"])
def test_variants_batch_and_fallback(tmp_path, monkeypatch, two_cores, first):
    """Variants through the batch path (multi-reference modes, stemming,
    stopwords) next to a synonym variant (R-N and ROUGE-L on the batch path
    too, unless the run explains its synonyms), either first."""
    data = _news_with_empties(tmp_path)
    variants = {
        "plain": "{}",
        "syn": "{preprocess: {synonyms: true}}",
        "avg": "{multi_reference: average}",
        "best": "{multi_reference: best, preprocess: {stem: true}}",
        "stop": "{multi_reference: pooled, preprocess: {stem: true, stopwords: smart}}",
    }
    order = [first] + [v for v in variants if v != first]
    cfg = tmp_path / "variants.yaml"
    cfg.write_text(
        f"inputs: {{format: jsonl, path: {data}}}\n"
        "measures: [rouge-1, rouge-2, rouge-l, rouge-w-1.2, rouge-su4]\n"
        "multi_reference: pooled\n"
        "variants:\n" + "".join(f"  {v}: {variants[v]}\n" for v in order) +
        "compare_variants: [[syn, plain], [stop, avg]]\n"
        "bootstrap: {resamples: 50, seed: 3}\n"
        f"outputs: {{dir: {tmp_path / 'out'}, {OUTPUTS.replace('systems_csv: systems.csv', 'variants_csv: v.csv')}}}\n")
    folders = _run_both(tmp_path, cfg, monkeypatch, jobs=(1, 2))
    summary = json.loads((folders["on1"] / "summary.json").read_text())
    empty = summary["notes"]["empty_texts"]  # counted under the first variant's settings
    assert (empty["candidates"], empty["references"]) == ((5, 1) if first == "stop" else (3, 0))  # "a b": SMART stopwords


def test_summeval_slice_with_meta_evaluation(tmp_path, monkeypatch):
    """The shipped SummEval correlation config (a rouge155 variant and a
    WordNet one) on 12 documents."""
    if not SUMMEVAL.exists():
        missing(SUMMEVAL)
    data = tmp_path / "summeval.jsonl"
    data.write_text("".join(SUMMEVAL.read_text().splitlines(keepends=True)[:12]))
    text = (REPO / "configs" / "summeval-correlation.yaml").read_text()
    text = text.replace("path: summeval.jsonl", f"path: {data}")
    text = text.replace("judgments: summeval.jsonl", f"judgments: {data}")
    text = text.replace("dir: ../out/summeval-correlation", f"dir: {tmp_path / 'out'}")
    text = text.replace("resamples: 1000", "resamples: 60")
    cfg = tmp_path / "summeval.yaml"
    cfg.write_text(text)
    _run_both(tmp_path, cfg, monkeypatch)


def test_pair_scorer_plans(monkeypatch):
    """Which variants take the batch path: synonyms too (R-N and ROUGE-L,
    rouge2/kernels/synonyms.h), except while the run explains them (each
    matching's pairs are noted pair by pair); a topic measure too (its
    unigram counts over the topic tokens), except with idf weights."""
    from rouge2.scoring.options import Options

    monkeypatch.setattr(batch, "ENABLED", True)
    sets = (("plain", Options()), ("stem", Options(stem=True)), ("syn", Options(synonyms=("wordnet",))))
    ps = PairScorer(("rouge-1", "rouge-l"), sets, None)
    expected = kernels.HAVE_C
    assert {n: p is not None for n, p in ps.plans.items()} == {"plain": expected, "stem": expected,
                                                                "syn": expected}
    explaining = PairScorer(("rouge-1", "rouge-l"), sets, None, explain=True)
    assert {n: p is not None for n, p in explaining.plans.items()} == {"plain": expected, "stem": expected,
                                                                       "syn": False}
    ps = PairScorer(("rouge-1", "rouge-topic-nn"), sets[:1], None)
    if expected:
        plan = ps.plans["plain"]
        assert ps.batched and plan.batch_names == ["rouge-1", "rouge-topic-nn"]
        assert plan.kernel_names == ["rouge-1"] and plan.topic.names == ["rouge-topic-nn"]
        assert plan.rest_names == []
        idf = PairScorer(("rouge-1", "rouge-topic-nn"), (("idf", Options(topic_weights="idf")),), None)
        assert idf.plans["idf"].batch_names == ["rouge-1"] and idf.plans["idf"].rest_names == ["rouge-topic-nn"]
    else:
        assert ps.plans == {"plain": None} and not ps.batched
    monkeypatch.setattr(batch, "ENABLED", False)
    assert not PairScorer(("rouge-1",), sets[:1], None).batched


@pytest.mark.parametrize("value, enabled", [("1", False), ("0", True), ("", True)])
def test_no_batch_environment_variable(value, enabled):
    import os
    import subprocess
    import sys

    env = dict(os.environ, ROUGE2_NO_BATCH=value, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-c", "from rouge2.scoring import batch; print(batch.ENABLED)"],
                         env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == str(enabled)


ROUGE155_CASES = DATA / "fixtures" / "rouge155"


@pytest.mark.parametrize("case", ["basic", "best", "stem", "stem-stop-sstar", "token-avg", "see-opinosis",
                                  "limit-bytes", "limit-words"])
def test_rouge155_batch_and_per_pair_identical(case, monkeypatch):
    """``rouge2 rouge155``: the report and the warnings are the same with the
    batch path on and off (the fixture tests compare the report with the
    script's), -l / -b limits included."""
    import io

    from rouge2.cli.rouge155 import run as rouge155
    from rouge2.run import rouge155 as engine

    case_dir = ROUGE155_CASES / case
    if not case_dir.is_dir():
        missing(case_dir)
    flags = (case_dir / "flags.txt").read_text().split()
    calls = []
    original = engine.Engine.system_stats

    def counted(self, peer_id):
        got = original(self, peer_id)
        calls.append(got is not None)
        return got

    monkeypatch.setattr(engine.Engine, "system_stats", counted)
    monkeypatch.chdir(case_dir)
    got = {}
    for enabled in (False, True):
        monkeypatch.setattr(batch, "ENABLED", enabled)
        out, err = io.BytesIO(), io.StringIO()
        assert rouge155(flags + ["config.xml"], out, err) == 0, err.getvalue()
        got[enabled] = (out.getvalue(), err.getvalue())
    assert got[True] == got[False]
    assert got[True][0] == (case_dir / "expected.txt").read_bytes()
    assert any(calls) == kernels.HAVE_C


@pytest.mark.filterwarnings("ignore:a text has letters but no tokens")
def test_score_items_equals_one_item_at_a_time(monkeypatch):
    """PairScorer.score_items (the batch path) against PairScorer(item) (the
    per-pair path) on random texts: scores, per-reference statistics (with
    their int/float types) and empty-text counts, variant by variant."""
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from test_batch import options, references, text

    from rouge2.io.inputs import InputItem
    from rouge2.scoring.options import Options

    monkeypatch.setattr(batch, "ENABLED", True)

    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.tuples(text, references), min_size=1, max_size=6), options, options)
    def check(pairs, first, second):
        sets = (("a", Options.make(**first)), ("b", Options.make(**second)))
        ps = PairScorer(("rouge-1", "rouge-2", "rouge-l", "rouge-w-1.2", "rouge-su4"), sets, None)
        assert ps.batched == kernels.HAVE_C
        items = [InputItem("t%d" % i, "s", c, tuple(r), tuple("r%d" % j for j in range(len(r))))
                 for i, (c, r) in enumerate(pairs)]
        got = ps.score_items(items)
        want = [ps(item) for item in items]
        assert got == want
        for g, w in zip(got, want):
            for name in ("a", "b"):
                for m, per_ref in g[0][name][1].items():
                    assert [tuple(map(type, s)) for s in per_ref] == \
                        [tuple(map(type, s)) for s in w[0][name][1][m]]
            assert tuple(map(type, g[2])) == tuple(map(type, w[2]))

    check()


@pytest.mark.parametrize("measure, same_as", [("rouge-s99999999999999999999", "rouge-s*"),
                                               ("rouge-su99999999999999999999", "rouge-su*")])
def test_huge_skip_distances_take_the_per_pair_path(measure, same_as):
    """A skip distance too large for the kernels' C integers (``rouge155 -2
    1e300``) is scored pair by pair, not an OverflowError; it scores as an
    unlimited distance does (no text is that long)."""
    import rouge2
    from rouge2.scoring.scorer import Scorer

    assert batch.batch_plan(Scorer([measure])) is None
    assert batch.batch_plan(Scorer([same_as])) is not None or not kernels.HAVE_C
    pairs = [("a b c d e", ["a c b d", "d c e a"]), ("", "x"), ("x y", "y x")]
    got = rouge2.score_corpus(pairs, measures=[measure])
    want = rouge2.score_corpus(pairs, measures=[same_as])
    assert [list(p.values()) for p in got] == [list(p.values()) for p in want]


def test_batch_measures_beside_idf_weighted_ones(monkeypatch):
    """``topic_weights: idf`` weighs a measure over every reference of the
    call: with a batch measure in the same call (batch planning per
    measure), the weighted one is still fitted first, so the numbers are
    those of the per-pair path, in every entry point."""
    import rouge2

    lexicon = {"rooms": ["room", "rooms", "bed"], "service": ["staff", "service"], "food": ["breakfast", "food"]}
    pairs = [("The rooms were clean and the staff kind.", ["Rooms clean, staff friendly, food good.",
                                                        "Breakfast was fine."]),
             ("Room service.", ["Breakfast and room service were good."]),
             ("Nothing here.", "The bed was small.")]
    measures = ["rouge-1", "rouge-aspect", "rouge-l"]
    options = {"aspects": lexicon, "topic_weights": "idf"}

    def every_door():
        from rouge2.scoring.scorer import Scorer

        return (rouge2.score_corpus(pairs, measures=measures, **options),
                rouge2.score_corpus(iter(pairs), measures=measures, **options),
                rouge2.corpus_stats(pairs, measures, **options),
                [(c.start, list(c.stats), list(c.ref_starts))
                 for c in rouge2.iter_corpus_stats(iter(pairs), measures, **options)],
                batch.batch_plan(Scorer(measures, **options)) is not None)

    monkeypatch.setattr(batch, "ENABLED", True)
    *on, planned = every_door()
    monkeypatch.setattr(batch, "ENABLED", False)
    *off, _ = every_door()
    assert planned or not kernels.HAVE_C
    assert repr(on) == repr(off)
    assert on[0][0]["rouge-aspect"] != rouge2.score_corpus(pairs[:1], measures=measures, **options)[0]["rouge-aspect"]
