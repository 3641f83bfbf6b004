"""``rouge2 run`` at dataset scale: the wide console table, the systems CSV,
``--check`` on system names, and the progress phases.

The runs score systems whose numbers are known by construction: the
reference has 20 distinct words and system ``k`` says its first n(k) words,
so its ROUGE-1 recall is n/20, its precision 1 and its F 2n / (20 + n).
"""

import csv
import json
import math
import re
from pathlib import Path

import pytest

from rouge2.cli import main
from rouge2.config.yaml_config import load_config
from rouge2.errors import UserError
from rouge2.io import writers as out
from rouge2.run import runner
from rouge2.run.progress import Phase, Progress
from rouge2.run.runner import run

REFERENCE = ("the committee approved new budget for public schools after long debate over "
             "teacher salaries and building repairs in rural districts")
WORDS = REFERENCE.split()
assert len(WORDS) == len(set(WORDS)) == 20
SYSTEMS = [f"system{k}" for k in range(1, 17)]


def n_words(system: str) -> int:
    k = int(system[len("system"):])
    return 2 if k == 10 else k  # system10 ties with system2


def f1(n: int) -> float:
    return 2 * n / (20 + n)


#: best first by ROUGE-1 F; system2 and system10 tie (natural order: system2 first)
EXPECTED_ORDER = [f"system{k}" for k in (16, 15, 14, 13, 12, 11, 9, 8, 7, 6, 5, 4, 3, 2, 10, 1)]
EXPECTED_RANKS = list(range(1, 14)) + [14, 14, 16]


def make_run(tmp_path: Path, extra: str = "", tasks: int = 3, measures: str = "[rouge-1, rouge-2, rouge-l]",
             bootstrap: str = "{resamples: 50, seed: 1}") -> Path:
    rows = tmp_path / "rows.jsonl"
    with rows.open("w") as f:
        for t in range(1, tasks + 1):
            for system in sorted(SYSTEMS):  # lexical input order: system1, system10, system11, ...
                cand = " ".join(WORDS[:n_words(system)])
                f.write(json.dumps({"task": f"doc{t}", "system": system, "candidate": cand,
                                    "references": [REFERENCE]}) + "\n")
            f.write("\n")  # blank lines are skipped (and not counted)
    cfg = tmp_path / "run.yaml"
    cfg.write_text("name: sixteen\n"
                   "inputs: {format: jsonl, path: rows.jsonl}\n"
                   f"measures: {measures}\n"
                   f"bootstrap: {bootstrap}\n"
                   "outputs:\n"
                   "  dir: out\n"
                   + extra)
    return cfg


