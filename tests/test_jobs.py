"""``--jobs N`` gives byte-identical outputs for any N.

``rouge2 run`` splits scoring into chunks of items and the bootstrap and
paired tests into (system, measure) units; ``rouge2 rouge155`` splits the
report into (system, measure) units.  Here the machine is made to look like
8 cores and the thresholds are lowered, so every split really runs in
worker processes; the outputs must equal one process's, and for the
ROUGE-1.5.5 fixtures the real script's expected report.
"""

from __future__ import annotations

import filecmp
import shutil
from pathlib import Path

import pytest
from test_rouge155_fixtures import CASES, CASES_DIR, run_case

from rouge2.cli import main
from rouge2.run import parallel

REPO = Path(__file__).resolve().parents[1]
NEWS = REPO / "resources" / "samples" / "summeval-mini.jsonl"


@pytest.fixture
def eight_cores(monkeypatch):
    """Pretend 8 usable cores, split work finely, and count pool start-ups."""
    monkeypatch.setattr(parallel, "usable_cores", lambda: 8)
    monkeypatch.setattr(parallel, "MIN_PARALLEL_DRAWS", 0)
    monkeypatch.setattr(parallel, "MIN_PARALLEL_SCORINGS", 0)
    monkeypatch.setattr(parallel, "CHUNK_ITEMS", 2)
    monkeypatch.setattr(parallel, "CHUNK_MAX_ITEMS", 3)
    started = []
    original = parallel.Workers.pool

    def pool(self):
        if self._pool is None:
            started.append(self.processes)
        return original(self)

    monkeypatch.setattr(parallel.Workers, "pool", pool)
    return started


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_run_jobs_1_2_8_identical(tmp_path, eight_cores):
    cfg = tmp_path / "run.yaml"
    cfg.write_text(
        f"inputs: {{format: jsonl, path: {NEWS}}}\n"
        "measures: [rouge-1, rouge-2, rouge-l]\n"
        "variants: {plain: {}, stemmed: {preprocess: {stem: true}}}\n"
        "compare_variants: [[stemmed, plain]]\n"
        "bootstrap: {resamples: 150, seed: 3}\n"
        "compare: {pairs: [[M22, M0], [M8, M23]], test: paired-bootstrap, resamples: 120, seed: 5}\n"
        f"outputs: {{dir: {tmp_path / 'out'}, console: false, per_summary_jsonl: per.jsonl}}\n")
    folders = {}
    for jobs in (1, 2, 8):
        assert main(["run", "--progress", "off", "--jobs", str(jobs), str(cfg)]) == 0
        folders[jobs] = tmp_path / f"jobs{jobs}"
        shutil.move(tmp_path / "out", folders[jobs])
    assert eight_cores == [2, 8]  # jobs 2 and 8 used worker processes, one pool each
    names = _files(folders[1])
    assert "summary.json" in names and "per.jsonl" in names
    for jobs in (2, 8):
        assert _files(folders[jobs]) == names
        match, mismatch, errors = filecmp.cmpfiles(folders[1], folders[jobs], names, shallow=False)
        assert (mismatch, errors) == ([], []), jobs


def test_run_statistics_units_in_workers(tmp_path, eight_cores):
    """Approximate randomization and bootstrap units, in workers, equal one process."""
    cfg = tmp_path / "run.yaml"
    cfg.write_text(
        f"inputs: {{format: jsonl, path: {NEWS}}}\n"
        "measures: [rouge-1, rouge-su4]\n"
        "bootstrap: {resamples: 300}\n"
        "compare: {pairs: [[M22, M0]], resamples: 500}\n"
        f"outputs: {{dir: {tmp_path / 'out'}, console: false}}\n")
    from rouge2.config.yaml_config import load_config
    from rouge2.run.runner import run

    one = run(load_config(cfg), jobs=1, progress=False)
    shutil.rmtree(tmp_path / "out")
    eight = run(load_config(cfg), jobs=8, progress=False)
    assert eight.summary == one.summary
    assert eight_cores == [8]




@pytest.mark.skipif(not CASES, reason=f"no fixtures under {CASES_DIR}")
@pytest.mark.parametrize("case", CASES)
def test_rouge155_jobs_reproduce_the_script(case, eight_cores):
    case_dir = CASES_DIR / case
    flags = (case_dir / "flags.txt").read_text().split()
    expected = (case_dir / "expected.txt").read_bytes()
    results = {jobs: run_case(case_dir, ["--jobs", str(jobs), *flags, "config.xml"]) for jobs in (1, 2, 8)}
    for jobs, (rc, out, err) in results.items():
        assert rc == 0, err
        assert out == expected, jobs
        assert err == results[1][2]


