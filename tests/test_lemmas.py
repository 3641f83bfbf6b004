"""Lemma-aware synonyms: WordNet 3.0 morphy and inflected synonym pairs."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

import rouge2
from rouge2.synonyms import DictionaryMatcher, WordNetMatcher, load_synonyms
from rouge2.synonyms.lemmas import Morphy, morphy_data

RESOURCE_DIR = Path(__file__).resolve().parents[1] / "resources" / "wordnet"


@pytest.fixture(scope="module")
def wn() -> WordNetMatcher:
    return WordNetMatcher()


@pytest.fixture(scope="module")
def wn_plain() -> WordNetMatcher:
    return WordNetMatcher(lemmas=False)


# Inflected pairs whose base forms are WordNet synonyms (rule r1) while the
# surface forms are not: they match with lemmas and not without.
INFLECTED_SYNONYMS = [
    # nouns, regular and irregular plurals (s, es, ies, men -> man, irregular)
    ("screens", "displays"), ("cars", "automobiles"), ("movies", "films"),
    ("phones", "telephones"), ("boxes", "containers"), ("children", "kids"),
    ("women", "females"),
    # verbs: past tense and participle (regular, irregular), 3rd person, gerund
    ("bought", "purchased"), ("buys", "purchases"), ("buying", "purchasing"),
    ("purchased", "buying"), ("went", "traveled"), ("ate", "consumed"),
    ("saw", "viewed"), ("took", "grabbed"), ("began", "started"),
    ("thought", "believed"), ("spoke", "talked"), ("gave", "donated"),
    ("tried", "attempted"), ("fixed", "repaired"), ("fixing", "repairing"),
    ("fixes", "repairs"), ("stopped", "halted"), ("cried", "wept"),
    ("studies", "examines"), ("hopes", "wishes"),
    # adjectives: comparative and superlative, regular and irregular
    ("cheaper", "inexpensive"), ("cheapest", "inexpensive"), ("biggest", "largest"),
    ("quicker", "faster"), ("better", "great"), ("best", "great"), ("worst", "poor"),
    ("brighter", "brilliant"), ("happier", "glad"), ("simpler", "easy"),
    ("stronger", "powerful"), ("nicer", "pleasant"),
]

# Pairs that must not match: a shared base form alone is not a synonym
# (stemming's job), and base forms must be synonyms in the same part of speech.
NOT_SYNONYMS = [
    ("screens", "screen"), ("bought", "buy"), ("worse", "bad"), ("is", "was"),
    ("are", "be"), ("looked", "looks"), ("ran", "run"), ("children", "child"),
    ("mice", "mouse"), ("cheaper", "cheap"),
    # screen ~ display only as nouns: the verb forms are not related
    ("screened", "displayed"), ("screens", "displayed"), ("displays", "screened"),
    # 'news' is not the plural of the noun 'new' (not a noun lemma)
    ("news", "new"),
    # unrelated words stay unrelated
    ("screens", "cars"), ("bought", "sold"),
]


def test_at_least_thirty_inflected_pairs():
    assert len(INFLECTED_SYNONYMS) >= 30
    assert len(set(INFLECTED_SYNONYMS)) == len(INFLECTED_SYNONYMS)


@pytest.mark.parametrize("a, b", INFLECTED_SYNONYMS)
def test_inflected_synonyms_match_with_lemmas_only(wn, wn_plain, a, b):
    assert wn.matches(a, b) and wn.matches(b, a)
    assert not wn_plain.matches(a, b)


@pytest.mark.parametrize("a, b", NOT_SYNONYMS)
def test_pairs_that_must_not_match(wn, a, b):
    assert not wn.matches(a, b) and not wn.matches(b, a)


def test_part_of_speech_is_kept(wn):
    # screens ~ displays as nouns only; 'bought' is a verb form only.
    assert wn.matches("screens", "displays", "NNS")
    assert not wn.matches("screens", "displays", "VBZ")
    assert wn.matches("bought", "purchased", "VBD")
    assert not wn.matches("bought", "purchased", "NN")
    assert not wn.matches("screens", "displays", "DT")


def test_scores_with_and_without_lemmas():
    cand, ref = "the screens look brilliant", "the displays looked bright"
    lem = rouge2.Scorer(["rouge-1"], synonyms=load_synonyms(True))
    plain = rouge2.Scorer(["rouge-1"], synonyms=load_synonyms(True, lemmas=False))
    # the, screens~displays, brilliant~bright (look/looked: same base, not synonyms)
    assert lem.score(cand, ref)["rouge-1"].recall == 0.75
    assert plain.score(cand, ref)["rouge-1"].recall == 0.5
    both = rouge2.Scorer(["rouge-1"], synonyms=load_synonyms(True), stem=True)
    assert both.score(cand, ref)["rouge-1"].recall == 1.0  # the stemmer adds look = looked


def test_switch_and_signature(tmp_path):
    assert load_synonyms(True).lemmas and load_synonyms(True).signature == "wordnet-3.0@r1/lemmas"
    off = load_synonyms(True, lemmas=False)
    assert not off.lemmas and off.signature == "wordnet-3.0@r1"
    assert load_synonyms(True) is load_synonyms("wordnet") and off is load_synonyms("wn", lemmas=False)
    with pytest.raises(rouge2.UserError, match="'lemmas' must be true or false"):
        load_synonyms(True, lemmas="yes")


def test_dictionary_entries_reached_through_base_forms(tmp_path):
    p = tmp_path / "d.txt"
    p.write_text("screen, display\ncheap\tinexpensive\n", encoding="utf-8")
    d = DictionaryMatcher(p)
    assert d.matches("screens", "displays") and d.matches("display", "screens")
    assert d.matches("cheaper", "inexpensive") and d.matches("cheapest", "inexpensive")
    assert not d.matches("screens", "screen")  # shared base form only
    assert not d.matches("cheaper", "cheapest")
    off = DictionaryMatcher(p, lemmas=False)
    assert not off.matches("screens", "displays") and off.matches("screen", "display")
    # entries are used as written: an inflected entry matches only itself and its partners
    q = tmp_path / "q.txt"
    q.write_text("screens, monitors\n", encoding="utf-8")
    assert not DictionaryMatcher(q).matches("screen", "monitor")
    assert DictionaryMatcher(q).matches("screens", "monitors")


def test_inline_groups_are_lemma_aware():
    m = load_synonyms([["superb", "lightweight"], ["buy", "purchase"]])
    assert m.matches("bought", "purchasing")
    assert not load_synonyms([["buy", "purchase"]], lemmas=False).matches("bought", "purchasing")


# --------------------------------------------------------------------------
# morphy itself


@pytest.mark.parametrize(
    "word, pos, expected",
    [
        ("bought", "v", ("bought", "buy")),  # exception list
        ("better", "a", ("better", "good", "well")),  # exception list, two bases
        ("better", "r", ("better", "well")),
        ("geese", "n", ("geese", "goose")),
        ("leaves", "n", ("leaves", "leaf", "leave")),
        ("screens", "n", ("screens", "screen")),  # s -> ''
        ("buses", "n", ("buses", "bus")),  # ses -> s
        ("boxes", "n", ("boxes", "box")),  # xes -> x
        ("churches", "n", ("churches", "church")),  # ches -> ch
        ("dishes", "n", ("dishes", "dish")),  # shes -> sh
        ("firemen", "n", ("firemen", "fireman")),  # men -> man
        ("ladies", "n", ("ladies", "lady")),  # ies -> y
        ("boss", "n", ("boss",)),  # nouns ending in ss are not stripped
        ("news", "n", ("news",)),  # 'new' is not a noun lemma
        ("tries", "v", ("tries", "try")),  # ies -> y
        ("hoped", "v", ("hoped", "hope", "hop")),  # ed -> e, and ed -> '' ('hop' is a verb too)
        ("fixed", "v", ("fixed", "fix")),  # ed -> '' ('fixe' is no verb)
        ("making", "v", ("making", "make")),  # ing -> e
        ("buying", "v", ("buying", "buy")),  # ing -> ''
        ("goes", "v", ("goes", "go")),  # exception list
        ("uses", "v", ("uses", "use")),  # es -> e (es -> '' gives 'us', not a verb)
        ("cheaper", "a", ("cheaper", "cheap")),  # er -> ''
        ("nicest", "a", ("nicest", "nice")),  # est -> e
        ("quickly", "r", ("quickly",)),  # adverbs: exception list only
        ("screens", "a", ("screens",)),
    ],
)
def test_morphy(word, pos, expected):
    assert morphy_data().forms(word, pos) == expected


def test_forms_under_any_part_of_speech():
    m = morphy_data()
    assert m.forms("better") == ("better", "good", "well")
    assert m.forms("saw") == ("saw", "see")
    assert m.forms("zzzz") == ("zzzz",)


def test_morphy_on_small_lists():
    m = Morphy({"cat": "n", "run": "v", "rune": "n", "big": "a"}, {"v": {"ran": ("run",)}})
    assert m.forms("cats", "n") == ("cats", "cat")
    assert m.forms("ran", "v") == ("ran", "run")
    assert m.forms("runs", "v") == ("runs", "run")
    assert m.forms("running", "v") == ("running",)  # 'runn' is not a lemma: no doubling rule
    assert m.forms("bigger", "a") == ("bigger",)  # likewise 'bigg'


def test_resources_have_the_documented_counts():
    def counts(name):
        with gzip.open(RESOURCE_DIR / name, "rt", encoding="utf-8") as fh:
            return fh.read().split("\n")[2]

    assert counts("lemmas-wn30.tsv.gz") == "# counts: n 57506; v 8700; a 20983; r 3767; distinct 83118"
    assert counts("exceptions-wn30.tsv.gz") == "# counts: n 2011; v 2321; a 1489; r 7; all 5828"
    m = morphy_data()
    assert len(m.lemmas) == 83118
    assert sum(len(e) for e in m.exceptions.values()) == 5828
