"""Streamed corpus scoring (issue 22, target 6): ``evaluate`` and ``rouge2 score``
keep per-pair scores and statistics in flat arrays and read iterators a chunk
at a time, with the numbers of the object path.

The expected numbers come from independent doors: ``score_corpus`` (one
``Score`` per pair), ``corpus_stats`` and :func:`rouge2.stats.aggregate.summarize`
over ``Score`` objects, as every caller used them before.  No timings here
(benchmarks/bench_stream.py measures CPU and memory)."""

from __future__ import annotations

import json
import random
from array import array

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rouge2
from rouge2.cli import main
from rouge2.scoring import stream
from rouge2.scoring.stream import PairColumns
from rouge2.stats.aggregate import summarize

WORDS = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "far", "away", "quick", "brown", "fox", "jumps", "over", "lazy"]


def corpus(n: int, seed: int = 7, refs: int = 1):
    rng = random.Random(seed)

    def text():
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 12)))

    preds = [text() for _ in range(n)]
    references = [text() if refs == 1 else [text() for _ in range(rng.randint(1, refs))] for _ in range(n)]
    return preds, references


MEASURES = ["rouge-1", "rouge-2", "rouge-l", "rouge-w-1.2", "rouge-su4"]


@pytest.mark.parametrize("refs", [1, 3])
@pytest.mark.parametrize("resamples", [0, 30])
def test_evaluate_equals_the_object_path(refs, resamples):
    preds, references = corpus(300, refs=refs)
    kw = {"multi_reference": "best"} if refs > 1 else {}
    got = rouge2.evaluate(preds, references, MEASURES, resamples=resamples, seed=3, **kw)
    assert "_per_summary" not in got.__dict__ and "_stats" not in got.__dict__  # no per-pair objects yet
    per_pair = rouge2.score_corpus(preds, references, measures=MEASURES, **kw)
    assert got.per_summary == per_pair
    pairs = list(zip(preds, [[r] if isinstance(r, str) else r for r in references]))
    assert got.stats == rouge2.corpus_stats(pairs, MEASURES, **kw)
    wants = summarize({m: [s[m] for s in per_pair] for m in got.measures}, resamples=resamples or None,
                      confidence=0.95, seed=3)
    for m in got.measures:
        want = wants[m]
        for stat in ("recall", "precision", "fmeasure"):
            assert got.scores[m][stat]["mean"] == want[stat]
            assert got.scores[m][stat]["ci"] == (tuple(want["ci"][stat]) if resamples else None)


def test_iterators_give_the_numbers_of_lists():
    preds, references = corpus(250)
    whole = rouge2.evaluate(preds, references, resamples=20)
    streamed = rouge2.evaluate(iter(preds), (r for r in references), resamples=20)
    assert streamed.scores == whole.scores and streamed.signature == whole.signature
    assert streamed.columns == whole.columns and streamed.per_summary == whole.per_summary


def test_columns_are_flat_arrays():
    preds, references = corpus(50)
    cols = rouge2.evaluate(preds, references, ["rouge-1", "rouge-w-1.2"], resamples=0).columns
    assert isinstance(cols, PairColumns) and len(cols) == 50
    for m in cols.names:
        assert all(isinstance(c[m], array) and c[m].typecode == "d" and len(c[m]) == 50
                   for c in (cols.recall, cols.precision, cols.fmeasure))
    # counts stay integers, ROUGE-W's weighted values floats
    assert all(type(x) is int for s in cols.stats(0)["rouge-1"] for x in s)
    assert all(type(x) is float for s in cols.stats(0)["rouge-w-1.2"] for x in s[:2])


def test_count_errors_of_iterators():
    with pytest.raises(ValueError, match="3 predictions but 2 references"):
        rouge2.evaluate(iter(["a", "b", "c"]), iter(["a", "b"]))
    with pytest.raises(ValueError, match="2 predictions but 4 references"):
        rouge2.evaluate(iter(["a", "b"]), iter(["a", "b", "c", "d"]))
    with pytest.raises(ValueError, match="predictions is empty"):
        rouge2.evaluate(iter([]), iter([]))
    with pytest.raises(TypeError, match=r"predictions\[1\]"):
        rouge2.evaluate(iter(["a", None]), iter(["a", "b"]))


