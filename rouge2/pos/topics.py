"""Topic selection for ROUGE-Topic and ROUGE-TopicUniq (Ganesan 2018, Table 3).

A topic spec is a ``|``-separated list of codes, case-insensitive:
``nn|jj``, ``NN|JJ``, ``vb``, ``rb``, ``vbd``, ``nnp``, ``noun|adj``,
``propn``.

* Four Penn *family codes* select a whole family, as the paper's Table 3
  describes them:

  ====  =================================  ===========================
  code  paper                              tags selected
  ====  =================================  ===========================
  NN    all nouns including proper nouns   NN NNS NNP NNPS
  JJ    all types of adjectives            JJ JJR JJS
  VB    all verbs                          VB VBD VBG VBN VBP VBZ
  RB    adverbs                            RB RBR RBS
  ====  =================================  ===========================

  ``MD`` (modal: can, must, will) is not in the VB family: Penn Treebank gives
  modals their own tag and they carry no topic.  ``WRB`` (wh-adverb: when,
  where, how, why) is not in the RB family: it is a wh-function word like
  ``WDT``/``WP``.  Both can still be selected explicitly (``vb|md``,
  ``rb|wrb``).
* Any other Penn tag (``VBD``, ``NNP``, ``NNS``, ``CD``, ...) selects exactly
  itself: ``nnp`` is NNP only (write ``nnp|nnps`` for singular and plural proper
  nouns).
* A Universal Dependencies part of speech (``NOUN``, ``PROPN``, ``ADJ``,
  ``VERB``, ``ADV``, ``AUX``, ``NUM``, ...) selects the tokens with that
  universal tag (spaCy's ``Token.pos_``).  Universal tags exist for every
  language, Penn tags only for English.  ``SYM`` is both a Penn and a universal
  code; it is read as the Penn tag.

Auxiliaries: a token with a verb tag (VB VBD VBG VBN VBP VBZ) whose universal
tag is ``AUX`` (is, was, has, been, do, ...) is *not* a topic, unless the spec
names ``AUX`` or the selector is built with ``auxiliaries=True``.  Modals
(``MD``) are not affected: they are outside the VB family anyway, and
``vb|md`` still selects them.

Selection is by tag membership.  ROUGE 2.0 (Java) matched the regular
expression ``.*(nn|jj).*`` against ``word_tag`` strings, so ``running_vbg``
("running" contains "nn") counted as a noun and ``nnp`` also caught NNPS; this
module never looks at the word.
"""

from __future__ import annotations

from rouge2.analysis.english import AUX_FORMS
from rouge2.errors import UserError

# Family code -> tags, in the order used for canonical names.
FAMILIES: dict[str, frozenset[str]] = {
    "NN": frozenset({"NN", "NNS", "NNP", "NNPS"}),
    "JJ": frozenset({"JJ", "JJR", "JJS"}),
    "VB": frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ"}),
    "RB": frozenset({"RB", "RBR", "RBS"}),
}
VERB_TAGS = FAMILIES["VB"]

# The Penn Treebank word tags (Santorini 1990), then the punctuation tags, then
# the extra tags spaCy's English pipelines use (OntoNotes 5).  Order is the
# canonical order for exact tags.
PENN_TAGS: tuple[str, ...] = (
    "CC", "CD", "DT", "EX", "FW", "IN", "JJ", "JJR", "JJS", "LS", "MD",
    "NN", "NNS", "NNP", "NNPS", "PDT", "POS", "PRP", "PRP$", "RB", "RBR",
    "RBS", "RP", "SYM", "TO", "UH", "VB", "VBD", "VBG", "VBN", "VBP", "VBZ",
    "WDT", "WP", "WP$", "WRB",
    "$", "#", "``", "''", ",", ".", ":", "-LRB-", "-RRB-",
    "ADD", "AFX", "HYPH", "NFP", "XX",
)
_TAG_ORDER = {tag: i for i, tag in enumerate(PENN_TAGS)}

# The 17 universal part-of-speech tags of Universal Dependencies (v2), in the
# order the UD guidelines list them (open class, closed class, other): the
# canonical order for universal codes.
UPOS_TAGS: tuple[str, ...] = (
    "ADJ", "ADV", "INTJ", "NOUN", "PROPN", "VERB",
    "ADP", "AUX", "CCONJ", "DET", "NUM", "PART", "PRON", "SCONJ",
    "PUNCT", "SYM", "X",
)
_UPOS_ORDER = {tag: i for i, tag in enumerate(UPOS_TAGS)}
# Universal codes a spec can name: all but SYM, which reads as the Penn tag.
_UPOS_CODES = frozenset(UPOS_TAGS) - {"SYM"}

