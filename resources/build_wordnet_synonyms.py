#!/usr/bin/env python3
"""Build ``resources/wordnet/synonyms-wn30.tsv.gz`` (and the morphology data) from WordNet 3.0, offline.

This is the synonym resource of ROUGE-{N|Topic|TopicUniq}+Synonyms (Ganesan
2018, section 2.1).  It is built once and shipped; scoring never needs
WordNet or nltk's WordNet reader.

Prerequisites (Debian/Ubuntu)::

    apt-get update
    apt-get install -y wordnet-base wordnet-sense-index

``wordnet-base`` provides the database files (``data.*``, ``index.*``,
``*.exc``, ``cntlist.rev``) in ``/usr/share/wordnet``; ``wordnet-sense-index``
adds ``index.sense``.  nltk's :class:`WordNetCorpusReader` also needs a
``lexnames`` file, which Debian does not ship, so the script copies the
folder into a private temporary directory and writes the 45 standard
lexicographer file names there.

Usage::

    python resources/build_wordnet_synonyms.py [--wordnet-dir /usr/share/wordnet]
                                               [--out-dir resources/wordnet]

The rule (``RULE_ID`` below; the README in the output folder says the same):

* Words are WordNet lemmas of one word (no ``_``), lowercased.
* Nouns: ``a ~ b`` when ``b`` is a lemma of a noun synset of ``a``, of one of
  its hypernyms, or of one of its hyponyms (instance hypernyms/hyponyms,
  i.e. named entities, are not used), and *both* words have a noun tag count
  greater than 3.  A word's tag count for a part of speech is the sum of the
  sense tag counts (``cntlist.rev``, ``Lemma.count()``) of all its senses with
  that part of speech - how often the word was sense-tagged as a noun (verb)
  in the WordNet semantic concordance.
* Verbs: the same with verb synsets, their hypernyms and their troponyms
  (the hyponyms of verbs), and verb tag counts.
* Adjectives: ``a ~ b`` when ``b`` is a lemma of an adjective synset of ``a``
  (head or satellite) or of a synset linked to it by "similar to" (a head's
  satellites, a satellite's head).  No tag-count filter: the paper gives none
  for adjectives.

Every relation used is symmetric in WordNet (a synset is a hypernym of
another exactly when that one is its hyponym; "similar to" pointers come in
pairs) and the filter looks at both words the same way, so the output is
symmetric by construction; the script checks that, and the loader adds the
reverse of every edge anyway.

Output: ``synonyms-wn30.tsv.gz``, UTF-8, ``#`` comment lines first, then one
line per (headword, part of speech) with at least one synonym::

    word<TAB>pos<TAB>syn1 syn2 ...

``pos`` is ``n``, ``v`` or ``a``; lines are sorted by word then pos, synonyms
are sorted and space-separated.  The gzip header carries no file name and
mtime 0, so rebuilding gives identical bytes.  The script also writes
``LICENSE-WordNet-3.0.txt`` with the Princeton notice copied from the header
of ``data.noun``.

Morphology data (for lemma-aware synonyms, ``rouge2/synonyms/lemmas.py``,
WordNet's morphy), read straight from the database files, no nltk needed:

* ``lemmas-wn30.tsv.gz``: every single-word lemma (no ``_``) of the index
  files ``index.noun``, ``index.verb``, ``index.adj``, ``index.adv``, one
  line ``lemma<TAB>pos letters`` (``n``, ``v``, ``a``, ``r``, in that order),
  sorted by lemma;
* ``exceptions-wn30.tsv.gz``: the WordNet 3.0 exception lists ``noun.exc``,
  ``verb.exc``, ``adj.exc``, ``adv.exc``, one line
  ``inflected<TAB>pos<TAB>base base ...`` sorted by form then pos; entries
  whose inflected form contains ``_`` (a multi-word expression) are left
  out, as are bases containing ``_``, and a line left without a base; a
  form listed twice for one part of speech gets one line with both lists.

``--morphology-only`` writes just these two files (seconds instead of the
two minutes nltk needs for the synonyms).
"""

from __future__ import annotations

import argparse
import collections
import gzip
import hashlib
import io
import shutil
import sys
import tempfile
import warnings
from pathlib import Path