def _layout(root: Path) -> None:
    """Three evaluations, three systems; system C misses evaluation 2, and
    one model is empty (warnings the script prints once)."""
    (root / "m").mkdir()
    (root / "p").mkdir()
    texts = {1: "the cat sat on the mat", 2: "a dog barked at the moon all night", 3: ""}
    xml = ["<ROUGE-EVAL>"]
    for ev, model in texts.items():
        (root / "m" / f"{ev}.txt").write_text(model + "\n" if model else "")
        xml.append(f'<EVAL ID="{ev}"><PEER-ROOT>p</PEER-ROOT><MODEL-ROOT>m</MODEL-ROOT>'
                   '<INPUT-FORMAT TYPE="SPL"/><PEERS>')
        for s, peer in (("A", "the cat sat"), ("B", "on the mat a dog"), ("C", "moon night cat")):
            if s == "C" and ev == 2:
                continue
            (root / "p" / f"{ev}.{s}.txt").write_text(f"{peer} {ev}\n")
            xml.append(f'<P ID="{s}">{ev}.{s}.txt</P>')
        xml.append(f'</PEERS><MODELS><M ID="x">{ev}.txt</M></MODELS></EVAL>')
    xml.append("</ROUGE-EVAL>")
    (root / "c.xml").write_text("".join(xml))


def test_rouge155_jobs_warnings_once_in_order(tmp_path, eight_cores):
    _layout(tmp_path)
    argv = ["-a", "-n", "2", "-2", "4", "-U", "-w", "1.2", "-d", "-l", "10", "-r", "50", "c.xml"]
    one = run_case(tmp_path, argv)
    assert one[0] == 0
    assert one[2].count("does not exist for evaluation 2") == 1
    assert one[2].count("empty text") == 1
    for jobs in (2, 8):
        assert run_case(tmp_path, ["--jobs", str(jobs), *argv]) == one
    assert eight_cores == [2, 8]


def test_rouge155_jobs_error_prints_no_partial_report(tmp_path, eight_cores):
    _layout(tmp_path)
    (tmp_path / "p" / "3.C.txt").unlink()  # system C fails at its first measure
    argv = ["-a", "-n", "2", "-r", "20", "c.xml"]
    one = run_case(tmp_path, argv)
    errors = [line for line in one[2].splitlines() if line.startswith("rouge2 rouge155: error:")]
    assert one[0] == 2 and len(errors) == 1 and "Cannot open system summary" in errors[0]
    assert one[1] == b""  # the report is printed whole or not at all
    assert run_case(tmp_path, ["--jobs", "2", *argv]) == one


@pytest.mark.parametrize("bad", ["x", "-1"])
def test_rouge155_jobs_value_checked(tmp_path, bad):
    rc, out, err = run_case(tmp_path, ["--jobs", bad, "-a", "c.xml"])
    assert rc == 2 and err.startswith("rouge2 rouge155: error: option --jobs needs") and err.count("\n") == 1


def test_spawned_workers_give_the_same_files(tmp_path, eight_cores, monkeypatch):
    """With another thread running, workers are spawned, not forked: same files."""
    import threading

    cfg = tmp_path / "run.yaml"
    cfg.write_text(
        f"inputs: {{format: jsonl, path: {NEWS}}}\n"
        "measures: [rouge-1]\n"
        "bootstrap: {resamples: 50}\n"
        f"outputs: {{dir: {tmp_path / 'out'}, console: false}}\n")
    assert main(["run", "--progress", "off", str(cfg)]) == 0
    shutil.move(tmp_path / "out", tmp_path / "one")
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    methods = []
    import multiprocessing

    original = multiprocessing.get_context

    def get_context(method=None):
        methods.append(method)
        return original(method)

    monkeypatch.setattr(multiprocessing, "get_context", get_context)
    try:
        assert main(["run", "--progress", "off", "--jobs", "2", str(cfg)]) == 0
    finally:
        stop.set()
        other.join()
    assert "spawn" in methods and "fork" not in methods
    names = _files(tmp_path / "one")
    match, mismatch, errors = filecmp.cmpfiles(tmp_path / "one", tmp_path / "out", names, shallow=False)
    assert (mismatch, errors) == ([], [])
