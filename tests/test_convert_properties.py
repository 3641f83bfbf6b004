"""``rouge2 convert-properties``: Java ROUGE 2.0 rouge.properties -> a YAML config that runs."""

import re
import shutil
from pathlib import Path

import pytest
import yaml

from rouge2.cli.run import convert_properties_main, run_main
from rouge2.config.properties import convert_properties, java_stopword_entries, parse_properties
from rouge2.config.yaml_config import parse_config
from rouge2.errors import UserError


def java(shared) -> Path:
    return shared / "data" / "rouge2_java"


def opinosis_properties(shared):
    return sorted((java(shared) / "generated_by_jar_v1.2.2" / "opinosis_examples").glob("*.properties"))


def test_opinosis_properties_convert_to_valid_configs(shared):
    files = opinosis_properties(shared)
    assert len(files) == 6
    for props in files:
        cwd = props.parent  # the jar ran in this folder
        text = convert_properties(props, cwd=cwd)
        cfg = parse_config(text, source=f"{props.name}.yaml", base=cwd)
        assert cfg.inputs.format == "java-project"
        assert cfg.inputs.path == cwd / "project"
        # Java users keep their numbers: the converter writes the Java tool's mode explicitly
        assert cfg.options.multi_reference == "average" and cfg.options.alpha == 0.5
        # never the Java tool's own CSV (props.stem + ".csv" in cwd): rouge2-results/ instead
        assert cfg.outputs.csv == cwd / "rouge2-results" / (props.stem + ".csv")
        assert cfg.outputs.dir == cwd / "rouge2-results"
        assert f'# the Java tool wrote its CSV to "{cwd / (props.stem + ".csv")}" (outputFile);' in text
        raw = yaml.safe_load(text)
        name = props.stem
        if name.startswith("normal"):
            assert cfg.measures == ("rouge-1", "rouge-2", "rouge-3", "rouge-l", "rouge-s4", "rouge-su4")
            assert (cfg.options.stem == "snowball:english") == ("stem-true" in name)
            assert (cfg.options.stopwords == "rouge2-java") == ("stop-true" in name)
            assert ("stop-false" in name) == (raw["preprocess"]["stopwords"] is False)
        elif name.startswith("topicUniq"):
            assert cfg.measures == ("rouge-topicuniq-nn|jj",)
        else:
            assert cfg.measures == ("rouge-topic-nn|jj",)
            assert "Stanford model 'wsj-0-18-left3words-nodistsim.tagger'" in text


def test_paths_resolve_from_current_directory_not_properties_folder(shared, tmp_path, monkeypatch):
    props = opinosis_properties(shared)[0]
    monkeypatch.chdir(tmp_path)
    text = convert_properties(props)
    raw = yaml.safe_load(text)
    assert raw["inputs"]["path"] == str(tmp_path / "project")
    assert raw["outputs"]["dir"] == str(tmp_path / "rouge2-results")
    assert raw["outputs"]["csv"] == "normal_stop-false_stem-false.csv"
    rel = yaml.safe_load(convert_properties(props, cwd=props.parent, relative_to=props.parent))
    assert rel["inputs"]["path"] == "project"
    assert rel["outputs"]["dir"] == "rouge2-results"


def _java_sample(shared, tmp_path) -> Path:
    """The Java tool's distribution folder: rouge.properties, projects/, resources/."""
    root = tmp_path / "rouge2-java"
    shutil.copytree(java(shared) / "v1.2.2" / "projects", root / "projects")
    shutil.copytree(java(shared) / "repo_root" / "resources", root / "resources")
    shutil.copy(java(shared) / "v1.2.2" / "rouge.properties", root / "rouge.properties")
    return root


def _published(shared) -> Path:
    return java(shared) / "generated_by_jar_v1.2.2" / "test-summarization" / "results_with_stopwords_file_present.csv"