RULE_ID = "r1"
MIN_TAG_COUNT = 3  # a word needs a tag count *greater* than this (nouns, verbs)
RESOURCE_NAME = "synonyms-wn30.tsv.gz"
LEMMAS_NAME = "lemmas-wn30.tsv.gz"
EXCEPTIONS_NAME = "exceptions-wn30.tsv.gz"
LICENSE_NAME = "LICENSE-WordNet-3.0.txt"
# Part-of-speech letter -> WordNet file suffix (index.noun, noun.exc, ...).
MORPH_POS = (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv"))

# The 45 lexicographer files of WordNet 3.0 (lexnames(5WN)): number, name,
# syntactic category (1 noun, 2 verb, 3 adjective, 4 adverb).
LEXNAMES = (
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal",
    "noun.artifact", "noun.attribute", "noun.body", "noun.cognition",
    "noun.communication", "noun.event", "noun.feeling", "noun.food",
    "noun.group", "noun.location", "noun.motive", "noun.object",
    "noun.person", "noun.phenomenon", "noun.plant", "noun.possession",
    "noun.process", "noun.quantity", "noun.relation", "noun.shape",
    "noun.state", "noun.substance", "noun.time", "verb.body", "verb.change",
    "verb.cognition", "verb.communication", "verb.competition",
    "verb.consumption", "verb.contact", "verb.creation", "verb.emotion",
    "verb.motion", "verb.perception", "verb.possession", "verb.social",
    "verb.stative", "verb.weather", "adj.ppl",
)
_CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}

NEEDED_FILES = (
    "cntlist.rev", "index.sense",
    "index.adj", "index.adv", "index.noun", "index.verb",
    "data.adj", "data.adv", "data.noun", "data.verb",
    "adj.exc", "adv.exc", "noun.exc", "verb.exc",
)


def lexnames_text() -> str:
    assert len(LEXNAMES) == 45
    return "".join(
        f"{i:02d}\t{name}\t{_CATEGORY[name.split('.')[0]]}\n" for i, name in enumerate(LEXNAMES)
    )


def open_wordnet(src: Path, workdir: Path):
    """An nltk WordNetCorpusReader over a private copy of ``src``."""
    missing = [f for f in NEEDED_FILES if not (src / f).is_file()]
    if missing:
        sys.exit(
            f"error: {src} lacks {', '.join(missing)}; install WordNet 3.0 with "
            "'apt-get install -y wordnet-base wordnet-sense-index' or pass --wordnet-dir"
        )
    for name in NEEDED_FILES:
        shutil.copyfile(src / name, workdir / name)
    (workdir / "lexnames").write_text(lexnames_text(), encoding="ascii")

    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    # nltk only opens corpus files below its data path.
    nltk.data.path.append(str(workdir))

    class _Reader(WordNetCorpusReader):
        # nltk would map sense keys to its own downloaded WordNet; this
        # database *is* WordNet 3.0, so no mapping is wanted.
        def map_wn(self, version="wordnet"):
            return None

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available"
        wn = _Reader(str(workdir), None)
    version = wn.get_version()
    if version != "3.0":
        sys.exit(f"error: {src} holds WordNet {version}, not 3.0")
    return wn


def _words(synset) -> list[str]:
    """Single-word lemmas of a synset, lowercased, sorted, unique."""
    return sorted({lem.name().lower() for lem in synset.lemmas() if "_" not in lem.name()})


def _sorted_synsets(synsets):
    # nltk builds relation lists from sets; sort so nothing depends on hashing.
    return sorted(synsets, key=lambda s: (s.pos(), s.offset()))


def tag_counts(wn, pos: str) -> collections.Counter:
    """Word -> sum of the sense tag counts of its senses with ``pos``."""
    counts: collections.Counter = collections.Counter()
    for synset in wn.all_synsets(pos):
        for lem in synset.lemmas():
            if "_" not in lem.name():
                counts[lem.name().lower()] += lem.count()
    return counts


