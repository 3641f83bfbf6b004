"""The topic report with variants and aspects (issue 18 item 7): the variant it shows is
chosen and named, the per-pair CSV has stem, universal POS and aspect columns, and a word
is one row whatever its noun / proper-noun tags."""

import csv
import json

import pytest

from rouge2.config.yaml_config import load_config
from rouge2.errors import UserError
from rouge2.measures.coverage import PairCoverage
from rouge2.run.runner import run
from rouge2.stats.coverage import CoverageStats

pytest.importorskip("spacy")

ROWS = [
    {"task": "t1", "system": "a", "candidate": "The chamber was spotless. Friendly personnel.",
     "references": ["The room was clean. The staff were friendly."]},
    {"task": "t1", "system": "b", "candidate": "Great breakfast.",
     "references": ["The room was clean. The staff were friendly."]},
]
LEXICON = "rooms: [room, bed]\ncleanliness: [clean, spotless]\nservice: [staff, friendly]\n"


def make(tmp_path, extra=""):
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    (tmp_path / "lex.yaml").write_text(LEXICON)
    (tmp_path / "run.yaml").write_text(
        "name: hotels\ninputs: {format: jsonl, path: in.jsonl}\naspects: lex.yaml\n"
        'measures: ["rouge-topicuniq-nn|jj"]\n'
        "variants:\n  plain: {}\n  syn: {preprocess: {synonyms: [[room, chamber], [clean, spotless], "
        "[staff, personnel]]}}\n"
        f"outputs: {{dir: out, console: false, topic_report: {{file: report{extra}}}}}\n")
    return tmp_path / "run.yaml"


def csv_rows(path):
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def test_the_report_shows_the_variant_asked_for_and_names_it(tmp_path):
    run(load_config(make(tmp_path, ", variant: syn")), progress=False)
    summary = json.loads((tmp_path / "out" / "report_summary.json").read_text())
    assert summary["variant"] == "syn" and summary["synonyms"] is True
    assert summary["title"] == "hotels [variant syn; synonyms: inline+inline+inline]"
    rows = csv_rows(tmp_path / "out" / "report.csv")
    a = {(r["topic"], r["status"], r["matched_with"]) for r in rows if r["system"] == "a"}
    assert ("room", "synonym", "chamber") in a and ("staff", "synonym", "personnel") in a
    page = (tmp_path / "out" / "report.html").read_text()
    assert "variant syn" in page
    assert '<a href="aspects.html">Aspect coverage (systems x aspects)</a>' in page  # the heatmap page


def test_by_default_the_first_variant_named(tmp_path):
    run(load_config(make(tmp_path)), progress=False)
    summary = json.loads((tmp_path / "out" / "report_summary.json").read_text())
    assert summary["variant"] == "plain" and summary["synonyms"] is False
    assert summary["title"] == "hotels [variant plain; synonyms: none]"


def test_an_unknown_variant_is_one_line(tmp_path):
    with pytest.raises(UserError, match=r"run.yaml:\d+: outputs.topic_report.variant: no variant named "
                                        r"'sin' \(did you mean 'syn'\?\); variants: plain, syn"):
        load_config(make(tmp_path, ", variant: sin"))


def test_the_pair_csv_has_stem_upos_and_aspects(tmp_path):
    run(load_config(make(tmp_path)), progress=False)
    rows = csv_rows(tmp_path / "out" / "report.csv")
    assert list(rows[0])[-3:] == ["stem", "upos", "aspects"]
    by_topic = {(r["system"], r["topic"]): r for r in rows}
    assert (by_topic[("a", "room")]["upos"], by_topic[("a", "room")]["aspects"]) == ("NOUN", "rooms")
    assert by_topic[("a", "friendly")]["aspects"] == "service"
    assert by_topic[("b", "breakfast")]["aspects"] == ""  # no aspect of the lexicon
    assert by_topic[("b", "breakfast")]["status"] == "added"
    assert all(r["stem"] for r in rows)


def pair(task, system, upos):
    return PairCoverage(counts={"reference": 1, "exact": 0, "synonym": 0, "missed": 1, "added": 0},
                        task=task, system=system,
                        reference_topics=[("screen", "Screen" if upos == "PROPN" else "screen", upos, 1, "missed")])


def test_a_word_is_one_row_whatever_its_noun_tags():
    stats = CoverageStats()
    stats.add(pair("t1", "s", "PROPN"))
    stats.add(pair("t2", "s", "NOUN"))
    stats.add(pair("t3", "s", "NOUN"))
    rows = stats.topic_rows("missed", "s")
    assert [(r["family"], r["topic"], r["tasks"], r["occurs"]) for r in rows] == [("NOUN", "screen", 3, 3)]
    assert stats.family_of("screen") == "NOUN"
