"""Tokenizers: the ROUGE-1.5.5 byte rules, words of any script, and characters.

These Python functions are the definitions; faster implementations (C) must
give the same tokens.  The Unicode data is Python's :mod:`unicodedata` (its
version, ``unicodedata.unidata_version``, is part of each Unicode tokenizer's
identity).

``rouge155``
    reproduces what ROUGE-1.5.5.pl does to a line of text: ASCII letters are
    lowercased, ``-`` becomes a token of its own (which the script then
    drops, because kept tokens must start with ``[a-z0-9$]``), and every other
    byte outside ``[A-Za-z0-9-]`` separates tokens.  Non-ASCII text therefore
    vanishes, exactly as in the original.

``unicode`` (version 2)
    words of any script, with each Han, Hiragana and Katakana character a
    word of its own, in the manner of UAX #29 word boundaries:

    1. the text is normalized to NFC and case-folded (``str.casefold``, full
       case folding: ``Straße`` gives ``strasse``);
    2. *word characters* are code points of general category L (letters),
       M (marks) or N (numbers), and the joiners ZWNJ U+200C and ZWJ U+200D;
       every other code point (spaces, punctuation, symbols, controls)
       separates words;
    3. an *ideograph or kana* is a letter (L) or letter number (Nl) in one of
       :data:`IDEOGRAPH_KANA_RANGES`: the CJK Unified Ideographs (U+4E00-9FFF
       and extensions A-I: U+3400-4DBF, U+20000-2FFFF, U+30000-3FFFF), the
       CJK Compatibility Ideographs (U+F900-FAFF), the ideographic letters of
       CJK Symbols and Punctuation (々 〆 〇, the Hangzhou numerals 〡-〩, the
       kana repeat marks 〱-〵, 〸-〼), Hiragana (U+3040-309F), Katakana
       (U+30A0-30FF, U+31F0-31FF), the halfwidth Katakana (U+FF66-FF9F) and
       the Kana Extended/Supplement blocks (U+1AFF0-1B16F), except the four
       *kana extenders* below;
    4. the *kana extenders* are the prolonged sound marks ー U+30FC and ｰ
       U+FF70 and the halfwidth voiced sound marks ﾞ U+FF9E and ﾟ U+FF9F:
       each lengthens or voices the syllable before it;
    5. a token is either one ideograph or kana followed by the marks (M),
       kana extenders and joiners that follow it (``カー`` is one token,
       ``か`` + U+3099 is one token), or a maximal run of other word
       characters.  So every Han, Hiragana and Katakana character is a token;
       digits and Latin letters next to them form tokens of their own
       (``2023年3月`` gives ``2023 年 3 月``; ``iPhone手机`` gives ``iphone
       手 机``); a kana extender with no ideograph or kana before it belongs
       to the run it is in (``ー`` alone is a token);
    6. joiners at either end of a token are removed, and a token left empty
       is dropped (a joiner is kept only inside a word, as in Persian
       ``واکنش‌ها``).

    Compared with UAX #29: Han and Hiragana characters are single words
    there too (no rule joins them); Katakana runs are one word there (rule
    WB13) but one token per character here, so that Japanese is compared
    character by character whatever the script it is written in; scripts
    that UAX #29 leaves to a dictionary (Thai, Lao, Khmer, Myanmar) stay
    runs between spaces and punctuation here (use a segmenter or
    ``character`` for them).  Text without ideographs or kana gives exactly
    the tokens of version 1.

``jieba``, ``sudachi``, ``pythainlp``, ``kiwi``
    word segmenters from optional extras (:mod:`rouge2.analysis.segment`).

``character`` (version 1)
    one token per extended grapheme cluster (UAX #29) that holds a letter
    or a number:

    1. the text is normalized to NFKC, case-folded (``str.casefold``) and
       normalized to NFKC again, so compatibility forms match their plain
       letters: fullwidth ``ｐｏｓ`` is ``pos``, halfwidth ``ｶﾞ`` is ``ガ``,
       ``①`` is ``1``, the ligature ``ﬁ`` is ``fi`` (the normalization of
       rouge-score-rs's character-v1 profile);
    2. it is cut into extended grapheme clusters by the rules GB3-GB13 of
       UAX #29 (:func:`grapheme_clusters`), with the Grapheme_Cluster_Break
       and Indic_Conjunct_Break values derived from :mod:`unicodedata` as
       :func:`_grapheme_class` documents;
    3. a cluster is a token when it holds a code point of general category
       L or N, or when it starts with a mark (M); clusters of whitespace,
       punctuation, symbols or controls (with any marks on them) are dropped;
    4. joiners (U+200C, U+200D) at the end of a cluster are removed.

    A Han character, a kana, a Hangul syllable, a Devanagari conjunct with
    its vowel signs, a letter with its accents, and each digit is a token.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from bisect import bisect_right
from collections.abc import Callable
from functools import lru_cache

from rouge2.analysis.segment import SEGMENTERS, segmenter, segmenter_origin
from rouge2.kernels import rouge155_tokens
from rouge2.registry import Registry

__all__ = [
    "IDEOGRAPH_KANA_RANGES",
    "KANA_EXTENDERS",
    "TOKENIZERS",
    "character_tokens",
    "get_tokenizer",
    "grapheme_clusters",
    "unicode_tokens",
]

_ASCII_WORD = re.compile(r"[a-z0-9]+")
_JOINERS = "\u200c\u200d"

#: Blocks whose letters (L) and letter numbers (Nl) are each a token of
#: ``unicode`` (inclusive code point ranges); marks, punctuation and symbols
#: in these blocks are not ideographs or kana.
IDEOGRAPH_KANA_RANGES: tuple[tuple[int, int], ...] = (
    (0x3005, 0x3007),    # 々 〆 〇 (in CJK Symbols and Punctuation)
    (0x3021, 0x3029),    # Hangzhou numerals
    (0x3031, 0x3035),    # kana repeat marks 〱-〵
    (0x3038, 0x303C),    # 〸-〼
    (0x3040, 0x309F),    # Hiragana
    (0x30A0, 0x30FF),    # Katakana
    (0x31F0, 0x31FF),    # Katakana Phonetic Extensions
    (0x3400, 0x4DBF),    # CJK Unified Ideographs Extension A
    (0x4E00, 0x9FFF),    # CJK Unified Ideographs
    (0xF900, 0xFAFF),    # CJK Compatibility Ideographs
    (0xFF66, 0xFF9F),    # Halfwidth Katakana
    (0x1AFF0, 0x1B16F),  # Kana Extended-B, Kana Supplement, Kana Extended-A, Small Kana Extension
    (0x20000, 0x2FFFF),  # Supplementary Ideographic Plane (extensions B-F, compatibility supplement)
    (0x30000, 0x3FFFF),  # Tertiary Ideographic Plane (extensions G-I)
)

#: prolonged sound marks and halfwidth voiced sound marks: part of the token before them
KANA_EXTENDERS = frozenset("\u30fc\uff70\uff9e\uff9f")


def _in_ranges(cp: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    """Whether ``cp`` lies in one of the sorted, disjoint inclusive ``ranges``."""
    i = bisect_right(ranges, (cp, sys.maxunicode + 1)) - 1
    return i >= 0 and ranges[i][0] <= cp <= ranges[i][1]


def _char_classes(label: Callable[[int], str | None]) -> dict[str, str]:
    """For each label, a regex character-class body of the code points with that label.

    One pass over every code point; ``label(cp)`` gives a label or None.
    """
    ranges: dict[str, list[tuple[int, int]]] = {}
    start, current = 0, label(0)
    for cp in range(1, sys.maxunicode + 1):
        lab = label(cp)
        if lab != current:
            if current is not None:
                ranges.setdefault(current, []).append((start, cp - 1))
            start, current = cp, lab
    if current is not None:
        ranges.setdefault(current, []).append((start, sys.maxunicode))
    return {lab: _class_body(rs) for lab, rs in ranges.items()}


def _class_body(ranges: list[tuple[int, int]]) -> str:
    parts = []
    for lo, hi in ranges:
        if lo == hi:
            parts.append(re.escape(chr(lo)))
        else:
            parts.append(f"{re.escape(chr(lo))}-{re.escape(chr(hi))}")
    return "".join(parts)


# --------------------------------------------------------------------------
# unicode


def _word_label(cp: int) -> str | None:
    """``unicode``'s class of a code point: cjk, attach (marks, extenders, joiners), word, or None."""
    ch = chr(cp)
    cat = unicodedata.category(ch)
    if cat[0] == "L" or cat == "Nl":
        if ch in KANA_EXTENDERS:
            return "attach"
        return "cjk" if _in_ranges(cp, IDEOGRAPH_KANA_RANGES) else "word"
    if cat[0] == "M" or ch in _JOINERS:
        return "attach"
    return "word" if cat[0] == "N" else None


