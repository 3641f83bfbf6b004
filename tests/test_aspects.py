"""Aspect lexicons, matching and ROUGE-Aspect (issue 18; docs/aspects.md)."""

import math
import warnings

import pytest

import rouge2
from rouge2.analysis.analyzer import Analyzer
from rouge2.aspects import LEXICON_FORMATS, AspectMatcher, canonical_lexicon, inline_lexicon, load_lexicon
from rouge2.aspects.lexicon import parse_seed_lines, parse_tsv_lexicon
from rouge2.errors import UserError
from rouge2.measures.aspect import Aspect
from rouge2.measures.weights import DocumentFrequencies
from rouge2.scoring.options import Options


def seeds(tmp_path, files):
    folder = tmp_path / "seeds"
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return folder


# --------------------------------------------------------------------------- reading


def test_seed_lines_with_and_without_weights():
    got = parse_seed_lines("0.08230 breakfast\n# a comment\n\n0.02 room service\n", "food", "food.txt")
    assert [(e.text, e.weight, e.where) for e in got] == [
        ("breakfast", 0.0823, "food.txt:1"), ("room service", 0.02, "food.txt:4")]
    got = parse_seed_lines("breakfast\nroom service\n", "food", "f")
    assert [(e.text, e.weight) for e in got] == [("breakfast", 1.0), ("room service", 1.0)]


def test_a_non_numeric_weight_names_its_line():
    with pytest.raises(UserError, match=r"^food.txt:3: weight 'lots' is not a number"):
        parse_seed_lines("0.1 breakfast\n0.2 buffet\nlots coffee\n", "food", "food.txt")
    with pytest.raises(UserError, match=r"^food.txt:2: expected 'weight word'"):
        parse_seed_lines("0.1 breakfast\n0.3\n", "food", "food.txt")


def test_an_aspect_file_with_no_words_names_the_file(tmp_path):
    folder = seeds(tmp_path, {"food": "0.1 breakfast\n", "rooms": "# nothing yet\n\n"})
    with pytest.raises(UserError, match=r"rooms.txt: aspect 'rooms' has no words"):
        load_lexicon(str(folder))


def test_seed_folder_reads_the_aspects_by_file_name(tmp_path):
    folder = seeds(tmp_path, {"rooms": "0.5 room\n0.1 bed\n", "food": "0.3 breakfast\n0.2 room service\n"})
    (folder / "README.md").write_text("not a lexicon")
    lex = load_lexicon(str(folder))
    assert lex.name == f"seeds:{folder.resolve()}"
    assert lex.aspects == ("food", "rooms")  # by file name
    assert [e.text for e in lex.of("rooms")] == ["room", "bed"]
    assert canonical_lexicon(folder) == lex.name
    assert [e.text for e in lex.top(1).entries] == ["breakfast", "room"]


def test_yaml_and_tsv_lexicons(tmp_path):
    y = tmp_path / "lex.yaml"
    y.write_text("food: [breakfast, room service]\nrooms: {room: 0.5, bed: 0.1}\nservice: staff, desk\n")
    lex = load_lexicon(str(y))
    assert lex.name == f"yaml:{y.resolve()}"
    assert [(e.aspect, e.text, e.weight) for e in lex.entries] == [
        ("food", "breakfast", 1.0), ("food", "room service", 1.0), ("rooms", "room", 0.5),
        ("rooms", "bed", 0.1), ("service", "staff", 1.0), ("service", "desk", 1.0)]
    t = tmp_path / "lex.tsv"
    t.write_text("word\taspect\tweight\nroom\trooms,cleanliness\t0.4\nfront desk\tservice\n")
    lex = load_lexicon(str(t))
    assert [(e.aspect, e.text, e.weight) for e in lex.entries] == [
        ("rooms", "room", 0.4), ("cleanliness", "room", 0.4), ("service", "front desk", 1.0)]


