"""Config validation: every user mistake is one line naming file, line, key and allowed values."""

from pathlib import Path

import pytest

import rouge2
from rouge2.config.yaml_config import load_config, parse_config
from rouge2.errors import UserError

REPO = Path(__file__).resolve().parents[1]
CONFIGS = sorted((REPO / "configs").glob("*.yaml"))


@pytest.fixture
def project(tmp_path):
    for sub in ("reference", "system"):
        (tmp_path / "proj" / sub).mkdir(parents=True)
    (tmp_path / "proj" / "reference" / "t1_ref.txt").write_text("a b c\n")
    (tmp_path / "proj" / "system" / "t1_sys.txt").write_text("a b\n")
    return tmp_path


def write(tmp_path, text, name="run.yaml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def error_of(path) -> str:
    with pytest.raises(UserError) as info:
        load_config(path)
    msg = str(info.value)
    assert "\n" not in msg
    return msg


BASE = "inputs:\n  format: java-project\n  path: proj\n"


def test_minimal_config_and_defaults(project):
    cfg = load_config(write(project, BASE))
    assert cfg.inputs.path == project / "proj"
    assert cfg.measures == ("rouge-1", "rouge-2", "rouge-l")
    assert cfg.options.multi_reference == "pooled"  # the same default in every door
    assert cfg.options.alpha == 0.5
    assert cfg.outputs.csv == project / "rouge2-results" / "results.csv"
    assert cfg.outputs.console is True
    assert cfg.options == rouge2.Options()  # nothing set: the library's defaults


@pytest.mark.parametrize("path", CONFIGS, ids=[p.name for p in CONFIGS])
def test_bundled_configs_validate(path, shared, tmp_path):
    text = path.read_text()
    if "summeval.jsonl" in text:  # the user puts the SummEval file next to the config
        text = text.replace(" summeval.jsonl", f" {shared / 'data/summeval/summeval.jsonl'}")
    if "space-aspects.jsonl" in text:  # built from SPACE as docs/aspects.md shows
        rows = tmp_path / "space-aspects.jsonl"
        rows.write_text('{"task": "t", "system": "s", "candidate": "a", "references": ["b"]}\n')
        text = text.replace(" space-aspects.jsonl", f" {rows}")
    cfg = parse_config(text, source=path, base=path.parent)
    assert cfg.measures


def test_missing_config_file(tmp_path):
    msg = error_of(tmp_path / "nope.yaml")
    assert msg == f"config file not found: {tmp_path / 'nope.yaml'}"


def test_malformed_yaml_names_file_and_line(project):
    p = write(project, BASE + "measures: [rouge-1,\n  rouge-2\n")
    msg = error_of(p)
    assert msg.startswith(f"{p}:")
    assert "malformed YAML" in msg
    line = int(msg[len(str(p)) + 1:].split(":")[0])
    assert line >= 4


def test_malformed_yaml_tab_indentation(project):
    p = write(project, "inputs:\n\tformat: jsonl\n")
    msg = error_of(p)
    assert msg.startswith(f"{p}:2: malformed YAML")


def test_unknown_key_with_suggestion(project):
    p = write(project, BASE + "preprocess:\n  stemm: true\n")
    msg = error_of(p)
    assert msg.startswith(f"{p}:5: unknown key 'stemm' in 'preprocess'")
    assert "did you mean 'stem'?" in msg
    assert "allowed keys: tokenizer, stem, stopwords, word_limit, byte_limit, synonyms" in msg


def test_unknown_top_level_key(project):
    msg = error_of(write(project, BASE + "measure: [rouge-1]\n"))
    assert ":4: unknown key 'measure'" in msg and "did you mean 'measures'?" in msg


def test_missing_required_key(project):
    msg = error_of(write(project, "inputs:\n  format: jsonl\n"))
    assert ":2: 'inputs' is missing the required key 'path'" in msg


def test_missing_inputs_section(project):
    msg = error_of(write(project, "measures: [rouge-1]\n"))
    assert "the config is missing the required key 'inputs'" in msg


def test_bad_choice_lists_allowed_values(project):
    msg = error_of(write(project, "inputs:\n  format: java\n  path: proj\n"))
    assert ":2: inputs.format: 'java' is not allowed" in msg
    assert "allowed values: java-project, rouge155-xml, jsonl, csv, tsv" in msg


def test_wrong_type(project):
    msg = error_of(write(project, BASE + "preprocess:\n  word_limit: ten\n"))
    assert ":5: preprocess.word_limit: expected a whole number of words (0: no limit), got 'ten'" in msg


def test_wrong_bool(project):
    msg = error_of(write(project, BASE + "outputs:\n  console: maybe\n"))
    assert ":5: outputs.console: expected true or false" in msg


def test_bad_measure(project):
    msg = error_of(write(project, BASE + "measures:\n  - rouge-1\n  - rouge-x\n"))
    assert ":6: measures: unknown measure 'rouge-x'" in msg


def test_missing_project_folder(tmp_path):
    p = write(tmp_path, "inputs:\n  format: java-project\n  path: missing-project\n")
    msg = error_of(p)
    assert msg.startswith(f"{p}:3: inputs.path: project folder not found: {tmp_path / 'missing-project'}")


def test_project_folder_without_system(tmp_path):
    (tmp_path / "proj" / "reference").mkdir(parents=True)
    msg = error_of(write(tmp_path, BASE))
    assert "has no 'system/' folder" in msg


def test_alpha_and_beta_exclusive(project):
    msg = error_of(write(project, BASE + "alpha: 0.5\nbeta: 1\n"))
    assert ":5: give alpha or beta, not both" in msg


def test_alpha_range(project):
    msg = error_of(write(project, BASE + "alpha: 2\n"))
    assert ":4: alpha: must be a number from 0 to 1" in msg


def test_beta_maps_to_options(project):
    cfg = load_config(write(project, BASE + "beta: 2\n"))
    assert cfg.options.alpha == 1 / (1 + 2.0 ** 2)


def test_bad_stem_language(project):
    msg = error_of(write(project, BASE + "preprocess:\n  stem: snowball:englsh\n"))
    assert "unknown Snowball stemmer language 'englsh'" in msg and "did you mean 'english'?" in msg


def test_stopwords_file_missing(project):
    msg = error_of(write(project, BASE + "preprocess:\n  stopwords: words/stop.txt\n"))
    assert ":5: preprocess.stopwords: stopword file" in msg


def test_stopwords_file_resolves_relative_to_config(project):
    (project / "stop.txt").write_text("the\n")
    cfg = load_config(write(project, BASE + "preprocess:\n  stopwords: stop.txt\n"))
    assert cfg.options.stopwords == "file:" + str(project / "stop.txt")


def test_unknown_encoding(project):
    msg = error_of(write(project, BASE + "  encoding: klingon\n"))
    assert ":4: inputs.encoding: unknown encoding 'klingon'" in msg


def test_duplicate_key(project):
    msg = error_of(write(project, BASE + "alpha: 0.5\nalpha: 0.6\n"))
    assert ":5: key 'alpha' appears twice" in msg


def test_empty_config(tmp_path):
    msg = error_of(write(tmp_path, "# nothing\n"))
    assert "the config is empty" in msg


def test_config_with_bom(project):
    p = project / "bom.yaml"
    p.write_bytes(b"\xef\xbb\xbf" + BASE.encode())
    assert load_config(p).inputs.format == "java-project"


def test_compare_pairs_shape(project):
    msg = error_of(write(project, BASE + "compare:\n  pairs: [[a, b, c]]\n"))
    assert "compare.pairs: each item must be a list of two system names" in msg


def test_bootstrap_defaults_and_confidence(project):
    cfg = load_config(write(project, BASE + "bootstrap: true\n"))
    assert cfg.bootstrap.resamples == 1000 and cfg.bootstrap.seed == 0
    msg = error_of(write(project, BASE + "bootstrap:\n  confidence: 95\n"))
    assert "bootstrap.confidence: expected a number between 0 and 1" in msg


def test_outputs_disable_and_absolute(project, tmp_path):
    cfg = load_config(write(project, BASE + f"outputs:\n  dir: out\n  per_summary_csv: false\n"
                                            f"  csv: {tmp_path / 'abs.csv'}\n"))
    assert cfg.outputs.per_summary_csv is None
    assert cfg.outputs.csv == tmp_path / "abs.csv"
    assert cfg.outputs.summary_json == project / "out" / "summary.json"


def test_columns_only_for_row_formats(project):
    msg = error_of(write(project, BASE + "  columns:\n    task: id\n"))
    assert "inputs.columns: only used with the jsonl, csv, tsv and summeval formats" in msg


def test_parse_config_without_file(project):
    cfg = parse_config(BASE, base=project)
    assert cfg.source is None and cfg.inputs.path == project / "proj"