@lru_cache(maxsize=1)
def _unicode_word_pattern() -> re.Pattern[str]:
    """One ideograph or kana with what attaches to it, or a run of other word characters."""
    cls = _char_classes(_word_label)
    cjk, attach, word = cls["cjk"], cls["attach"], cls["word"]
    return re.compile(f"[{cjk}][{attach}]*|[{word}{attach}]+")


def unicode_tokens(text: str) -> list[str]:
    """Words of any script, each Han, Hiragana and Katakana character one (see the module docstring)."""
    text = unicodedata.normalize("NFC", text).casefold()
    if text.isascii():
        return _ASCII_WORD.findall(text)
    out = []
    for tok in _unicode_word_pattern().findall(text):
        tok = tok.strip(_JOINERS)
        if tok:
            out.append(tok)
    return out


# --------------------------------------------------------------------------
# character: extended grapheme clusters

#: Grapheme_Cluster_Break=Prepend (UAX #29): prepended concatenation marks and
#: Indic prefixed consonants / preceding repha
_PREPEND = (
    (0x0600, 0x0605), (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2),
    (0x0D4E, 0x0D4E), (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x111C2, 0x111C3),
    (0x1193F, 0x1193F), (0x11941, 0x11941), (0x11A3A, 0x11A3A), (0x11A84, 0x11A89),
    (0x11D46, 0x11D46), (0x11F02, 0x11F02),
)
#: Other_Grapheme_Extend (spacing vowel signs and others that extend) and
#: Emoji_Modifier: Grapheme_Cluster_Break=Extend besides the marks Mn and Me
_OTHER_EXTEND = (
    (0x09BE, 0x09BE), (0x09D7, 0x09D7), (0x0B3E, 0x0B3E), (0x0B57, 0x0B57), (0x0BBE, 0x0BBE),
    (0x0BD7, 0x0BD7), (0x0CC2, 0x0CC2), (0x0CD5, 0x0CD6), (0x0D3E, 0x0D3E), (0x0D57, 0x0D57),
    (0x0DCF, 0x0DCF), (0x0DDF, 0x0DDF), (0x1B35, 0x1B35), (0x200C, 0x200C), (0x302E, 0x302F),
    (0xFF9E, 0xFF9F), (0x1133E, 0x1133E), (0x11357, 0x11357), (0x114B0, 0x114B0),
    (0x114BD, 0x114BD), (0x115AF, 0x115AF), (0x11930, 0x11930), (0x1D165, 0x1D165),
    (0x1D16E, 0x1D172), (0x1F3FB, 0x1F3FF), (0xE0020, 0xE007F),
)
#: spacing marks (Mc) that do not count as SpacingMark (Grapheme_Cluster_Break=Other)
_NOT_SPACING = (
    (0x102B, 0x102C), (0x1038, 0x1038), (0x1062, 0x1064), (0x1067, 0x106D), (0x1083, 0x1083),
    (0x1087, 0x108C), (0x108F, 0x108F), (0x109A, 0x109C), (0x1A61, 0x1A61), (0x1A63, 0x1A64),
    (0xAA7B, 0xAA7B), (0xAA7D, 0xAA7D), (0x11720, 0x11721),
)
#: Indic_Conjunct_Break=Linker: the viramas of Devanagari, Bengali, Gujarati, Oriya, Telugu, Malayalam
_LINKERS = frozenset("\u094d\u09cd\u0acd\u0b4d\u0c4d\u0d4d")
#: Indic_Conjunct_Break=Consonant: the consonants of those six scripts
_CONSONANTS = (
    (0x0915, 0x0939), (0x0958, 0x095F), (0x0978, 0x097F),
    (0x0995, 0x09A8), (0x09AA, 0x09B0), (0x09B2, 0x09B2), (0x09B6, 0x09B9), (0x09DC, 0x09DD),
    (0x09DF, 0x09DF), (0x09F0, 0x09F1),
    (0x0A95, 0x0AA8), (0x0AAA, 0x0AB0), (0x0AB2, 0x0AB3), (0x0AB5, 0x0AB9), (0x0AF9, 0x0AF9),
    (0x0B15, 0x0B28), (0x0B2A, 0x0B30), (0x0B32, 0x0B33), (0x0B35, 0x0B39), (0x0B5C, 0x0B5D),
    (0x0B5F, 0x0B5F), (0x0B71, 0x0B71),
    (0x0C15, 0x0C28), (0x0C2A, 0x0C39), (0x0C58, 0x0C5A),
    (0x0D15, 0x0D3A),
)
_HANGUL_BASE, _HANGUL_END = 0xAC00, 0xD7A3


