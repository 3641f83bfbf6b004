"""``rouge2 run`` replaces only files it wrote itself (rouge2/io/ownership.py)."""

import json
from pathlib import Path

import pytest

from rouge2.config.yaml_config import load_config
from rouge2.errors import UserError
from rouge2.io.ownership import MANIFEST
from rouge2.run.runner import run


def make_project(tmp_path: Path, outputs: str = "{dir: results, console: false}") -> Path:
    root = tmp_path / "proj"
    for sub in ("reference", "system"):
        (root / sub).mkdir(parents=True)
    (root / "reference" / "t1_r1.txt").write_text("a b c d\n")
    (root / "system" / "t1_s.txt").write_text("a b c\n")
    cfg = tmp_path / "run.yaml"
    cfg.write_text(f"inputs: {{format: java-project, path: proj}}\nmeasures: [rouge-1]\noutputs: {outputs}\n")
    return cfg


def forbid_scoring(monkeypatch) -> None:
    """Fail the test if any pair is scored (the refusal must come first)."""
    from rouge2.run.parallel import PairScorer

    def call(self, item):
        raise AssertionError("scored although the run should have stopped before scoring")

    monkeypatch.setattr(PairScorer, "__call__", call)


@pytest.fixture
def no_scoring(monkeypatch):
    forbid_scoring(monkeypatch)


ROUGE1_ROW = "ROUGE-1,T1,S.TXT,0.75000,1.00000,0.85714,1"


def test_refuses_to_replace_a_file_rouge2_did_not_write(tmp_path, no_scoring):
    cfg = make_project(tmp_path)
    res = tmp_path / "results"
    res.mkdir()
    foreign = res / "results.csv"
    foreign.write_text("the Java tool's results\n")
    foreign.chmod(0o444)
    with pytest.raises(UserError) as err:
        run(load_config(cfg), progress=False)
    message = str(err.value)
    assert message == (f"refusing to replace {foreign}: rouge2 did not write it (it is not listed in "
                       f"{res / MANIFEST}); choose another output file, or set outputs.overwrite: "
                       f"true in the config (rouge2 run --overwrite) to replace it")
    assert "\n" not in message
    assert foreign.read_text() == "the Java tool's results\n"
    assert oct(foreign.stat().st_mode & 0o777) == "0o444"
    assert sorted(p.name for p in res.iterdir()) == ["results.csv"]  # nothing else written either


def test_any_output_file_is_protected(tmp_path, no_scoring):
    cfg = make_project(tmp_path, "{dir: results, console: false, csv: false}")
    res = tmp_path / "results"
    res.mkdir()
    (res / "summary.json").write_text("{}\n")
    with pytest.raises(UserError, match=r"refusing to replace .*summary\.json: rouge2 did not write it"):
        run(load_config(cfg), progress=False)


def test_replaces_its_own_files_and_records_them(tmp_path):
    cfg = load_config(make_project(tmp_path))
    run(cfg, progress=False)
    res = tmp_path / "results"
    first = {p.name: p.read_bytes() for p in res.iterdir()}
    run(cfg, progress=False)  # the same files again: rouge2 wrote them
    assert {p.name: p.read_bytes() for p in res.iterdir()} == first
    assert (res / "results.csv").read_text().splitlines()[1] == ROUGE1_ROW


def test_refuses_a_file_edited_since_rouge2_wrote_it(tmp_path, monkeypatch):
    cfg = load_config(make_project(tmp_path))
    run(cfg, progress=False)
    forbid_scoring(monkeypatch)
    target = tmp_path / "results" / "results.csv"
    target.write_text(target.read_text().replace("0.75000", "0.99999"))  # same size, new content
    with pytest.raises(UserError, match=r"refusing to replace .*results\.csv: it changed since rouge2 "
                                        r"wrote it \(its size or SHA-256 differs from .*\.rouge2-outputs"
                                        r"\.json\); choose another output file, or set outputs\.overwrite"):
        run(cfg, progress=False)
    assert "0.99999" in target.read_text()


def test_overwrite_in_the_config(tmp_path):
    cfg_path = make_project(tmp_path, "{dir: results, console: false, overwrite: true}")
    res = tmp_path / "results"
    res.mkdir()
    (res / "results.csv").write_text("old\n")
    run(load_config(cfg_path), progress=False)
    assert (res / "results.csv").read_text().splitlines()[1] == ROUGE1_ROW
    # now recorded as rouge2's: a run without the override may replace it
    cfg_path.write_text(cfg_path.read_text().replace(", overwrite: true", ""))
    assert load_config(cfg_path).outputs.overwrite is False
    run(load_config(cfg_path), progress=False)


