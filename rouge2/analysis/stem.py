"""Stemmers.

* :func:`porter_stem` is the Porter stemmer variant built into ROUGE-1.5.5
  (its ``stem`` routine), written from the rules of Porter (1980) plus the
  script's changes:

  - a word shorter than 3 characters is returned unchanged;
  - an initial ``y`` is treated as a consonant (upper-cased while stemming);
  - step 4 is split in three (the 2004 change by C.-Y. Lin): first the usual
    suffix list with ``ement`` in it but without ``ment``/``ent``, then, on
    the result, ``ment``, then ``ent`` or else ``sion``/``tion``, each
    removed when the remaining stem has measure > 1.

* :func:`rouge155_stem_uncached` is the script's ``-m`` stemming:
  ASCII-lowercase the token, look it up in the WordNet-2.0 exception table,
  and only if it is not there apply :func:`porter_stem`.

* :func:`rouge155_stem` is the same, memoized per distinct token (the memo
  is emptied at :data:`ROUGE155_MEMO_LIMIT` tokens).  With the C kernels it
  is ``ROUGE155.stem`` of a ``rouge2.kernels._speedups.Rouge155Stemmer``:
  the Porter variant and the table lookup in C (``porter155.h``), the two
  functions above staying the definition (tests compare them on every
  exception-list word, the SummEval vocabulary and generated words).
  ``ROUGE155.stem_many(tokens, min_length)`` stems a list in one call.

* :func:`stem_rouge155_token` adds the caller-side rule of the script: only
  tokens longer than 3 characters are stemmed.

* :func:`snowball_stemmer` returns a Snowball stemmer for a language
  (``snowball:<language>``): nltk's for the 16 languages nltk has (the
  numbers rouge2 has always given), the ``snowballstemmer`` package's for
  the 20 others; :func:`snowballstemmer_stemmer` (``snowballstemmer:<language>``)
  always the package's, for its 34 languages.  The two differ on some words
  of the languages both have (``benchmarks/compare_snowball.py``).

The script works on bytes; here tokens are ``str`` and lengths count
characters.  For the ASCII tokens the script's own tokenizer produces the
two agree exactly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rouge2.data import read_resource, resource_sha256, sha256_json
from rouge2.errors import UserError
from rouge2.kernels import rouge155_stemmer
from rouge2.registry import Registry, suggest

__all__ = [
    "EXCEPTION_FILES",
    "ROUGE155",
    "ROUGE155_MEMO_LIMIT",
    "SNOWBALLSTEMMER_LANGUAGES",
    "SNOWBALL_ISO_CODES",
    "SNOWBALL_LANGUAGES",
    "STEMMERS",
    "Stemmer",
    "batch_stemmer",
    "exception_table",
    "porter_stem",
    "rouge155_stem",
    "rouge155_stem_uncached",
    "snowball_origin",
    "snowball_stemmer",
    "snowballstemmer_stemmer",
    "stem_rouge155_token",
]

# --------------------------------------------------------------------------
# the script's Porter variant

_c = "[^aeiou]"  # consonant
_v = "[aeiouy]"  # vowel
_C = _c + "[^aeiouy]*"  # consonant sequence
_V = _v + "[aeiou]*"  # vowel sequence

_MGR0 = re.compile(f"^({_C})?{_V}{_C}")  # measure > 0
_MEQ1 = re.compile(f"^({_C})?{_V}{_C}({_V})?$")  # measure == 1
_MGR1 = re.compile(f"^({_C})?{_V}{_C}{_V}{_C}")  # measure > 1
_HAS_V = re.compile(f"^({_C})?{_v}")  # stem contains a vowel
_CVC = re.compile(f"^{_C}{_v}[^aeiouwxy]$")  # short *o stem

_STEP1A = re.compile(r"(ss|i)es$")
_STEP1A_S = re.compile(r"([^s])s$")
_STEP1B = re.compile(r"(ed|ing)$")
_STEP1B_ADD_E = re.compile(r"(at|bl|iz)$")
_DOUBLE = re.compile(r"([^aeiouylsz])\1$")

_STEP2 = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance",
    "izer": "ize", "bli": "ble", "alli": "al", "entli": "ent", "eli": "e",
    "ousli": "ous", "ization": "ize", "ation": "ate", "ator": "ate",
    "alism": "al", "iveness": "ive", "fulness": "ful", "ousness": "ous",
    "aliti": "al", "iviti": "ive", "biliti": "ble", "logi": "log",
}
_STEP3 = {
    "icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic",
    "ful": "", "ness": "",
}
_STEP4 = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ou",
    "ism", "ate", "iti", "ous", "ive", "ize",
)


def _suffix_re(suffixes: Iterable[str]) -> re.Pattern[str]:
    # A search for "(a|b|...)$" finds the leftmost start, i.e. the longest
    # listed suffix the word ends with; the regex engine does exactly that.
    return re.compile("(" + "|".join(suffixes) + ")$")


_STEP2_RE = _suffix_re(_STEP2)
_STEP3_RE = _suffix_re(_STEP3)
_STEP4_RE = _suffix_re(_STEP4)
_ION_RE = re.compile(r"(s|t)(ion)$")


def porter_stem(word: str) -> str:
    """ROUGE-1.5.5's ``stem``: its Porter variant, applied to ``word`` as is.

    No lowercasing is done (the script lowercases before calling it); upper
    case vowels count as consonants, as in the script.
    """
    w = word
    if len(w) < 3:
        return w
    initial_y = w[0] == "y"
    if initial_y:
        w = "Y" + w[1:]
    w = _step5(_step4(_step3(_step2(_step1c(_step1b(_step1a(w)))))))
    if initial_y:
        w = w[:1].lower() + w[1:]
    return w


def _step1a(w: str) -> str:
    m = _STEP1A.search(w)
    if m:
        return w[: m.start()] + m.group(1)
    m = _STEP1A_S.search(w)
    if m:
        return w[: m.start()] + m.group(1)
    return w


def _step1b(w: str) -> str:
    if w.endswith("eed"):
        return w[:-1] if _MGR0.search(w[:-3]) else w
    m = _STEP1B.search(w)
    if m:
        stem = w[: m.start()]
        if _HAS_V.search(stem):
            w = stem
            if _STEP1B_ADD_E.search(w):
                w += "e"
            elif _DOUBLE.search(w):
                w = w[:-1]
            elif _CVC.search(w):
                w += "e"
    return w


def _step1c(w: str) -> str:
    if w.endswith("y"):
        stem = w[:-1]
        if _HAS_V.search(stem):
            return stem + "i"
    return w


def _step2(w: str) -> str:
    m = _STEP2_RE.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR0.search(stem):
            return stem + _STEP2[m.group(1)]
    return w


def _step3(w: str) -> str:
    m = _STEP3_RE.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR0.search(stem):
            return stem + _STEP3[m.group(1)]
    return w


def _step4(w: str) -> str:
    """Modified: the suffix list with -ement first, then -ment, then -ent or -(s|t)ion."""
    m = _STEP4_RE.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR1.search(stem):
            w = stem
    if w.endswith("ment"):
        stem = w[:-4]
        if _MGR1.search(stem):
            w = stem
    if w.endswith("ent"):
        stem = w[:-3]
        if _MGR1.search(stem):
            w = stem
    else:
        m = _ION_RE.search(w)
        if m:
            stem = w[: m.start()] + m.group(1)
            if _MGR1.search(stem):
                w = stem
    return w


def _step5(w: str) -> str:
    if w.endswith("e"):
        stem = w[:-1]
        if _MGR1.search(stem) or (_MEQ1.search(stem) and not _CVC.search(stem)):
            w = stem
    if w.endswith("ll") and _MGR1.search(w):
        w = w[:-1]
    return w


# --------------------------------------------------------------------------
# WordNet-2.0 exception table

#: Read in this order, later files overwriting earlier keys.  This is the
#: order that reproduces the database shipped with ROUGE-1.5.5 (adj beats
#: adv for ``best``/``better``; verb beats noun for ``is``/``testes``).
EXCEPTION_FILES = ("adv.exc", "adj.exc", "noun.exc", "verb.exc")

_WS = re.compile(r"\s+")
_exceptions: dict[str, str] | None = None


def _perl_split(line: str) -> list[str]:
    # Perl's split(/\s+/, $line): a leading empty field is kept, trailing
    # empty fields are dropped.
    fields = _WS.split(line)
    while fields and fields[-1] == "":
        fields.pop()
    return fields


def _fast_perl_split(line: str) -> list[str]:
    # The same as _perl_split, about twice as fast (the table is read on a
    # fresh process's first stemmed word): str.split() splits on exactly
    # the characters re's \s matches (both use str.isspace) and drops the
    # empty fields at both ends; Perl keeps a leading one before a field.
    fields = line.split()
    if fields and line[:1].isspace():
        fields.insert(0, "")
    return fields


def exception_table() -> dict[str, str]:
    """The WordNet-2.0 exception table used by the script's ``-m``.

    Each line of each file is split on whitespace: the first field is the
    key, the second the value; extra fields are ignored.
    """
    global _exceptions
    if _exceptions is None:
        table: dict[str, str] = {}
        for name in EXCEPTION_FILES:
            text = read_resource("rouge155", name).decode("latin-1")
            lines = text.split("\n")
            if lines and lines[-1] == "":
                lines.pop()  # the piece after the final newline
            for line in lines:
                fields = _fast_perl_split(line)
                key = fields[0] if fields else ""
                table[key] = fields[1] if len(fields) > 1 else ""
        _exceptions = table
    return _exceptions


_ASCII_LOWER = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"
)


def rouge155_stem_uncached(token: str) -> str:
    """ROUGE-1.5.5's ``-m`` stemming of one token, the definition.

    The token is lowercased (ASCII letters only, like the script's
    ``tr/A-Z/a-z/``), looked up in the WordNet-2.0 exception table, and
    stemmed with :func:`porter_stem` when it is not an exception.
    """
    if not token:
        return token
    low = token.translate(_ASCII_LOWER)
    table = _exceptions if _exceptions is not None else exception_table()
    result = table.get(low)
    if result is None:
        result = porter_stem(low)
    return result


#: distinct tokens :func:`rouge155_stem` remembers; the memo is emptied when full
ROUGE155_MEMO_LIMIT = 1 << 18

#: the memoizing ``-m`` stemmer (C when available; see :mod:`rouge2.kernels`);
#: the exception table is read on its first new token, not at import
ROUGE155 = rouge155_stemmer(exception_table, rouge155_stem_uncached, ROUGE155_MEMO_LIMIT)

#: ROUGE-1.5.5's ``-m`` stemming of one token, memoized: equal to
#: :func:`rouge155_stem_uncached` (a bound method of :data:`ROUGE155`)
rouge155_stem: Callable[[str], str] = ROUGE155.stem


def batch_stemmer(stem: Callable[[str], str] | None) -> Callable[..., list[str]] | None:
    """The list form ``f(tokens, min_length)`` of a stemming function, if it has one.

    :func:`rouge155_stem` has ``ROUGE155.stem_many`` (one C call per token
    list with the C kernels); other stemmers have none (``None``).
    """
    if stem is not None and stem == rouge155_stem:
        return ROUGE155.stem_many
    return None


def stem_rouge155_token(token: str) -> str:
    """Stem as the script does: only tokens longer than 3 characters.

    Shorter tokens are returned unchanged (not even lowercased).
    """
    if len(token) > 3:
        return rouge155_stem(token)
    return token


# --------------------------------------------------------------------------
# Snowball: nltk's 16 languages and the snowballstemmer package's 34


#: nltk's Snowball languages (nltk is pinned; tests check this list against it)
SNOWBALL_LANGUAGES = (
    "arabic", "danish", "dutch", "english", "finnish", "french", "german",
    "hungarian", "italian", "norwegian", "porter", "portuguese", "romanian",
    "russian", "spanish", "swedish",
)

#: the ``snowballstemmer`` package's algorithms (pinned; tests check this list
#: against it): 34 languages, plus Porter's original English algorithm and
#: the Porter-style Dutch one that Snowball used before its 3.0 release
SNOWBALLSTEMMER_LANGUAGES = (
    "arabic", "armenian", "basque", "catalan", "czech", "danish", "dutch", "dutch_porter",
    "english", "esperanto", "estonian", "finnish", "french", "german", "greek", "hindi",
    "hungarian", "indonesian", "irish", "italian", "lithuanian", "nepali", "norwegian",
    "persian", "polish", "porter", "portuguese", "romanian", "russian", "serbian", "sesotho",
    "spanish", "swedish", "tamil", "turkish", "yiddish",
)

#: ISO 639-1 codes of the Snowball languages (``nb`` is Norwegian Bokmål,
#: which Snowball's Norwegian stemmer is written for)
SNOWBALL_ISO_CODES = {
    "ar": "arabic", "hy": "armenian", "eu": "basque", "ca": "catalan", "cs": "czech",
    "da": "danish", "nl": "dutch", "en": "english", "eo": "esperanto", "et": "estonian",
    "fi": "finnish", "fr": "french", "de": "german", "el": "greek", "hi": "hindi",
    "hu": "hungarian", "id": "indonesian", "ga": "irish", "it": "italian", "lt": "lithuanian",
    "ne": "nepali", "no": "norwegian", "nb": "norwegian", "fa": "persian", "pl": "polish",
    "pt": "portuguese", "ro": "romanian", "ru": "russian", "sr": "serbian", "st": "sesotho",
    "es": "spanish", "sv": "swedish", "ta": "tamil", "tr": "turkish", "yi": "yiddish",
}


def _language_name(language: str, known: tuple[str, ...], family: str) -> str:
    lang = language.strip().lower().replace("-", "_")
    lang = SNOWBALL_ISO_CODES.get(lang, lang)
    if lang not in known:
        raise UserError(
            f"unknown Snowball stemmer language {language!r} in '{family}{language}'"
            f"{suggest(lang, known)}; use one of: {', '.join(known)} (or their ISO 639-1 codes)"
        )
    return lang


def _snowball_language(language: str) -> str:
    return _language_name(language, tuple(sorted({*SNOWBALL_LANGUAGES, *SNOWBALLSTEMMER_LANGUAGES})),
                          "snowball:")


def _snowballstemmer_language(language: str) -> str:
    return _language_name(language, SNOWBALLSTEMMER_LANGUAGES, "snowballstemmer:")


def snowball_stemmer(language: str) -> Callable[[str], str]:
    """``snowball:<language>``: nltk's stemmer for nltk's 16 languages (the
    numbers rouge2 always gave), the ``snowballstemmer`` package's for the others."""
    lang = _snowball_language(language)
    if lang not in SNOWBALL_LANGUAGES:
        return snowballstemmer_stemmer(lang)
    try:
        from nltk.stem.snowball import SnowballStemmer  # lazy: nltk takes seconds to import
    except ImportError as exc:  # pragma: no cover - depends on environment
        raise UserError(
            "Snowball stemming needs nltk; install it with 'pip install nltk'"
        ) from exc
    return SnowballStemmer(lang).stem


