"""A run with empty and punctuation-only texts finishes, scores them 0 and says so."""

import json

from rouge2.cli.run import run_main


def test_empty_and_punctuation_only_texts_are_reported(tmp_path, capsys):
    rows = [
        {"task": "t1", "system": "A", "candidate": "the cat sat", "references": ["the cat sat down"]},
        {"task": "t2", "system": "A", "candidate": "?!  ...", "references": ["a dog barked"]},
        {"task": "t3", "system": "A", "candidate": "a dog", "references": ["", "a dog"]},
    ]
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    cfg = tmp_path / "run.yaml"
    cfg.write_text(
        "version: 1\n"
        "inputs:\n  format: jsonl\n  path: rows.jsonl\n"
        "measures: [rouge-1, rouge-l, rouge-w-1.2, rouge-su4]\n"
        "multi_reference: pooled\n"
        "outputs:\n  dir: out\n  summary_json: summary.json\n  per_summary_jsonl: pairs.jsonl\n",
        encoding="utf-8",
    )
    assert run_main([str(cfg)]) == 0
    console = capsys.readouterr().out
    assert "note: 1 candidate and 1 reference have no words after preprocessing" in console
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["notes"]["empty_texts"]["candidates"] == 1
    pairs = [json.loads(l) for l in (tmp_path / "out" / "pairs.jsonl").read_text().splitlines()]
    t2 = next(p for p in pairs if p["task"] == "t2")
    assert all(v == 0 for m in t2["scores"].values() for v in m.values())