@pytest.mark.parametrize("text, message", [
    ("- a list", "expected a mapping from aspect to its words"),
    ("food: []", "aspect 'food' has no words"),
    ("food: {breakfast: lots}", "weight 'lots' is not a number"),
    ("food: [breakfast\n", "lex.yaml:2"),
])
def test_bad_yaml_lexicons_are_one_line(tmp_path, text, message):
    y = tmp_path / "lex.yaml"
    y.write_text(text)
    with pytest.raises(UserError, match=message) as info:
        load_lexicon(str(y))
    assert "\n" not in str(info.value)


def test_bad_tsv_lexicon_names_its_line():
    with pytest.raises(UserError, match=r"^lex.tsv:2: expected 'word<TAB>aspect'"):
        parse_tsv_lexicon("room\trooms\nbed\n", "lex.tsv")
    with pytest.raises(UserError, match=r"^lex.tsv:1: weight 'x' is not a number"):
        parse_tsv_lexicon("room\trooms\tx\n", "lex.tsv")


def test_unknown_lexicon_paths_and_kinds(tmp_path):
    with pytest.raises(UserError, match="aspect lexicon not found"):
        canonical_lexicon(str(tmp_path / "nope.txt"))
    odd = tmp_path / "lex.json"
    odd.write_text("{}")
    with pytest.raises(UserError, match="cannot tell the lexicon's format"):
        canonical_lexicon(str(odd))
    assert canonical_lexicon(None) == canonical_lexicon(False) == "none"


def test_the_lexicon_is_in_the_signature_by_its_data(tmp_path):
    folder = seeds(tmp_path, {"food": "0.1 breakfast\n"})
    name = canonical_lexicon(folder)
    first = LEXICON_FORMATS.identity(name)
    assert first["name"] == name and first["version"] == "1"
    assert first["data"].startswith("sha256:") and first["data"] == load_lexicon(name).sha256
    (folder / "food.txt").write_text("0.1 breakfast\n0.05 buffet\n")
    assert LEXICON_FORMATS.identity(name)["data"] != first["data"]
    assert LEXICON_FORMATS.passport(name).capabilities["path"] is True


def test_options_take_a_path_a_mapping_or_a_lexicon(tmp_path):
    folder = seeds(tmp_path, {"food": "0.1 breakfast\n"})
    assert Options.make(aspects=str(folder)).aspects == f"seeds:{folder.resolve()}"
    inline = Options.make(aspects={"food": ["breakfast", "buffet"]}).aspects
    assert inline == inline_lexicon({"food": ["breakfast", "buffet"]})
    assert Options.make(aspects=inline).settings()["aspects"].startswith("custom:Lexicon@sha256:")
    with pytest.raises(UserError, match="^aspect_min_mentions: expected a whole number, 1 or more"):
        Options.make(aspect_min_mentions=0)
    with pytest.raises(UserError, match="^aspect_assign: expected one of sentence, word"):
        Options.make(aspect_assign="paragraph")


# --------------------------------------------------------------------------- matching

LEX = {"rooms": ["room", "bed", "clean"], "cleanliness": ["clean", "spotless"],
       "service": ["staff", "front desk", "room service"], "food": ["breakfast", "room service"]}


def matcher(analyzer=None, **kw):
    return AspectMatcher(inline_lexicon(LEX), analyzer or Analyzer(stemmer=None), **kw)


def found(m, text, analyzer=None):
    r = m.find((analyzer or m.analyzer).analyze(text))
    return r.hits, {a: sorted(m.words[i].text for i in ws) for a, ws in r.words.items()}


def test_words_phrases_and_a_word_in_several_aspects():
    m = matcher(assign="word")
    hits, words = found(m, "The front desk staff were nice. Room service was late; the room was clean.")
    # "room service" is a phrase of service and food; "room" a word of rooms inside it too
    assert words == {"service": ["front desk", "room service", "staff"], "food": ["room service"],
                     "rooms": ["clean", "room"], "cleanliness": ["clean"]}
    assert hits == {"service": 3, "food": 1, "rooms": 3, "cleanliness": 1}


