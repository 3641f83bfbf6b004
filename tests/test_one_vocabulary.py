"""Every door accepts the same names and rejects the same bad names with the same message.

The doors: the Python API (``Options`` keywords, as ``rouge2.score`` takes
them), the command-line flags (``rouge2 score --stem ...``), the YAML config
(``rouge2 run``) and, where the Java tool has the setting, the
``rouge.properties`` import.  Names come from the registries themselves, so
a name added to a registry is tested in every door without touching this file.
"""

from __future__ import annotations

import argparse
import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

import rouge2
from rouge2.analysis.sentences import SENTENCES
from rouge2.analysis.stem import SNOWBALL_LANGUAGES, STEMMERS
from rouge2.analysis.stopwords import STOPWORDS
from rouge2.analysis.tokenize import TOKENIZERS
from rouge2.cli import main as cli_main
from rouge2.cli.options import add_option_flags, options_from_args
from rouge2.config.properties import convert_properties
from rouge2.config.yaml_config import parse_config
from rouge2.errors import UserError
from rouge2.measures import canonical_measure
from rouge2.pos.tagger import TAGGERS
from rouge2.scoring.options import Options
from rouge2.stats.combine import MULTI_REFERENCE
from rouge2.stats.prf import ROUNDING
from rouge2.synonyms.combine import SYNONYM_SOURCES

# option -> (registry, YAML section or None for top level, CLI flag)
OPTION_REGISTRIES = {
    "tokenizer": (TOKENIZERS, "preprocess", "--tokenizer"),
    "sentences": (SENTENCES, "inputs", "--sentences"),
    "stem": (STEMMERS, "preprocess", "--stem"),
    "stopwords": (STOPWORDS, "preprocess", "--stopwords"),
    "tagger": (TAGGERS, "preprocess", "--tagger"),
    "multi_reference": (MULTI_REFERENCE, None, "--multi-reference"),
    "rounding": (ROUNDING, None, "--rounding"),
}

FAMILY_EXAMPLES = {"snowball:<language>": ["snowball:english", "Snowball-German"],
                   "spacy:<lang>": ["spacy:en"], "spacy:<pipeline>": ["spacy:en_core_web_sm"]}


def names_of(registry) -> list[str]:
    """Every spelling a registry accepts: names, aliases, examples of families."""
    out = []
    for entry in registry:
        out += [entry.name, *entry.aliases, entry.name.upper()]
    for fam in registry.families:
        out += FAMILY_EXAMPLES.get(fam.form, [])
    return out


CASES = [(opt, name) for opt, (reg, _, _) in OPTION_REGISTRIES.items() for name in names_of(reg)]
BAD = [("tokenizer", "unicod"), ("sentences", "line"), ("stem", "rouge15"), ("stem", "snowball:englsh"),
       ("stopwords", "smrt"), ("tagger", "spaci"), ("multi_reference", "poled"),
       ("rounding", "rouge-155")]


# --------------------------------------------------------------------------- the doors


def api(option: str, value: str) -> Options:
    return Options.make(**{option: value})


def cli(option: str, value: str) -> Options:
    parser = argparse.ArgumentParser()
    add_option_flags(parser)
    return options_from_args(parser.parse_args([OPTION_REGISTRIES[option][2], value]))


def yaml_door(tmp_path: Path, option: str, value: str) -> Options:
    section = OPTION_REGISTRIES[option][1]
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"task": "t", "system": "s", "candidate": "a", "references": "a"}) + "\n")
    inputs = "inputs:\n  format: jsonl\n  path: rows.jsonl\n"
    quoted = json.dumps(value)
    if section == "inputs":
        text = inputs + f"  {option}: {quoted}\n"
    elif section == "preprocess":
        text = inputs + f"preprocess:\n  {option}: {quoted}\n"
    else:
        text = inputs + f"{option}: {quoted}\n"
    return parse_config(text, source=tmp_path / "run.yaml", base=tmp_path).options


@pytest.mark.parametrize("option,name", CASES)
def test_every_door_accepts_every_registered_name(tmp_path, option, name):
    registry = OPTION_REGISTRIES[option][0]
    expected = registry.canonical(name)
    a, c, y = api(option, name), cli(option, name), yaml_door(tmp_path, option, name)
    assert getattr(a, option) == getattr(c, option) == getattr(y, option) == expected
    assert a == c == y


def _message(call) -> str:
    with pytest.raises(UserError) as info:
        call()
    msg = str(info.value)
    assert "\n" not in msg
    return msg


@pytest.mark.parametrize("option,bad", BAD)
def test_every_door_rejects_bad_names_with_the_same_message(tmp_path, option, bad):
    core = _message(lambda: api(option, bad))
    assert core.startswith(f"{option}: ")
    assert "did you mean" in core or option == "tagger"
    assert _message(lambda: cli(option, bad)) == core
    y = _message(lambda: yaml_door(tmp_path, option, bad))
    # the YAML door names the file, line and section first, then the same words
    assert y.endswith(core[len(option) + 2:]) and ":" in y.split(" ")[0]


def test_cli_prints_the_same_message(tmp_path, capsys):
    (tmp_path / "c.txt").write_text("a\n")
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()) as err:
        rc = cli_main(["score", "-c", str(tmp_path / "c.txt"), "-r", str(tmp_path / "c.txt"),
                       "--stem", "porter2"])
    assert rc == 2
    assert err.getvalue().strip() == f"rouge2 score: error: {_message(lambda: api('stem', 'porter2'))}"
    assert "use one of: none, rouge155, snowball:<language>" in err.getvalue()