def snowballstemmer_stemmer(language: str) -> Callable[[str], str]:
    """``snowballstemmer:<language>``: the ``snowballstemmer`` package's stemmer."""
    lang = _snowballstemmer_language(language)
    try:
        # lazy: loading a stemmer module is only needed when one is used
        import snowballstemmer
    except ImportError as exc:  # pragma: no cover - a core dependency
        raise UserError("Snowball stemming needs snowballstemmer; "
                        "install it with 'pip install snowballstemmer'") from exc
    return snowballstemmer.stemmer(lang).stemWord


def snowball_origin(name: str) -> str:
    """Which package stems for the stemmer ``name`` (a canonical ``snowball:``/``snowballstemmer:``
    name), with its version: what the signature records."""
    from importlib.metadata import version  # lazy: costs start-up time; only signatures need it

    if name.startswith("snowball:") and name[len("snowball:"):] in SNOWBALL_LANGUAGES:
        return f"nltk {version('nltk')}"
    return f"snowballstemmer {version('snowballstemmer')}"


# --------------------------------------------------------------------------
# the stemmers by name


@dataclass(frozen=True)
class Stemmer:
    """A stemming function and the shortest token it applies to."""

    name: str
    stem: Callable[[str], str]
    #: tokens shorter than this are left as they are (the script: 4)
    min_length: int = 1