def build_relation(wn) -> dict[str, dict[str, set[str]]]:
    rel: dict[str, dict[str, set[str]]] = {p: collections.defaultdict(set) for p in "nva"}
    for pos in "nv":
        counts = tag_counts(wn, pos)
        for synset in wn.all_synsets(pos):
            heads = [w for w in _words(synset) if counts[w] > MIN_TAG_COUNT]
            if not heads:
                continue
            related = set(_words(synset))
            # For verbs, hyponyms() are the troponyms.
            for other in _sorted_synsets(synset.hypernyms() + synset.hyponyms()):
                related.update(_words(other))
            related = {w for w in related if counts[w] > MIN_TAG_COUNT}
            for head in heads:
                rel[pos][head].update(related)
    # Adjectives: all_synsets("a") yields heads ("a") and satellites ("s").
    for synset in wn.all_synsets("a"):
        heads = _words(synset)
        if not heads:
            continue
        related = set(heads)
        for other in _sorted_synsets(synset.similar_tos()):
            related.update(_words(other))
        for head in heads:
            rel["a"][head].update(related)
    for pos in rel:
        for head, syns in rel[pos].items():
            syns.discard(head)
    return {p: {w: s for w, s in rel[p].items() if s} for p in rel}


def check_symmetric(rel) -> None:
    for pos, table in rel.items():
        for a, syns in table.items():
            for b in syns:
                if a not in table.get(b, ()):
                    sys.exit(f"internal error: {pos} relation not symmetric: {a} ~ {b}")


