"""Every door replaces only files rouge2 wrote itself, never an input
(rouge2/io/ownership.py); the run outputs are one catalogue (rouge2/io/outputs.py)."""

import json
import os
import shutil
import subprocess
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


# --------------------------------------------------------------------------- every door (issue 21)


def score_lines(tmp_path: Path) -> list[str]:
    (tmp_path / "refs.txt").write_text("a b c d\nthe cat\n")
    (tmp_path / "preds.txt").write_text("a b c\nthe dog\n")
    return ["score", "-r", str(tmp_path / "refs.txt"), "-i", str(tmp_path / "preds.txt"), "--resamples", "0"]


def test_score_per_summary_replaces_its_own_file_and_only_it(tmp_path, capsys):
    from rouge2.cli import main

    argv = score_lines(tmp_path)
    target = tmp_path / "per.jsonl"
    assert main([*argv, "--per-summary", str(target)]) == 0
    first = target.read_bytes()
    assert sorted(json.loads((tmp_path / MANIFEST).read_text())["files"]) == ["per.jsonl"]
    assert main([*argv, "--per-summary", str(target)]) == 0  # rouge2's own file: replaced
    assert target.read_bytes() == first
    target.write_text("edited by hand\n")
    capsys.readouterr()
    assert main([*argv, "--per-summary", str(target)]) == 2
    assert "it changed since rouge2 wrote it" in capsys.readouterr().err
    assert target.read_text() == "edited by hand\n"
    assert main([*argv, "--per-summary", str(target), "--overwrite"]) == 0
    assert target.read_bytes() == first


def test_a_link_is_neither_followed_nor_replaced(tmp_path, capsys):
    from rouge2.cli import main

    argv = score_lines(tmp_path)
    keep = tmp_path / "keep.txt"
    keep.write_text("the user's file\n")
    link = tmp_path / "per.jsonl"
    link.symlink_to(keep)
    for extra in ([], ["--overwrite"]):  # /dev/stdout is a link: never replaced, even when asked
        capsys.readouterr()
        assert main([*argv, "--per-summary", str(link), *extra]) == 2
        assert "it is a symbolic link (to " in capsys.readouterr().err
        assert link.is_symlink() and keep.read_text() == "the user's file\n"


def test_correlate_csv_goes_through_the_layer(tmp_path, capsys):
    from rouge2.cli import main

    cfg = load_config(make_project(tmp_path, "{dir: results, console: false}"))
    (tmp_path / "proj" / "system" / "t1_b.txt").write_text("a\n")
    (tmp_path / "proj" / "reference" / "t2_r1.txt").write_text("c d\n")
    (tmp_path / "proj" / "system" / "t2_s.txt").write_text("c d\n")
    (tmp_path / "proj" / "system" / "t2_b.txt").write_text("d\n")
    run(cfg, progress=False)
    judgments = tmp_path / "j.csv"
    judgments.write_text("task,system,rel\nt1,s.txt,3\nt1,b.txt,1\nt2,s.txt,4\nt2,b.txt,2\n")
    argv = ["correlate", str(tmp_path / "results"), "--judgments", str(judgments), "--resamples", "10"]
    out = tmp_path / "results" / "corr.csv"
    assert main([*argv, "--csv", str(out)]) == 0
    assert out.read_text().startswith("level,variant,measure,score,dimension,n,")
    assert "corr.csv" in json.loads((tmp_path / "results" / MANIFEST).read_text())["files"]
    capsys.readouterr()
    assert main([*argv, "--csv", str(judgments), "--overwrite"]) == 2
    assert "an input of this command" in capsys.readouterr().err
    assert judgments.read_text().startswith("task,system,rel\n")


def test_the_shim_replaces_its_own_script_only(tmp_path, capsys):
    from rouge2.cli import main
    from rouge2.cli.shim import MARKER

    folder = tmp_path / "ROUGE"
    assert main(["rouge155-shim", str(folder)]) == 0
    script = folder / "ROUGE-1.5.5.pl"
    assert os.access(script, os.X_OK) and MARKER in script.read_text()
    assert main(["rouge155-shim", str(folder)]) == 0  # its own: replaced
    script.write_text("#!/usr/bin/perl\n# the real ROUGE-1.5.5.pl\n")
    capsys.readouterr()
    assert main(["rouge155-shim", str(folder)]) == 2
    assert "rouge155-shim --overwrite" in capsys.readouterr().err
    assert "the real" in script.read_text()
    assert main(["rouge155-shim", "--overwrite", str(folder)]) == 0
    assert MARKER in script.read_text()
    # a shim from a rouge2 that kept no record is recognised by its marker line
    legacy = tmp_path / "legacy"
    legacy.mkdir()
    (legacy / "ROUGE-1.5.5.pl").write_text(f"#!/usr/bin/env perl\n# Stand-in {MARKER}\n")
    assert main(["rouge155-shim", str(legacy)]) == 0


