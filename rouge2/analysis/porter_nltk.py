"""The Porter stemmer as nltk's ``PorterStemmer()`` runs it (its default mode).

rouge-score stems with ``nltk.stem.porter.PorterStemmer()``, whose default
mode, ``NLTK_EXTENSIONS``, is Porter's 1980 algorithm with the changes Porter
later published on his web page and a few of nltk's own.  Importing nltk
takes most of a second; this module gives the same stem for every word
without it (tests/test_porter_nltk.py compares the two on the SummEval,
Opinosis and ROUGE-1.5.5 vocabularies and on generated words, with nltk as the
oracle).  Written from the algorithm's description:

*Letters.*  ``a e i o u`` are vowels; ``y`` is a vowel when it follows a
consonant and a consonant at the start of a word or after a vowel; every
other character (digits too) is a consonant.  A stem has the form
``[C](VC){m}[V]``; ``m`` is its *measure*.  ``*v*``: the stem contains a
vowel; ``*d``: it ends with a double consonant; ``*o``: it ends
consonant-vowel-consonant with the last consonant not ``w``, ``x`` or ``y``,
or (nltk) it is two letters long, a vowel then a consonant.

*Rules.*  Each step looks for the longest suffix of its list that the word
ends with; if the stem before it meets the rule's condition, the suffix is
replaced, and otherwise the step leaves the word as it is (no shorter suffix
is tried).

1a. ``sses``→``ss``, ``ies``→``i`` (→``ie`` for a four-letter word, nltk),
    ``ss``→``ss``, ``s``→``''``.
1b. ``eed``→``ee`` if m>0.  ``ied``→``ie`` for a four-letter word, else
    ``i`` (nltk).  ``ed``, ``ing``→``''`` if ``*v*``, and then: ``at``,
    ``bl``, ``iz`` get an ``e``; a double consonant other than ``l``, ``s``,
    ``z`` loses one letter; a stem with m=1 and ``*o`` gets an ``e``.
1c. ``y``→``i`` when a consonant precedes it and is not the word's first
    letter (nltk; Porter's paper has ``*v*``).
2.  (m>0) ``ational``→``ate``, ``tional``→``tion``, ``enci``→``ence``,
    ``anci``→``ance``, ``izer``→``ize``, ``bli``→``ble`` (Porter's later
    correction of ``abli``→``able``), ``alli``→``al``, ``entli``→``ent``,
    ``eli``→``e``, ``ousli``→``ous``, ``ization``→``ize``, ``ation``→``ate``,
    ``ator``→``ate``, ``alism``→``al``, ``iveness``→``ive``,
    ``fulness``→``ful``, ``ousness``→``ous``, ``aliti``→``al``,
    ``iviti``→``ive``, ``biliti``→``ble``, and Porter's later ``logi``→``log``
    (its condition measured on the stem *with* the ``l``), and nltk's
    ``fulli``→``ful``.  nltk: after ``alli``→``al``
    the step runs again on the result.
3.  (m>0) ``icate``→``ic``, ``ative``→``''``, ``alize``→``al``,
    ``iciti``→``ic``, ``ical``→``ic``, ``ful``→``''``, ``ness``→``''``.
4.  (m>1) ``al``, ``ance``, ``ence``, ``er``, ``ic``, ``able``, ``ible``,
    ``ant``, ``ement``, ``ment``, ``ent``, ``ion`` (after ``s`` or ``t``),
    ``ou``, ``ism``, ``ate``, ``iti``, ``ous``, ``ive``, ``ize``→``''``.
5a. ``e``→``''`` if m>1, or m=1 and not ``*o``.
5b. ``ll``→``l`` if m>1.

*Before the steps* (nltk): the word is lowercased; a few words taken from
Porter's later English stemmer have fixed stems (:data:`IRREGULAR`); a word
of one or two characters is returned unchanged.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["IRREGULAR", "nltk_porter_stem", "porter_stem_nltk"]

#: words whose stem is fixed before the steps run (nltk's irregular forms)
IRREGULAR = {
    "skies": "sky", "sky": "sky",
    "dying": "die", "lying": "lie", "tying": "tie",
    "news": "news", "howe": "howe",
    "innings": "inning", "inning": "inning",
    "outings": "outing", "outing": "outing",
    "cannings": "canning", "canning": "canning",
    "proceed": "proceed", "exceed": "exceed", "succeed": "succeed",
}

_VOWELS = frozenset("aeiou")


# -- the letter classes and the conditions -----------------------------------
# Each condition is on a stem; a word's letter classes up to position i depend
# only on its letters up to i, so the classes of a stem are computed on it.

def _consonants(stem: str) -> list[bool]:
    """Per character, whether it is a consonant (``y`` after a consonant is a vowel)."""
    out: list[bool] = []
    for i, ch in enumerate(stem):
        if ch in _VOWELS:
            out.append(False)
        elif ch == "y" and i:
            out.append(not out[-1])
        else:
            out.append(True)
    return out


def _measure(stem: str) -> int:
    """m in ``[C](VC){m}[V]``: the number of vowel-to-consonant changes."""
    c = _consonants(stem)
    return sum(1 for i in range(1, len(c)) if c[i] and not c[i - 1])


def _has_vowel(stem: str) -> bool:
    return not all(_consonants(stem))


def _double_consonant(stem: str) -> bool:
    return len(stem) >= 2 and stem[-1] == stem[-2] and _consonants(stem)[-1]


def _short_cvc(stem: str) -> bool:
    """``*o``: ends consonant-vowel-consonant (last not w, x, y), or is vowel-consonant."""
    c = _consonants(stem)
    if len(c) == 2:
        return not c[0] and c[1]
    return len(c) >= 3 and stem[-1] not in "wxy" and c[-1] and not c[-2] and c[-3]


# -- the steps ------------------------------------------------------------------

def _step1a(w: str) -> str:
    if w.endswith("sses"):
        return w[:-2]
    if w.endswith("ies"):
        return w[:-1] if len(w) == 4 else w[:-2]
    if w.endswith("ss"):
        return w
    if w.endswith("s"):
        return w[:-1]
    return w


def _after_1b(stem: str) -> str:
    """Step 1b's clean-up once ``ed`` or ``ing`` is removed."""
    if stem.endswith(("at", "bl", "iz")):
        return stem + "e"
    if _double_consonant(stem) and stem[-1] not in "lsz":
        return stem[:-1]
    if _short_cvc(stem) and _measure(stem) == 1:
        return stem + "e"
    return stem


