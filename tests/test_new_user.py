"""What a new user tripped on (issue 23), each friction pinned by a test.

Multiple references, the script's averages, misread files, the JSON
documents and their schemas, ``-c``'s flags, the Java migration notes,
``--progress``, the HF ``evaluate.load`` parity and the small mismatches.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from shared_data import DATA
from test_compat_evaluate import metric
from test_compat_rouge_score import assert_same

import rouge2
from rouge2 import schemas
from rouge2.cli import main as cli_main
from rouge2.compat import evaluate as hf
from rouge2.config.rouge155_args import parse_args as parse_rouge155
from rouge2.io.formats155 import read_sentences
from rouge2.io.rouge155 import read_settings
from rouge2.run.rouge155 import measure_plan

REPO = Path(__file__).resolve().parents[1]
ROWS = [json.loads(x) for x in (REPO / "resources/samples/summeval-mini.jsonl").read_text().splitlines()]


def cli(argv, capsys) -> tuple[int, str, str]:
    rc = cli_main([str(a) for a in argv])
    got = capsys.readouterr()
    return rc, got.out, got.err


def lines_file(path: Path, texts) -> Path:
    path.write_text("".join(t.replace("\n", " ") + "\n" for t in texts), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path):
    """Predictions, two reference files, a second system and the JSONL rows (11 references each)."""
    preds = lines_file(tmp_path / "preds.txt", [r["candidate"] for r in ROWS])
    other = lines_file(tmp_path / "other.txt", [" ".join(r["candidate"].split()[:8]) for r in ROWS])
    ref1 = lines_file(tmp_path / "ref1.txt", [r["references"][0] for r in ROWS])
    ref2 = lines_file(tmp_path / "ref2.txt", [r["references"][1] for r in ROWS])
    rows = tmp_path / "rows.jsonl"
    rows.write_text("".join(json.dumps({"prediction": r["candidate"], "references": r["references"]}) + "\n"
                            for r in ROWS))
    return {"preds": preds, "other": other, "ref1": ref1, "ref2": ref2, "rows": rows}


# --------------------------------------------------------------------------- 1. several references


def test_pooled_references_get_one_note_naming_the_mode_and_rouge_scores_choice(files, capsys):
    rc, out, err = cli(["score", "-r", files["ref1"], files["ref2"], "-i", files["preds"], files["other"],
                        "--resamples", "0", "--test-resamples", "10"], capsys)
    assert rc == 0
    notes = [x for x in err.splitlines() if "note:" in x]
    assert len(notes) == 1  # once, though two systems were scored
    assert "2 references per prediction" in notes[0] and "'pooled'" in notes[0]
    assert "--multi-reference max-f" in notes[0]


@pytest.mark.parametrize("argv,note", [
    (["--multi-reference", "pooled"], False),   # chosen: no note
    (["--multi-reference", "max-f"], False),
    ([], True),
])
def test_note_only_when_the_mode_was_not_chosen(files, capsys, argv, note):
    rc, out, err = cli(["score", "-i", files["rows"], "--resamples", "0", "--json", *argv], capsys)
    assert rc == 0 and ("note:" in err) is note
    doc = json.loads(out)
    assert doc["multi_reference"] == (argv[1] if argv else "pooled")  # the JSON carries the mode
    assert f"mref:{doc['multi_reference']}" in doc["signature"]


def test_no_note_with_one_reference(files, capsys):
    rc, _, err = cli(["score", "-r", files["ref1"], "-i", files["preds"], "--resamples", "0"], capsys)
    assert rc == 0 and err == ""


def test_single_pair_mode_notes_several_reference_files(files, capsys):
    rc, _, err = cli(["score", "-c", files["preds"], "-r", files["ref1"], files["ref2"]], capsys)
    assert rc == 0 and err.count("note:") == 1 and "max-f" in err


def test_evaluate_warns_once_with_the_keyword_to_use():
    preds = [r["candidate"] for r in ROWS]
    refs = [r["references"] for r in ROWS]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rouge2.evaluate(preds, refs, ["rouge-1"], resamples=0)
    notes = [w for w in caught if issubclass(w.category, rouge2.MultiReferenceNote)]
    assert len(notes) == 1
    assert "11 references per prediction" in str(notes[0].message)
    assert 'multi_reference="max-f"' in str(notes[0].message)
    assert notes[0].filename == __file__  # points at the caller's line
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # chosen explicitly, or one reference: silent
        rouge2.evaluate(preds, refs, ["rouge-1"], resamples=0, multi_reference="pooled")
        rouge2.evaluate(preds, [r[0] for r in refs], ["rouge-1"], resamples=0)


def test_max_f_keeps_the_reference_with_the_highest_f():
    """What the note advises gives rouge-score's choice: per summary, the best single-reference F."""
    preds = [r["candidate"] for r in ROWS[:6]]
    refs = [r["references"][:4] for r in ROWS[:6]]
    got = rouge2.evaluate(preds, refs, ["rouge-1"], resamples=0, multi_reference="max-f")
    for p, rs, per in zip(preds, refs, got.per_summary):
        assert per["rouge-1"].fmeasure == max(rouge2.score(p, r, ["rouge-1"])["rouge-1"].fmeasure for r in rs)