def _hangul_label(cp: int) -> str | None:
    if 0x1100 <= cp <= 0x115F or 0xA960 <= cp <= 0xA97C:
        return "L"
    if 0x1160 <= cp <= 0x11A7 or 0xD7B0 <= cp <= 0xD7C6:
        return "V"
    if 0x11A8 <= cp <= 0x11FF or 0xD7CB <= cp <= 0xD7FB:
        return "T"
    if _HANGUL_BASE <= cp <= _HANGUL_END:
        return "LV" if (cp - _HANGUL_BASE) % 28 == 0 else "LVT"
    return None


def _grapheme_class(cp: int) -> str:
    """Grapheme_Cluster_Break of ``cp`` (refined by Indic_Conjunct_Break), from unicodedata.

    * CR, LF: U+000D, U+000A;
    * Control: categories Cc, Zl, Zp, Cs, and Cf except ZWNJ, ZWJ, the
      Prepend ones and the tags U+E0020-E007F;
    * Prepend: :data:`_PREPEND`;
    * Extend: categories Mn and Me, and :data:`_OTHER_EXTEND` (which holds
      ZWNJ, the halfwidth voiced marks and the emoji modifiers); the six
      viramas of :data:`_LINKERS` are ``Linker``, an Extend that also links
      conjuncts (GB9c);
    * ZWJ: U+200D;
    * Regional_Indicator: U+1F1E6-1F1FF;
    * SpacingMark: category Mc not in :data:`_OTHER_EXTEND` or
      :data:`_NOT_SPACING`, and U+0E33, U+0EB3;
    * L, V, T, LV, LVT: the Hangul jamo and syllables (by code point arithmetic);
    * ``Consonant``: :data:`_CONSONANTS` (an Other that starts conjuncts);
    * Other: the rest.

    Extended_Pictographic (rule GB11, emoji ZWJ sequences) is not derived:
    it only ever joins emoji and symbols, whose clusters give no token.
    """
    ch = chr(cp)
    cat = unicodedata.category(ch)
    if cat in ("Cn", "Co"):  # unassigned, private use
        return "Other"
    if cat[0] == "L":
        return _letter_class(cp)
    if cat in ("Mn", "Me"):
        return "Linker" if ch in _LINKERS else "Extend"
    if cat == "Mc":
        if _in_ranges(cp, _OTHER_EXTEND):
            return "Extend"
        return "Other" if _in_ranges(cp, _NOT_SPACING) else "SpacingMark"
    if cat in ("Cc", "Zl", "Zp", "Cs"):
        return {"\r": "CR", "\n": "LF"}.get(ch, "Control")
    if cat == "Cf":
        if ch == "\u200d":
            return "ZWJ"
        if _in_ranges(cp, _PREPEND):
            return "Prepend"
        return "Extend" if _in_ranges(cp, _OTHER_EXTEND) else "Control"
    if cat == "Sk" and _in_ranges(cp, _OTHER_EXTEND):
        return "Extend"  # the emoji modifiers
    if cat == "So" and 0x1F1E6 <= cp <= 0x1F1FF:
        return "RI"
    return "Other"