def test_convert_then_run_from_that_folder(shared, tmp_path, monkeypatch, capsys):
    root = _java_sample(shared, tmp_path)
    # the Java tool's results, as it left them in its folder
    shutil.copy(_published(shared), root / "results.csv")
    (root / "results.csv").chmod(0o444)
    jar_csv = (root / "results.csv").read_bytes()
    monkeypatch.chdir(root)
    assert convert_properties_main(["rouge.properties"]) == 0
    (root / "run.yaml").write_text(capsys.readouterr().out)
    assert run_main(["run.yaml", "--quiet", "--progress", "off"]) == 0
    # the Java tool's file is untouched; rouge2's is in rouge2-results/
    assert (root / "results.csv").read_bytes() == jar_csv
    assert oct((root / "results.csv").stat().st_mode & 0o777) == "0o444"
    ours = (root / "rouge2-results" / "results.csv").read_text().splitlines()
    published = _published(shared).read_text().splitlines()
    assert ours[0] == published[0]
    # ROUGE-1 and ROUGE-2 of the English task, where the Java tool is not wrong,
    # give its published numbers (row order within a group may differ).
    for label in ("ROUGE-1+StopWordRemoval,TASK1,", "ROUGE-2+StopWordRemoval,TASK1,"):
        assert sorted(x for x in ours if x.startswith(label)) == \
               sorted(x for x in published if x.startswith(label))
    # The Java tool computes ROUGE-L on sets of words; rouge2 does not (docs explain).
    assert len(ours) == len(published)


def test_running_a_config_pointed_at_the_java_csv_is_refused(shared, tmp_path, monkeypatch):
    root = _java_sample(shared, tmp_path)
    shutil.copy(_published(shared), root / "results.csv")
    text = convert_properties(root / "rouge.properties", cwd=root)
    # a user points the CSV back at the Java tool's file
    (root / "run.yaml").write_text(text.replace('csv: "results.csv"', f'csv: "{root / "results.csv"}"'))
    with pytest.raises(UserError, match=rf"refusing to replace {re.escape(str(root / 'results.csv'))}: "
                                        r"rouge2 did not write it .*outputs\.overwrite: true"):
        run_main([str(root / "run.yaml"), "--quiet", "--progress", "off"])
    assert (root / "results.csv").read_bytes() == _published(shared).read_bytes()


def test_output_name_never_collides_with_the_java_csv(tmp_path):
    p = tmp_path / "rouge.properties"
    for output_file, expected in (("rouge2-results/results.csv", "results.rouge2.csv"),
                                  ("ROUGE2-Results/Scores.CSV", "Scores.rouge2.CSV"),
                                  ("rouge2-results/scores", "scores.rouge2"),
                                  ("out/results.csv", "results.csv")):
        p.write_text(f"outputFile={output_file}\n")
        raw = yaml.safe_load(convert_properties(p, cwd=tmp_path))
        assert raw["outputs"]["dir"] == str(tmp_path / "rouge2-results")
        assert raw["outputs"]["csv"] == expected
        assert tmp_path / "rouge2-results" / expected != tmp_path / output_file


def test_java_crlf_stopword_file_is_the_bundled_list(shared, tmp_path, monkeypatch, capsys):
    """The Java repository's distribute/resources/stopwords-rouge-default.txt has
    CRLF line ends; it holds the same words as the Java tool reads them."""
    root = _java_sample(shared, tmp_path)
    crlf = java(shared) / "repo_root" / "distribute" / "resources" / "stopwords-rouge-default.txt"
    assert b"\r\n" in crlf.read_bytes() and b"\x94" in crlf.read_bytes()
    shutil.copy(crlf, root / "resources" / "stopwords-rouge-default.txt")
    monkeypatch.chdir(root)
    assert convert_properties_main(["rouge.properties"]) == 0
    text = capsys.readouterr().out
    assert yaml.safe_load(text)["preprocess"]["stopwords"] == "rouge2-java"
    (root / "run.yaml").write_text(text)
    assert run_main(["run.yaml", "--quiet", "--progress", "off"]) == 0  # no 0x94 decoding error
    ours = (root / "rouge2-results" / "results.csv").read_text().splitlines()
    published = _published(shared).read_text().splitlines()
    for label in ("ROUGE-1+StopWordRemoval,TASK1,", "ROUGE-2+StopWordRemoval,TASK1,"):
        assert sorted(x for x in ours if x.startswith(label)) == \
               sorted(x for x in published if x.startswith(label))