# --------------------------------------------------------------------------- 2. the script's averages


def _rouge155_rows(case_dir: Path, peer: str) -> list[dict]:
    """A settings file's evaluations of ``peer`` as JSONL rows, in the order the
    script sorts its evaluation IDs (as text), sentences one a line."""
    st = read_settings(str(case_dir / "config.xml"))
    out = []
    for ev in sorted((e for e in st.evaluations if peer in e.peers), key=lambda e: f"{e.id}.{peer}"):
        def text(path, ev=ev):
            return "\n".join(read_sentences(st.resolve(path), ev.input_format))
        out.append({"prediction": text(st.peer_path(ev, peer)), "references": [text(p) for p in st.model_paths(ev)]})
    return out


def _score_flags(flags: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """The rouge2 score flags standing for ROUGE-1.5.5 ``flags``, and the script's (tag, measure) plan."""
    o = parse_rouge155([*flags, "settings.xml"])
    plan = measure_plan(o)
    argv = ["-m", *[name for _, name in plan], "--alpha", repr(o.alpha),
            "--multi-reference", "best" if o.score_mode == "B" else "pooled",
            "--resamples", str(int(o.resamples)), "--confidence", repr(o.confidence / 100)]
    argv += ["--stem"] * bool(o.stem) + ["--stopwords"] * bool(o.remove_stopwords)
    argv += ["--word-limit", str(o.word_limit)] if o.word_limit else []
    argv += ["--byte-limit", str(o.byte_limit)] if o.byte_limit else []
    return argv, plan


def _expected_averages(report: str) -> dict[tuple[str, str, str], tuple[str, str, str]]:
    out = {}
    for line in report.splitlines():
        m = re.match(r"(\S+) (\S+) Average_([RPF]): (\S+) \(\S+ (\S+) - (\S+)\)$", line)
        if m:
            out[(m[1], m[2], m[3])] = (m[4], m[5], m[6])
    return out


def _check_averages(case_dir: Path, flags: list[str], report: str, tmp_path: Path, capsys) -> int:
    argv, plan = _score_flags(flags)
    expected = _expected_averages(report)
    compared = 0
    for peer in read_settings(str(case_dir / "config.xml")).peer_ids:
        rows = tmp_path / "rows.jsonl"
        rows.write_text("".join(json.dumps(r) + "\n" for r in _rouge155_rows(case_dir, peer)))
        rc, out, err = cli(["score", "-i", rows, "--average", "rouge155", "--json", *argv], capsys)
        assert rc == 0, err
        doc = json.loads(out)
        assert doc["average"] == "rouge155"
        scores = doc["systems"][0]["scores"]
        for (tag, _), measure in zip(plan, doc["measures"]):
            for stat, letter in (("recall", "R"), ("precision", "P"), ("fmeasure", "F")):
                got = scores[measure][stat]["rouge155"]
                printed = ("%.5f" % got["average"], "%.5f" % got["ci"][0], "%.5f" % got["ci"][1])
                assert printed == expected[(peer, tag, letter)], (case_dir.name, peer, tag, letter)
                compared += 1
    assert compared == len(expected)
    return compared


def _fixtures_t0() -> list[str]:
    cases = DATA / "fixtures" / "rouge155"
    return sorted(p.name for p in cases.iterdir() if (p / "expected.txt").exists()
                  and "-t 1" not in (p / "flags.txt").read_text() and "-t 2" not in (p / "flags.txt").read_text())


@pytest.mark.parametrize("case", _fixtures_t0())
def test_average_rouge155_is_the_scripts_average_lines(case, tmp_path, capsys, monkeypatch):
    case_dir = DATA / "fixtures" / "rouge155" / case
    monkeypatch.chdir(case_dir)
    flags = (case_dir / "flags.txt").read_text().split()
    assert _check_averages(case_dir, flags, (case_dir / "expected.txt").read_text(), tmp_path, capsys) >= 6


def test_average_rouge155_on_the_bundled_sample(tmp_path, capsys, monkeypatch):
    """README's command 1, whose report tests/data/rouge155_sample_expected.txt holds."""
    sample = tmp_path / "sample"
    shutil.copytree(REPO / "resources/samples/rouge155", sample)
    shutil.copy(sample / "settings.xml", sample / "config.xml")
    monkeypatch.chdir(sample)
    flags = ["-a", "-d", "-n", "2", "-m", "-2", "4", "-U", "-w", "1.2", "-c", "95", "-r", "1000"]
    report = (REPO / "tests/data/rouge155_sample_expected.txt").read_text()
    assert _check_averages(sample, flags, report, tmp_path, capsys) == 54


def test_average_rouge155_table_says_what_it_prints(files, capsys):
    rc, out, _ = cli(["score", "-i", files["rows"], "--average", "rouge155", "-m", "rouge-1"], capsys)
    assert rc == 0
    assert "Average_R/P/F" in out.splitlines()[0] and "bootstrap resample means" in out.splitlines()[0]
    assert "round:rouge155" in out.splitlines()[-1]  # the script's per-summary rounding


@pytest.mark.parametrize("argv,message", [
    (["--rounding", "none"], "drop --rounding"),
    (["--resamples", "0"], "--resamples 1 or more"),
])
def test_average_rouge155_refuses_what_cannot_give_the_scripts_lines(files, capsys, argv, message):
    rc, out, err = cli(["score", "-i", files["rows"], "--average", "rouge155", *argv], capsys)
    assert rc == 2 and out == "" and err.count("\n") == 1 and message in err


def test_docs_say_what_the_means_are(tmp_path, capsys, monkeypatch):
    for page in ("README.md", "docs/scoring.md"):
        text = (REPO / page).read_text()
        assert "--average rouge155" in text and "bootstrap" in text, page
    # the worked example of docs/scoring.md: system M0 of the bundled sample
    sample = tmp_path / "sample"
    shutil.copytree(REPO / "resources/samples/rouge155", sample)
    shutil.copy(sample / "settings.xml", sample / "config.xml")
    monkeypatch.chdir(sample)
    rows = tmp_path / "M0.jsonl"
    rows.write_text("".join(json.dumps(r) + "\n" for r in _rouge155_rows(sample, "M0")))
    shown = []
    for average in ("mean", "rouge155"):
        rc, out, _ = cli(["score", "-i", rows, "-m", "rouge-l", "--stem", "--multi-reference", "pooled",
                          "--average", average], capsys)
        shown.append(next(x for x in out.splitlines() if x.startswith("rouge-l ")).split())
    doc = (REPO / "docs/scoring.md").read_text()
    assert f"| `rouge2 score` (plain mean) | {shown[0][3]} |" in doc
    low, high = shown[1][4].strip("[,"), shown[1][5].strip("]")
    assert f"| `rouge2 score --average rouge155` | {shown[1][3]} (interval {low} - {high}) |" in doc
    report = (REPO / "tests/data/rouge155_sample_expected.txt").read_text()
    assert f"M0 ROUGE-L Average_F: {shown[1][3]} (95%-conf.int. {low} - {high})" in report
    assert shown[0][3] != shown[1][3]


# --------------------------------------------------------------------------- 3. never misread a file


@pytest.mark.parametrize("where", ["-r", "-i with -r", "stdin", "-c", "-r with -c", "json first line"])
def test_json_where_plain_lines_are_expected_is_refused(files, tmp_path, capsys, monkeypatch, where):
    rows = files["rows"]
    looks = tmp_path / "plain-name.txt"
    looks.write_text(rows.read_text())
    argv = {"-r": ["-r", rows, "-i", files["preds"]],
            "-i with -r": ["-r", files["ref1"], "-i", rows],
            "stdin": ["-r", files["ref1"]],
            "-c": ["-c", rows, "-r", files["ref1"]],
            "-r with -c": ["-c", files["preds"], "-r", rows],
            "json first line": ["-r", looks, "-i", files["preds"]]}[where]
    if where == "stdin":
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(rows.read_bytes())))
    rc, out, err = cli(["score", *argv], capsys)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and "looks like JSON" in err and "would be scored as plain text" in err
    assert ("-i rows.jsonl" in err) or ("plain text files" in err)  # what to do instead


