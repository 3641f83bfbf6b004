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

Storage is linear in the size of the file: a group line becomes one *group
id* shared by its words (identical groups, the same set of words, share
one id), a headword line a *star* (the headword's partners, and the
headword as each listed word's partner).  Two distinct words are related
when they share a group id or a star edge; no word stores the whole group
it belongs to, so a group of 100,000 words costs 100,000 entries, not 10^10
pairs.

With ``lemmas=True`` (the default) a text's words also reach the entries
through their WordNet base forms (:mod:`rouge2.synonyms.lemmas`): with the
line ``screen, display``, ``screens`` matches ``displays``.  Entries are
used as written (list base forms to get every inflection).

Every mistake raises :class:`rouge2.errors.UserError` naming the file and
line and saying how to fix it.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import cast

from rouge2.errors import UserError
from rouge2.files import read_bytes
from rouge2.synonyms.base import SynonymMatcher

__all__ = ["DictionaryMatcher", "SynonymGroups", "parse_dictionary"]

_EMPTY: frozenset[str] = frozenset()
_COMMENT = re.compile(r"(^|[ \t])#.*$")
_FORMATS = "write 'word, word, ...' (a synonym group) or 'headword<TAB>word, word, ...'"
_COMMA_SPLIT = re.compile(r"\s*,\s*")
_SPACE = re.compile(r"\s")
#: a word with more star partners than this keeps them in a frozenset
_SET_FROM = 8


def _split_words(text: str) -> list[str]:
    if "," in text:
        items = _COMMA_SPLIT.split(text.strip())
    else:
        items = text.split()
    return [item for item in items if item]


def _multi_word_error(word: str, where: str) -> UserError:
    return UserError(
        f"{where}: {word!r} is a multi-word entry; synonyms are matched one token "
        "against one token, so give single words (drop the entry, or join its words "
        "the way your tokenizer would)"
    )


def _check_words(words: list[str], where: str) -> list[str]:
    """The (stripped) words lowercased; a one-line error for a multi-word entry."""
    if _SPACE.search("".join(words)):  # one scan for the whole list
        for word in words:
            if _SPACE.search(word):
                raise _multi_word_error(word, where)
    return [w.lower() for w in words]


def _check_word(word: str, where: str) -> str:
    return _check_words([word], where)[0]


class SynonymGroups:
    """The relation of a dictionary: synonym groups (by id) and stars.

    * ``members[g]``: the words of group ``g``, in the order first given;
    * ``gids[word]``: the id of the group the word is in (an ``int``), or a
      ``frozenset`` of ids when it is in several;
    * ``star[word]``: the word's headword-line partners: one word (a
      ``str``), a ``tuple`` of a few or a ``frozenset`` of many.

    Memory is linear in the number of entries of the file.
    """

    __slots__ = ("_group_ids", "_multi", "_star_build", "gids", "members", "star")

    def __init__(self) -> None:
        self.members: list[tuple[str, ...]] = []
        self.gids: dict[str, int | frozenset[int]] = {}
        self.star: dict[str, str | tuple[str, ...] | frozenset[str]] = {}
        # build-only (None once frozen): (size, hash) -> group ids; the ids of a word
        # in several groups (its gids entry keeps the first until freeze); star partners
        self._group_ids: dict[tuple[int, int], list[int]] | None = {}
        self._multi: dict[str, list[int]] | None = {}
        self._star_build: dict[str, str | set[str]] | None = {}

    # -- building ---------------------------------------------------------
    def add_group(self, words: list[str]) -> None:
        """A group of two or more distinct words (repeats removed)."""
        group_ids, multi = self._group_ids, self._multi
        if group_ids is None or multi is None:
            raise RuntimeError("SynonymGroups: add_group after freeze()")
        word_set = frozenset(words)
        key = (len(word_set), hash(word_set))
        seen = group_ids.get(key)
        if seen is not None:
            for g in seen:
                if word_set == frozenset(self.members[g]):
                    return  # an identical group is already there
        gid = len(self.members)
        group_ids.setdefault(key, []).append(gid)
        members = tuple(dict.fromkeys(words))  # first-seen order, no repeats
        self.members.append(members)
        del word_set
        gids = self.gids
        for w in members:
            more = multi.get(w)
            if more is not None:
                more.append(gid)
                continue
            old = gids.get(w)
            if old is None:
                gids[w] = gid
            else:
                multi[w] = [cast(int, old), gid]  # a frozenset once built (freeze)

    def add_star(self, head: str, words: list[str]) -> None:
        build = self._star_build
        if build is None:
            raise RuntimeError("SynonymGroups: add_star after freeze()")
        for w in words:
            if w == head:
                continue
            for a, b in ((head, w), (w, head)):
                got = build.get(a)
                if got is None:
                    build[a] = b
                elif isinstance(got, str):
                    if got != b:
                        build[a] = {got, b}
                else:
                    got.add(b)

    def freeze(self) -> SynonymGroups:
        """Finish building: compact the star partners; drop build-only indexes."""
        if self._multi is not None:
            gids = self.gids
            for w, ids in self._multi.items():
                gids[w] = frozenset(ids)
            self._multi = None
        if self._star_build is not None:
            star = self.star
            for w, got in self._star_build.items():
                if isinstance(got, str):
                    star[w] = got
                elif len(got) > _SET_FROM:
                    star[w] = frozenset(got)
                else:
                    star[w] = tuple(sorted(got))
            self._star_build = None
        self._group_ids = None
        return self

    # -- questions ----------------------------------------------------------
    def related(self, a: str, b: str) -> bool:
        """Whether distinct words ``a`` and ``b`` share a group or a star edge."""
        ga = self.gids.get(a)
        if ga is not None:
            gb = self.gids.get(b)
            if gb is not None:
                if isinstance(ga, int):
                    if (ga == gb) if isinstance(gb, int) else (ga in gb):
                        return True
                elif (gb in ga) if isinstance(gb, int) else not ga.isdisjoint(gb):
                    return True
        p = self.star.get(a)
        if p is None:
            return False
        return b == p if isinstance(p, str) else b in p

    def group_ids(self, word: str) -> tuple[int, ...] | frozenset[int]:
        g = self.gids.get(word)
        if g is None:
            return ()
        return (g,) if isinstance(g, int) else g

    def partners(self, word: str) -> tuple[str, ...] | frozenset[str]:
        p = self.star.get(word)
        if p is None:
            return ()
        return (p,) if isinstance(p, str) else p

    def neighbors(self, word: str) -> frozenset[str]:
        """Every word related to ``word`` (materialised: meant for inspection)."""
        out: set[str] = set()
        for g in self.group_ids(word):
            out.update(self.members[g])
        out.update(self.partners(word))
        out.discard(word)
        return frozenset(out)

    def words(self) -> set[str]:
        return set(self.gids) | set(self.star)

    def __len__(self) -> int:
        """Number of words with at least one synonym."""
        return len(self.gids) + sum(1 for w in self.star if w not in self.gids)


def parse_dictionary(data: bytes, origin: str) -> SynonymGroups:
    """The :class:`SynonymGroups` of the bytes of a dictionary file."""
    rel = SynonymGroups()
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
        line = line.rstrip("\r")
        if "#" in line:
            line = _COMMENT.sub("", line)
        if not line.strip():
            continue
        if "\t" in line:
            head_text, _, rest = line.partition("\t")
            head_text = head_text.strip()
            if not head_text:
                # A line that only starts with indentation is a group.
                words = _check_words(_split_words(line), where)
                head = None
            else:
                head = _check_word(head_text, where)
                words = _check_words(_split_words(rest), where)
                if not words:
                    raise UserError(
                        f"{where}: headword {head_text!r} has no synonyms after the TAB; {_FORMATS}"
                    )
        else:
            head = None
            words = _check_words(_split_words(line), where)
        if head is not None:
            rel.add_star(head, words)
            continue
        if len(set(words)) < 2:
            raise UserError(
                f"{where}: a synonym group needs at least two different words, got {line.strip()!r}; "
                f"{_FORMATS}"
            )
        rel.add_group(words)
    return rel.freeze()


class DictionaryMatcher(SynonymMatcher):
    """Synonyms from a user dictionary file (see the module docs for the format).

    ``name`` is ``dict:<file name>`` and ``version`` the first 12 hex digits
    of the SHA-256 of the file's bytes, so a signature changes whenever the
    file does.  ``lemmas`` (default true) lets inflected words of the texts
    reach the entries through their base forms; the signature then ends in
    ``/lemmas``.
    """

    def __init__(self, path: str | os.PathLike, lemmas: bool = True):
        p = Path(path)
        data = read_bytes(p, "synonym dictionary")
        self.path: Path | None = p
        self.groups = parse_dictionary(data, str(p))
        self.lemmas = bool(lemmas)
        self.name = f"dict:{p.name}"
        self.version = hashlib.sha256(data).hexdigest()[:12]

    @classmethod
    def from_text(cls, text: str, name: str = "inline", lemmas: bool = True) -> DictionaryMatcher:
        """A dictionary from the text of a dictionary file (same format, same errors)."""
        data = text.encode("utf-8")
        self = cls.__new__(cls)
        self.path = None
        self.groups = parse_dictionary(data, name)
        self.lemmas = bool(lemmas)
        self.name = f"dict:{name}"
        self.version = hashlib.sha256(data).hexdigest()[:12]
        return self

    @classmethod
    def from_groups(
        cls, groups: Iterable[Sequence[str]], name: str = "inline", lemmas: bool = True
    ) -> DictionaryMatcher:
        """A dictionary from in-memory synonym groups, e.g. ``[["screen", "display"]]``."""
        self = cls.__new__(cls)
        rel = SynonymGroups()
        canon = []
        for i, group in enumerate(groups, 1):
            where = f"synonym group {i}"
            if isinstance(group, str):
                raise UserError(f"{where}: expected a list of words, got the string {group!r}")
            words = _check_words([str(w).strip() for w in group if str(w).strip()], where)
            if len(set(words)) < 2:
                raise UserError(f"{where}: a synonym group needs at least two different words")
            rel.add_group(words)
            canon.append(",".join(words))
        self.path = None
        self.groups = rel.freeze()
        self.lemmas = bool(lemmas)
        self.name = f"dict:{name}"
        self.version = hashlib.sha256("\n".join(canon).encode("utf-8")).hexdigest()[:12]
        return self

    @property
    def relation(self) -> dict[str, frozenset[str]]:
        """``word -> neighbours`` for every entry (materialised: for inspection, not for large files)."""
        return {w: self.groups.neighbors(w) for w in sorted(self.groups.words())}

    def neighbors(self, word: str, pos: str | None = None) -> frozenset[str]:
        word = word.lower()
        forms = self.forms(word, pos)
        if len(forms) == 1:
            return self.groups.neighbors(word)
        out: set[str] = set()
        for f in forms:
            out |= self.groups.neighbors(f)
        out.discard(word)
        return frozenset(out)

    def _related(self, a: str, b: str, pos: str | None) -> bool:
        related = self.groups.related
        if not self.lemmas:
            return related(a, b)
        fb = self.forms(b, pos)
        for x in self.forms(a, pos):
            for y in fb:
                if x != y and related(x, y):
                    return True
        return False

    def lookup(self, pool, pos: str | None = None):
        """Words of ``pool`` related to a word, through group ids and star partners.

        The pool is indexed once (each word's forms, the groups they are in);
        a question then touches only the groups and partners of the word's
        own forms, never a whole group.
        """
        groups = self.groups
        forms = self.forms
        by_gid: dict[int, list[tuple[str, str]]] = {}
        by_form: dict[str, list[str]] = {}
        for t in pool:
            for y in forms(t, pos):
                by_form.setdefault(y, []).append(t)
                for g in groups.group_ids(y):
                    by_gid.setdefault(g, []).append((t, y))

        def related(a: str) -> set[str]:
            out: set[str] = set()
            for x in forms(a, pos):
                for g in groups.group_ids(x):
                    for t, y in by_gid.get(g, ()):
                        if y != x:
                            out.add(t)
                p = groups.partners(x)
                if len(p) <= len(by_form):
                    for q in p:
                        got = by_form.get(q)
                        if got:
                            out.update(got)
                else:
                    for y, ts in by_form.items():
                        if y in p:
                            out.update(ts)
            return out

        return related

    def __len__(self) -> int:
        """Number of words with at least one synonym."""
        return len(self.groups)
