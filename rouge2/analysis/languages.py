"""Language presets: ``language="zh"`` picks a tokenizer, stemmer, stopword list and topic route.

A :class:`Preset` is registered per ISO 639-1 code in :data:`LANGUAGES`. It
says, for one language:

* ``tokenizer``: ``character`` for scripts written without spaces between
  words (Chinese, Japanese, Thai, Lao, Khmer, Burmese) and for Korean, whose
  space-separated words carry their particles; ``unicode`` for the others;
  ``rouge155`` for English (ROUGE-1.5.5's rules);
* ``stem``: the stemmer used unless ``stem`` is given: ROUGE-1.5.5's ``-m``
  for English, the ``snowballstemmer`` package's stemmer where Snowball has
  one (34 languages), none otherwise;
* ``stopwords``: the list ``stopwords=True`` means in that language (off by
  default, as in ROUGE): ``smart`` for English, ``iso:<code>`` (shipped) for
  the 58 languages of stopwords-iso;
* ``tagger``: the spaCy pipeline for topic measures where spaCy publishes
  one (universal POS tags); elsewhere topic measures need ``tagger=pretagged``
  or ``tagger=spacy:<pipeline>``, or the aspect measures with a lexicon, which
  need no tagger;
* ``segmenter``: an optional word segmenter (an extra) that can replace the
  tokenizer, e.g. ``tokenizer="jieba"`` with ``pip install 'rouge2[zh]'``.

Every option given explicitly wins over the preset; ``language`` unset keeps
ROUGE-1.5.5's English behaviour exactly.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from rouge2.analysis.stem import SNOWBALL_ISO_CODES
from rouge2.analysis.stopwords import ISO_LANGUAGES
from rouge2.errors import UserError
from rouge2.registry import Registry

__all__ = ["LANGUAGES", "Preset", "apply_preset", "preset_for_script", "topic_route_error"]


@dataclass(frozen=True)
class Preset:
    """What ``language=<code>`` selects (see the module docstring)."""

    code: str
    name: str
    tokenizer: str
    stem: str
    stopwords: str | None
    tagger: str | None = None
    segmenter: str | None = None
    version: str = "1"

    def defaults(self) -> dict[str, Any]:
        """The options this preset sets when they are not given."""
        out: dict[str, Any] = {"tokenizer": self.tokenizer, "stem": self.stem}
        if self.tagger is not None:
            out["tagger"] = self.tagger
        return out

    def describe(self) -> str:
        parts = [f"tokenizer {self.tokenizer}", f"stem {self.stem}",
                 f"stopwords=True: {self.stopwords or 'none available'}",
                 f"topics: {('tagger ' + self.tagger) if self.tagger else 'pretagged or aspects'}"]
        if self.segmenter:
            parts.append(f"segmenter: tokenizer={self.segmenter}")
        return f"{self.name}: " + ", ".join(parts)


#: English names of the languages that have a preset
NAMES = {
    "af": "Afrikaans", "ar": "Arabic", "bg": "Bulgarian", "bn": "Bengali", "br": "Breton",
    "ca": "Catalan", "cs": "Czech", "da": "Danish", "de": "German", "el": "Greek", "en": "English",
    "eo": "Esperanto", "es": "Spanish", "et": "Estonian", "eu": "Basque", "fa": "Persian",
    "fi": "Finnish", "fr": "French", "ga": "Irish", "gl": "Galician", "gu": "Gujarati", "ha": "Hausa",
    "he": "Hebrew", "hi": "Hindi", "hr": "Croatian", "hu": "Hungarian", "hy": "Armenian",
    "id": "Indonesian", "it": "Italian", "ja": "Japanese", "km": "Khmer", "ko": "Korean",
    "ku": "Kurdish", "la": "Latin", "lo": "Lao", "lt": "Lithuanian", "lv": "Latvian", "mr": "Marathi",
    "ms": "Malay", "my": "Burmese", "nb": "Norwegian Bokmål", "ne": "Nepali", "nl": "Dutch",
    "no": "Norwegian", "pl": "Polish", "pt": "Portuguese", "ro": "Romanian", "ru": "Russian",
    "sk": "Slovak", "sl": "Slovenian", "so": "Somali", "sr": "Serbian", "st": "Sesotho",
    "sv": "Swedish", "sw": "Swahili", "ta": "Tamil", "th": "Thai", "tl": "Tagalog", "tr": "Turkish",
    "uk": "Ukrainian", "ur": "Urdu", "vi": "Vietnamese", "yi": "Yiddish", "yo": "Yoruba",
    "zh": "Chinese", "zu": "Zulu",
}

#: written without spaces between words (or, Korean, with particles inside them): characters
CHARACTER_LANGUAGES = frozenset({"zh", "ja", "th", "lo", "km", "my", "ko"})

#: trained spaCy pipelines (spaCy 3.8) by language: the topic measures' tagger
SPACY_PIPELINES = {
    "ca": "ca_core_news_sm", "da": "da_core_news_sm", "de": "de_core_news_sm", "el": "el_core_news_sm",
    "es": "es_core_news_sm", "fi": "fi_core_news_sm", "fr": "fr_core_news_sm",
    "hr": "hr_core_news_sm", "it": "it_core_news_sm", "ja": "ja_core_news_sm", "ko": "ko_core_news_sm",
    "lt": "lt_core_news_sm", "nb": "nb_core_news_sm", "nl": "nl_core_news_sm", "pl": "pl_core_news_sm",
    "pt": "pt_core_news_sm", "ro": "ro_core_news_sm", "ru": "ru_core_news_sm", "sl": "sl_core_news_sm",
    "sv": "sv_core_news_sm", "uk": "uk_core_news_sm", "zh": "zh_core_web_sm",
}

#: optional word segmenters (extras) that can replace a preset's tokenizer
SEGMENTER_BY_LANGUAGE = {"zh": "jieba", "ja": "sudachi", "th": "pythainlp", "ko": "kiwi"}


def _preset(code: str) -> Preset:
    if code == "en":
        return Preset("en", "English", "rouge155", "rouge155", "smart", tagger="spacy")
    snowball = SNOWBALL_ISO_CODES.get(code)
    pipeline = SPACY_PIPELINES.get(code)
    return Preset(
        code=code,
        name=NAMES[code],
        tokenizer="character" if code in CHARACTER_LANGUAGES else "unicode",
        stem=f"snowballstemmer:{snowball}" if snowball else "none",
        stopwords=f"iso:{code}" if code in ISO_LANGUAGES else ("iso:no" if code == "nb" else None),
        tagger=f"spacy:{pipeline}" if pipeline else None,
        segmenter=SEGMENTER_BY_LANGUAGE.get(code),
    )


LANGUAGES: Registry = Registry("language")
for _code in sorted(NAMES):
    _p = _preset(_code)
    LANGUAGES.add(_code, _p, _p.describe(), aliases=(_p.name.lower(),), version=_p.version)
LANGUAGES.add("none", None, "no preset: ROUGE-1.5.5's English rules, every option as given",
              aliases=("false", "off"))


def apply_preset(language: str, given: Mapping[str, Any], switched_on: Collection[str] = ()) -> dict[str, Any]:
    """Option values for ``language`` (canonical code): ``given`` with the preset's defaults filled in.

    ``given`` holds the options given explicitly; ``switched_on`` names those
    of ``stem`` and ``stopwords`` given as plain ``True``, which mean the
    preset's stemmer and stopword list.
    """
    preset = LANGUAGES.get(language)
    values = dict(given)
    if preset is None:
        return values
    for key, value in preset.defaults().items():
        values.setdefault(key, value)
    if "stem" in switched_on:
        values["stem"] = preset.stem if preset.stem != "none" else "none"
    if "stopwords" in switched_on:
        if preset.stopwords is None:
            raise UserError(f"stopwords: language {language!r} ({preset.name}) has no shipped stopword "
                            f"list; give one: a file (one word a line) or spacy:{language}")
        values["stopwords"] = preset.stopwords
    return values


def topic_route_error(language: str) -> UserError:
    """The one line for topic measures in a language whose preset has no tagger."""
    preset = LANGUAGES.get(language)
    name = preset.name if preset is not None else language
    return UserError(
        f"topic measures in {name} ({language}) need a tagger for that language: "
        f"tagger=spacy:<pipeline> (an installed {name} spaCy pipeline, universal POS tags), "
        f"tagger=pretagged (word/TAG input), or the aspect measures with a lexicon (no tagger)"
    )


#: the preset to suggest for text in a script (by the first word of a letter's Unicode name)
_SCRIPT_PRESETS = {
    "CJK": "zh", "HIRAGANA": "ja", "KATAKANA": "ja", "HANGUL": "ko", "THAI": "th", "LAO": "lo",
    "KHMER": "km", "MYANMAR": "my", "CYRILLIC": "ru", "ARABIC": "ar", "GREEK": "el", "HEBREW": "he",
    "DEVANAGARI": "hi", "BENGALI": "bn", "TAMIL": "ta", "ARMENIAN": "hy", "GUJARATI": "gu",
}


def preset_for_script(text: str) -> str | None:
    """The language code to suggest for the first letter of ``text`` outside ASCII, if one fits.

    Kana wins over Han (Japanese mixes both); Latin letters with accents
    suggest nothing (many languages write them).
    """
    found = None
    for ch in text:
        if ch.isascii() or not ch.isalpha():
            continue
        first = unicodedata.name(ch, "").split(" ", 1)[0]
        code = _SCRIPT_PRESETS.get(first)
        if code == "ja":
            return code
        if code is not None and found is None:
            found = code
    return found