def _step1b(w: str) -> str:
    if w.endswith("ied"):
        return w[:-1] if len(w) == 4 else w[:-2]
    if w.endswith("eed"):
        return w[:-1] if _measure(w[:-3]) > 0 else w
    for suffix in ("ed", "ing"):
        if w.endswith(suffix):
            stem = w[: -len(suffix)]
            return _after_1b(stem) if _has_vowel(stem) else w
    return w


def _step1c(w: str) -> str:
    if w.endswith("y") and len(w) > 2 and _consonants(w[:-1])[-1]:
        return w[:-1] + "i"
    return w


# suffix -> replacement, longest suffixes first where one ends another
_STEP2 = (
    ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"),
    ("izer", "ize"), ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"),
    ("ousli", "ous"), ("ization", "ize"), ("ation", "ate"), ("ator", "ate"),
    ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous"),
    ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"), ("fulli", "ful"),
    ("logi", "log"),
)
_STEP3 = (
    ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"),
    ("ful", ""), ("ness", ""),
)
_STEP4 = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
    "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
)


def _step2(w: str) -> str:
    if w.endswith("alli") and _measure(w[:-4]) > 0:
        return _step2(w[:-4] + "al")
    for suffix, replacement in _STEP2:
        if w.endswith(suffix):
            # "logi" is measured with its "l" (stem + "l"), the others without
            stem = w[: -len(suffix)]
            measured = stem + "l" if suffix == "logi" else stem
            return stem + replacement if _measure(measured) > 0 else w
    return w


def _step3(w: str) -> str:
    for suffix, replacement in _STEP3:
        if w.endswith(suffix):
            stem = w[: -len(suffix)]
            return stem + replacement if _measure(stem) > 0 else w
    return w


def _step4(w: str) -> str:
    for suffix in _STEP4:
        if w.endswith(suffix):
            stem = w[: -len(suffix)]
            if suffix == "ion" and not stem.endswith(("s", "t")):
                return w
            return stem if _measure(stem) > 1 else w
    return w


def _step5(w: str) -> str:
    if w.endswith("e"):
        stem = w[:-1]
        m = _measure(stem)
        if m > 1 or (m == 1 and not _short_cvc(stem)):
            w = stem
    if w.endswith("ll") and _measure(w[:-1]) > 1:
        w = w[:-1]
    return w


def porter_stem_nltk(word: str) -> str:
    """The stem nltk's ``PorterStemmer().stem(word)`` returns (default mode)."""
    w = word.lower()
    fixed = IRREGULAR.get(w)
    if fixed is not None:
        return fixed
    if len(w) <= 2:
        return w
    return _step5(_step4(_step3(_step2(_step1c(_step1b(_step1a(w)))))))


nltk_porter_stem = lru_cache(maxsize=1 << 16)(porter_stem_nltk)
nltk_porter_stem.__doc__ = "porter_stem_nltk, memoized (the drop-in stems each distinct word once)."