def table_rows(console: str) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the first block of the system table."""
    lines = console.splitlines()
    h = next(i for i, line in enumerate(lines) if line.startswith("rank"))
    assert set(lines[h + 1].replace(" ", "")) == {"-"}
    rows = []
    for line in lines[h + 2:]:
        if not line.strip():
            break
        rows.append(line)
    assert all(re.match(r" *\d+  ", row) for row in rows)
    return lines[h].split(), rows


# --------------------------------------------------------------------------- the console table


def test_console_ranks_sixteen_systems_in_natural_order(tmp_path, capsys):
    cfg = load_config(make_run(tmp_path, measures='[rouge-1, rouge-2, rouge-l, "rouge-topic-nn|vb"]'))
    result = run(cfg, progress=False)
    console = capsys.readouterr().out
    assert console.startswith("rouge2 run: sixteen - 16 systems, 3 tasks, 48 summaries;")
    assert result.console in console
    assert ("cells: mean F over 3 tasks per system, or the score after the measure's name (R recall, "
            "P precision) [95% bootstrap interval]; ranked by rouge-1 F") in console
    header, rows = table_rows(console)
    # the topic measure's tags are in its column header (the canonical measure name), and the
    # score it shows, its default: recall (no silent F, issue 19)
    assert header == ["rank", "system", "rouge-1", "rouge-2", "rouge-l", "rouge-topic-nn|vb", "R"]
    assert len(rows) == 16
    assert [r.split()[1] for r in rows] == EXPECTED_ORDER
    assert [int(r.split()[0]) for r in rows] == EXPECTED_RANKS
    # every task gives the same score, so the interval is the mean itself
    cells = {r.split()[1]: r.split()[2:4] for r in rows}
    assert cells["system16"] == ["%.5f" % f1(16), "[.88889,.88889]"]  # F = 32/36
    assert cells["system1"] == ["%.5f" % f1(1), "[.09524,.09524]"]    # F = 2/21
    table = console.split("\n\n")[1]  # the header, the rule and the 16 rows
    assert table.count("\n") == 17 and all(len(line) <= 120 for line in table.splitlines())
    assert console.count("\nrank ") == 1  # 16 systems x 4 measures fit in one block


def test_console_ranks_by_another_measure_and_score(tmp_path, capsys):
    # every system's ROUGE-1 precision is 1: one tie, in natural order of names
    cfg = load_config(make_run(tmp_path, extra="  rank_by: ROUGE-1\n  rank_by_score: precision\n"
                                              "  console: true\n", bootstrap="false"))
    run(cfg, progress=False)
    console = capsys.readouterr().out
    assert "cells: mean F over 3 tasks per system; ranked by rouge-1 precision, best first" in console
    header, rows = table_rows(console)
    assert header[:4] == ["rank", "system", "rouge-1", "precision"]  # the ranking column
    assert [r.split()[1] for r in rows] == SYSTEMS  # system2 before system10
    assert {r.split()[0] for r in rows} == {"1"}
    assert {r.split()[2] for r in rows} == {"1.00000"}
    # ranking by ROUGE-2 recall: (n - 1) / 19, the same order as ROUGE-1 F
    cfg = load_config(make_run(tmp_path, extra="  rank_by: rouge2\n  rank_by_score: recall\n",
                               bootstrap="false"))
    run(cfg, progress=False)
    _, rows = table_rows(capsys.readouterr().out)
    assert [r.split()[1] for r in rows] == EXPECTED_ORDER
    assert rows[0].split()[2] == "%.5f" % (15 / 19)


def test_quiet_prints_nothing(tmp_path, capsys):
    cfg = make_run(tmp_path)
    assert main(["run", "-q", "--progress", "off", str(cfg)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""
    assert (tmp_path / "out" / "systems.csv").exists()


def entry(f: float, tasks: int = 5, ci=None) -> dict:
    e = {"recall": f, "precision": f, "fmeasure": f, "tasks": tasks}
    if ci:
        e["ci"] = {"recall": ci, "precision": ci, "fmeasure": ci}
    return e


def test_table_wraps_measures_into_blocks():
    measures = ["rouge-1", "rouge-2", "rouge-l", "rouge-su4", "rouge-topicuniq-nn|jj|vb"]
    systems = {f"a-rather-long-system-name-{k}": {m: entry(k / 20, ci=[k / 21, k / 19]) for m in measures}
               for k in (1, 2, 10)}
    text = out.format_system_table(systems, measures, confidence=0.9, width=100)
    lines = text.splitlines()
    assert all(len(line) <= 100 for line in lines)
    headers = [line.split() for line in lines if line.startswith("rank")]
    assert len(headers) == 3  # 5 measures: 2 + 2 + 1
    assert [h[2:] for h in headers] == [measures[:2], measures[2:4], measures[4:]]
    for block in text.split("\n\n")[1:]:
        names = [line.split()[1] for line in block.splitlines()[2:]]
        assert names == [f"a-rather-long-system-name-{k}" for k in (10, 2, 1)]
    assert "[90% bootstrap interval]" in text
    assert "0.50000 [.47619,.52632]" in text  # 10/20 [10/21, 10/19]


def test_table_shows_tasks_when_they_differ_and_puts_nan_last():
    systems = {"b": {"rouge-1": entry(0.5, tasks=3)}, "a": {"rouge-1": entry(math.nan, tasks=4)},
               "c": {"rouge-1": entry(0.5, tasks=4)}}
    text = out.format_system_table(systems, ["rouge-1"])
    header, rows = table_rows(text)
    assert header == ["rank", "system", "tasks", "rouge-1"]
    assert [r.split() for r in rows] == [["1", "b", "3", "0.50000"], ["1", "c", "4", "0.50000"],
                                         ["3", "a", "4", "nan"]]
    assert "over each system's tasks" in text


def test_comparisons_table():
    comps = [{"system_a": "system16", "system_b": "system1", "measure": "rouge-1", "score": "fmeasure",
              "mean_a": 0.75, "mean_b": 0.5, "difference": 0.25, "p_value": 0.001, "p_adjusted": 0.003,
              "test": "paired-bootstrap", "tasks": 3, "resamples": 1000, "seed": 4}]
    lines = out.format_comparisons(comps).splitlines()
    assert lines[1].endswith("(paired-bootstrap, 1000 resamples, seed 4)")
    assert lines[2].split() == ["system", "A", "system", "B", "measure", "score", "A", "B", "A", "-", "B",
                                "p", "p", "Holm", "tasks"]
    assert lines[4].split() == ["system16", "system1", "rouge-1", "F", "0.75000", "0.50000", "+0.25000",
                                "0.0010", "0.0030", "3"]


# --------------------------------------------------------------------------- the systems CSV


@pytest.mark.parametrize("bootstrap", ["{resamples: 40, seed: 2}", "false"])
def test_systems_csv_holds_the_summary_numbers(tmp_path, bootstrap):
    run(load_config(make_run(tmp_path, bootstrap=bootstrap, extra="  console: false\n")), progress=False)
    res = tmp_path / "out"
    summary = json.loads((res / "summary.json").read_text())["systems"]
    with (res / "systems.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert tuple(rows[0]) == out.SYSTEMS_CSV_HEADER
    assert [(r["system"], r["measure"]) for r in rows] == [
        (s, m) for s in SYSTEMS for m in ("rouge-1", "rouge-2", "rouge-l")]
    for r in rows:
        e = summary[r["system"]][r["measure"]]
        for score in ("recall", "precision", "fmeasure"):
            assert float(r[score]) == e[score]
            bounds = (r[f"{score}_low"], r[f"{score}_high"])
            if "ci" in e:
                assert [float(b) for b in bounds] == e["ci"][score]
            else:
                assert bounds == ("", "")
        assert int(r["tasks"]) == e["tasks"] == 3
    by = {(r["system"], r["measure"]): r for r in rows}
    assert float(by[("system16", "rouge-1")]["recall"]) == pytest.approx(16 / 20)
    assert float(by[("system16", "rouge-2")]["recall"]) == pytest.approx(15 / 19)
    assert float(by[("system10", "rouge-1")]["fmeasure"]) == pytest.approx(f1(2))


def test_systems_csv_can_be_renamed_or_turned_off(tmp_path):
    cfg = load_config(make_run(tmp_path, extra="  systems_csv: by-system.csv\n"))
    assert cfg.outputs.systems_csv == tmp_path / "out" / "by-system.csv"
    cfg = load_config(make_run(tmp_path, extra="  systems_csv: false\n  console: false\n"))
    assert cfg.outputs.systems_csv is None
    run(cfg, progress=False)
    assert not (tmp_path / "out" / "systems.csv").exists()
    with pytest.raises(UserError, match=r"run\.yaml:8: outputs\.systems_csv: writes to the same file "
                                        r"as outputs\.csv"):
        load_config(make_run(tmp_path, extra="  csv: s.csv\n  systems_csv: s.csv\n"))


def test_systems_csv_is_guarded_like_the_other_outputs(tmp_path):
    cfg = load_config(make_run(tmp_path, extra="  console: false\n"))
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "systems.csv").write_text("someone else's\n")
    with pytest.raises(UserError, match="refusing to replace .*systems.csv: rouge2 did not write it"):
        run(cfg, progress=False)


@pytest.mark.parametrize("extra, message", [
    ("  rank_by: rouge-3\n", r"run\.yaml:7: outputs\.rank_by: 'rouge-3' is not a measure of this run "
                             r"\(did you mean 'rouge-l'\?\); measures: rouge-1, rouge-2, rouge-l"),
    ("  rank_by: rouge-x\n", r"run\.yaml:7: outputs\.rank_by: .*rouge-x"),
    ("  rank_by_score: f1\n", r"run\.yaml:7: outputs\.rank_by_score: 'f1' is not allowed"),
])
def test_rank_keys_are_validated(tmp_path, extra, message):
    with pytest.raises(UserError, match=message):
        load_config(make_run(tmp_path, extra=extra))


# --------------------------------------------------------------------------- --check and system names


COMPARE = "compare:\n  pairs:\n    - [system16, system1]\n    - [sytem12, system2]\n"


def test_check_names_a_missing_compare_system_in_one_line(tmp_path, capsys, monkeypatch):
    cfg = make_run(tmp_path)
    cfg.write_text(cfg.read_text() + COMPARE)
    monkeypatch.setattr(runner.PairScorer, "__call__", lambda self, item: pytest.fail("scored"))
    monkeypatch.setattr(runner.PairScorer, "score_items", lambda self, items: pytest.fail("scored"))
    assert main(["run", "--check", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err == (f"rouge2 run: error: {cfg.resolve()}:10: compare.pairs: no system named 'sytem12' in the "
                   f"inputs (did you mean 'system12'?); systems: {', '.join(SYSTEMS)}\n")


def test_check_names_a_missing_contrast_system(tmp_path, capsys):
    cfg = make_run(tmp_path, extra="  topic_report:\n    topics: nn\n    contrast: [[system3, System30]]\n")
    assert main(["run", "--check", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert ":9: outputs.topic_report.contrast: no system named 'System30' in the inputs" in err
    assert err.count("\n") == 1


def test_check_passes_and_counts(tmp_path, capsys):
    cfg = make_run(tmp_path)
    cfg.write_text(cfg.read_text() + COMPARE.replace("sytem12", "system12"))
    assert main(["run", "--check", str(cfg)]) == 0
    assert capsys.readouterr().out.endswith(": 16 systems, 3 tasks, 48 summaries)\n")
    assert not (tmp_path / "out").exists()


def test_check_refuses_a_pair_given_twice(tmp_path):
    cfg = make_run(tmp_path)
    rows = tmp_path / "rows.jsonl"
    rows.write_text(rows.read_text() + rows.read_text().splitlines()[0] + "\n")
    with pytest.raises(UserError, match="task 'doc1' has system 'system1' twice"):
        runner.check(load_config(cfg))


def test_run_checks_names_before_the_statistics(tmp_path, monkeypatch):
    cfg = make_run(tmp_path)
    cfg.write_text(cfg.read_text() + COMPARE)
    monkeypatch.setattr(runner, "summarize", lambda *a, **k: pytest.fail("bootstrapped"))
    with pytest.raises(UserError, match=r"run\.yaml:10: compare\.pairs: no system named 'sytem12'"):
        run(load_config(cfg), progress=False)
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- progress phases


class FakeBar:
    """Records what a tqdm bar is told (no timings)."""

    made: list["FakeBar"] = []

    def __init__(self, **kwargs):
        self.kwargs = kwargs
        self.n = 0
        self.closed = False
        FakeBar.made.append(self)

    def update(self, n=1):
        assert not self.closed
        self.n += n

    def close(self):
        self.closed = True


@pytest.fixture
def bars():
    FakeBar.made = []
    return Progress(True, factory=FakeBar)


def phases() -> list[tuple[str, object, int, bool]]:
    return [(b.kwargs["desc"], b.kwargs["total"], b.n, b.closed) for b in FakeBar.made]


def test_progress_phases_with_totals(tmp_path, bars):
    cfg = make_run(tmp_path, extra="  console: false\n")
    cfg.write_text(cfg.read_text() + COMPARE.replace("sytem12", "system12"))
    run(load_config(cfg), progress=bars)
    # 48 summaries (blank lines not counted), 16 systems (one paired bootstrap of its 3 measures
    # each), 2 pairs x 3 measures
    assert phases() == [("scoring", 48, 48, True), ("bootstrap", 16, 16, True), ("tests", 6, 6, True)]
    assert FakeBar.made[0].kwargs["unit"] == " summaries"


def test_progress_without_statistics_has_one_phase(tmp_path, bars):
    run(load_config(make_run(tmp_path, bootstrap="false", extra="  console: false\n")), progress=bars)
    assert phases() == [("scoring", 48, 48, True)]


def test_progress_off_makes_no_bar(tmp_path, monkeypatch):
    FakeBar.made = []
    assert list(Progress(False, factory=FakeBar).phase("x", 3, "y").wrap([1, 2])) == [1, 2]
    assert FakeBar.made == []

    class NotATerminal:
        def isatty(self):
            return False

    assert not Progress(None, file=NotATerminal(), factory=FakeBar).enabled


def test_phase_closes_its_bar_when_the_stream_fails(bars):
    def stream():
        yield 1
        raise RuntimeError("reader failed")

    phase = bars.phase("scoring", None, "summaries")
    with pytest.raises(RuntimeError):
        for _ in phase.wrap(stream()):
            pass
    assert phases() == [("scoring", None, 1, True)]
    Phase().tick(5)  # a phase without a bar does nothing


# --------------------------------------------------------------------------- the scoring total


REPO = Path(__file__).resolve().parents[1]


def test_count_items_equals_what_the_readers_give(tmp_path):
    from rouge2.io.inputs import InputsConfig, count_items, list_pairs, read_inputs

    rows = tmp_path / "rows.csv"
    # a quoted field across lines, a blank row, a row of empty cells
    rows.write_text('task,system,candidate,references\nd1,A,"two\nlines",ref\n\n,,,\nd1,B,x,y\n')
    tsv = tmp_path / "rows.tsv"
    tsv.write_text("task\tsystem\tcandidate\treferences\nd1\tA\tx\ty\nd2\tA\tx\ty\n")
    jsonl = make_run(tmp_path).parent / "rows.jsonl"  # 48 rows and 3 blank lines
    java = tmp_path / "proj"
    for sub in ("reference", "system"):
        (java / sub).mkdir(parents=True)
    (java / "reference" / "t1_r.txt").write_text("a\n")
    (java / "reference" / ".DS_Store").write_text("")
    for name in ("t1_a.txt", "t1_b.txt", ".hidden"):
        (java / "system" / name).write_text("a\n")
    (java / "system" / "sub").mkdir()
    cases = [("csv", rows, 2), ("tsv", tsv, 2), ("jsonl", jsonl, 48), ("java-project", java, 2),
             ("rouge155-xml", REPO / "resources/samples/rouge155/settings.xml", 18)]
    for fmt, path, n in cases:
        cfg = InputsConfig(fmt, path)
        assert count_items(cfg) == n, fmt
        assert len(list(read_inputs(cfg))) == n, fmt
        assert list(list_pairs(cfg)) == [(i.task, i.system) for i in read_inputs(cfg)], fmt
    assert count_items(InputsConfig("jsonl", tmp_path / "missing.jsonl")) is None
