"""Do nltk's Snowball stemmers and the ``snowballstemmer`` package stem alike?

For each of the 16 languages nltk has, both stem the same vocabulary and the
words they stem differently are counted (with a few examples). The
vocabulary of a language is:

* English: every word of the ROUGE-1.5.5 stemmer fixture (215,666 words),
  SummEval's documents and summaries and Opinosis' reviews (lowercased);
* every language: spaCy's stopword list, number words and tokenizer
  exceptions for it (what spaCy ships, no model needed), and 20,000
  generated words per language: a random stem of the language's letters
  plus one to three endings cut from the real words (so every suffix rule
  of both stemmers is reached), with a fixed seed.

Usage: python benchmarks/compare_snowball.py [--shared PATH] [--generated N]
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import random
import re
import sys
from pathlib import Path

from _common import DEFAULT_SHARED

#: nltk's languages, with the spaCy code whose word lists feed the vocabulary
NLTK_LANGUAGES = {
    "arabic": "ar", "danish": "da", "dutch": "nl", "english": "en", "finnish": "fi", "french": "fr",
    "german": "de", "hungarian": "hu", "italian": "it", "norwegian": "nb", "porter": "en",
    "portuguese": "pt", "romanian": "ro", "russian": "ru", "spanish": "es", "swedish": "sv",
}
WORD = re.compile(r"[^\W\d_]+")


def spacy_words(code: str) -> set[str]:
    words: set[str] = set()
    for module, attr in (("stop_words", "STOP_WORDS"), ("lex_attrs", "_num_words"),
                         ("tokenizer_exceptions", "TOKENIZER_EXCEPTIONS")):
        try:
            mod = importlib.import_module(f"spacy.lang.{code}.{module}")
        except ImportError:
            continue
        for item in getattr(mod, attr, ()) or ():
            words.update(w.lower() for w in WORD.findall(str(item)))
    return words


def english_words(shared: Path) -> set[str]:
    words: set[str] = set()
    with gzip.open(shared / "fixtures" / "stemmer" / "rouge155_stems.tsv.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            words.add(line.split("\t", 1)[0].lower())
    with open(shared / "data" / "summeval" / "summeval.jsonl", encoding="utf-8") as fh:
        for line in fh:
            words.update(WORD.findall(line.lower()))
    for path in (shared / "data" / "opinosis").rglob("*.txt"):
        words.update(WORD.findall(path.read_text(encoding="utf-8", errors="replace").lower()))
    return {w for w in words if w.isalpha()}


def generated(words: set[str], n: int, seed: int) -> set[str]:
    rng = random.Random(seed)
    real = sorted(w for w in words if len(w) >= 2)
    if not real:
        return set()
    letters = sorted({ch for w in real for ch in w})
    endings = sorted({w[-k:] for w in real for k in range(1, 6) if len(w) > k})
    out = set()
    while len(out) < n:
        stem = "".join(rng.choice(letters) for _ in range(rng.randint(2, 8)))
        out.add(stem + "".join(rng.choice(endings) for _ in range(rng.randint(1, 3))))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", default=DEFAULT_SHARED)
    ap.add_argument("--generated", type=int, default=20000)
    args = ap.parse_args()
    try:
        import snowballstemmer
        from nltk.stem.snowball import SnowballStemmer
    except ImportError as exc:
        sys.exit(f"error: needs nltk and snowballstemmer ({exc})")
    from importlib.metadata import version

    print(f"nltk {version('nltk')}, snowballstemmer {version('snowballstemmer')}\n")
    print("| language | real words | differ | generated | differ | examples (word: nltk / snowballstemmer) |")
    print("|---|---|---|---|---|---|")
    for lang, code in NLTK_LANGUAGES.items():
        vocab = spacy_words(code)
        if code == "en":
            vocab |= english_words(Path(args.shared))
        made = generated(vocab, args.generated, seed=20) - vocab
        a, b = SnowballStemmer(lang), snowballstemmer.stemmer(lang)
        real_diff = sorted(w for w in vocab if a.stem(w) != b.stemWord(w))
        made_diff = sorted(w for w in made if a.stem(w) != b.stemWord(w))
        examples = [(w, a.stem(w), b.stemWord(w)) for w in (real_diff or made_diff)[:3]]
        print(f"| {lang} | {len(vocab)} | {len(real_diff)} ({100 * len(real_diff) / max(1, len(vocab)):.2f}%) "
              f"| {len(made)} | {len(made_diff)} ({100 * len(made_diff) / max(1, len(made)):.2f}%) "
              f"| {', '.join(f'{w}: {x} / {y}' for w, x, y in examples)} |")


if __name__ == "__main__":
    main()