def test_text_that_merely_starts_with_a_brace_is_scored(tmp_path, capsys):
    preds = lines_file(tmp_path / "p.txt", ["{curly} words here", "more words"])
    refs = lines_file(tmp_path / "r.txt", ["{curly words", "more"])
    rc, _, err = cli(["score", "-r", refs, "-i", preds, "--resamples", "0"], capsys)
    assert rc == 0, err


# --------------------------------------------------------------------------- 4. one JSON schema


def _documents(files, tmp_path, capsys, monkeypatch) -> dict[str, dict]:
    docs = {}
    runs = {
        "one system": ["-r", files["ref1"], "-i", files["preds"], "--resamples", "20"],
        "two systems": ["-r", files["ref1"], "-i", files["preds"], files["other"], "--resamples", "20",
                        "--test-resamples", "20"],
        "jsonl": ["-i", files["rows"], "--resamples", "0"],
        "rouge155 averages": ["-i", files["rows"], "--average", "rouge155", "--resamples", "20"],
        "single pair": ["-c", files["preds"], "-r", files["ref1"], files["ref2"]],
    }
    for name, argv in runs.items():
        rc, out, err = cli(["score", *argv, "--json"], capsys)
        assert rc == 0, (name, err)
        docs[name] = json.loads(out)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(files["preds"].read_bytes())))
    rc, out, _ = cli(["score", "-r", files["ref1"], "--json", "--resamples", "0"], capsys)
    docs["stdin"] = json.loads(out)
    result = rouge2.evaluate([r["candidate"] for r in ROWS], [r["references"][0] for r in ROWS], resamples=10)
    docs["Evaluation.to_dict"] = result.to_dict()
    docs["Evaluation.to_json"] = json.loads(result.to_json())
    return docs