# Penn tag -> universal tag, the conversion English UD treebanks and spaCy's
# English pipelines use.  Lexical exceptions are in :func:`upos_of`.
PENN_TO_UPOS: dict[str, str] = {
    "CC": "CCONJ", "CD": "NUM", "DT": "DET", "EX": "PRON", "FW": "X", "IN": "ADP",
    "JJ": "ADJ", "JJR": "ADJ", "JJS": "ADJ", "LS": "X", "MD": "AUX",
    "NN": "NOUN", "NNS": "NOUN", "NNP": "PROPN", "NNPS": "PROPN", "PDT": "DET",
    "POS": "PART", "PRP": "PRON", "PRP$": "PRON", "RB": "ADV", "RBR": "ADV",
    "RBS": "ADV", "RP": "ADP", "SYM": "SYM", "TO": "PART", "UH": "INTJ",
    "VB": "VERB", "VBD": "VERB", "VBG": "VERB", "VBN": "VERB", "VBP": "VERB",
    "VBZ": "VERB", "WDT": "DET", "WP": "PRON", "WP$": "DET", "WRB": "SCONJ",
    "$": "SYM", "#": "SYM", "``": "PUNCT", "''": "PUNCT", '""': "PUNCT", ",": "PUNCT",
    ".": "PUNCT", ":": "PUNCT", "-LRB-": "PUNCT", "-RRB-": "PUNCT", "HYPH": "PUNCT",
    "NFP": "PUNCT", "ADD": "X", "AFX": "ADJ", "XX": "X", "NIL": "X", "GW": "X",
    "BES": "VERB", "HVS": "VERB", "_SP": "SPACE",
}

# AUX_FORMS: the forms of be, have and do by Penn tag, which are AUX without a
# parse (as in spaCy's English attribute ruler when the parser is not run).
# Nouns by tag that are pronouns by function (universal PRON).
_PRONOUN_NOUNS = frozenset({
    "something", "anything", "nothing", "everything", "someone", "anyone", "everyone",
    "somebody", "anybody", "everybody", "nobody",
})
_NEGATIONS = frozenset({"not", "n't", "nt", "n’t"})


def upos_of(word: str, tag: str) -> str:
    """The universal part of speech of an English word with a Penn tag.

    For taggers that give Penn tags only (pre-tagged input, custom taggers).
    A universal tag passes through (``NOUN`` stays ``NOUN``); an unknown tag
    gives ``""``.  Verbs: forms of be, have and do are ``AUX``
    (:data:`AUX_FORMS`), every other verb is ``VERB``; modals are ``AUX``.
    """
    t = tag.upper()
    low = word.lower()
    forms = AUX_FORMS.get(t)
    if forms is not None:
        return "AUX" if low in forms else "VERB"
    if t == "RB" and low in _NEGATIONS:
        return "PART"
    if t == "NN" and low in _PRONOUN_NOUNS:
        return "PRON"
    upos = PENN_TO_UPOS.get(t)
    if upos is not None:
        return upos
    return t if t in _UPOS_ORDER else ""


# Coarse WordNet part of speech for the synonym layer.
_COARSE: dict[str, str] = {}
for _tag in FAMILIES["NN"]:
    _COARSE[_tag] = "n"
for _tag in FAMILIES["VB"]:
    _COARSE[_tag] = "v"
for _tag in FAMILIES["JJ"]:
    _COARSE[_tag] = "a"
for _tag in FAMILIES["RB"]:
    _COARSE[_tag] = "r"


def coarse_pos(tag: str) -> str | None:
    """WordNet part of speech of a Penn tag: 'n', 'v', 'a', 'r', or None.

    Follows the families above: NN* -> 'n', VB* -> 'v' (MD -> None),
    JJ* -> 'a', RB/RBR/RBS -> 'r' (WRB -> None); every other tag -> None.
    """
    return _COARSE.get(tag.upper())


def _valid_codes_message() -> str:
    families = ", ".join(f"{code} ({' '.join(sorted(tags))})" for code, tags in FAMILIES.items())
    exact = " ".join(t for t in PENN_TAGS if t not in FAMILIES)
    upos = " ".join(t for t in UPOS_TAGS if t in _UPOS_CODES)
    return f"families: {families}; exact tags: {exact}; universal tags: {upos}"