def test_overwrite_argument(tmp_path):
    cfg = load_config(make_project(tmp_path))
    res = tmp_path / "results"
    res.mkdir()
    (res / "per_summary.jsonl").write_text("not rouge2's\n")
    run(cfg, progress=False, overwrite=True)
    assert json.loads((res / "per_summary.jsonl").read_text().splitlines()[0])["system"] == "s.txt"


def test_overwrite_must_be_a_boolean(tmp_path):
    cfg = make_project(tmp_path, "{dir: results, overwrite: sometimes}")
    with pytest.raises(UserError, match=r"run\.yaml:3: .*overwrite"):
        load_config(cfg)


def test_manifest_keeps_other_runs_files_and_drops_deleted_ones(tmp_path):
    cfg_a = load_config(make_project(tmp_path, "{dir: results, console: false, csv: a.csv, "
                                               "per_summary_jsonl: false, per_summary_csv: false, "
                                               "summary_json: false, systems_csv: false}"))
    run(cfg_a, progress=False)
    res = tmp_path / "results"
    cfg_b_path = tmp_path / "b.yaml"
    cfg_b_path.write_text((tmp_path / "run.yaml").read_text().replace("a.csv", "b.csv"))
    cfg_b = load_config(cfg_b_path)
    run(cfg_b, progress=False)
    listed = json.loads((res / MANIFEST).read_text())["files"]
    assert sorted(listed) == ["a.csv", "b.csv"]
    (res / "a.csv").unlink()
    run(cfg_b, progress=False)
    assert sorted(json.loads((res / MANIFEST).read_text())["files"]) == ["b.csv"]
    # a.csv written by someone else now is not rouge2's
    (res / "a.csv").write_text("x\n")
    with pytest.raises(UserError, match="rouge2 did not write it"):
        run(cfg_a, progress=False)


def test_files_in_another_folder_get_their_own_record(tmp_path):
    other = tmp_path / "elsewhere"
    cfg = load_config(make_project(tmp_path, f"{{dir: results, console: false, csv: {other}/r.csv}}"))
    run(cfg, progress=False)
    assert sorted(json.loads((other / MANIFEST).read_text())["files"]) == ["r.csv"]
    assert "results.csv" not in json.loads((tmp_path / "results" / MANIFEST).read_text())["files"]
    run(cfg, progress=False)


def test_a_damaged_record_protects_everything(tmp_path):
    cfg = load_config(make_project(tmp_path))
    run(cfg, progress=False)
    (tmp_path / "results" / MANIFEST).write_text("{not json")
    with pytest.raises(UserError, match="rouge2 did not write it"):
        run(cfg, progress=False)
    run(cfg, progress=False, overwrite=True)  # the override rewrites the record
    run(cfg, progress=False)


def test_a_file_appearing_during_the_run_is_not_replaced(tmp_path, monkeypatch):
    cfg = load_config(make_project(tmp_path))
    target = tmp_path / "results" / "summary.json"
    from rouge2.run.parallel import PairScorer

    original, original_items = PairScorer.__call__, PairScorer.score_items

    def write():  # someone writes the file while rouge2 scores
        target.parent.mkdir(exist_ok=True)
        target.write_text("written meanwhile\n")

    def call(self, item):
        write()
        return original(self, item)

    def score_items(self, items):  # the batch path scores items a chunk at a time
        write()
        return original_items(self, items)

    monkeypatch.setattr(PairScorer, "__call__", call)
    monkeypatch.setattr(PairScorer, "score_items", score_items)
    with pytest.raises(UserError, match=r"refusing to replace .*summary\.json"):
        run(cfg, progress=False)
    assert target.read_text() == "written meanwhile\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["summary.json"]


def test_the_record_name_is_reserved(tmp_path):
    cfg = load_config(make_project(tmp_path, f"{{dir: results, csv: {MANIFEST}}}"))
    with pytest.raises(UserError, match=r"cannot write .*\.rouge2-outputs\.json: the name "
                                        r"\.rouge2-outputs\.json is rouge2's record"):
        run(cfg, progress=False)


def test_no_files_no_record(tmp_path):
    cfg = load_config(make_project(tmp_path, "{dir: results, console: false, csv: false, "
                                             "per_summary_jsonl: false, per_summary_csv: false, "
                                             "summary_json: false, systems_csv: false}"))
    run(cfg, progress=False)
    assert not (tmp_path / "results").exists()


def test_overwrite_flag_of_rouge2_run(tmp_path, monkeypatch):
    from rouge2.cli.run import run_main

    make_project(tmp_path)
    res = tmp_path / "results"
    res.mkdir()
    (res / "results.csv").write_text("old\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UserError, match="--overwrite"):
        run_main(["run.yaml", "--progress", "off"])
    assert run_main(["run.yaml", "--overwrite", "--progress", "off"]) == 0
    assert (res / "results.csv").read_text().splitlines()[1] == ROUGE1_ROW