def test_an_iterator_is_read_a_chunk_at_a_time(monkeypatch):
    """evaluate never draws more than one chunk of pairs ahead of what it has scored."""
    monkeypatch.setattr(stream, "CHUNK", 64)
    preds, references = corpus(1000, seed=11)
    drawn = 0
    ahead = []
    append = stream.CorpusStream._append  # where each counted chunk joins the columns

    def counted(items):
        nonlocal drawn
        for t in items:
            drawn += 1
            yield t

    def watched(self, pairs, res):
        ahead.append(drawn - len(self.columns))
        append(self, pairs, res)

    monkeypatch.setattr(stream.CorpusStream, "_append", watched)
    got = rouge2.evaluate(counted(preds), iter(references), resamples=0)
    assert len(got) == 1000 and len(ahead) == 16
    assert max(ahead) <= 64


def test_cli_streams_the_numbers_of_evaluate(tmp_path, capsys):
    preds, references = corpus(200, seed=5)
    (tmp_path / "p.txt").write_text("\n".join(preds) + "\n")
    (tmp_path / "r.txt").write_text("\n".join(references) + "\n")
    out = tmp_path / "per.jsonl"
    assert main(["score", "-r", str(tmp_path / "r.txt"), "-i", str(tmp_path / "p.txt"), "--json",
                 "--resamples", "25", "--seed", "4", "--per-summary", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)
    want = rouge2.evaluate(preds, references, resamples=25, seed=4)
    got = doc["systems"][0]["scores"]
    for m, per in want.scores.items():
        for stat, v in per.items():
            assert got[m][stat]["mean"] == v["mean"] and tuple(got[m][stat]["ci"]) == v["ci"]
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    per_pair = rouge2.score_corpus(preds, references)
    stats = rouge2.corpus_stats(list(zip(preds, references)))
    assert [r["line"] for r in rows] == list(range(1, 201))
    for row, scores, got_stats in zip(rows, per_pair, stats):
        assert row["scores"] == {m: s._asdict() for m, s in scores.items()}
        assert row["stats"] == {m: [list(x) for x in v] for m, v in got_stats.items()}


def test_cli_per_summary_keeps_systems_in_order(tmp_path, capsys):
    preds, references = corpus(30, seed=9)
    other, _ = corpus(30, seed=10)
    for name, lines in (("a.txt", preds), ("b.txt", other), ("r.txt", references)):
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    out = tmp_path / "per.jsonl"
    assert main(["score", "-r", str(tmp_path / "r.txt"), "-i", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"),
                 "--resamples", "0", "--test-resamples", "10", "--per-summary", str(out)]) == 0
    capsys.readouterr()
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["system"] for r in rows] == [str(tmp_path / "a.txt")] * 30 + [str(tmp_path / "b.txt")] * 30
    assert [r["line"] for r in rows] == list(range(1, 31)) * 2


def test_columns_widen_for_large_counts_and_weighted_values():
    cols = PairColumns(["m"])
    cols.add_flat([1.0, 2.0, 3.0, 2.0, 2.0 ** 40, 5.0, 6.0, 5.0], [0, 1, 2], [True])
    assert cols.stats(0)["m"] == [(1, 2, 3)] and cols.stats(1)["m"] == [(2 ** 40, 5, 6)]
    assert type(cols.stats(1)["m"][0].hit) is int
    cols.add_flat([0.5, 2.0, 3.0, 2.0], [0, 1], [False])
    assert cols.stats(2)["m"] == [(0.5, 2.0, 3.0)] and cols.stats(1)["m"] == [(2 ** 40, 5, 6)]


def test_keep_stats_false_keeps_scores_only():
    preds, references = corpus(80, seed=2)
    full = rouge2.evaluate(preds, references, resamples=10)
    lean = rouge2.evaluate(preds, references, resamples=10, keep_stats=False)
    assert lean.scores == full.scores and lean.per_summary == full.per_summary
    with pytest.raises(rouge2.UserError, match="keep_stats=False"):
        lean.stats  # noqa: B018


