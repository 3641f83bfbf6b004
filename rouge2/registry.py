"""Named components, each kind in one registry: the vocabulary every door reads.

A tokenizer, stemmer, stopword list, synonym source, tagger, measure,
multi-reference mode or rounding rule has one canonical name, defined once in
the module that implements it.  The Python API, the ``rouge2`` command-line
flags, the YAML schema and the Java ``rouge.properties`` import all resolve
names through the same :class:`Registry`, so they accept the same names,
reject the same mistakes with the same message, and record the same
canonical name in the reproducibility signature.

Two kinds of entries:

* a *name* (``smart``) with optional aliases (``true`` for ``smart``);
* a *family* of parametrised names (``snowball:<language>``): a prefix and a
  parser for the part after it, which returns the canonical parameter or
  raises :class:`~rouge2.errors.UserError`.

Names are matched case-insensitively, after stripping spaces; the canonical
spelling is the one registered.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from rouge2.errors import UserError

T = TypeVar("T")


@dataclass(frozen=True)
class Entry(Generic[T]):
    """One registered name: its value and a one-line description."""

    name: str
    value: T
    summary: str = ""
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Family(Generic[T]):
    """Parametrised names ``<prefix><param>``, e.g. ``snowball:english``."""

    prefix: str                       # "snowball:" (canonical separator included)
    form: str                         # "snowball:<language>", for messages
    parse: Callable[[str], str]       # raw parameter -> canonical parameter (or UserError)
    value: Callable[[str], T]         # canonical parameter -> value
    summary: str = ""
    prefixes: tuple[str, ...] = ()    # other accepted prefixes ("snowball-")


@dataclass
class Registry(Generic[T]):
    """The names of one kind of component.

    ``kind`` is what a name names, for messages ("stemmer", "measure").
    """

    kind: str
    entries: dict[str, Entry[T]] = field(default_factory=dict)
    families: list[Family[T]] = field(default_factory=list)
    _lookup: dict[str, str] = field(default_factory=dict)

    # -- filling -----------------------------------------------------------
    def add(self, name: str, value: T, summary: str = "", aliases: tuple[str, ...] = ()) -> T:
        """Register ``name`` (and its aliases) for ``value``; returns ``value``."""
        entry = Entry(name, value, summary, tuple(aliases))
        for key in (name, *aliases):
            k = _key(key)
            if k in self._lookup and self._lookup[k] != name:
                raise ValueError(f"{self.kind} name {key!r} registered twice")
            self._lookup[k] = name
        self.entries[name] = entry
        return value

    def add_family(self, prefix: str, form: str, parse: Callable[[str], str],
                   value: Callable[[str], T], summary: str = "",
                   prefixes: tuple[str, ...] = ()) -> None:
        """Register the parametrised names ``<prefix><param>``."""
        self.families.append(Family(prefix, form, parse, value, summary, tuple(prefixes)))

    # -- reading -----------------------------------------------------------
    def canonical(self, name: Any) -> str:
        """The canonical spelling of ``name``; :class:`UserError` if unknown."""
        found = self.find(name)
        if found is None:
            raise self.unknown(name)
        return found

    def find(self, name: Any) -> str | None:
        """The canonical spelling of ``name``, or None if it names nothing here.

        A family's parameter may still be refused (``UserError`` from its parser)."""
        if not isinstance(name, str):
            return None
        k = _key(name)
        hit = self._lookup.get(k)
        if hit is not None:
            return hit
        for fam in self.families:
            for prefix in (fam.prefix, *fam.prefixes):
                if k.startswith(prefix.lower()) and len(k) > len(prefix):
                    param = name.strip()[len(prefix):]
                    return fam.prefix + fam.parse(param)
        return None

    def get(self, name: Any) -> T:
        """The value registered for ``name`` (aliases and families resolved)."""
        canonical = self.canonical(name)
        entry = self.entries.get(canonical)
        if entry is not None:
            return entry.value
        for fam in self.families:
            if canonical.startswith(fam.prefix):
                return fam.value(canonical[len(fam.prefix):])
        raise self.unknown(name)  # pragma: no cover - canonical() found it

    def __contains__(self, name: Any) -> bool:
        try:
            return self.find(name) is not None
        except UserError:
            return False

    def names(self) -> list[str]:
        """Canonical names and family forms, in registration order (for messages and docs)."""
        return [*self.entries, *(f.form for f in self.families)]

    def __iter__(self) -> Iterator[Entry[T]]:
        return iter(self.entries.values())

    def choices(self) -> str:
        return ", ".join(self.names())

    def unknown(self, name: Any, extra: str = "") -> UserError:
        """The one message for a name this registry does not know."""
        shown = repr(name) if isinstance(name, str) else f"{name!r} ({type(name).__name__})"
        hint = suggest(name, self._lookup) if isinstance(name, str) else ""
        return UserError(f"unknown {self.kind} {shown}{hint}; use one of: {self.choices()}{extra}")


def _key(name: str) -> str:
    return name.strip().lower()


def suggest(word: str, candidates) -> str:
    """`` (did you mean 'x'?)`` for the closest candidate, or ``""``."""
    keys = list(candidates)
    close = difflib.get_close_matches(_key(word), keys, n=1, cutoff=0.6)
    if not close:
        return ""
    target = candidates[close[0]] if isinstance(candidates, dict) else close[0]
    return f" (did you mean '{target}'?)"