def test_java_stopword_entries_as_the_java_tool_reads_them(shared, tmp_path):
    lf = (java(shared) / "repo_root" / "resources" / "stopwords-rouge-default.txt").read_bytes()
    words = java_stopword_entries(lf)
    assert len(words) == 318 and {"herse\x94", "itse\x94", "myse\x94", "a", "yourselves"} <= words
    # ISO-8859-1, one entry a line (CRLF, CR or LF), trimmed, lowercased
    assert java_stopword_entries(b"The \r\n\tof\rA\x94\nz") == {"the", "of", "a\x94", "z"}
    assert java_stopword_entries(b"a\n\nb\n") == {"a", "", "b"}
    assert java_stopword_entries(b"") == frozenset()
    variants = {
        "crlf": lf.replace(b"\n", b"\r\n"),
        "cr": lf.replace(b"\n", b"\r"),
        "upper, blanks, blank lines": b"\n" + lf.upper().replace(b"\n", b"  \n\n"),
    }
    for name, data in variants.items():
        f = tmp_path / f"{name}.txt"
        f.write_bytes(data)
        p = tmp_path / "rouge.properties"
        p.write_text(f"stopwords.file={f.name}\n")
        assert yaml.safe_load(convert_properties(p, cwd=tmp_path))["preprocess"]["stopwords"] == \
            "rouge2-java", name
    # one word fewer is another list: its path is kept
    f = tmp_path / "fewer.txt"
    f.write_bytes(lf.replace(b"\nyourselves", b""))
    p.write_text(f"stopwords.file={f.name}\n")
    assert yaml.safe_load(convert_properties(p, cwd=tmp_path))["preprocess"]["stopwords"] == str(f)


def test_parse_properties_follows_java_rules():
    text = ("# comment\n! also a comment\nkey1 = value one  \nkey2:two\nkey3 three\n"
            "multi = a,\\\n    b\nesc = tab\\there \\u0041\n")
    props = parse_properties(text)
    assert props["key1"] == ("value one  ", 3)
    assert props["key2"][0] == "two" and props["key3"][0] == "three"
    assert props["multi"][0] == "a,b"
    assert props["esc"][0] == "tab\there A"


def test_missing_properties_file(tmp_path):
    with pytest.raises(UserError, match="properties file not found"):
        convert_properties(tmp_path / "rouge.properties")


def test_bad_ngram_names_line(tmp_path):
    p = tmp_path / "rouge.properties"
    p.write_text("project.dir=x\nngram=1,Q\n")
    with pytest.raises(UserError, match=r"rouge.properties:2: ngram item 'Q' is not allowed; "
                                        r"allowed items: 1..N, L, S<k>, SU<k>"):
        convert_properties(p, cwd=tmp_path)


def test_bad_stemmer_and_rouge_type(tmp_path):
    p = tmp_path / "rouge.properties"
    p.write_text("stemmer.use=true\nstemmer.name=klingonStemmer\n")
    with pytest.raises(UserError, match=r":2: stemmer.name 'klingonStemmer': unknown Snowball stemmer language 'klingon'"):
        convert_properties(p, cwd=tmp_path)
    p.write_text("rouge.type=fancy\n")
    with pytest.raises(UserError, match=r":1: rouge.type 'fancy' is not allowed; allowed values: "
                                        r"normal, topic, topicUniq"):
        convert_properties(p, cwd=tmp_path)


def test_defaults_and_console_output(tmp_path):
    p = tmp_path / "rouge.properties"
    p.write_text("output=console\nsynonyms.use=true\nstopwords.file=missing.txt\n")
    raw = yaml.safe_load(convert_properties(p, cwd=tmp_path))
    assert raw["measures"] == ["rouge-1"]
    assert raw["outputs"]["csv"] is False
    assert raw["preprocess"]["synonyms"] is True
    assert raw["preprocess"]["stopwords"] == str(tmp_path / "missing.txt")  # stopwords.use defaults to true
    assert raw["inputs"]["path"] == str(tmp_path / "test-summarization")
