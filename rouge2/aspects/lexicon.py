"""Aspect lexicons: the words and phrases that signal each aspect of a review.

A lexicon maps aspects (``rooms``, ``food``, ``location``, ...) to entries,
each a word or a phrase with a weight.  Three formats are read, each a
registered component of :data:`LEXICON_FORMATS` (its name, version and the
sha256 of its data go into a run's signature):

``seeds:<folder>``
    one ``<aspect>.txt`` file per aspect, one entry a line: ``[weight] word``
    (the SPACE seed format: ``0.08230 breakfast``).  Either every line of a
    file starts with a number, its weight, or none does (weight 1).  Blank
    lines and lines starting with ``#`` are skipped.  Other files in the
    folder are ignored.
``yaml:<file>``
    a mapping from aspect to its entries: a list (``food: [breakfast,
    buffet, room service]``), a mapping from entry to weight
    (``food: {breakfast: 0.08}``) or one comma-separated text.
``tsv:<file>``
    ``word<TAB>aspect[<TAB>weight]`` a line; several aspects are separated by
    commas or given on several lines.  A first line ``word<TAB>aspect...`` is
    a header.

An entry of several words (``front desk``) is a phrase; a word may belong to
several aspects.  Nothing here is language-specific: entries are matched
after the run's own analysis (:mod:`rouge2.aspects.match`).

``space``
    SPACE's seed words, shipped with rouge2 (resources/aspects/README.md).

A bare path is read by its kind: a folder as ``seeds``, ``.yaml``/``.yml``
as ``yaml``, ``.tsv``/``.tab`` as ``tsv``.  Every mistake is one line naming
the file, line or key.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rouge2 import files
from rouge2.data import read_resource
from rouge2.errors import UserError
from rouge2.registry import Registry

#: the largest number of lexicon files read from one folder
MAX_ASPECT_FILES = 1000


@dataclass(frozen=True)
class LexiconEntry:
    """One entry of an aspect: a word or a phrase, as written, with its weight."""

    aspect: str
    text: str
    weight: float = 1.0
    where: str = ""  # "file:line" (messages)


@dataclass(frozen=True)
class Lexicon:
    """Aspects and their entries, in the order read (aspects of a folder by name).

    ``name`` is the component name (``seeds:/path/to/folder``, ``inline``);
    ``sha256`` the hash of the data it was read from (the signature's
    fingerprint)."""

    name: str
    aspects: tuple[str, ...]
    entries: tuple[LexiconEntry, ...]
    sha256: str

    def of(self, aspect: str) -> list[LexiconEntry]:
        """The entries of ``aspect``, in the order read."""
        return [e for e in self.entries if e.aspect == aspect]

    def top(self, n: int) -> Lexicon:
        """Each aspect's ``n`` entries of largest weight (ties: the order read);
        ``n`` 0: all of them."""
        if not n:
            return self
        kept: list[LexiconEntry] = []
        for aspect in self.aspects:
            ranked = sorted(enumerate(self.of(aspect)), key=lambda ie: (-ie[1].weight, ie[0]))
            kept += [e for _, e in sorted(ranked[:n])]
        return Lexicon(self.name, self.aspects, tuple(kept), self.sha256)

    @property
    def signature(self) -> str:
        """What the reproducibility signature records of a lexicon given as an object."""
        return self.sha256

    def __len__(self) -> int:
        return len(self.entries)


# ---------------------------------------------------------------------------
# parsing


def _weight(text: str, where: str) -> float:
    try:
        w = float(text)
    except ValueError:
        raise UserError(f"{where}: weight {text!r} is not a number; write 'weight word' "
                        f"(0.08 breakfast) on every line of the file, or no weights at all") from None
    if not math.isfinite(w) or w < 0:
        raise UserError(f"{where}: weight {text!r} must be a finite number, 0 or more")
    return w


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def parse_seed_lines(text: str, aspect: str, origin: str) -> list[LexiconEntry]:
    """The entries of one ``<aspect>.txt`` file: ``[weight] word`` a line.

    The first entry line decides whether the file has weights; then every
    line must follow it (a non-numeric weight is an error naming its line)."""
    lines = [(i, line.strip()) for i, line in enumerate(text.splitlines(), 1)]
    lines = [(i, line) for i, line in lines if line and not line.startswith("#")]
    if not lines:
        raise UserError(f"{origin}: aspect {aspect!r} has no words (one 'weight word' or 'word' a line)")
    first = lines[0][1].split()
    weighted = len(first) > 1 and _is_number(first[0])
    out = []
    for i, line in lines:
        where = f"{origin}:{i}"
        parts = line.split()
        if weighted:
            if len(parts) < 2:
                raise UserError(f"{where}: expected 'weight word', got {line!r} (line "
                                f"{lines[0][0]} gives a weight, so every line does)")
            out.append(LexiconEntry(aspect, " ".join(parts[1:]), _weight(parts[0], where), where))
        else:
            out.append(LexiconEntry(aspect, " ".join(parts), 1.0, where))
    return out


def _check_aspect_name(name: Any, where: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise UserError(f"{where}: an aspect name must be non-empty text, got {name!r}")
    name = name.strip()
    if any(c in name for c in ",|\t\n"):
        raise UserError(f"{where}: aspect name {name!r} cannot contain , | or tabs")
    return name


def _yaml_entries(aspect: str, value: Any, where: str) -> list[LexiconEntry]:
    """The entries of one aspect of a YAML lexicon: a list, a mapping word -> weight, or a text."""
    if isinstance(value, str):
        value = [w for w in value.split(",")]
    if isinstance(value, Mapping):
        items = [(k, _weight(str(v), f"{where}: {aspect}.{k}")) for k, v in value.items()]
    elif isinstance(value, list):
        items = [(k, 1.0) for k in value]
    else:
        raise UserError(f"{where}: aspect {aspect!r}: expected a list of words, a mapping of words "
                        f"to weights or a comma-separated text, got {type(value).__name__}")
    out = []
    for word, weight in items:
        if isinstance(word, (int, float)) and not isinstance(word, bool):
            word = str(word)
        if not isinstance(word, str) or not word.strip():
            raise UserError(f"{where}: aspect {aspect!r}: every entry must be a word or phrase, got {word!r}")
        out.append(LexiconEntry(aspect, " ".join(word.split()), weight, f"{where}: {aspect}"))
    if not out:
        raise UserError(f"{where}: aspect {aspect!r} has no words")
    return out


def parse_yaml_lexicon(text: str, origin: str) -> list[LexiconEntry]:
    """Entries of a YAML lexicon (a mapping from aspect to entries)."""
    import yaml  # lazy: PyYAML only for a YAML lexicon (scoring imports no YAML parser)

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise UserError(f"{origin}{line}: {problem}") from None
    if not isinstance(data, Mapping) or not data:
        raise UserError(f"{origin}: expected a mapping from aspect to its words, such as "
                        f"'food: [breakfast, buffet]'")
    out: list[LexiconEntry] = []
    for aspect, value in data.items():
        out += _yaml_entries(_check_aspect_name(aspect, origin), value, origin)
    return out


def parse_tsv_lexicon(text: str, origin: str) -> list[LexiconEntry]:
    """Entries of a TSV lexicon: ``word<TAB>aspect[<TAB>weight]`` a line."""
    out: list[LexiconEntry] = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"{origin}:{i}"
        cells = [c.strip() for c in line.split("\t")]
        if not out and cells[0].lower() == "word" and len(cells) > 1 and cells[1].lower().startswith("aspect"):
            continue  # a header
        if len(cells) not in (2, 3) or not cells[0] or not cells[1]:
            raise UserError(f"{where}: expected 'word<TAB>aspect' or 'word<TAB>aspect<TAB>weight', "
                            f"got {line.strip()!r}")
        weight = _weight(cells[2], where) if len(cells) == 3 and cells[2] else 1.0
        for aspect in cells[1].split(","):
            out.append(LexiconEntry(_check_aspect_name(aspect, where), " ".join(cells[0].split()),
                                    weight, where))
    if not out:
        raise UserError(f"{origin}: the lexicon has no words ('word<TAB>aspect' a line)")
    return out


def lexicon_from_entries(name: str, entries: Iterable[LexiconEntry], sha256: str,
                         aspects: Iterable[str] | None = None) -> Lexicon:
    entries = tuple(entries)
    order = tuple(aspects) if aspects is not None else tuple(dict.fromkeys(e.aspect for e in entries))
    return Lexicon(name, order, entries, sha256)


def inline_lexicon(mapping: Mapping[str, Any]) -> Lexicon:
    """A lexicon given in code or in a config: ``{aspect: [words] | {word: weight} | "a, b"}``."""
    if not isinstance(mapping, Mapping) or not mapping:
        raise UserError("aspects: expected a mapping from aspect to its words, such as "
                        "{'food': ['breakfast', 'buffet']}")
    entries: list[LexiconEntry] = []
    for aspect, value in mapping.items():
        entries += _yaml_entries(_check_aspect_name(aspect, "aspects"), value, "aspects")
    data = [[e.aspect, e.text, e.weight] for e in entries]
    sha = "sha256:" + hashlib.sha256(json.dumps(data, ensure_ascii=False).encode("utf-8")).hexdigest()
    return lexicon_from_entries("inline", entries, sha)


# ---------------------------------------------------------------------------
# reading files


def _seed_files(folder: Path) -> list[Path]:
    try:
        found = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".txt" and p.is_file())
    except OSError as exc:
        raise UserError(f"{folder}: cannot read the aspect folder: {exc.strerror}") from None
    if not found:
        raise UserError(f"{folder}: no <aspect>.txt files in the folder (one file per aspect, "
                        f"'weight word' a line, as SPACE's seeds/)")
    if len(found) > MAX_ASPECT_FILES:
        raise UserError(f"{folder}: {len(found)} aspect files, more than {MAX_ASPECT_FILES}; "
                        f"check the path")
    return found


def _sha(parts: Iterable[tuple[str, bytes]]) -> str:
    h = hashlib.sha256()
    for name, data in parts:
        h.update(name.encode("utf-8") + b"\x00" + hashlib.sha256(data).digest())
    return "sha256:" + h.hexdigest()


def read_seed_folder(folder: str | os.PathLike, name: str | None = None) -> Lexicon:
    """A ``seeds`` lexicon: one ``<aspect>.txt`` file per aspect."""
    folder = Path(folder)
    if not folder.is_dir():
        raise UserError(f"{folder}: aspect folder not found (a folder of <aspect>.txt files)")
    blobs = [(p, files.read_bytes(p, "aspect file")) for p in _seed_files(folder)]
    entries: list[LexiconEntry] = []
    aspects = []
    for p, data in blobs:
        aspect = _check_aspect_name(p.stem, str(p))
        aspects.append(aspect)
        entries += parse_seed_lines(files.decode(data, p), aspect, str(p))
    return lexicon_from_entries(name or f"seeds:{folder}", entries,
                                _sha((p.name, data) for p, data in blobs), aspects)


def _read_file(kind: str, path: str | os.PathLike, name: str | None = None) -> Lexicon:
    path = Path(path)
    data = files.read_bytes(path, "aspect lexicon")
    parse = parse_yaml_lexicon if kind == "yaml" else parse_tsv_lexicon
    entries = parse(files.decode(data, path), str(path))
    return lexicon_from_entries(name or f"{kind}:{path}", entries, _sha([(path.name, data)]))


def lexicon_sha256(kind: str, path: str | os.PathLike) -> str:
    """The fingerprint of a lexicon's data: the sha256 over its files' names and bytes."""
    path = Path(path)
    if kind == "seeds":
        return _sha((p.name, files.read_bytes(p, "aspect file")) for p in _seed_files(path))
    return _sha([(path.name, files.read_bytes(path, "aspect lexicon"))])


# ---------------------------------------------------------------------------
# the registry

#: the lexicon formats, by name: ``none``, the shipped lexicon ``space``, and
#: the families ``seeds:<folder>``, ``yaml:<file>``, ``tsv:<file>`` (a
#: component's canonical name carries the absolute path; its fingerprint is
#: the data's sha256)
LEXICON_FORMATS: Registry = Registry("aspect lexicon")
LEXICON_FORMATS.add("none", None, "no aspect lexicon", aliases=("false",))

#: the Options fields every lexicon's use reads (recorded with it in the signature)
LEXICON_OPTIONS = ("aspect_top", "aspect_min_mentions", "aspect_lemmas", "aspect_synonyms", "aspect_assign")

#: the SPACE seed words shipped in rouge2.resources (resources/aspects/README.md)
SPACE_ASPECTS = ("building", "cleanliness", "food", "location", "rooms", "service")


def _space_blobs() -> list[tuple[str, bytes]]:
    return [(f"{a}.txt", read_resource("aspects", "space", f"{a}.txt")) for a in SPACE_ASPECTS]


@cache
def space_lexicon() -> Lexicon:
    """SPACE's seed words (Angelidis et al. 2021, MIT): 50 weighted words for
    each of six hotel aspects, as the authors distribute them."""
    blobs = _space_blobs()
    entries: list[LexiconEntry] = []
    for (name, data), aspect in zip(blobs, SPACE_ASPECTS):
        entries += parse_seed_lines(data.decode("utf-8"), aspect, f"space:{name}")
    return lexicon_from_entries("space", entries, _sha(blobs), SPACE_ASPECTS)


LEXICON_FORMATS.add("space", space_lexicon, "SPACE's seed words: 50 weighted words for each of six hotel "
                    "aspects (Angelidis et al. 2021, MIT)", fingerprint=lambda _: space_lexicon().sha256,
                    capabilities={"options": LEXICON_OPTIONS})

#: file suffixes read as each format when a bare path is given
SUFFIXES = {".yaml": "yaml", ".yml": "yaml", ".tsv": "tsv", ".tab": "tsv"}


def _checked_path(kind: str, raw: str) -> Path:
    text = raw.strip()
    if not text or "\x00" in text:
        raise LEXICON_FORMATS.refuse(f"{kind}:{raw}", "give the lexicon's path")
    path = Path(text).expanduser().resolve()
    if kind == "seeds" and not path.is_dir():
        what = "is a file, not a folder" if path.exists() else "not found"
        raise UserError(f"{path}: aspect folder {what} (seeds: a folder of <aspect>.txt files)")
    if kind != "seeds":
        files.check_regular(path, f"{kind} aspect lexicon")
    return path


def _family(kind: str):
    prefix = f"{kind}:"

    def match(name: str) -> str | None:
        if not name.strip().lower().startswith(prefix):
            return None
        return f"{prefix}{_checked_path(kind, name.strip()[len(prefix):])}"

    def fingerprint(canonical: str) -> str:
        return lexicon_sha256(kind, canonical[len(prefix):])

    def factory(canonical: str, **_: Any) -> Lexicon:
        path = canonical[len(prefix):]
        return read_seed_folder(path, canonical) if kind == "seeds" else _read_file(kind, path, canonical)

    return match, fingerprint, factory


_SUMMARIES = {
    "seeds": "a folder of <aspect>.txt files, '[weight] word' a line (SPACE's seeds)",
    "yaml": "a YAML file mapping each aspect to its words (a list, or word: weight)",
    "tsv": "a TSV file, 'word<TAB>aspect[<TAB>weight]' a line",
}
for _kind, _summary in _SUMMARIES.items():
    _match, _fingerprint, _factory = _family(_kind)
    LEXICON_FORMATS.register_family(f"{_kind}:<path>", _match, _summary, fingerprint=_fingerprint,
                                    capabilities={"path": True, "options": LEXICON_OPTIONS},
                                    examples=(f"{_kind}:",))(_factory)


def canonical_lexicon(value: Any) -> Any:
    """The canonical ``aspects`` option value: ``none``, ``<format>:<absolute
    path>`` (a bare path by its kind), or a :class:`Lexicon` (a mapping of
    aspects to words becomes an inline one)."""
    if value is None or value is False:
        return "none"
    if isinstance(value, Lexicon):
        return value
    if isinstance(value, Mapping):
        return inline_lexicon(value)
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise UserError(f"expected a lexicon path or a mapping of aspects to words, got {value!r} "
                        f"({type(value).__name__})")
    found = LEXICON_FORMATS.find(value)
    if found is not None:
        return found
    path = Path(value.strip()).expanduser()
    if path.is_dir():
        return LEXICON_FORMATS.canonical(f"seeds:{path}")
    kind = SUFFIXES.get(path.suffix.lower())
    if kind is None:
        if not path.exists():
            raise UserError(f"{path}: aspect lexicon not found (a folder of <aspect>.txt files, "
                            f"a .yaml or a .tsv file)")
        raise UserError(f"{path}: cannot tell the lexicon's format from its name; use a folder of "
                        f"<aspect>.txt files, a .yaml or a .tsv file, or name the format "
                        f"(seeds:, yaml:, tsv:)")
    return LEXICON_FORMATS.canonical(f"{kind}:{path}")


def load_lexicon(value: Any) -> Lexicon | None:
    """The :class:`Lexicon` an ``aspects`` option value names (None for ``none``)."""
    value = canonical_lexicon(value)
    if isinstance(value, Lexicon):
        return value
    got = LEXICON_FORMATS.get(value)
    return got() if callable(got) else got  # a shipped lexicon is read when first used


__all__ = [
    "LEXICON_FORMATS",
    "Lexicon",
    "LexiconEntry",
    "canonical_lexicon",
    "inline_lexicon",
    "lexicon_sha256",
    "load_lexicon",
    "parse_seed_lines",
    "parse_tsv_lexicon",
    "parse_yaml_lexicon",
    "read_seed_folder",
    "space_lexicon",
]
