"""The same data through every door gives the same numbers.

* Each ROUGE-1.5.5 fixture settings file, scored by ``rouge2 rouge155`` (its
  per-evaluation lines) and by ``rouge2 run`` on a YAML config stating the
  same options (``rounding: rouge155``, as the script rounds): identical
  per-pair R, P and F.
* An 11-reference JSONL file (SummEval), scored by the Python API and by
  ``rouge2 run`` with default options: identical per-pair numbers and means.

The YAML configs are written here from the flags by hand (not by the code
under test), so a door that drifts from the others fails.
"""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import pytest
from shared_data import DATA

import rouge2
from rouge2.cli.rouge155 import run as rouge155_run
from rouge2.config.yaml_config import load_config
from rouge2.run.runner import run

REPO = Path(__file__).resolve().parents[1]
CASES_DIR = DATA / "fixtures" / "rouge155"
CASES = sorted(p.name for p in CASES_DIR.iterdir() if (p / "expected.txt").exists()) if CASES_DIR.is_dir() else []
EVAL = re.compile(r"^(\S+) (ROUGE-\S+) Eval (\S+) R:(\S+) P:(\S+) F:(\S+)$")


def yaml_for_flags(flags: list[str], settings: Path, out: Path) -> str:
    """A YAML config stating what the 1.5.5 flags say (written independently of the code)."""
    f: dict[str, str | bool] = {}
    i = 0
    while i < len(flags):
        flag = flags[i]
        if flag in ("-n", "-w", "-2", "-l", "-b", "-f", "-p", "-c", "-r", "-t"):
            f[flag] = flags[i + 1]
            i += 2
        else:
            f[flag] = True
            i += 1
    measures = [f"rouge-{n}" for n in range(1, int(f.get("-n", 0)) + 1)]
    if "-x" not in f:
        measures.append("rouge-l")
    if "-w" in f:
        measures.append(f"rouge-w-{f['-w']}")
    if "-2" in f:
        k = "*" if int(f["-2"]) < 0 else f["-2"]
        if "-U" in f:
            measures += [f"rouge-s{k}", f"rouge-su{k}"]
        elif "-u" in f:
            measures.append(f"rouge-su{k}")
        else:
            measures.append(f"rouge-s{k}")
    pre = {"stem": "-m" in f, "stopwords": "-s" in f}
    if "-l" in f:
        pre["word_limit"] = int(f["-l"])
    if "-b" in f:
        pre["byte_limit"] = int(f["-b"])
    cfg = {
        "inputs": {"format": "rouge155-xml", "path": str(settings), "encoding": "latin-1"},
        "preprocess": pre,
        "measures": measures,
        "multi_reference": "best" if f.get("-f") == "B" else "pooled",
        "alpha": float(f.get("-p", 0.5)),
        "rounding": "rouge155",
        "outputs": {"dir": str(out), "console": False, "csv": False, "per_summary_csv": False,
                    "summary_json": False},
    }
    return json.dumps(cfg)  # JSON is YAML


def eval_lines(report: bytes) -> dict[tuple[str, str, str], tuple[str, str, str]]:
    out = {}
    for line in report.decode("latin-1").splitlines():
        m = EVAL.match(line)
        if m:
            peer, tag, test_id, r, p, f = m.groups()
            out[(test_id[: -len(peer) - 1], peer, tag)] = (r, p, f)
    return out


@pytest.mark.skipif(not CASES, reason=f"no fixtures under {CASES_DIR}")
@pytest.mark.parametrize("case", CASES)
def test_fixture_settings_through_rouge155_and_run(case, tmp_path):
    case_dir = CASES_DIR / case
    flags = (case_dir / "flags.txt").read_text().split()
    if "-t" in flags and flags[flags.index("-t") + 1] != "0":
        flags = flags[: flags.index("-t")] + flags[flags.index("-t") + 2:]  # per-evaluation lines need -t 0
    out, err = io.BytesIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(case_dir)
    try:
        assert rouge155_run([*flags, "config.xml"], out, err) == 0, err.getvalue()
    finally:
        os.chdir(old)
    expected = eval_lines(out.getvalue())
    assert expected

    config = tmp_path / "run.yaml"
    config.write_text(yaml_for_flags(flags, case_dir / "config.xml", tmp_path / "out"))
    os.chdir(case_dir)  # the script resolves peer and model roots from the current folder
    try:
        run(load_config(config), progress=False)
    finally:
        os.chdir(old)
    got = {}
    for line in (tmp_path / "out" / "per_summary.jsonl").read_text().splitlines():
        row = json.loads(line)
        for measure, s in row["scores"].items():
            got[(row["task"], row["system"], measure.upper())] = (
                "%7.5f" % s["recall"], "%7.5f" % s["precision"], "%7.5f" % s["fmeasure"])
    assert got == expected


def test_eleven_references_through_the_api_and_run(tmp_path):
    rows = [json.loads(line) for line in (REPO / "resources" / "samples" / "summeval-mini.jsonl")
            .read_text().splitlines()]
    assert len(rows[0]["references"]) == 11
    measures = ["rouge-1", "rouge-2", "rouge-l", "rouge-su4"]
    api = rouge2.score_corpus([(r["candidate"], r["references"]) for r in rows], measures=measures)
    config = tmp_path / "run.yaml"
    config.write_text(json.dumps({
        "inputs": {"format": "jsonl", "path": str(REPO / "resources" / "samples" / "summeval-mini.jsonl")},
        "measures": measures, "outputs": {"dir": str(tmp_path / "out"), "console": False}}))
    result = run(load_config(config), progress=False)
    for row, scores in zip(rows, api):
        assert result.pairs[(row["task"], row["system"])] == scores  # identical floats
    for system, per in result.systems.items():
        mine = [s for r, s in sorted(zip(rows, api), key=lambda x: x[0]["task"]) if r["system"] == system]
        for m in measures:
            assert per[m]["fmeasure"] == sum(s[m].fmeasure for s in mine) / len(mine)
