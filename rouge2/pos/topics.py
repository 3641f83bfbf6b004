"""Topic selection for ROUGE-Topic and ROUGE-TopicUniq (Ganesan 2018, Table 3).

A topic spec is a ``|``-separated list of Penn Treebank codes, case-insensitive:
``nn|jj``, ``NN|JJ``, ``vb``, ``rb``, ``vbd``, ``nnp``.

* Four *family codes* select a whole family, as the paper's Table 3 describes
  them:

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

Selection is by tag membership.  ROUGE 2.0 (Java) matched the regular
expression ``.*(nn|jj).*`` against ``word_tag`` strings, so ``running_vbg``
("running" contains "nn") counted as a noun and ``nnp`` also caught NNPS; this
module never looks at the word.
"""

from __future__ import annotations

from rouge2.errors import UserError

# Family code -> tags, in the order used for canonical names.
FAMILIES: dict[str, frozenset[str]] = {
    "NN": frozenset({"NN", "NNS", "NNP", "NNPS"}),
    "JJ": frozenset({"JJ", "JJR", "JJS"}),
    "VB": frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ"}),
    "RB": frozenset({"RB", "RBR", "RBS"}),
}

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
    return f"families: {families}; exact tags: {exact}"


class TopicSelector:
    """Which Penn tags count as topics.

    Build one with :meth:`parse` (``TopicSelector.parse("nn|jj")``) or
    :func:`parse_topics`.  ``str(selector)`` / ``selector.canonical`` is the
    normalised spec for measure names and signatures (``NN|JJ``): upper case,
    families first in the order NN, JJ, VB, RB, then exact tags in Penn order,
    duplicates and tags already covered by a selected family dropped, so two
    specs that select the same tags for the same reasons get the same name.
    """

    __slots__ = ("families", "exact", "tags", "canonical")

    def __init__(self, families: frozenset[str] = frozenset(), exact: frozenset[str] = frozenset()):
        unknown = (set(families) - set(FAMILIES)) | (set(exact) - set(PENN_TAGS))
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
        parts = [code for code in FAMILIES if code in self.families]
        parts += sorted(exact_kept, key=_TAG_ORDER.__getitem__)
        if not parts:
            raise UserError(f"empty topic spec; give POS codes like nn|jj ({_valid_codes_message()})")
        self.canonical: str = "|".join(parts)

    @classmethod
    def parse(cls, spec: str) -> "TopicSelector":
        """Parse ``nn|jj``-style specs (case-insensitive, ``|``-separated)."""
        if not isinstance(spec, str) or not spec.strip():
            raise UserError(f"empty topic spec; give POS codes like nn|jj ({_valid_codes_message()})")
        families: set[str] = set()
        exact: set[str] = set()
        unknown: list[str] = []
        for raw in spec.split("|"):
            code = raw.strip().upper()
            if not code:
                raise UserError(f"topic spec {spec!r} has an empty part; separate POS codes with a single |")
            if code in FAMILIES:
                families.add(code)
            elif code in _TAG_ORDER:
                exact.add(code)
            else:
                unknown.append(raw.strip())
        if unknown:
            raise UserError(
                f"unknown POS code(s) {' '.join(unknown)} in topic spec {spec!r}; "
                f"valid are {_valid_codes_message()}"
            )
        return cls(frozenset(families), frozenset(exact))

    def select(self, tag: str) -> bool:
        """True when a token with this Penn tag is a topic (tag case is ignored)."""
        tags = self.tags
        return tag in tags or tag.upper() in tags

    __call__ = select

    def __str__(self) -> str:
        return self.canonical

    def __repr__(self) -> str:
        return f"TopicSelector.parse({self.canonical!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TopicSelector):
            return NotImplemented
        return self.canonical == other.canonical

    def __hash__(self) -> int:
        return hash(self.canonical)


def parse_topics(spec: str | TopicSelector) -> TopicSelector:
    """A :class:`TopicSelector` from a spec string (a selector passes through)."""
    if isinstance(spec, TopicSelector):
        return spec
    return TopicSelector.parse(spec)
