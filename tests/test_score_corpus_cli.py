"""``rouge2 score`` corpus mode and ``rouge2.evaluate``: the same means as the per-pair scores averaged."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import rouge2
from rouge2.cli import main as cli_main

REPO = Path(__file__).resolve().parents[1]
ROWS = [json.loads(line) for line in (REPO / "resources" / "samples" / "summeval-mini.jsonl")
        .read_text().splitlines()]


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line.replace("\n", " ") + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture
def corpus(tmp_path):
    preds = [r["candidate"] for r in ROWS]
    refs1 = [r["references"][0] for r in ROWS]
    refs2 = [r["references"][1] for r in ROWS]
    return (preds, refs1, refs2, write_lines(tmp_path / "preds.txt", preds),
            write_lines(tmp_path / "refs1.txt", refs1), write_lines(tmp_path / "refs2.txt", refs2))


def run_cli(argv, capsys, stdin=None, monkeypatch=None) -> tuple[int, str, str]:
    rc = cli_main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_cli_json_and_evaluate_give_the_means_of_the_per_pair_scores(corpus, capsys):
    preds, refs1, refs2, p, r1, r2 = corpus
    measures = ["rouge-1", "rouge-2", "rouge-l"]
    rc, out, err = run_cli(["score", "-r", str(r1), str(r2), "-i", str(p), "--json", "--stem"], capsys)
    assert rc == 0, err
    doc = json.loads(out)
    (system,) = doc["systems"]
    got = system["scores"]
    per_pair = rouge2.score_corpus(list(zip(preds, zip(refs1, refs2))), measures=measures, stem=True)
    api = rouge2.evaluate(preds, [[a, b] for a, b in zip(refs1, refs2)], measures, stem=True)
    for m in measures:
        for stat in ("precision", "recall", "fmeasure"):
            mean = sum(getattr(s[m], stat) for s in per_pair) / len(per_pair)
            assert got[m][stat]["mean"] == api[m][stat]["mean"] == mean
            lo, hi = got[m][stat]["ci"]
            assert lo <= mean <= hi and list(api[m][stat]["ci"]) == [lo, hi]
    assert system["n"] == len(preds) == len(api)
    assert doc["signature"] == api.signature and "stem:rouge155" in doc["signature"]
    assert "nrefs:2" in doc["signature"]


def test_table_output_and_signature(corpus, capsys):
    *_, p, r1, _ = corpus
    rc, out, _ = run_cli(["score", "-r", str(r1), "-i", str(p), "-m", "rouge1", "rougeL"], capsys)
    assert rc == 0
    lines = out.splitlines()
    assert lines[0] == f"{len(ROWS)} summaries" and "95% CI of F" in lines[1]
    assert any(line.startswith("rouge-1 ") for line in lines)
    assert any(line.startswith("rouge-l-flat ") for line in lines)
    assert lines[-1].startswith("rouge2:") and "mref:pooled" in lines[-1]


def test_stdin(corpus, tmp_path):
    *_, p, r1, _ = corpus
    proc = subprocess.run([sys.executable, "-m", "rouge2", "score", "-r", str(r1), "--json", "--resamples", "0"],
                          input=p.read_bytes(), capture_output=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    via_file = subprocess.run([sys.executable, "-m", "rouge2", "score", "-r", str(r1), "-i", str(p), "--json",
                               "--resamples", "0"], capture_output=True, cwd=tmp_path)
    assert json.loads(proc.stdout)["systems"][0]["scores"] == json.loads(via_file.stdout)["systems"][0]["scores"]


def test_jsonl_input(corpus, tmp_path, capsys):
    preds, refs1, refs2, *_ = corpus
    rows = tmp_path / "rows.jsonl"
    rows.write_text("".join(json.dumps({"prediction": a, "references": [b, c]}) + "\n"
                            for a, b, c in zip(preds, refs1, refs2)))
    rc, out, _ = run_cli(["score", "-i", str(rows), "--json", "--resamples", "0"], capsys)
    assert rc == 0
    api = rouge2.evaluate(preds, [[b, c] for b, c in zip(refs1, refs2)], resamples=0)
    assert json.loads(out)["systems"][0]["scores"]["rouge-2"]["fmeasure"]["mean"] == api["rouge-2"]["fmeasure"]["mean"]


def test_line_count_mismatch_names_both_files(corpus, tmp_path, capsys):
    *_, p, r1, _ = corpus
    short = write_lines(tmp_path / "short.txt", ["one line"])
    rc, _, err = run_cli(["score", "-r", str(r1), "-i", str(short)], capsys)
    assert rc == 2
    assert err.count("\n") == 1
    assert f"{short} has 1 lines but {r1} has {len(ROWS)}" in err


def test_several_systems_ranked_with_paired_tests(corpus, tmp_path, capsys):
    preds, refs1, _, p, r1, _ = corpus
    worse = write_lines(tmp_path / "worse.txt", [" ".join(x.split()[:5]) for x in preds])
    rc, out, _ = run_cli(["score", "-r", str(r1), "-i", str(p), str(worse), "--json",
                          "--test-resamples", "200"], capsys)
    assert rc == 0
    got = json.loads(out)
    assert [s["name"] for s in got["systems"]] == [str(p), str(worse)]
    (c,) = [c for c in got["comparisons"] if c["measure"] == "rouge-1"]
    assert c["system"] == str(worse) and c["baseline"] == str(p)
    assert c["difference"] == c["mean_a"] - c["mean_b"] < 0 and 0 < c["p_value"] <= 1


def test_per_summary_file(corpus, tmp_path, capsys):
    preds, refs1, _, p, r1, _ = corpus
    out_file = tmp_path / "per.jsonl"
    rc, _, _ = run_cli(["score", "-r", str(r1), "-i", str(p), "--per-summary", str(out_file),
                        "--resamples", "0"], capsys)
    assert rc == 0
    rows = [json.loads(x) for x in out_file.read_text().splitlines()]
    assert [r["line"] for r in rows] == list(range(1, len(preds) + 1))
    direct = rouge2.score(preds[0], refs1[0])
    assert rows[0]["scores"]["rouge-1"]["fmeasure"] == direct["rouge-1"].fmeasure
    hit, ref_total, cand_total = rows[0]["stats"]["rouge-1"][0]
    assert direct["rouge-1"].recall == hit / ref_total


def test_sentence_splitting_changes_summary_level_rouge_l():
    pred = "The cat sat on the mat. It was happy."
    ref = "It was happy. The cat sat on the mat."
    whole = rouge2.score(pred, ref, ["rouge-l"])["rouge-l"]
    split = rouge2.score(pred, ref, ["rouge-l"], sentences="splitter")["rouge-l"]
    assert whole.recall == 6 / 9  # one sentence each of 9 words: the LCS "the cat sat on the mat"
    assert split.recall == 1.0     # each reference sentence is found in some candidate sentence


def test_evaluate_misuse_messages():
    with pytest.raises(ValueError, match="2 predictions but 1 references"):
        rouge2.evaluate(["a", "b"], ["a"])
    with pytest.raises(ValueError, match="look swapped"):
        rouge2.evaluate([["ref one", "ref two"], ["x"]], ["pred"])
    with pytest.raises(TypeError, match="predictions must be a list of texts"):
        rouge2.evaluate("a text", ["a"])
    with pytest.raises(TypeError, match=r"predictions\[1\] is None"):
        rouge2.evaluate(["a", None], ["a", "b"])
    with pytest.raises(TypeError, match=r"bytes"):
        rouge2.evaluate([b"a"], ["a"])
    with pytest.raises(ValueError, match="predictions is empty"):
        rouge2.evaluate([], [])


def test_evaluate_to_dataframe_when_pandas_is_there():
    pd = pytest.importorskip("pandas")
    result = rouge2.evaluate(["a b c", "a"], ["a b", "a b"], ["rouge-1"], resamples=0)
    frame = result.to_dataframe()
    assert isinstance(frame, pd.DataFrame) and list(frame.columns)[:3] == [
        "rouge-1/recall", "rouge-1/precision", "rouge-1/fmeasure"]
    assert frame["rouge-1/recall"].tolist() == [1.0, 0.5]


def test_non_ascii_under_rouge155_warns_once(capsys, recwarn):
    import rouge2.analysis.analyzer as analyzer

    analyzer._warned_foreign = False
    assert rouge2.score("Кошка сидит", "Кошка сидела", ["rouge-1"])["rouge-1"].fmeasure == 0.0
    rouge2.score("猫が座った", "猫", ["rouge-1"])
    warned = [w for w in recwarn if "tokenizer=\"unicode\"" in str(w.message)]
    assert len(warned) == 1
    assert rouge2.score("Кошка сидит", "Кошка сидела", ["rouge-1"], tokenizer="unicode")["rouge-1"].recall == 0.5
    rouge2.score("...", "!!!", ["rouge-1"])  # punctuation only: nothing to warn about
    assert len([w for w in recwarn if "tokenizer" in str(w.message)]) == 1