def test_threads_give_the_numbers_of_one_thread_on_a_stream(monkeypatch):
    # chunks counted in two threads are appended in input order: every pair's
    # scores and statistics are those of one thread
    monkeypatch.setattr(stream, "CHUNK", 50)
    preds, references = corpus(600, seed=5)
    one = rouge2.evaluate(iter(preds), iter(references), resamples=0)
    two = rouge2.evaluate(iter(preds), iter(references), resamples=0, threads=2)
    assert two.columns == one.columns
    assert two.per_summary == one.per_summary and two.stats == one.stats


# -- chunk-wise checks and flat columns (issue 22 target 6: evaluate without per-pair work) ------

def _first_error(preds, references):
    """The error of checking pair after pair, as evaluate documents it: pair
    n's references, then its prediction, then (at the end of the shorter
    side) the count mismatch."""
    for n in range(min(len(preds), len(references))):
        r, p = references[n], preds[n]
        if isinstance(r, list):
            for j, x in enumerate(r):
                if not isinstance(x, str):
                    return f"references[{n}][{j}]"
        elif not isinstance(r, str):
            return f"references[{n}]"
        if not isinstance(p, str):
            return f"predictions[{n}]"
    if len(preds) != len(references):
        return f"{len(preds)} predictions but {len(references)} references"
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(1, 40), st.integers(-3, 3), st.lists(st.tuples(st.sampled_from(["p", "r", "rl"]),
                                                                   st.integers(0, 45)), max_size=2))
def test_iterators_are_checked_a_chunk_at_a_time_with_the_pair_by_pair_errors(monkeypatch, n, extra, bad):
    """Whatever the chunk boundaries, evaluate on iterators raises the error of
    the first bad pair in order (or the count mismatch), as a pair-by-pair
    check would; good input scores as lists do."""
    monkeypatch.setattr(stream, "CHUNK", 7)
    preds, references = corpus(n, seed=n)
    references = (references + corpus(max(extra, 0), seed=99)[1])[:max(n + extra, 1)]
    for where, k in bad:
        if where == "p" and k < len(preds):
            preds[k] = None
        elif where == "r" and k < len(references):
            references[k] = 3
        elif where == "rl" and k < len(references):
            references[k] = ["fine", None]
    expected = _first_error(preds, references)
    if expected is None:
        got = rouge2.evaluate(iter(preds), iter(references), ["rouge-1"], resamples=0)
        assert got.columns == rouge2.evaluate(preds, references, ["rouge-1"], resamples=0).columns
        return
    with pytest.raises((TypeError, ValueError)) as err:
        rouge2.evaluate(iter(preds), iter(references), ["rouge-1"], resamples=0)
    assert expected in str(err.value)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.one_of(st.integers(-2 ** 31 - 2, 2 ** 31 + 1).map(float),
                          st.floats(allow_nan=True, allow_infinity=True)), max_size=30),
       st.integers(0, 32), st.integers(1, 5))
def test_int_column_is_the_whole_numbers_or_none_in_c_and_python(values, start, step):
    """kernels.int_column (C when built) equals its pure-Python definition, and
    that is the int32 column of values[start::step] when every one is whole and fits."""
    from rouge2 import kernels
    from rouge2.kernels import python as py_kernels

    buf = array("d", values)
    part = values[start::step]
    fits = all(x == x and abs(x) != float("inf") and x == int(x) and -2 ** 31 <= x < 2 ** 31 for x in part)
    want = array("i", [int(x) for x in part]).tobytes() if fits else None
    assert py_kernels.int_column(buf, start, step) == want
    assert kernels.int_column(buf, start, step) == want


def test_columns_keep_a_fractional_count_as_a_float():
    """A measure counted "in integers" whose statistic is not whole keeps it as
    it is (the column becomes 'd'), not cut to an int."""
    cols = PairColumns(["m"])
    cols.add_flat(array("d", [1.0, 2.0, 3.0, 2.0, 2.5, 5.0, 6.0, 5.0]), [0, 1, 2], [True])
    assert cols.stats(1)["m"] == [(2.5, 5.0, 6.0)]
    assert cols.stats(0)["m"] == [(1, 2, 3)]