def _exceptions_sha256(name: str) -> str:
    """One hash of the four WordNet-2.0 exception lists the script's stemmer reads."""
    return sha256_json([resource_sha256("rouge155", f) for f in EXCEPTION_FILES])


def _nltk_version(name: str) -> str:
    from importlib.metadata import version  # lazy: costs start-up time; only signatures need it

    return f"nltk {version('nltk')}"


#: stemmers by name (plugins: entry points ``rouge2.stemmers``)
STEMMERS: Registry = Registry("stemmer", group="rouge2.stemmers")
STEMMERS.add("none", None, "no stemming", aliases=("false", "no", "off"))
STEMMERS.add("rouge155", Stemmer("rouge155", rouge155_stem, 4),
             "ROUGE-1.5.5's -m: WordNet-2.0 exceptions, then its Porter variant, tokens of 4+ characters",
             aliases=("true", "porter-rouge155", "rouge-1.5.5"), fingerprint=_exceptions_sha256)
STEMMERS.add_family("snowball:", "snowball:<language>", _snowball_language,
                    lambda lang: Stemmer(f"snowball:{lang}", snowball_stemmer(lang), 1),
                    "Snowball stemmer for <language> (name or ISO code), every token: nltk's for "
                    "its 16 languages, snowballstemmer's for the 20 others",
                    prefixes=("snowball-",), fingerprint=snowball_origin)
STEMMERS.add_family("snowballstemmer:", "snowballstemmer:<language>", _snowballstemmer_language,
                    lambda lang: Stemmer(f"snowballstemmer:{lang}", snowballstemmer_stemmer(lang), 1),
                    "the snowballstemmer package's stemmer for <language> (34 languages, name or "
                    "ISO code), every token", fingerprint=snowball_origin)
