"""User synonym dictionaries: domain or language specific word lists.

A dictionary file is UTF-8 text (a leading byte-order mark is allowed).
Blank lines are ignored; ``#`` at the start of a line, or after a space or
tab, starts a comment that runs to the end of the line.  Every other line
has one of two forms:

1. **A synonym group**: two or more words, all synonyms of each other::

       screen, display, monitor
       cheap inexpensive

2. **A headword and its synonyms**, separated by a TAB::

       screen<TAB>display, monitor

   The headword is a synonym of each listed word, and each of them of the
   headword; the listed words are *not* made synonyms of each other
   (``display`` and ``monitor`` above are unrelated unless another line
   says so).

A list of words (a group, or the part after the TAB) is split at commas if it
contains a comma, otherwise at spaces and tabs; empty items (``a,,b``) are
skipped.  Entries are single words: an item that still contains a space
(``cell phone`` in ``mobile, cell phone``) is an error, because ROUGE matches
one token against one token and a multi-word entry could never match.
Words are lowercased (``str.lower``), as the tokens they are compared with.

The relation is symmetric and not transitive: ``a, b`` on one line and
``b, c`` on another relate a~b and b~c, not a~c.  Entries carry no part of
speech; they match whatever ``pos`` the caller gives.

Every mistake raises :class:`rouge2.errors.UserError` naming the file and
line and saying how to fix it.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Iterable, Sequence

from rouge2.errors import UserError
from rouge2.files import read_bytes
from rouge2.synonyms.base import SynonymMatcher

__all__ = ["DictionaryMatcher", "parse_dictionary"]

_EMPTY: frozenset[str] = frozenset()
_COMMENT = re.compile(r"(^|[ \t])#.*$")
_FORMATS = "write 'word, word, ...' (a synonym group) or 'headword<TAB>word, word, ...'"


def _split_words(text: str) -> list[str]:
    if "," in text:
        items = [item.strip() for item in text.split(",")]
    else:
        items = text.split()
    return [item for item in items if item]


def _check_word(word: str, where: str) -> str:
    if any(ch.isspace() for ch in word):
        raise UserError(
            f"{where}: {word!r} is a multi-word entry; synonyms are matched one token "
            "against one token, so give single words (drop the entry, or join its words "
            "the way your tokenizer would)"
        )
    return word.lower()


def _add(rel: dict[str, set[str]], a: str, b: str) -> None:
    if a != b:
        rel.setdefault(a, set()).add(b)
        rel.setdefault(b, set()).add(a)


def parse_dictionary(data: bytes, origin: str) -> dict[str, frozenset[str]]:
    """``word -> neighbours`` from the bytes of a dictionary file."""
    rel: dict[str, set[str]] = {}
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for lineno, raw in enumerate(data.split(b"\n"), 1):
        where = f"{origin}:{lineno}"
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UserError(
                f"{where}: not valid UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1}); "
                "save the file as UTF-8"
            ) from None
        line = _COMMENT.sub("", line.rstrip("\r"))
        if not line.strip():
            continue
        if "\t" in line:
            head_text, _, rest = line.partition("\t")
            head_text = head_text.strip()
            if not head_text:
                # A line that only starts with indentation is a group.
                words = [_check_word(w, where) for w in _split_words(line)]
                head = None
            else:
                head = _check_word(head_text, where)
                words = [_check_word(w, where) for w in _split_words(rest)]
                if not words:
                    raise UserError(
                        f"{where}: headword {head_text!r} has no synonyms after the TAB; {_FORMATS}"
                    )
        else:
            head = None
            words = [_check_word(w, where) for w in _split_words(line)]
        if head is not None:
            for w in words:
                _add(rel, head, w)
            continue
        if len(set(words)) < 2:
            raise UserError(
                f"{where}: a synonym group needs at least two different words, got {line.strip()!r}; "
                f"{_FORMATS}"
            )
        for i, a in enumerate(words):
            for b in words[i + 1:]:
                _add(rel, a, b)
    return {w: frozenset(s) for w, s in rel.items()}


class DictionaryMatcher(SynonymMatcher):
    """Synonyms from a user dictionary file (see the module docs for the format).

    ``name`` is ``dict:<file name>`` and ``version`` the first 12 hex digits
    of the SHA-256 of the file's bytes, so a signature changes whenever the
    file does.
    """

    def __init__(self, path: str | os.PathLike):
        p = Path(path)
        data = read_bytes(p, "synonym dictionary")
        self.path = p
        self._rel = parse_dictionary(data, str(p))
        self.name = f"dict:{p.name}"
        self.version = hashlib.sha256(data).hexdigest()[:12]

    @classmethod
    def from_groups(cls, groups: Iterable[Sequence[str]], name: str = "inline") -> "DictionaryMatcher":
        """A dictionary from in-memory synonym groups, e.g. ``[["screen", "display"]]``."""
        self = cls.__new__(cls)
        rel: dict[str, set[str]] = {}
        canon = []
        for i, group in enumerate(groups, 1):
            where = f"synonym group {i}"
            if isinstance(group, str):
                raise UserError(f"{where}: expected a list of words, got the string {group!r}")
            words = [_check_word(str(w).strip(), where) for w in group if str(w).strip()]
            if len(set(words)) < 2:
                raise UserError(f"{where}: a synonym group needs at least two different words")
            for j, a in enumerate(words):
                for b in words[j + 1:]:
                    _add(rel, a, b)
            canon.append(",".join(words))
        self.path = None
        self._rel = {w: frozenset(s) for w, s in rel.items()}
        self.name = f"dict:{name}"
        self.version = hashlib.sha256("\n".join(canon).encode("utf-8")).hexdigest()[:12]
        return self

    @property
    def relation(self) -> dict[str, frozenset[str]]:
        return self._rel

    def neighbors(self, word: str, pos: str | None = None) -> frozenset[str]:
        return self._rel.get(word.lower(), _EMPTY)

    def __len__(self) -> int:
        """Number of words with at least one synonym."""
        return len(self._rel)