@pytest.mark.skipif(not shutil.which("perl"), reason="perl runs the shim")
def test_the_shim_quotes_any_python_path_for_perl(tmp_path):
    from rouge2.cli.shim import write_shim

    weird = tmp_path / "john.doe@corp.example.com" / "$HOME 'q' \"d\" back\\slash"
    weird.mkdir(parents=True)
    python = weird / "python"
    python.write_text("#!/bin/sh\nprintf '%s|' \"$@\"\n")
    python.chmod(0o755)
    script = write_shim(tmp_path / "ROUGE", python=str(python))
    r = subprocess.run(["perl", str(script), "-a", "x y.xml"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "-m|rouge2|rouge155|-a|x y.xml|"


def test_convert_properties_writes_through_the_layer(tmp_path, capsys):
    from rouge2.cli import main

    props = tmp_path / "rouge.properties"
    props.write_text("project.dir=proj\nngram=2\n")
    out = tmp_path / "run.yaml"
    assert main(["convert-properties", str(props), "-o", str(out)]) == 0
    assert "measures" in out.read_text()
    assert main(["convert-properties", str(props), "-o", str(out)]) == 0  # its own file
    capsys.readouterr()
    assert main(["convert-properties", str(props), "-o", str(props), "--overwrite"]) == 2
    assert "an input of this command" in capsys.readouterr().err
    assert props.read_text() == "project.dir=proj\nngram=2\n"


# --------------------------------------------------------------------------- the output catalogue (issue 17.4)


def test_the_catalogue_is_the_schema_the_guard_and_the_writer_loop(tmp_path, monkeypatch):
    from rouge2.io.outputs import OUTPUTS, OutputSpec, register

    monkeypatch.setattr(OUTPUTS, "entries", dict(OUTPUTS.entries))
    monkeypatch.setattr(OUTPUTS, "_lookup", dict(OUTPUTS._lookup))
    # one entry adds an output: a config key with its default, a guarded, locked, recorded file
    register("counts_txt", OutputSpec("counts.txt", write=lambda f, cfg, r: f.write(
        f"{len(r.pairs)} summaries\n")), "how many summaries were scored")
    cfg = load_config(make_project(tmp_path))
    assert cfg.outputs.counts_txt == tmp_path / "results" / "counts.txt"
    run(cfg, progress=False)
    assert (tmp_path / "results" / "counts.txt").read_text() == "1 summaries\n"
    assert "counts.txt" in json.loads((tmp_path / "results" / MANIFEST).read_text())["files"]
    (tmp_path / "results" / "counts.txt").write_text("someone's\n")
    with pytest.raises(UserError, match=r"refusing to replace .*counts\.txt: it changed"):
        run(cfg, progress=False)
    (tmp_path / "run.yaml").write_text((tmp_path / "run.yaml").read_text().replace(
        "console: false}", "console: false, counts_txt: false}"))
    assert load_config(tmp_path / "run.yaml").outputs.counts_txt is None


def test_every_catalogue_entry_is_documented():
    from rouge2.io.outputs import OUTPUTS

    text = (Path(__file__).resolve().parents[1] / "docs" / "config.md").read_text()
    for entry in OUTPUTS:
        assert f"`{entry.name}`" in text, entry.name
        if entry.value.generic:
            assert f"`{entry.value.default}`" in text, entry.value.default


def test_two_outputs_that_are_one_file_are_refused(tmp_path, no_scoring):
    (tmp_path / "results").mkdir()
    (tmp_path / "alias").symlink_to(tmp_path / "results")
    cfg = load_config(make_project(tmp_path, "{dir: results, console: false, summary_json: ../alias/results.csv}"))
    with pytest.raises(UserError, match=r"alias/results\.csv: it is the same file as .*results/results\.csv, "
                                        r"which this command writes too"):
        run(cfg, progress=False)
    assert list((tmp_path / "results").iterdir()) == []
