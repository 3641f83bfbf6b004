"""Language presets (issue 20): every door, the Snowball stemmers, iso stopwords, segmenters.

Expected numbers are counted by hand from the texts (4 of 6 characters of
今天天气很好 are in 今天天气不错: F = 2/3) or taken from the reference
packages themselves (snowballstemmer, stopwordsiso) where a component wraps
them.
"""

from __future__ import annotations

import importlib
import io
import json
import warnings

import pytest

import rouge2
from rouge2.analysis import analyzer as analyzer_module
from rouge2.analysis import segment
from rouge2.analysis.languages import LANGUAGES, preset_for_script
from rouge2.analysis.stem import (
    SNOWBALL_ISO_CODES,
    SNOWBALL_LANGUAGES,
    SNOWBALLSTEMMER_LANGUAGES,
    STEMMERS,
)
from rouge2.analysis.stopwords import ISO_LANGUAGES, load_stopwords
from rouge2.cli import main as cli_main
from rouge2.cli.rouge155 import run as rouge155_run
from rouge2.config.properties import convert_properties
from rouge2.config.yaml_config import parse_config
from rouge2.errors import UserError
from rouge2.scoring.options import Options
from rouge2.scoring.signature import data_versions, signature_line

CAND, REF = "今天天气很好", "今天天气不错"


# --------------------------------------------------------------------------- presets


def test_language_unset_is_the_english_default_exactly():
    assert Options.make() == Options.make(language=None) == Options.make(language="none") == Options()
    assert "language" not in Options().settings()  # signatures without a language are unchanged
    assert signature_line(Options(), {}).startswith("rouge2:") and "lang:" not in signature_line(Options(), {})


@pytest.mark.parametrize("code, tokenizer, stem", [
    ("zh", "character", "none"), ("ja", "character", "none"), ("th", "character", "none"),
    ("ko", "character", "none"), ("en", "rouge155", "rouge155"),
    ("de", "unicode", "snowballstemmer:german"), ("tr", "unicode", "snowballstemmer:turkish"),
    ("id", "unicode", "snowballstemmer:indonesian"), ("ru", "unicode", "snowballstemmer:russian"),
    ("vi", "unicode", "none"), ("nb", "unicode", "snowballstemmer:norwegian"),
])
def test_presets(code, tokenizer, stem):
    o = Options.make(language=code)
    assert (o.language, o.tokenizer, o.stem, o.stopwords) == (code, tokenizer, stem, "none")


def test_explicit_options_win_and_true_means_the_presets_choice():
    o = Options.make(language="de", stem=False, tokenizer="character")
    assert (o.tokenizer, o.stem) == ("character", "none")
    o = Options.make(language="de", stem=True, stopwords=True)
    assert (o.stem, o.stopwords) == ("snowballstemmer:german", "iso:de")
    assert Options.make(language="en", stopwords=True).stopwords == "smart"
    assert Options.make(language="de", stopwords="smart").stopwords == "smart"
    base = Options.make(language="de")
    assert (base.with_(stem=True).stem, base.with_(stopwords=True).stopwords) == ("snowballstemmer:german", "iso:de")
    assert Options().with_(stem=True).stem == "rouge155"
    with pytest.raises(UserError, match="has no shipped stopword list"):
        Options.make(language="km", stopwords=True)


@pytest.mark.parametrize("spelling", ["zh", "ZH", "zh-CN", "zh_Hans", "Chinese", " chinese "])
def test_language_spellings(spelling):
    assert Options.make(language=spelling).language == "zh"


def test_unknown_language_gives_did_you_mean_and_the_codes():
    with pytest.raises(UserError) as err:
        Options.make(language="chinse")
    msg = str(err.value)
    assert msg.startswith("language: unknown language 'chinse' (did you mean 'zh'?); use one of: af, ar,")
    assert "zh" in msg.split("use one of:")[1] and "\n" not in msg
    with pytest.raises(UserError, match="unknown language 'xx'; use one of: af"):
        Options.make(language="xx")


def test_every_preset_resolves_its_components():
    for entry in LANGUAGES:
        preset = entry.value
        if preset is None:
            continue
        assert STEMMERS.find(preset.stem) == preset.stem
        if preset.stopwords:
            assert len(load_stopwords(preset.stopwords)) > 20
        assert preset.code in preset.describe() or preset.name in preset.describe()


# --------------------------------------------------------------------------- every door