def stats(rel) -> dict:
    out = {}
    for pos in "nva":
        table = rel[pos]
        directed = sum(len(s) for s in table.values())
        out[pos] = {"headwords": len(table), "pairs": directed // 2}
    words = set().union(*(rel[p].keys() for p in rel))
    pairs = {tuple(sorted((a, b))) for p in rel for a, s in rel[p].items() for b in s}
    out["all"] = {"headwords": len(words), "pairs": len(pairs)}
    return out


def render(rel, st) -> bytes:
    lines = [
        f"# rouge2 WordNet synonyms: WordNet 3.0, rule {RULE_ID} (see README.md); "
        f"derived from WordNet 3.0, Copyright 2006 by Princeton University, see {LICENSE_NAME}",
        "# format: word<TAB>pos<TAB>space-separated synonyms; pos n|v|a; symmetric",
        "# counts: " + "; ".join(
            f"{k} {v['headwords']} headwords {v['pairs']} pairs" for k, v in st.items()
        ),
    ]
    rows = sorted((w, p) for p in rel for w in rel[p])
    for word, pos in rows:
        lines.append(f"{word}\t{pos}\t{' '.join(sorted(rel[pos][word]))}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def read_lemmas(src: Path) -> dict[str, str]:
    """Single-word lemma -> its part-of-speech letters, from the index files."""
    found: dict[str, list[str]] = collections.defaultdict(list)
    for pos, suffix in MORPH_POS:
        with open(src / f"index.{suffix}", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("  "):  # licence header
                    continue
                lemma = line.split(" ", 1)[0].lower()
                if "_" not in lemma and pos not in found[lemma]:
                    found[lemma].append(pos)
    return {w: "".join(ps) for w, ps in found.items()}


def read_exceptions(src: Path) -> list[tuple[str, str, list[str]]]:
    """(inflected form, pos, bases) from the exception lists, single words only."""
    found: dict[tuple[str, str], list[str]] = {}
    for pos, suffix in MORPH_POS:
        with open(src / f"{suffix}.exc", encoding="ascii") as fh:
            for line in fh:
                parts = line.split()
                if len(parts) < 2 or "_" in parts[0]:
                    continue
                # A form listed on two lines (noun 'aurar', adjective 'offer')
                # gets the bases of both, in file order.
                bases = found.setdefault((parts[0].lower(), pos), [])
                for b in parts[1:]:
                    b = b.lower()
                    if "_" not in b and b not in bases:
                        bases.append(b)
    return sorted((form, pos, bases) for (form, pos), bases in found.items() if bases)


def render_lemmas(lemmas: dict[str, str]) -> bytes:
    per_pos = {p: sum(p in v for v in lemmas.values()) for p, _ in MORPH_POS}
    lines = [
        "# rouge2 WordNet 3.0 lemma lists for morphy (lemma-aware synonyms); derived from "
        f"WordNet 3.0, Copyright 2006 by Princeton University, see {LICENSE_NAME}",
        "# format: lemma<TAB>parts of speech (n noun, v verb, a adjective, r adverb); "
        "single-word lemmas of index.noun/verb/adj/adv",
        "# counts: " + "; ".join(f"{p} {c}" for p, c in per_pos.items()) + f"; distinct {len(lemmas)}",
    ]
    lines += [f"{w}\t{lemmas[w]}" for w in sorted(lemmas)]
    return ("\n".join(lines) + "\n").encode("utf-8")


def render_exceptions(rows) -> bytes:
    per_pos = collections.Counter(pos for _, pos, _ in rows)
    lines = [
        "# rouge2 WordNet 3.0 exception lists for morphy (lemma-aware synonyms); derived from "
        f"WordNet 3.0, Copyright 2006 by Princeton University, see {LICENSE_NAME}",
        "# format: inflected<TAB>pos<TAB>space-separated base forms; pos n|v|a|r; "
        "from noun.exc/verb.exc/adj.exc/adv.exc, single words only",
        "# counts: " + "; ".join(f"{p} {per_pos[p]}" for p, _ in MORPH_POS) + f"; all {len(rows)}",
    ]
    lines += [f"{form}\t{pos}\t{' '.join(bases)}" for form, pos, bases in rows]
    return ("\n".join(lines) + "\n").encode("utf-8")


def gzip_deterministic(data: bytes) -> bytes:
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as gz:
        gz.write(data)
    return buf.getvalue()


def license_text(src: Path) -> str:
    """The Princeton notice from the header of ``data.noun``, verbatim."""
    body = []
    with open(src / "data.noun", encoding="ascii") as fh:
        for line in fh:
            if not line.startswith("  "):
                break
            _, _, text = line.strip("\n").lstrip().partition(" ")
            body.append(text.rstrip())
    while body and not body[-1]:
        body.pop()
    head = [
        f"The files {RESOURCE_NAME}, {LEMMAS_NAME} and",
        f"{EXCEPTIONS_NAME} in this folder are derived from WordNet 3.0",
        "(https://wordnet.princeton.edu/) and are distributed under the WordNet 3.0",
        "licence below, copied from the header of the WordNet 3.0 database files.",
        "",
        "WordNet Release 3.0",
        "",
    ]
    return "\n".join(head + body) + "\n"


def main(argv=None) -> int:
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wordnet-dir", type=Path, default=Path("/usr/share/wordnet"))
    ap.add_argument("--out-dir", type=Path, default=here / "wordnet")
    ap.add_argument("--morphology-only", action="store_true",
                    help=f"write only {LEMMAS_NAME} and {EXCEPTIONS_NAME}")
    args = ap.parse_args(argv)

    args.out_dir.mkdir(parents=True, exist_ok=True)
    for name in ("index.noun", "index.verb", "index.adj", "index.adv",
                 "noun.exc", "verb.exc", "adj.exc", "adv.exc", "data.noun"):
        if not (args.wordnet_dir / name).is_file():
            sys.exit(f"error: {args.wordnet_dir} lacks {name}; install WordNet 3.0 with "
                     "'apt-get install -y wordnet-base wordnet-sense-index' or pass --wordnet-dir")
    lemmas = read_lemmas(args.wordnet_dir)
    exceptions = read_exceptions(args.wordnet_dir)
    for name, body in ((LEMMAS_NAME, render_lemmas(lemmas)), (EXCEPTIONS_NAME, render_exceptions(exceptions))):
        data = gzip_deterministic(body)
        (args.out_dir / name).write_bytes(data)
        print(body.decode("utf-8").split("\n")[2])
        print(f"{name}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}")
    (args.out_dir / LICENSE_NAME).write_text(license_text(args.wordnet_dir), encoding="ascii")
    if args.morphology_only:
        return 0

    with tempfile.TemporaryDirectory(prefix="rouge2-wn30-") as tmp:
        wn = open_wordnet(args.wordnet_dir, Path(tmp))
        rel = build_relation(wn)
    check_symmetric(rel)
    st = stats(rel)
    data = gzip_deterministic(render(rel, st))

    (args.out_dir / RESOURCE_NAME).write_bytes(data)
    for key, val in st.items():
        print(f"{key}: {val['headwords']} headwords, {val['pairs']} unordered pairs")
    print(f"{RESOURCE_NAME}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