def test_assign_sentence_gives_a_sentence_to_its_most_hit_aspects():
    m = matcher()  # assign: sentence
    hits, words = found(m, "The room was clean and the bed was big. The staff were spotless.")
    # sentence 1: rooms 3 hits (room, clean, bed), cleanliness 1 (clean) -> rooms only
    # sentence 2: service 1 (staff), cleanliness 1 (spotless): a tie keeps both
    assert hits == {"rooms": 3, "service": 1, "cleanliness": 1}
    assert words == {"rooms": ["bed", "clean", "room"], "service": ["staff"], "cleanliness": ["spotless"]}


def test_a_phrase_does_not_cross_a_sentence_boundary():
    m = matcher(assign="word")
    _, words = found(m, "We asked for a room. Service was quick.")
    assert "service" not in words and words["rooms"] == ["room"]
    _, words = found(m, "We asked for room service quickly.")
    assert words["service"] == ["room service"]


def test_the_same_words_on_lines_or_on_one_line():
    m = matcher()
    a = Analyzer(stemmer=None)
    assert found(m, "The room was clean.\nThe staff were nice.", a) == \
        found(m, "The room was clean. The staff were nice.", a)


def test_matching_follows_the_runs_stemming_and_lemmas():
    plain = matcher()
    assert found(plain, "Rooms and beds.")[0] == {}
    stemmed = Analyzer(stemmer=rouge2.scoring.scorer.STEMMERS.get("rouge155").stem)
    assert found(matcher(stemmed), "Rooms and beds.")[0] == {"rooms": 2}
    assert found(matcher(lemmas=True), "Rooms and beds.")[0] == {"rooms": 2}


def test_synonyms_of_one_word_entries():
    scorer = rouge2.Scorer(["rouge-1"], synonyms=[("staff", "personnel")])
    rel = next(iter(scorer.measures.values())).relation
    m = matcher(relation=rel)
    assert found(m, "The personnel were kind.")[1] == {"service": ["staff"]}
    assert found(matcher(), "The personnel were kind.")[1] == {}


def test_top_keeps_the_heaviest_entries(tmp_path):
    folder = seeds(tmp_path, {"food": "0.1 breakfast\n0.3 buffet\n0.2 coffee\n"})
    m = AspectMatcher(load_lexicon(str(folder)), Analyzer(stemmer=None), top=2)
    assert sorted(w.text for w in m.words) == ["buffet", "coffee"]


def test_an_empty_aspect_is_a_warning_and_never_mentioned():
    lex = inline_lexicon({"food": ["breakfast"], "misc": ["the", "a"]})
    a = Analyzer(stemmer=None, stopwords={"the", "a"})
    with pytest.warns(UserWarning, match="aspects misc of inline have no word left"):
        m = AspectMatcher(lex, a)
    assert m.empty == ("misc",)
    assert found(m, "the breakfast", a)[0] == {"food": 1}


# --------------------------------------------------------------------------- the measure


REF = "The room was clean. The staff at the front desk were helpful. Breakfast was good."
SYS = "Clean room. Breakfast was served late."


def test_rouge_aspect_counts_aspects():
    s = rouge2.score(SYS, REF, ["rouge-aspect"], aspects=LEX)["rouge-aspect"]
    # reference: rooms (room, clean), service (staff, front desk), food (breakfast) -> 3 aspects
    # (sentence 1: rooms 2 hits, cleanliness 1 -> rooms); summary: rooms, food -> hit 2
    assert (s.recall, s.precision) == (2 / 3, 1.0)
    assert s.fmeasure == pytest.approx(0.8)


def test_min_mentions():
    s = rouge2.score(SYS, REF, ["rouge-aspect"], aspects=LEX, aspect_min_mentions=2)["rouge-aspect"]
    # two hits needed: reference rooms (2), service (2); summary rooms (2)
    assert (s.recall, s.precision) == (0.5, 1.0)