def _letter_class(cp: int) -> str:
    """:func:`_grapheme_class` of a letter (category L)."""
    if _in_ranges(cp, _PREPEND):
        return "Prepend"
    if _in_ranges(cp, _OTHER_EXTEND):
        return "Extend"  # the halfwidth voiced sound marks
    if cp in (0x0E33, 0x0EB3):
        return "SpacingMark"
    hangul = _hangul_label(cp)
    if hangul is not None:
        return hangul
    return "Consonant" if _in_ranges(cp, _CONSONANTS) else "Other"


@lru_cache(maxsize=1)
def _grapheme_pattern() -> re.Pattern[str]:
    """The UAX #29 regular expression for extended grapheme clusters, on our classes.

    ``crlf | Control | Prepend* core (Extend | ZWJ | SpacingMark)*`` where
    core is a Hangul syllable sequence, a pair of regional indicators, an
    Indic conjunct (GB9c) or any single non-control character, tried in
    that order (the first that matches is the longest, as the rules require).
    """
    c = _char_classes(_grapheme_class)

    def one(*labels: str) -> str:
        return "[" + "".join(c.get(lab, "") for lab in labels) + "]"

    ctrl = one("Control", "CR", "LF")
    hangul = (f"{one('L')}*(?:{one('V')}+|{one('LV')}{one('V')}*|{one('LVT')}){one('T')}*"
              f"|{one('L')}+|{one('T')}+")
    in_ext = one("Extend", "ZWJ", "Linker")  # InCB=Extend or Linker
    conjunct = f"{one('Consonant')}(?:{in_ext}*{one('Linker')}{in_ext}*{one('Consonant')})+"
    anything = f"[^{c['Control']}{c['CR']}{c['LF']}]"
    core = f"(?:{hangul}|{one('RI')}{one('RI')}|{conjunct}|{anything})"
    post = one("Extend", "ZWJ", "SpacingMark", "Linker")
    return re.compile(f"\r\n|{ctrl}|{one('Prepend')}*{core}{post}*")


