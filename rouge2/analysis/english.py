"""Facts about English words that more than one layer needs, defined once.

:data:`AUX_FORMS` lists the forms of the auxiliaries *be*, *have* and *do*
by Penn tag (with a tagger that runs no parser, these are auxiliaries; "could
of" is the common misspelling of "could've").  The topic measures leave them
out of verb topics; the synonym layer does not reduce their inflections to
*be*, *have*, *do*, whose WordNet relations (through rare lexical senses:
be ~ make, be ~ clean) are not what "is" or "was" means in a summary.
"""

from __future__ import annotations

AUX_FORMS: dict[str, frozenset[str]] = {
    "VB": frozenset({"be", "do", "have", "of", "'ve"}),
    "VBP": frozenset({"am", "are", "'m", "'re", "do", "have", "'ve", "'s"}),
    "VBZ": frozenset({"is", "'s", "has", "does"}),
    "VBD": frozenset({"was", "were", "did", "had", "'d"}),
    "VBN": frozenset({"been", "had"}),
    "VBG": frozenset({"being"}),
}

#: inflected forms of be, have and do (not the base words themselves)
AUX_INFLECTIONS: frozenset[str] = frozenset().union(*AUX_FORMS.values()) - {"be", "have", "do", "of"}