def test_several_references_combine_like_every_measure():
    refs = [REF, "Breakfast was fine."]
    pooled = rouge2.score(SYS, refs, ["rouge-aspect"], aspects=LEX)["rouge-aspect"]
    assert (pooled.recall, pooled.precision) == ((2 + 1) / (3 + 1), (2 + 1) / (2 + 2))
    best = rouge2.score(SYS, refs, ["rouge-aspect"], aspects=LEX, multi_reference="best")["rouge-aspect"]
    assert best.recall == 1.0  # the second reference: food only, mentioned


def test_rouge_aspect_needs_a_lexicon():
    with pytest.raises(UserError, match="rouge-aspect needs an aspect lexicon"):
        rouge2.score(SYS, REF, ["rouge-aspect"])
    assert rouge2.Scorer(["ROUGE_Aspect"], aspects=LEX).measures["rouge-aspect"].name == "rouge-aspect"


def test_idf_weights_over_the_references_are_sufficient_statistics():
    pairs = [(SYS, [REF]), ("Room service.", ["Breakfast and room service were good."])]
    got = rouge2.corpus_stats(pairs, ["rouge-aspect"], aspects=LEX, topic_weights="idf")
    # the references: {rooms, service, food} and {food, service} (sentence: food 1+1, service 1 -> food;
    # "room service" counts for food and service, breakfast for food: food 2, service 1 -> food only)
    m = Aspect(aspects=LEX)
    m.prepare(Analyzer())
    ref_aspects = [m.mentioned(Analyzer().analyze(r)) for r in (REF, pairs[1][1][0])]
    assert ref_aspects == [frozenset({"rooms", "service", "food"}), frozenset({"food"})]

    def idf(df):
        return math.log((1 + 2) / (1 + df)) + 1

    w = {"rooms": idf(1), "service": idf(1), "food": idf(2), "cleanliness": idf(0)}
    first = got[0]["rouge-aspect"][0]
    assert first.hit == pytest.approx(w["rooms"] + w["food"])
    assert first.ref_total == pytest.approx(w["rooms"] + w["service"] + w["food"])
    assert first.cand_total == pytest.approx(w["rooms"] + w["food"])
    # the summary of pair 2: "Room service." -> rooms (room), service and food (room service)
    # tie at one hit each: all three
    second = got[1]["rouge-aspect"][0]
    assert (second.hit, second.ref_total, second.cand_total) == pytest.approx(
        (w["food"], w["food"], w["food"] + w["service"] + w["rooms"]))


def test_document_frequencies_count_each_text_once():
    f = DocumentFrequencies()
    f.add(["a", "b", "a"], "text one")
    f.add(["a"], "text one")  # the same reference again (another system's pair)
    f.add(["a"], "text two")
    assert (f.documents, f.df["a"], f.df["b"]) == (2, 2, 1)
    assert f.idf("a") == 1.0 and f.idf("zzz") == pytest.approx(math.log(3) + 1)


def test_no_warning_for_a_normal_lexicon():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        matcher()


def test_the_heatmap_page_escapes_and_drills_down():
    import io

    from rouge2.io.aspect_report import write_aspect_report
    from rouge2.measures.aspect_coverage import AspectCounts, PairAspects
    from rouge2.stats.aspects import AspectStats

    stats = AspectStats(("food", "rooms"))
    for task, cov in (("t1", 1.0), ("t2", 0.5)):
        stats.add(None, PairAspects(task, "<b>sys</b>", 1, {
            "food": AspectCounts(2, 2 * cov, 1, 1, 1, covered=("breakfast",), missed=("<buffet>",)),
            "rooms": AspectCounts(1, 0, 1, 0, 0, missed=("bed",))}))
    rows = stats.rows(None)
    out = io.StringIO()
    write_aspect_report(out, stats, rows, title="t & t")
    page = out.getvalue()
    assert "<b>sys</b>" not in page and "&lt;b&gt;sys&lt;/b&gt;" in page and "&lt;buffet&gt;" in page
    assert page.count("<details") == 2  # one drill-down per (system, aspect)
    assert "<title>Aspect coverage: t &amp; t</title>" in page
    assert ">75.0<" in page  # food: mean of 100% and 50%
    assert "http" not in page  # nothing from the network