def test_every_door_prints_one_shape_valid_against_the_shipped_schema(files, tmp_path, capsys, monkeypatch):
    schema = schemas.json_schema(schemas.SCORE)
    jsonschema.Draft202012Validator.check_schema(schema)
    docs = _documents(files, tmp_path, capsys, monkeypatch)
    keys = {name: list(doc) for name, doc in docs.items()}
    assert len({tuple(k) for k in keys.values()}) == 1, keys  # the same top-level keys, in the same order
    for name, doc in docs.items():
        jsonschema.validate(doc, schema)
        assert doc["schema"] == "rouge2.score/1"
        for system in doc["systems"]:
            assert list(system["scores"]) == doc["measures"], name
    assert docs["single pair"]["mode"] == "pair" and docs["single pair"]["systems"][0]["n"] == 1
    assert docs["single pair"]["confidence"] is None
    assert [c["system"] for c in docs["two systems"]["comparisons"]] == [str(files["other"])] * 3
    assert all(doc["comparisons"] == [] for name, doc in docs.items() if name != "two systems")
    assert all("rouge155" in s for m in docs["rouge155 averages"]["systems"][0]["scores"].values()
               for s in m.values())


def test_the_schema_rejects_the_old_shapes():
    schema = schemas.json_schema(schemas.SCORE)
    old = {"rouge-1": {"recall": {"mean": 0.5, "ci": [0.4, 0.6]}}, "n": 3, "confidence": 0.95, "signature": "x"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(old, schema)


def test_correlate_json_is_one_envelope(tmp_path, capsys):
    from rouge2.config.yaml_config import load_config
    from rouge2.run.runner import run

    paper = REPO / "resources" / "samples" / "paper-example"
    cfg = tmp_path / "r.yaml"
    cfg.write_text(f"inputs: {{format: java-project, path: {paper}}}\nmeasures: [rouge-1, rouge-2]\n"
                   f"outputs: {{dir: {tmp_path / 'out'}, console: false}}\n")
    run(load_config(cfg), progress=False)
    judged = tmp_path / "j.csv"
    judged.write_text("task,system,relevance\ntask1,syssum1.txt,4\ntask1,syssum2.txt,2\n")
    schema = schemas.json_schema(schemas.CORRELATE)
    jsonschema.Draft202012Validator.check_schema(schema)
    shapes = []
    for extra in ([], ["--compare", "rouge-1", "rouge-2"]):
        rc, out, err = cli(["correlate", tmp_path / "out", "--judgments", judged, "--level", "summary",
                            "--resamples", "20", "--json", *extra], capsys)
        assert rc == 0, err
        doc = json.loads(out)
        jsonschema.validate(doc, schema)
        shapes.append(list(doc))
        assert doc["schema"] == "rouge2.correlate/1" and doc["correlations"]
        assert bool(doc["comparisons"]) is bool(extra)
        assert doc["settings"]["levels"] == ["summary"] and doc["settings"]["resamples"] == 20
    assert shapes[0] == shapes[1]


# --------------------------------------------------------------------------- 5. -c mode


@pytest.mark.parametrize("flag", [["--resamples", "10"], ["--confidence", "0.9"], ["--seed", "3"],
                                  ["--test", "paired-bootstrap"], ["--test-resamples", "5"],
                                  ["--average", "rouge155"], ["--average", "mean"]])
def test_single_pair_mode_refuses_corpus_flags(files, capsys, flag):
    rc, out, err = cli(["score", "-c", files["preds"], "-r", files["ref1"], *flag], capsys)
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert flag[0] in err and "does not apply" in err


def test_single_pair_mode_honours_its_flags(files, tmp_path, capsys):
    per = tmp_path / "per.jsonl"
    rc, out, err = cli(["score", "-c", files["preds"], "-r", files["ref1"], "-m", "rouge-1", "rouge-su4",
                        "--stem", "--per-summary", per, "--progress", "on"], capsys)
    assert rc == 0
    lines = out.splitlines()
    assert lines[-1].startswith("rouge2:") and "stem:rouge155" in lines[-1] and "nrefs:1" in lines[-1]
    assert [x.split()[0] for x in lines[1:-1]] == ["rouge-1", "rouge-su4"]
    direct = rouge2.score(files["preds"].read_text(), [files["ref1"].read_text()], ["rouge-1", "rouge-su4"],
                          stem=True)
    assert f"{direct['rouge-su4'].fmeasure:8.5f}" in lines[2]
    (row,) = [json.loads(x) for x in per.read_text().splitlines()]
    assert row["scores"]["rouge-1"]["fmeasure"] == direct["rouge-1"].fmeasure
    assert "scoring" in err  # the bar


# --------------------------------------------------------------------------- 7. --progress


@pytest.mark.parametrize("mode,bars", [("on", True), ("off", False), ("auto", False)])
def test_score_progress_bars(files, capsys, mode, bars):
    rc, _, err = cli(["score", "-r", files["ref1"], "-i", files["preds"], files["other"], "--resamples", "20",
                      "--test-resamples", "20", "--progress", mode], capsys)
    assert rc == 0
    for phase in ("scoring", "bootstrap", "tests"):
        assert (phase in err) is bars, phase


def test_progress_changes_no_number(files, capsys):
    outs = [cli(["score", "-r", files["ref1"], "-i", files["preds"], "--json", "--progress", m], capsys)[1]
            for m in ("on", "off")]
    assert json.loads(outs[0]) == json.loads(outs[1])


# --------------------------------------------------------------------------- 6. the Java migration


def _java_sample(tmp_path: Path) -> Path:
    java = DATA / "data" / "rouge2_java"
    root = tmp_path / "java"
    shutil.copytree(java / "v1.2.2" / "projects", root / "projects")
    shutil.copytree(java / "repo_root" / "resources", root / "resources")
    shutil.copy(java / "v1.2.2" / "rouge.properties", root / "rouge.properties")
    return root


def test_converted_config_and_its_run_say_the_numbers_differ(tmp_path, capsys, monkeypatch):
    root = _java_sample(tmp_path)
    monkeypatch.chdir(root)
    rc, yaml_text, _ = cli(["convert-properties", "rouge.properties"], capsys)
    assert rc == 0
    notes = [x for x in yaml_text.splitlines() if "differ from the Java jar" in x]
    assert len(notes) == 1 and "docs/differences.md#java-rouge-20-ganesan" in notes[0]
    (root / "run.yaml").write_text(yaml_text)
    rc, _, err = cli(["run", "run.yaml"], capsys)
    assert rc == 0
    assert [x for x in err.splitlines() if "note:" in x] == [f"rouge2 run: {notes[0][2:]}"]
    # the anchor exists
    assert "\n## Java ROUGE 2.0 (Ganesan)\n" in (REPO / "docs/differences.md").read_text()
    rc, _, err = cli(["run", REPO / "configs/paper-example-1.1.yaml", "--progress", "off", "-q"], capsys)
    assert "differ from the Java jar" not in err  # not a converted config


def test_config_doc_no_longer_promises_the_jars_numbers():
    text = (REPO / "docs/config.md").read_text()
    assert "keep their numbers" not in text
    assert "8 of its 12 rows differ" in text


# --------------------------------------------------------------------------- 8. HF evaluate parity


def _data(n=6):
    preds = [r["candidate"] for r in ROWS[:n]]
    single = [r["references"][0] for r in ROWS[:n]]
    several = [r["references"][:3] for r in ROWS[:n]]
    return preds, single, several


@pytest.mark.parametrize("multi", [False, True])
def test_load_add_add_batch_compute_is_todays_compute(multi):
    preds, single, several = _data()
    refs = several if multi else single
    rouge = hf.load("rouge")
    rouge.add(prediction=preds[0], reference=refs[0])
    rouge.add_batch(predictions=preds[1:4], references=refs[1:4])
    assert len(rouge) == 4
    got = rouge.compute(predictions=preds[4:], references=refs[4:], use_stemmer=True)  # added, then computed
    assert_same(got, hf.compute(preds, refs, use_stemmer=True))
    assert_same(got, metric(preds, refs, use_stemmer=True))  # rouge-score's numbers, as the metric computes
    assert len(rouge) == 0  # compute forgets what it scored, as the metric does
    rouge.add_batch(predictions=preds[:2], references=refs[:2])
    assert_same(rouge.compute(use_aggregator=False, rouge_types=["rouge1"]),
                metric(preds[:2], refs[:2], use_aggregator=False, rouge_types=["rouge1"]))


def test_load_seed_is_the_metrics_seed():
    preds, single, _ = _data()
    assert_same(hf.load("rouge", seed=5).compute(predictions=preds, references=single),
                hf.compute(preds, single, seed=5))
    np.random.seed(123)
    _, keys, pos, *_ = np.random.get_state()
    expected_seed = int(keys[pos] if pos < 624 else keys[0])  # what evaluate.load does without a seed
    assert hf.load("rouge", seed=None).seed == expected_seed


@pytest.mark.parametrize("call,message", [
    (lambda r: r.compute(), "call add or add_batch at least once"),
    (lambda r: r.compute(predictions=["a"]), "give both predictions= and references="),
    (lambda r: (r.add(prediction="a", reference="b"), r.add(prediction="a", reference=["b"])), "same kind"),
    (lambda r: r.add_batch(predictions=["a", "b"], references=["a"]), "Mismatch in the number"),
    (lambda r: r.add(prediction=3, reference="a"), "must be a string"),
    (lambda r: r.compute(predictions=["a"], references=["a"], seed=1), "load('rouge', seed=...)"),
])
def test_metric_object_misuse_is_one_line(call, message):
    with pytest.raises(ValueError) as info:  # every error is a ValueError, as the metric's are
        call(hf.load("rouge"))
    assert isinstance(info.value, rouge2.UserError) and message in str(info.value) and "\n" not in str(info.value)


def test_load_knows_the_rouge_metric_only():
    with pytest.raises(ValueError, match="'rouge' metric only"):
        hf.load("bleu")
    assert hf.load("evaluate-metric/rouge", keep_in_memory=True, cache_dir="/nonexistent").name == "rouge"
    with pytest.raises(ValueError, match="distributed"):
        hf.load("rouge", num_process=2)


def test_missing_numpy_is_one_line_at_import():
    code = ("import sys; sys.modules['numpy'] = None\n"
            "try:\n    from rouge2.compat.rouge_score import scoring\n"
            "except ImportError as e:\n    print(type(e).__name__, '|', e)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    kind, _, message = proc.stdout.strip().partition(" | ")
    assert kind == "MissingDependency" and "\n" not in message
    assert "pip install 'rouge2[compat]'" in message


def test_compat_extra_is_documented():
    assert "rouge2[compat]" in (REPO / "docs/migrating.md").read_text()
    assert '".[compat]"' in (REPO / "README.md").read_text()


# --------------------------------------------------------------------------- 9. the small mismatches


def test_summeval_format_is_documented_and_suggested(tmp_path):
    from rouge2.config.yaml_config import parse_config
    from rouge2.io.inputs import read_inputs

    table = next(x for x in (REPO / "docs/config.md").read_text().splitlines() if x.startswith("| `format` |"))
    assert "`summeval`" in table
    data = DATA / "data" / "summeval" / "summeval.jsonl"
    cfg = parse_config(f"inputs: {{format: jsonl, path: {data}}}\n", source=tmp_path / "c.yaml", base=tmp_path)
    with pytest.raises(rouge2.UserError, match="set inputs.format: summeval"):
        next(read_inputs(cfg.inputs))


def test_interruption_line_is_the_one_docs_safety_shows(monkeypatch, capsys):
    import rouge2.cli as cli_module

    def interrupted(argv):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_module, "_dispatch", interrupted)
    assert cli_module.main(["score"]) == 130
    err = capsys.readouterr().err
    assert err == "rouge2: stopped by SIGINT; no output file was changed\n"
    shown = re.search(r"```\n(rouge2: stopped by SIG[A-Z]+; no output file was changed)\n```",
                      (REPO / "docs/safety.md").read_text())
    assert shown and shown[1].replace("SIGTERM", "SIGINT") == err.strip()


def test_settings_folder_fallback_is_not_called_the_scripts():
    text = (REPO / "docs/config.md").read_text()
    assert "then from the settings file's folder, as the script does" not in text
    assert "where the script stops" in text


@pytest.mark.parametrize("name", sorted(p.stem for p in (REPO / "configs").glob("*.yaml")))
def test_printed_examples_say_nothing_stale(name, capsys):
    rc, out, _ = cli(["example", name], capsys)
    assert rc == 0
    comments = "\n".join(x for x in out.splitlines() if x.lstrip().startswith("#") or " # " in x)
    for stale in ("configs/", "resources/", "../", "out/", "top of the repository"):
        assert stale not in comments, (name, stale)


def test_score_help_explains_measures_and_encoding(capsys):
    with pytest.raises(SystemExit):
        cli_main(["score", "-h"])
    out = capsys.readouterr().out
    flat = " ".join(out.split())
    assert re.search(r"-m NAME \[NAME \.\.\.\], --measures NAME \[NAME \.\.\.\] measures to compute", flat)
    assert re.search(r"--encoding NAME text encoding of every input file", flat)


def test_decode_error_names_the_encoding_flag(tmp_path, capsys):
    bad = tmp_path / "latin.txt"
    bad.write_bytes("café\n".encode("latin-1"))
    ref = lines_file(tmp_path / "r.txt", ["cafe"])
    rc, _, err = cli(["score", "-r", ref, "-i", bad], capsys)
    assert rc == 2 and "cannot decode byte 0xe9 as utf-8" in err and "set --encoding to the file's" in err
    rc, _, err = cli(["score", "-r", ref, "-i", bad, "--encoding", "latin-1", "--resamples", "0"], capsys)
    assert rc == 0


def _topic_report(tmp_path, items):
    from test_topic_report import _report

    paths, _ = _report(tmp_path, items, scorer_options={"tagger": "pretagged"})
    return paths


def test_topic_report_headers_match_the_glossary_and_counts_read_right(tmp_path):
    from rouge2.io.inputs import InputItem

    items = [InputItem("t1", "A", "screen/NN", ("screen/NN battery/NN",), ("R1",))]
    paths = _topic_report(tmp_path, items)
    html = paths["html"].read_text()
    summary = json.loads(paths["summary_json"].read_text())
    heads = set(re.findall(r'<th data-type="num">([^<]+)</th>', html))
    for word in ("tasks", "occurs"):
        assert word in summary["definitions"] and word in heads
    assert not heads & {"pairs", "as reference topic", "used"}
    assert "1 system, 1 task, 1 summary." in html and "1 tasks" not in html
    assert "1 references" not in " ".join(p.read_text() for p in tmp_path.rglob("*.html"))
    assert "lowest:" not in html  # one system: no "highest ... lowest"
    items.append(InputItem("t1", "B", "screen/NN", ("screen/NN battery/NN",), ("R1",)))
    html = _topic_report(tmp_path / "two", items)["html"].read_text()
    assert "All 2 systems cover 50.0%" in html and "lowest:" not in html  # a tie