def grapheme_clusters(text: str) -> list[str]:
    """The extended grapheme clusters of ``text`` (UAX #29), in order; they concatenate to ``text``."""
    return _grapheme_pattern().findall(text)


def _is_character_token(cluster: str) -> bool:
    if unicodedata.category(cluster[0])[0] == "M":
        return True
    return any(unicodedata.category(ch)[0] in "LN" for ch in cluster)


def character_tokens(text: str) -> list[str]:
    """One token per grapheme cluster holding a letter or number (see the module docstring)."""
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    if text.isascii():
        return [ch for ch in text if ch.isalnum()]
    out = []
    for cluster in grapheme_clusters(text):
        if _is_character_token(cluster):
            tok = cluster.rstrip(_JOINERS)
            if tok:
                out.append(tok)
    return out


def _unicode_data(name: str) -> str:
    """The Unicode tokenizers' data: Python's Unicode database version."""
    return f"unicodedata {unicodedata.unidata_version}"


#: tokenizers by name (plugins: entry points ``rouge2.tokenizers``)
TOKENIZERS: Registry = Registry("tokenizer", group="rouge2.tokenizers")
TOKENIZERS.add("rouge155", rouge155_tokens,
               "ROUGE-1.5.5's rules: ASCII letters and digits, lowercased; other text vanishes",
               aliases=("rouge-1.5.5",))
TOKENIZERS.add("unicode", unicode_tokens,
               "words of any script (NFC, case-folded); each Han, Hiragana and Katakana character a word",
               version="2", fingerprint=_unicode_data)
TOKENIZERS.add("character", character_tokens,
               "one token per grapheme cluster with a letter or digit (NFKC, case-folded)",
               version="1", fingerprint=_unicode_data)
for _seg in SEGMENTERS.values():
    TOKENIZERS.add(_seg.name, segmenter(_seg.name), _seg.summary, fingerprint=segmenter_origin,
                   capabilities={"segmenter": True, "language": _seg.language, "extra": _seg.extra})


def get_tokenizer(name: str):
    """The tokenizer function registered under ``name``."""
    return TOKENIZERS.get(name)
