"""Input readers: Java project layout, ROUGE-1.5.5 XML, JSONL/CSV/TSV; encodings; sentences."""

import json
from pathlib import Path

import pytest

from rouge2.analysis.sentences import split_sentences
from rouge2.errors import UserError
from rouge2.io.inputs import Columns, InputsConfig, decoded_lines, read_inputs

REPO = Path(__file__).resolve().parents[1]


def project(tmp_path, refs, systems):
    for sub, files in (("reference", refs), ("system", systems)):
        d = tmp_path / "proj" / sub
        d.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (d / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return tmp_path / "proj"


def items(fmt, path, **kw):
    return list(read_inputs(InputsConfig(format=fmt, path=path, **kw)))


def test_java_project_pairs_every_system_with_all_task_references(tmp_path):
    root = project(tmp_path,
                   {"t1_ref1.txt": "A b.\r\nC d.", "t1_ref2.txt": "e f", "t2_gold.txt": "g",
                    ".DS_Store": "x"},
                   {"t1_sysA.txt": "a b", "t1_sysB.txt": "c", "t2_sysA.txt": "g"})
    got = items("java-project", root)
    assert [(i.task, i.system) for i in got] == [("t1", "sysA.txt"), ("t1", "sysB.txt"), ("t2", "sysA.txt")]
    assert got[0].references == ("A b.\nC d.", "e f")
    assert got[0].reference_names == ("ref1.txt", "ref2.txt")
    assert got[2].references == ("g",)


def test_task_is_text_before_first_underscore(tmp_path):
    root = project(tmp_path, {"news1_ref_a.txt": "x"}, {"news1_my_system.txt": "x"})
    (item,) = items("java-project", root)
    assert item.task == "news1" and item.system == "my_system.txt"
    assert item.reference_names == ("ref_a.txt",)


def test_file_name_without_underscore_is_an_error(tmp_path):
    root = project(tmp_path, {"t1_ref.txt": "x"}, {"systemA.txt": "x"})
    with pytest.raises(UserError) as info:
        items("java-project", root)
    msg = str(info.value)
    assert msg.startswith(str(root / "system" / "systemA.txt"))
    assert "file name 'systemA.txt' has no '_'" in msg
    assert "<task>_<name>" in msg and "text before the first '_'" in msg


def test_system_task_without_reference_is_an_error(tmp_path):
    root = project(tmp_path, {"t1_ref.txt": "x"}, {"t2_sys.txt": "x"})
    with pytest.raises(UserError, match="task 't2' has no reference summaries"):
        items("java-project", root)


def test_missing_project_folder(tmp_path):
    with pytest.raises(UserError, match="project folder not found"):
        items("java-project", tmp_path / "nothing")


def test_utf8_bom_is_stripped(tmp_path):
    root = project(tmp_path, {"t_r.txt": b"\xef\xbb\xbfhello world"}, {"t_s.txt": b"\xef\xbb\xbfhello"})
    (item,) = items("java-project", root)
    assert item.candidate == "hello" and item.references == ("hello world",)


def test_undecodable_file_names_file_and_line(tmp_path):
    root = project(tmp_path, {"t_r.txt": "ok"}, {"t_s.txt": b"line one\nline two\ncaf\xe9\n"})
    with pytest.raises(UserError) as info:
        items("java-project", root)
    msg = str(info.value)
    assert msg.startswith(f"{root / 'system' / 't_s.txt'}:3: cannot decode byte 0xe9 as utf-8")
    assert "set the encoding" in msg


def test_configured_encoding(tmp_path):
    root = project(tmp_path, {"t_r.txt": "café".encode("latin-1")}, {"t_s.txt": "café".encode("latin-1")})
    (item,) = items("java-project", root, encoding="latin-1")
    assert item.candidate == "café"
    root16 = project(tmp_path / "u16", {"t_r.txt": "für".encode("utf-16")}, {"t_s.txt": "für".encode("utf-16")})
    (item,) = items("java-project", root16, encoding="utf-16")
    assert item.candidate == "für"


def test_jsonl_rows_and_undecodable_line(tmp_path):
    p = tmp_path / "rows.jsonl"
    rows = [{"task": "d1", "system": "A", "candidate": "x y", "references": ["x", "y z"]},
            {"task": "d1", "system": "B", "candidate": ["s1", "s2"], "references": "x"}]
    p.write_bytes(b"\xef\xbb\xbf" + "\n".join(json.dumps(r) for r in rows).encode() + b"\n\n")
    got = items("jsonl", p)
    assert got[0].references == ("x", "y z") and got[0].reference_names == ("ref1", "ref2")
    assert got[1].candidate == "s1\ns2" and got[1].references == ("x",)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(json.dumps(rows[0]).encode() + b'\n{"task": "\xff"}\n')
    with pytest.raises(UserError, match=r"bad.jsonl:2: cannot decode byte 0xff as utf-8"):
        items("jsonl", bad)


def test_jsonl_errors_name_line_and_field(tmp_path):
    p = tmp_path / "rows.jsonl"
    p.write_text('{"task": "d", "system": "A", "candidate": "x", "references": "x"}\n{"task": "d"\n')
    with pytest.raises(UserError, match=r"rows.jsonl:2: not valid JSON"):
        items("jsonl", p)
    p.write_text('{"task": "d", "system": "A", "summary": "x", "references": "x"}\n')
    with pytest.raises(UserError, match=r"rows.jsonl:1: the row has no field 'candidate'.*fields in the row: "
                                        r"task, system, summary, references"):
        items("jsonl", p)


def test_jsonl_custom_columns(tmp_path):
    p = tmp_path / "rows.jsonl"
    p.write_text(json.dumps({"doc": 7, "model": "m", "summary": "a", "golds": ["a"], "names": ["g1"]}) + "\n")
    cols = Columns(task="doc", system="model", candidate="summary", references=("golds",),
                   reference_names="names")
    (item,) = items("jsonl", p, columns=cols)
    assert (item.task, item.system, item.reference_names) == ("7", "m", ("g1",))


def test_csv_and_tsv(tmp_path):
    p = tmp_path / "rows.csv"
    p.write_text('task,system,candidate,ref1,ref2\nd1,A,"multi\nline",r one,\nd2,A,c,"x, y",z\n')
    cols = Columns(references=("ref1", "ref2"))
    got = items("csv", p, columns=cols)
    assert got[0].candidate == "multi\nline" and got[0].references == ("r one",)
    assert got[0].reference_names == ("ref1",)
    assert got[1].references == ("x, y", "z")
    t = tmp_path / "rows.tsv"
    t.write_text('task\tsystem\tcandidate\treferences\nd1\tA\tc\t["a", "b"]\n')
    (item,) = items("tsv", t)
    assert item.references == ("a", "b")


def test_csv_missing_column(tmp_path):
    p = tmp_path / "rows.csv"
    p.write_text("task,system,summary,references\n")
    with pytest.raises(UserError, match=r"rows.csv:1: no column 'candidate' in the header"):
        items("csv", p)


def test_rouge155_xml_spl_and_see(shared):
    spl = items("rouge155-xml", REPO / "resources" / "samples" / "rouge155" / "settings.xml")
    assert spl and {i.system for i in spl} == {"M0", "M8", "M22"}
    assert all(len(i.references) == 4 for i in spl)
    see = items("rouge155-xml", shared / "fixtures" / "rouge155" / "see-opinosis" / "config.xml")
    first = next(i for i in see if i.system == "G5S2R2_NOCOLLAPSE")
    # sentences exactly as the drop-in command reads them (one reader for both doors)
    assert isinstance(first.candidate, tuple) and first.candidate[0].startswith("accurate , pois")
    assert not any("<" in s for s in first.candidate)


def test_rouge155_xml_missing_peer(tmp_path):
    x = tmp_path / "s.xml"
    x.write_text('<ROUGE-EVAL><EVAL ID="1"><PEER-ROOT>p</PEER-ROOT><MODEL-ROOT>m</MODEL-ROOT>'
                 '<INPUT-FORMAT TYPE="SPL"/><PEERS><P ID="A">a.txt</P></PEERS>'
                 '<MODELS><M ID="1">r.txt</M></MODELS></EVAL></ROUGE-EVAL>')
    with pytest.raises(UserError, match=r"s.xml: EVAL 1: file not found: .*m/r.txt"):
        items("rouge155-xml", x)


def test_sentence_modes():
    text = "Mr. Smith went to Washington. He smiled!\n\nThen he left ."
    assert split_sentences(text, "lines") == ["Mr. Smith went to Washington. He smiled!", "Then he left ."]
    assert split_sentences(text, "splitter") == [
        "Mr. Smith went to Washington.", "He smiled!", "Then he left ."]
    assert split_sentences(text, "none") == ["Mr. Smith went to Washington. He smiled! Then he left ."]
    assert split_sentences("The U.S. team won . J. R. Smith scored .", "splitter") == [
        "The U.S. team won .", "J. R. Smith scored ."]


def test_readers_stream(tmp_path):
    p = tmp_path / "rows.jsonl"
    p.write_text(json.dumps({"task": "d", "system": "A", "candidate": "x", "references": "x"}) + "\n"
                 + "not json\n")
    stream = read_inputs(InputsConfig(format="jsonl", path=p))
    assert next(stream).system == "A"  # the first row arrives before the bad line is read
    with pytest.raises(UserError):
        next(stream)


def test_decoded_lines_counts_lines(tmp_path):
    p = tmp_path / "f.txt"
    p.write_bytes(b"a\r\nb\nc")
    assert [n for n, _ in decoded_lines(p)] == [1, 2, 3]


def test_an_input_format_is_one_registration(tmp_path):
    # a format registered after import (as a plugin would) is accepted by the
    # config schema, counted for the progress bar and read by a YAML run
    from rouge2.config.yaml_config import load_config
    from rouge2.io.inputs import INPUT_FORMATS, InputFormat, InputItem, count_items
    from rouge2.run.runner import run

    def read_pipes(cfg):  # "task|system|candidate|reference" lines
        for line in cfg.path.read_text(encoding="utf-8").splitlines():
            task, system, cand, ref = line.split("|")
            yield InputItem(task, system, cand, (ref,), ("ref",))

    INPUT_FORMATS.add("pipes", InputFormat(read_pipes, lambda cfg: len(cfg.path.read_text().splitlines())),
                      "task|system|candidate|reference lines")
    try:
        (tmp_path / "rows.txt").write_text("d1|A|the cat sat|the cat sat down\nd1|B|a dog|the cat sat down\n")
        (tmp_path / "run.yaml").write_text("inputs: {format: pipes, path: rows.txt}\nmeasures: [rouge-1]\n"
                                           "outputs: {dir: out}\n")
        cfg = load_config(tmp_path / "run.yaml")
        assert count_items(cfg.inputs) == 2
        result = run(cfg)
        assert sorted(result.variants[None].systems) == ["A", "B"]
        assert result.variants[None].pairs[("d1", "A")]["rouge-1"].recall == 0.75
    finally:
        INPUT_FORMATS.entries.pop("pipes", None)
        INPUT_FORMATS._lookup.pop("pipes", None)
    with pytest.raises(UserError, match="inputs.format: 'pipes' is not allowed"):
        load_config(tmp_path / "run.yaml")