class TopicSelector:
    """Which tokens count as topics: Penn tags, Penn families, universal tags.

    Build one with :meth:`parse` (``TopicSelector.parse("nn|jj")``) or
    :func:`parse_topics`.  ``str(selector)`` / ``selector.canonical`` is the
    normalised spec for measure names and signatures (``NN|JJ``): upper case;
    Penn families first in the order NN, JJ, VB, RB; then exact Penn tags in
    Penn order; then universal tags in the order of :data:`UPOS_TAGS`;
    duplicates and Penn tags already covered by a selected family dropped.
    Two specs that name the same codes (in any order or case, with or without
    redundant tags) get the same canonical string.

    ``auxiliaries`` (default False): whether verb-tagged tokens whose
    universal tag is AUX are topics.  It is not part of the canonical string;
    naming ``AUX`` in the spec selects auxiliaries whatever it says.
    """

    __slots__ = ("_drop_aux", "auxiliaries", "canonical", "exact", "families", "tags", "upos")

    def __init__(self, families: frozenset[str] = frozenset(), exact: frozenset[str] = frozenset(),
                 upos: frozenset[str] = frozenset(), *, auxiliaries: bool = False):
        unknown = ((set(families) - set(FAMILIES)) | (set(exact) - set(PENN_TAGS))
                   | (set(upos) - set(UPOS_TAGS)))
        if unknown:
            raise UserError(
                f"unknown POS code(s) {' '.join(sorted(unknown))}; valid are {_valid_codes_message()}"
            )
        families = frozenset(families) | (frozenset(exact) & frozenset(FAMILIES))
        covered: set[str] = set()
        for code in families:
            covered |= FAMILIES[code]
        exact_kept = frozenset(t for t in exact if t not in covered)
        self.families: frozenset[str] = frozenset(families)
        self.exact: frozenset[str] = exact_kept
        self.tags: frozenset[str] = frozenset(covered | exact_kept)
        self.upos: frozenset[str] = frozenset(upos)
        self.auxiliaries: bool = bool(auxiliaries)
        # Drop AUX-verb tokens selected through a verb tag (never when AUX is named).
        self._drop_aux = not self.auxiliaries and "AUX" not in self.upos and bool(self.tags & VERB_TAGS)
        parts = [code for code in FAMILIES if code in self.families]
        parts += sorted(exact_kept, key=_TAG_ORDER.__getitem__)
        parts += sorted(self.upos, key=_UPOS_ORDER.__getitem__)
        if not parts:
            raise UserError(f"empty topic spec; give POS codes like nn|jj ({_valid_codes_message()})")
        self.canonical: str = "|".join(parts)

    @classmethod
    def parse(cls, spec: str, *, auxiliaries: bool = False) -> TopicSelector:
        """Parse ``nn|jj``-style specs (case-insensitive, ``|``-separated)."""
        if not isinstance(spec, str) or not spec.strip():
            raise UserError(f"empty topic spec; give POS codes like nn|jj ({_valid_codes_message()})")
        families: set[str] = set()
        exact: set[str] = set()
        upos: set[str] = set()
        unknown: list[str] = []
        for raw in spec.split("|"):
            code = raw.strip().upper()
            if not code:
                raise UserError(f"topic spec {spec!r} has an empty part; separate POS codes with a single |")
            if code in FAMILIES:
                families.add(code)
            elif code in _TAG_ORDER:
                exact.add(code)
            elif code in _UPOS_CODES:
                upos.add(code)
            else:
                unknown.append(raw.strip())
        if unknown:
            raise UserError(
                f"unknown POS code(s) {' '.join(unknown)} in topic spec {spec!r}; "
                f"valid are {_valid_codes_message()}"
            )
        return cls(frozenset(families), frozenset(exact), frozenset(upos), auxiliaries=auxiliaries)

    def select(self, tag: str, upos: str | None = None) -> bool:
        """True when a token with this tag (and universal tag) is a topic.

        Tag case is ignored.  ``upos`` None means unknown: universal codes
        then select nothing, and auxiliaries cannot be told apart from verbs.
        """
        t = tag if tag in self.tags else tag.upper()
        if t in self.tags:
            return not (self._drop_aux and upos == "AUX" and t in VERB_TAGS)
        return upos is not None and upos in self.upos

    __call__ = select

    def __str__(self) -> str:
        return self.canonical

    def __repr__(self) -> str:
        extra = ", auxiliaries=True" if self.auxiliaries else ""
        return f"TopicSelector.parse({self.canonical!r}{extra})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TopicSelector):
            return NotImplemented
        return self.canonical == other.canonical and self.auxiliaries == other.auxiliaries

    def __hash__(self) -> int:
        return hash((self.canonical, self.auxiliaries))


def parse_topics(spec: str | TopicSelector, *, auxiliaries: bool | None = None) -> TopicSelector:
    """A :class:`TopicSelector` from a spec string (a selector passes through,
    unless ``auxiliaries`` asks for a different setting)."""
    if isinstance(spec, TopicSelector):
        if auxiliaries is None or bool(auxiliaries) == spec.auxiliaries:
            return spec
        spec = spec.canonical
    return TopicSelector.parse(spec, auxiliaries=bool(auxiliaries))