def test_api_gives_character_rouge_for_chinese():
    s = rouge2.score(CAND, [REF], ["rouge-1", "rouge-2"], language="zh")
    assert s["rouge-1"] == rouge2.Score(4 / 6, 4 / 6, 4 / 6)
    assert s["rouge-2"].recall == 3 / 5  # 今天 天天 天气 of 5 bigrams


def test_cli_score_language(tmp_path, capsys):
    (tmp_path / "c.txt").write_text(CAND + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text(REF + "\n", encoding="utf-8")
    rc = cli_main(["score", "-c", str(tmp_path / "c.txt"), "-r", str(tmp_path / "r.txt"), "-m", "rouge-1",
                   "--language", "zh", "--json"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert json.dumps(out).count("0.666666") >= 3  # R, P, F = 2/3


def test_yaml_language_and_switches(tmp_path):
    (tmp_path / "d.jsonl").write_text("", encoding="utf-8")
    base = "inputs: {format: jsonl, path: d.jsonl}\n"
    cfg = parse_config(base + "preprocess: {language: tr, stopwords: true}\n", base=tmp_path)
    o = cfg.options
    assert (o.language, o.tokenizer, o.stem, o.stopwords) == ("tr", "unicode", "snowballstemmer:turkish", "iso:tr")
    o = parse_config(base + "preprocess: {language: tr, stem: false, tokenizer: character}\n", base=tmp_path).options
    assert (o.tokenizer, o.stem) == ("character", "none")
    with pytest.raises(UserError, match=r":2: preprocess.language: unknown language 'tk'"):
        parse_config(base + "preprocess: {language: tk}\n", base=tmp_path)


def test_rouge155_door_language(tmp_path):
    for sub, text in (("peers", CAND), ("models", REF)):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "a.txt").write_text(text + "\n", encoding="utf-8")
    (tmp_path / "config.xml").write_text(
        f'<ROUGE_EVAL version="1.55"><EVAL ID="1"><PEER-ROOT>{tmp_path}/peers</PEER-ROOT>'
        f'<MODEL-ROOT>{tmp_path}/models</MODEL-ROOT><INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>'
        '<PEERS><P ID="1">a.txt</P></PEERS><MODELS><M ID="A">a.txt</M></MODELS></EVAL></ROUGE_EVAL>\n')

    def report(*flags):
        out, err = io.BytesIO(), io.StringIO()
        rc = rouge155_run(["-n", "1", "-x", "-a", *flags, str(tmp_path / "config.xml")], out, err)
        return rc, out.getvalue().decode(), err.getvalue()

    rc, out, _ = report("--language", "zh")
    assert rc == 0 and "1 ROUGE-1 Average_F: 0.66667" in out
    rc, out, _ = report()
    assert "1 ROUGE-1 Average_F: 0.00000" in out  # the script's byte rules: no tokens
    rc, _, err = report("--language=xyz")
    assert rc != 0 and "unknown language 'xyz'" in err


def test_signature_records_the_preset_and_versions():
    o = Options.make(language="de", stopwords=True)
    assert o.settings()["language"] == "de"
    v = data_versions(o)
    assert v["language"] == {"name": "de", "version": "1", "origin": "rouge2", "data": None}
    assert v["stem"]["name"] == "snowballstemmer:german" and v["stem"]["data"].startswith("snowballstemmer ")
    assert v["tokenizer"]["version"] == "2" and v["tokenizer"]["data"].startswith("unicodedata ")
    assert v["stopwords"]["name"] == "iso:de" and v["stopwords"]["data"].startswith("sha256:")
    assert "|lang:de|" in signature_line(o, v)
    assert data_versions(Options.make(stem="snowball:german"))["stem"]["data"].startswith("nltk ")


# --------------------------------------------------------------------------- Snowball


def test_snowball_families_accept_34_languages_by_name_and_code():
    sb = pytest.importorskip("snowballstemmer")
    assert sorted(SNOWBALLSTEMMER_LANGUAGES) == sorted(sb.algorithms())
    assert len({n for n in SNOWBALLSTEMMER_LANGUAGES if n not in ("porter", "dutch_porter")}) == 34
    for code, name in SNOWBALL_ISO_CODES.items():
        assert STEMMERS.canonical(f"snowball:{code}") == f"snowball:{name}"
        assert STEMMERS.canonical(f"snowballstemmer:{code.upper()}") == f"snowballstemmer:{name}"
    words = ["kitaplarımızdan", "pembangunan", "häuser", "aangezien", "bibliotekach", "течение", "added"]
    for name in SNOWBALLSTEMMER_LANGUAGES:
        ours = STEMMERS.get(f"snowballstemmer:{name}").stem
        theirs = sb.stemmer(name).stemWord
        assert [ours(w) for w in words] == [theirs(w) for w in words]


def test_snowball_keeps_nltk_for_its_languages():
    from nltk.stem.snowball import SnowballStemmer

    sb = pytest.importorskip("snowballstemmer")
    # "aangezien": nltk's (pre-3.0) Dutch keeps it, Snowball 3's Dutch stems it
    assert STEMMERS.get("snowball:dutch").stem("aangezien") == SnowballStemmer("dutch").stem("aangezien")
    assert STEMMERS.get("snowballstemmer:dutch").stem("aangezien") == sb.stemmer("dutch").stemWord("aangezien")
    assert SnowballStemmer("dutch").stem("aangezien") != sb.stemmer("dutch").stemWord("aangezien")
    for name in SNOWBALL_LANGUAGES:
        assert STEMMERS.get(f"snowball:{name}").stem("added") == SnowballStemmer(name).stem("added")
    assert STEMMERS.get("snowball:turkish").stem("kitaplarımızdan") == sb.stemmer("turkish").stemWord(
        "kitaplarımızdan")


def test_unknown_snowball_language():
    with pytest.raises(UserError, match=r"unknown Snowball stemmer language 'turkis' .*did you mean 'turkish'"):
        STEMMERS.canonical("snowball:turkis")


# --------------------------------------------------------------------------- stopwords


def test_iso_stopwords_are_the_stopwordsiso_lists():
    swi = pytest.importorskip("stopwordsiso")
    assert sorted(swi.langs()) == sorted(ISO_LANGUAGES)
    for code in ("de", "zh", "tr", "ar"):
        assert load_stopwords(f"iso:{code}") == frozenset(w.casefold() for w in swi.stopwords(code))
    with pytest.raises(UserError, match=r"no stopwords-iso list for language 'xx'"):
        load_stopwords("iso:xx")


def test_iso_stopwords_need_no_spacy(monkeypatch):
    real = importlib.import_module

    def no_spacy(name, *a, **k):
        if name.startswith("spacy"):
            raise ImportError(name)
        return real(name, *a, **k)

    monkeypatch.setattr(importlib, "import_module", no_spacy)
    s = rouge2.score("die Häuser der Stadt", ["das Haus"], ["rouge-1"], language="de", stopwords=True)
    assert s["rouge-1"].recall == 1.0  # die, der, das removed; häuser = haus


def test_iso_data_ships_with_its_licence():
    from rouge2.data import read_resource

    assert b"MIT License" in read_resource("stopwords", "iso", "LICENSE.txt")


# --------------------------------------------------------------------------- segmenters


def test_missing_segmenter_extra_is_one_line(monkeypatch):
    real = importlib.import_module

    def missing(name, *a, **k):
        if name == "jieba":
            raise ImportError(name)
        return real(name, *a, **k)

    monkeypatch.setattr(importlib, "import_module", missing)
    segment._loaded.cache_clear()
    try:
        with pytest.raises(UserError) as err:
            rouge2.score(CAND, [REF], ["rouge-1"], tokenizer="jieba")
    finally:
        segment._loaded.cache_clear()
    assert str(err.value) == ("tokenizer 'jieba' needs the 'zh' extra, which is not installed: "
                              "pip install 'rouge2[zh]'")


def test_segmenter_failure_names_the_line(monkeypatch):
    def broken():
        def split(text):
            if "bad" in text:
                raise RuntimeError("dictionary exploded")
            return text.split()
        return split

    monkeypatch.setitem(segment.SEGMENTERS, "kiwi", segment.SEGMENTERS["kiwi"].__class__(
        "kiwi", "ko", "ko", ("kiwipiepy",), broken, "test"))
    segment._loaded.cache_clear()
    try:
        assert segment.segment("kiwi", "good words\n") == ["good", "words"]
        with pytest.raises(UserError) as err:
            segment.segment("kiwi", "fine line\nthis is bad")
    finally:
        segment._loaded.cache_clear()
    assert str(err.value) == ("tokenizer 'kiwi' failed on line 2 of a text (character 11, starting "
                              "'this is bad'): RuntimeError: dictionary exploded")


@pytest.mark.parametrize("name, module, text, words", [
    ("jieba", "jieba", "今天天气很好。", ["今天天气", "很", "好"]),
    ("sudachi", "sudachipy", "東京タワーに行きました", ["東京", "タワー", "に", "行き", "まし", "た"]),
    ("pythainlp", "pythainlp", "สวัสดีครับ", ["สวัสดี", "ครับ"]),
    ("kiwi", "kiwipiepy", "오늘 날씨가 좋습니다", ["오늘", "날씨", "가", "좋", "습니다"]),
])
def test_segmenters_when_installed(name, module, text, words):
    pytest.importorskip(module)
    from rouge2.analysis.tokenize import get_tokenizer

    assert get_tokenizer(name)(text) == words
    assert data_versions(Options.make(tokenizer=name))["tokenizer"]["data"].startswith(
        segment.SEGMENTERS[name].packages[0])


# --------------------------------------------------------------------------- topic route, Java, warnings


def test_topic_measures_never_use_the_english_tagger_on_another_language():
    with pytest.raises(UserError) as err:
        rouge2.Scorer(["rouge-topic-noun"], language="tr")
    msg = str(err.value)
    assert msg.startswith("topic measures in Turkish (tr) need a tagger for that language: ")
    assert "tagger=pretagged" in msg and "aspect measures" in msg
    assert Options.make(language="de").tagger == "spacy:de_core_news_sm"
    assert Options.make(language="tr", tagger="pretagged").tagger == "pretagged"


@pytest.mark.parametrize("java, ours", [
    ("danishStemmer", "snowball:danish"), ("dutchStemmer", "snowball:dutch"),
    ("englishStemmer", "snowball:english"), ("frenchStemmer", "snowball:french"),
    ("germanStemmer", "snowball:german"), ("portugueseStemmer", "snowball:portuguese"),
    ("turkishStemmer", "snowball:turkish"),
])
def test_java_stemmers_convert(tmp_path, java, ours):
    p = tmp_path / "rouge.properties"
    p.write_text(f"stemmer.use=true\nstemmer.name={java}\n")
    assert f'stem: "{ours}"' in convert_properties(p, cwd=tmp_path)


def test_java_non_english_tagger_stops_topic_conversion(tmp_path):
    p = tmp_path / "rouge.properties"
    p.write_text("rouge.type=topic\ntopic.type=nn|jj\npos_tagger_name=chinese-distsim.tagger\n")
    with pytest.raises(UserError) as err:
        convert_properties(p, cwd=tmp_path)
    msg = str(err.value)
    assert msg.startswith(f"{p}:3: pos_tagger_name 'chinese-distsim.tagger' tags Chinese text")
    assert "language: zh" in msg and "pretagged" in msg and "\n" not in msg
    p.write_text("rouge.type=normal\npos_tagger_name=arabic.tagger\n")
    assert "# pos_tagger_name names a tagger for Arabic: for such texts see 'language: ar'" in \
        convert_properties(p, cwd=tmp_path)
    p.write_text("rouge.type=topic\ntopic.type=nn\npos_tagger_name=english-left3words-distsim.tagger\n")
    assert "Stanford model" in convert_properties(p, cwd=tmp_path)


@pytest.mark.parametrize("text, code", [
    ("今天天气很好", "zh"), ("東京タワーに行きました", "ja"), ("오늘 날씨", "ko"), ("สวัสดี", "th"),
    ("Привет мир", "ru"), ("مرحبا", "ar"), ("café crème", None),
])
def test_script_suggests_its_preset(text, code):
    assert preset_for_script(text) == code


def test_foreign_text_warning_names_the_preset(monkeypatch):
    monkeypatch.setattr(analyzer_module, "_warned_foreign", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rouge2.score(CAND, [REF], ["rouge-1"])
    msg = str(caught[0].message)
    assert "the rouge155 tokenizer keeps only ASCII letters and digits" in msg
    assert 'language="zh" (command line: --language zh; YAML: language: zh), or tokenizer="unicode"' in msg


def test_docs_table_lists_every_preset_as_registered():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "languages.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0].startswith("`") and cells[2].startswith("`"):
            rows[cells[0].strip("`")] = cells
    presets = [e.value for e in LANGUAGES if e.value is not None]
    assert sorted(rows) == sorted(p.code for p in presets)
    for p in presets:
        code, name, tok, stem, stop, tagger, seg = rows[p.code]
        assert (name, tok, stem) == (p.name, f"`{p.tokenizer}`", f"`{p.stem}`")
        assert stop == (f"`{p.stopwords}`" if p.stopwords else "—")
        assert tagger == (f"`{p.tagger}`" if p.tagger else "pretagged or aspects")
        assert seg == (f"`{p.segmenter}`" if p.segmenter else "")