# --------------------------------------------------------------------------- measures

MEASURE_SPELLINGS = {
    "rouge-1": ["rouge-1", "ROUGE-1", "rouge1", "rouge-01", "rouge_1"],
    "rouge-l": ["rouge-l", "ROUGE-L", "rougeLsum", "rouge-lsum"],
    "rouge-l-flat": ["rouge-l-flat", "rougeL"],
    "rouge-w-1.2": ["rouge-w", "ROUGE-W-1.2", "rouge-w-1.20"],
    "rouge-su4": ["rouge-su4", "ROUGE-SU4"],
    "rouge-s*": ["rouge-s*"],
    "rouge-topicuniq-nn|jj": ["ROUGE-TopicUniq-jj|nn|nns", "rouge-topicuniq-NN|JJ"],
}


@pytest.mark.parametrize("canonical,spellings", MEASURE_SPELLINGS.items())
def test_measure_names_are_canonical_in_every_door(tmp_path, canonical, spellings):
    for spelling in spellings:
        assert canonical_measure(spelling) == canonical
        rows = tmp_path / "rows.jsonl"
        rows.write_text(json.dumps({"task": "t", "system": "s", "candidate": "a", "references": "a"}))
        cfg = parse_config(f"inputs: {{format: jsonl, path: rows.jsonl}}\nmeasures: [{json.dumps(spelling)}]\n",
                           source=tmp_path / "r.yaml", base=tmp_path)
        assert cfg.measures == (canonical,)
    if "topic" not in canonical:
        assert list(rouge2.score("a b", "a b", spellings[:1])) == [canonical]


@pytest.mark.parametrize("bad", ["rouge-x", "rogue-1", "rouge-0", "rouge-w-0", "rouge-w-99999",
                                 "rouge-topic-zz"])
def test_bad_measures_same_message_everywhere(tmp_path, bad):
    core = _message(lambda: canonical_measure(bad))
    assert _message(lambda: rouge2.score("a", "a", [bad])) == core
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"task": "t", "system": "s", "candidate": "a", "references": "a"}))
    y = _message(lambda: parse_config(f"inputs: {{format: jsonl, path: rows.jsonl}}\nmeasures: [{json.dumps(bad)}]\n",
                                      source=tmp_path / "r.yaml", base=tmp_path))
    assert y.endswith(f"measures: {core}")


def test_did_you_mean_for_measures():
    assert "did you mean 'rouge1'?" in _message(lambda: canonical_measure("rogue1"))


def test_a_measure_asked_twice_under_two_spellings():
    msg = _message(lambda: rouge2.Scorer(["rougeLsum", "rouge-l"]))
    assert "'rouge-l' is asked for twice" in msg


# --------------------------------------------------------------------------- the properties door


def test_properties_stemmers_go_through_the_registry(tmp_path):
    for lang in SNOWBALL_LANGUAGES:
        p = tmp_path / "rouge.properties"
        p.write_text(f"stemmer.use=true\nstemmer.name={lang}Stemmer\n")
        text = convert_properties(p, cwd=tmp_path)
        assert f'stem: "snowball:{lang}"' in text
    p.write_text("stemmer.use=true\nstemmer.name=englsihStemmer\n")
    msg = _message(lambda: convert_properties(p, cwd=tmp_path))
    assert msg.endswith(_message(lambda: api("stem", "snowball:englsih"))[len("stem: "):])


def test_snowball_languages_are_nltks():
    from nltk.stem.snowball import SnowballStemmer

    assert tuple(SNOWBALL_LANGUAGES) == tuple(SnowballStemmer.languages)


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize("value,ok", [(0, True), (2, True), (-1, False), (float("nan"), False),
                                      ("inf", False), ("x", False)])
def test_beta_the_same_everywhere(tmp_path, value, ok):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"task": "t", "system": "s", "candidate": "a", "references": "a"}))
    doors = [lambda: Options.make(beta=value),
             lambda: parse_config(f"inputs: {{format: jsonl, path: rows.jsonl}}\nbeta: {value}\n",
                                  source=tmp_path / "r.yaml", base=tmp_path).options]
    if ok:
        alphas = {door().alpha for door in doors}
        assert alphas == {1 / (1 + float(value) ** 2)}
    else:
        for door in doors:
            with pytest.raises(UserError):
                door()


def test_synonym_sources_registry_names():
    for entry in SYNONYM_SOURCES:
        for name in (entry.name, *entry.aliases):
            assert Options.make(synonyms=name).synonyms == ("wordnet",)
    assert Options.make(synonyms=True) == Options.make(synonyms="WordNet")


def test_docs_list_every_name():
    """docs/options.md names every registered name and alias (docs cannot drift from code)."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "options.md").read_text()
    for option, (registry, _, _) in OPTION_REGISTRIES.items():
        for entry in registry:
            for name in (entry.name, *entry.aliases):
                assert f"`{name}`" in text, (option, name)
        for fam in registry.families:
            if not fam.form.startswith("<"):
                assert f"`{fam.form}`" in text, (option, fam.form)
    for entry in SYNONYM_SOURCES:
        for name in (entry.name, *entry.aliases):
            assert f"`{name}`" in text
