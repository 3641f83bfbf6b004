"""``rouge2 convert-properties``: a Java ROUGE 2.0 ``rouge.properties`` as a YAML config.

The Java tool resolves ``project.dir``, ``stopwords.file`` and ``outputFile``
against the folder it runs in (the current directory), not against the
properties file.  The converter does the same and writes absolute paths, so

    rouge2 convert-properties rouge.properties > run.yaml && rouge2 run run.yaml

scores the same project with the same settings from that folder.  The CSV
never goes where the Java tool wrote its own: it goes to
``rouge2-results/<outputFile's name>`` in that folder (a comment in the
config says where the Java tool's file is), so both can be compared.
``--relative-to DIR`` writes paths relative to DIR instead (for a config you
will keep in DIR).

Mapping (Java property -> config key):

===================  =====================================================
project.dir          inputs.path (format java-project)
rouge.type, ngram    measures: normal -> rouge-<n>, rouge-l, rouge-s<k>,
                     rouge-su<k>; topic / topicUniq -> rouge-topic-<tags> /
                     rouge-topicuniq-<tags> (tags from topic.type)
beta                 beta
stopwords.use/file   preprocess.stopwords (the file, or false)
stemmer.use/name     preprocess.stem: snowball:<language>
synonyms.use         preprocess.synonyms: true (WordNet)
output, outputFile   outputs.dir: rouge2-results, outputs.csv: outputFile's
                     name (output=console: no CSV, console only)
(always)             multi_reference: average, tokenizer: unicode
===================  =====================================================
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from rouge2.analysis.stem import STEMMERS
from rouge2.analysis.stopwords import STOPWORDS
from rouge2.analysis.tokenize import TOKENIZERS
from rouge2.data import read_resource
from rouge2.errors import UserError
from rouge2.files import read_bytes
from rouge2.measures import MEASURES, canonical_measure

# The Java tool's defaults (its usage documentation, ROUGE 2.0 v1.2.2).
JAVA_DEFAULTS = {
    "project.dir": "test-summarization",
    "rouge.type": "normal",
    "ngram": "1",
    "beta": "1",
    "stopwords.use": "true",
    "stopwords.file": "resources/stopwords-rouge-default.txt",
    "stemmer.use": "false",
    "stemmer.name": "englishStemmer",
    "topic.type": "nn|jj",
    "synonyms.use": "false",
    "output": "file",
    "outputFile": "results.csv",
}
KNOWN_KEYS = set(JAVA_DEFAULTS) | {"pos_tagger_name", "synonyms.dir"}
JAVA_DEFAULT_STOPWORDS = "stopwords-rouge-default.txt"
#: where converted configs write, in the folder the Java tool ran in
RESULTS_DIR = "rouge2-results"
#: the first line of every converted config (how ``rouge2 run`` knows one)
CONVERTED_HEADER = "# Converted by 'rouge2 convert-properties' from "
#: one line, in the converted config and on the console of its run: the numbers are not the jar's
JAVA_NUMBERS_NOTE = ("rouge2 scores as ROUGE-1.5.5 defines ROUGE, so most rows differ from the Java jar's "
                     "(n-grams across line breaks, the S4 window, ROUGE-L on word sequences, tokenization, "
                     "two Java bugs); each difference is explained in docs/differences.md#java-rouge-20-ganesan "
                     "(rouge2 docs differences)")


def converted_from_java(config_text: str) -> bool:
    """Whether a config's text is a ``convert-properties`` output (its first line says so)."""
    return config_text.lstrip("\ufeff").startswith(CONVERTED_HEADER)

_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def parse_properties(text: str, source: str = "<properties>") -> dict[str, tuple[str, int]]:
    """``key -> (value, line)`` following ``java.util.Properties.load``:
    ``#``/``!`` comments, ``=``, ``:`` or whitespace separators, backslash
    line continuations and escapes (``\\t``, ``\\uXXXX``); a later key wins."""
    out: dict[str, tuple[str, int]] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        start = i + 1
        line = lines[i].lstrip(" \t\f")
        i += 1
        if not line or line[0] in "#!":
            continue
        # continuation: an odd number of trailing backslashes
        while True:
            m = re.search(r"(\\+)$", line)
            if not m or len(m.group(1)) % 2 == 0 or i >= len(lines):
                if m and len(m.group(1)) % 2 == 1:
                    line = line[:-1]
                break
            line = line[:-1] + lines[i].lstrip(" \t\f")
            i += 1
        key_chars: list[str] = []
        j = 0
        while j < len(line):
            c = line[j]
            if c == "\\" and j + 1 < len(line):
                key_chars.append(line[j:j + 2])
                j += 2
                continue
            if c in "=: \t\f":
                break
            key_chars.append(c)
            j += 1
        rest = line[j:].lstrip(" \t\f")
        if rest[:1] in ("=", ":"):
            rest = rest[1:].lstrip(" \t\f")
        key = _unescape("".join(key_chars), source, start)
        out[key] = (_unescape(rest, source, start), start)
    return out


def _unescape(text: str, source: str, line: int) -> str:
    res: list[str] = []
    j = 0
    while j < len(text):
        c = text[j]
        if c != "\\" or j + 1 >= len(text):
            res.append(c)
            j += 1
            continue
        nxt = text[j + 1]
        if nxt == "u":
            digits = text[j + 2:j + 6]
            if not re.fullmatch(r"[0-9A-Fa-f]{4}", digits):
                raise UserError(f"{source}:{line}: malformed \\uXXXX escape")
            res.append(chr(int(digits, 16)))
            j += 6
            continue
        res.append(_ESCAPES.get(nxt, nxt))
        j += 2
    return "".join(res)


def _bool(value: str) -> bool:
    # Boolean.parseBoolean: "true" in any case is true, anything else false.
    return value.strip().lower() == "true"


def _measures(props: dict[str, tuple[str, int]], source: str) -> tuple[list[str], list[str]]:
    notes: list[str] = []
    rtype, rline = props.get("rouge.type", (JAVA_DEFAULTS["rouge.type"], 0))
    rtype = rtype.strip()
    ngram, nline = props.get("ngram", (JAVA_DEFAULTS["ngram"], 0))
    if rtype.lower() in ("topic", "topicuniq"):
        tags, _ = props.get("topic.type", (JAVA_DEFAULTS["topic.type"], 0))
        tags = tags.strip().lower() or "nn|jj"
        if not re.fullmatch(r"[a-z$]+(\|[a-z$]+)*", tags):
            raise UserError(f"{source}:{props['topic.type'][1]}: topic.type {tags!r} is not a list of "
                            f"POS tags such as nn|jj")
        kind = "topicuniq" if rtype.lower() == "topicuniq" else "topic"
        items = [x.strip() for x in ngram.split(",") if x.strip()]
        if items and items != ["1"]:
            notes.append(f"ngram={ngram.strip()} is ignored: ROUGE-Topic works on single words "
                         f"(the Java tool labels it ROUGE-1-{'topicUniq' if kind == 'topicuniq' else 'topic'})")
        return [_measure(f"rouge-{kind}-{tags}", source, props["topic.type"][1] if "topic.type" in props
                         else rline)], notes
    if rtype.lower() != "normal":
        raise UserError(f"{source}:{rline}: rouge.type {rtype!r} is not allowed; allowed values: "
                        f"normal, topic, topicUniq")
    out: list[str] = []
    for item in ngram.split(","):
        token = item.strip().upper()
        if not token:
            continue
        if re.fullmatch(r"[1-9][0-9]*", token):
            name = f"rouge-{token}"
        elif token == "L":
            name = "rouge-l"
        elif re.fullmatch(r"S[0-9]+", token):
            name = f"rouge-s{token[1:]}"
        elif re.fullmatch(r"SU[0-9]+", token):
            name = f"rouge-su{token[2:]}"
        else:
            raise UserError(f"{source}:{nline}: ngram item {item.strip()!r} is not allowed; "
                            f"allowed items: 1..N, L, S<k>, SU<k> separated by commas")
        name = _measure(name, source, nline)
        if name not in out:
            out.append(name)
    if not out:
        raise UserError(f"{source}:{nline}: ngram is empty; give e.g. ngram=1,2,L,SU4")
    return out, notes


def _measure(name: str, source: str, line: int) -> str:
    """The canonical name of a measure the Java settings name, from the measure registry."""
    try:
        return canonical_measure(name)
    except UserError as exc:
        raise UserError(f"{source}:{line}: {exc}") from None


def _stemmer(name: str, source: str, line: int) -> str:
    """The rouge2 stemmer name for the Java tool's ``stemmer.name`` (``englishStemmer``:
    its Snowball stemmer classes), checked by the library's stemmer registry."""
    m = re.fullmatch(r"\s*([A-Za-z]+?)(?:Stemmer)?\s*", name)
    lang = m.group(1).lower() if m else name.strip()
    try:
        return STEMMERS.canonical(f"snowball:{lang}")
    except UserError as exc:
        raise UserError(f"{source}:{line}: stemmer.name {name.strip()!r}: {exc}") from None


#: the Stanford tagger models the Java tool lists (pos_tagger_name), by the word
#: their file names start with: (ISO 639-1 code, language)
JAVA_TAGGER_LANGUAGES = {"arabic": ("ar", "Arabic"), "chinese": ("zh", "Chinese"), "english": ("en", "English"),
                         "french": ("fr", "French"), "german": ("de", "German"), "spanish": ("es", "Spanish")}
JAVA_TAGGER_LANGUAGES.update({code: (code, name) for code, name in JAVA_TAGGER_LANGUAGES.values()})


def _java_tagger_language(props: dict, tags: bool, source: str) -> str | None:
    """The language of the Java tool's ``pos_tagger_name`` model (None if unknown or absent).

    When the run tags (topic measures, synonyms) with a model for another
    language than English, conversion stops: rouge2 never tags such text with
    its English tagger.
    """
    if "pos_tagger_name" not in props:
        return None
    name, line = props["pos_tagger_name"]
    found = JAVA_TAGGER_LANGUAGES.get(re.split(r"[-_.]", name.strip().lower(), maxsplit=1)[0])
    if found is None:
        return None
    code, lang = found
    if code != "en" and tags:
        raise UserError(
            f"{source}:{line}: pos_tagger_name {name.strip()!r} tags {lang} text, which rouge2 will not "
            f"tag with its English tagger; in the YAML config choose one: 'preprocess: {{language: {code}, "
            f"tagger: spacy:<a {lang} spaCy pipeline>}}' (universal tags: topic nn|jj becomes noun|adj), "
            f"'tagger: pretagged' (word/TAG files), or aspect measures with a lexicon (no tagger)")
    return code


def _tagger_comments(props: dict, tags: bool, source: str) -> list[str]:
    """Comment lines on the Java tool's ``pos_tagger_name`` (conversion stops for a
    non-English tagger when the run tags: see :func:`_java_tagger_language`)."""
    lang = _java_tagger_language(props, tags, source)
    if lang not in (None, "en"):
        return [f"  # pos_tagger_name names a tagger for {JAVA_TAGGER_LANGUAGES[lang][1]}: for such "
                f"texts see 'language: {lang}' (rouge2 docs languages)"]
    if tags and "pos_tagger_name" in props:
        return [f"  # the Java tool tagged with the Stanford model {props['pos_tagger_name'][0].strip()!r};",
                "  # rouge2 tags with spaCy (rouge2 docs pos-tagging), so some tags can differ."]
    return []


_JAVA_LINE_END = re.compile(r"\r\n|\r|\n")
_JAVA_TRIM = "".join(chr(c) for c in range(0x21))  # String.trim(): every char <= U+0020


def java_stopword_entries(data: bytes) -> frozenset[str]:
    """The words the Java tool takes from a stopword file's bytes: it reads the
    file as ISO-8859-1 (``Files.lines``, which ends a line at ``\\r\\n``,
    ``\\r`` or ``\\n``) and keeps each line ``trim().toLowerCase()``."""
    lines = _JAVA_LINE_END.split(data.decode("latin-1"))
    if lines and lines[-1] == "":
        lines.pop()  # text after the last line end, if any, is a line; nothing is not
    return frozenset(line.strip(_JAVA_TRIM).lower() for line in lines)


def _same_as_bundled_java_list(path: Path) -> bool:
    """Whether the Java tool gets the same words from ``path`` as from its own
    default list (which rouge2 ships): line ends (the Java repository's copy
    has CRLF), surrounding blanks and case do not matter to it.  An empty
    entry (a blank line) is ignored: it matches only the Java tool's empty
    tokens, which rouge2 never produces."""
    try:
        bundled = read_resource("stopwords", "rouge2-java-default.txt")
        ours = java_stopword_entries(read_bytes(path, "stopword file")) - {""}
        return ours == java_stopword_entries(bundled) - {""}
    except Exception:
        return False


def _q(value: str) -> str:
    """A YAML scalar (JSON strings are valid YAML)."""
    return json.dumps(value, ensure_ascii=False)


class _Paths:
    """Paths of the properties file, resolved as the Java tool resolves them
    (against the folder it runs in), shown absolute or relative to a folder."""

    def __init__(self, cwd: str | Path | None, relative_to: str | Path | None):
        self.base = (Path(cwd) if cwd is not None else Path.cwd()).resolve()
        self.rel_base = Path(relative_to).resolve() if relative_to is not None else None

    def where(self, rel: str) -> Path:
        q = Path(rel.strip()).expanduser()
        return q if q.is_absolute() else (self.base / q)

    def show(self, q: Path) -> str:
        q = Path(os.path.normpath(q))
        return os.path.relpath(q, self.rel_base) if self.rel_base is not None else str(q)


class _Props:
    """The properties of one file, with the Java tool's defaults."""

    def __init__(self, path: Path):
        # java.util.Properties.load(InputStream) reads ISO-8859-1.
        self.source = str(path)
        self.values = parse_properties(read_bytes(path, "properties file").decode("latin-1"), self.source)

    def get(self, key: str) -> str:
        return self.values.get(key, (JAVA_DEFAULTS[key], 0))[0]

    def line(self, key: str) -> int:
        return self.values.get(key, ("", 0))[1]

    def flag(self, key: str) -> bool:
        return _bool(self.get(key))


def _beta(props: _Props) -> float:
    text = props.get("beta").strip()
    where = f"{props.source}:{props.line('beta')}"
    try:
        beta = float(text)
    except ValueError:
        raise UserError(f"{where}: beta {text!r} is not a number") from None
    if beta <= 0:
        raise UserError(f"{where}: beta must be above 0, got {text}")
    return beta


def _stopword_lines(props: _Props, paths: _Paths) -> list[str]:
    if not props.flag("stopwords.use"):
        return ["  stopwords: false"]
    java_list = STOPWORDS.canonical("rouge2-java")
    sw = paths.where(props.get("stopwords.file"))
    if sw.is_file() and _same_as_bundled_java_list(sw):
        return [f"  # {_q(str(sw))} holds the Java tool's default list (the same words",
                "  # as the Java tool reads them); rouge2 ships that list:",
                f"  stopwords: {java_list}"]
    if sw.is_file():
        return [f"  stopwords: {_q(paths.show(sw))}"]
    if sw.name == JAVA_DEFAULT_STOPWORDS:
        return ["  # the Java tool's stopwords.file was not found at " + str(sw) + ";",
                "  # the Java tool would then silently remove no stopwords (its shipped",
                "  # results.csv shows this). rouge2 uses its bundled copy of that list:",
                f"  stopwords: {java_list}"]
    return ["  # the stopwords.file was not found; fix this path before running:",
            f"  stopwords: {_q(paths.show(sw))}"]


def _preprocess_lines(props: _Props, paths: _Paths, measures: list[str]) -> list[str]:
    lines = ["preprocess:",
             f"  tokenizer: {TOKENIZERS.canonical('unicode')}      # the Java tool tokenizes any script "
             "(e.g. Persian)"]
    if props.flag("stemmer.use"):
        lines.append(f"  stem: {_q(_stemmer(props.get('stemmer.name'), props.source, props.line('stemmer.name')))}")
    else:
        lines.append("  stem: false")
    lines += _stopword_lines(props, paths)
    synonyms = props.flag("synonyms.use")
    lines.append(f"  synonyms: {'true     # WordNet' if synonyms else 'false'}")
    tagged = synonyms or any(MEASURES.capability(m, "needs_tagger") for m in measures)
    return lines + _tagger_comments(props.values, tagged, props.source)


def _output_lines(props: _Props, paths: _Paths) -> list[str]:
    results = paths.base / RESULTS_DIR
    lines = ["outputs:"]
    if props.get("output").strip().lower() == "file":
        java_csv = Path(os.path.normpath(paths.where(props.get("outputFile"))))
        name = java_csv.name or "results.csv"
        if os.path.normpath(results / name).casefold() == str(java_csv).casefold():
            stem, dot, ext = name.rpartition(".")
            name = f"{stem}.rouge2.{ext}" if dot and stem else f"{name}.rouge2"
        lines.append(f"  # the Java tool wrote its CSV to {_q(paths.show(java_csv))} (outputFile);")
        lines.append(f"  # rouge2 writes its own to {RESULTS_DIR}/, never over the Java tool's:")
        lines.append(f"  dir: {_q(paths.show(results))}")
        lines.append(f"  csv: {_q(name)}")
    else:
        lines.append(f"  dir: {_q(paths.show(results))}")
        lines.append("  csv: false               # output=console: the Java tool printed to the console only")
    return lines + ["  per_summary_jsonl: false  # set a file name to also keep per-summary scores",
                    "  per_summary_csv: false",
                    "  summary_json: false       # set a file name to keep the reproducibility signature",
                    "  console: true"]


def convert_properties(path: str | Path, cwd: str | Path | None = None,
                       relative_to: str | Path | None = None) -> str:
    """The YAML config equivalent to the properties file at ``path``.

    Paths are resolved against ``cwd`` (default: the current directory), as
    the Java tool resolves them; written absolute, or relative to
    ``relative_to`` when given."""
    p = Path(path)
    props = _Props(p)
    paths = _Paths(cwd, relative_to)
    comments = [f"# note: property {k!r} (line {props.line(k)}) has no equivalent and is ignored"
                for k in sorted(k for k in props.values if k not in KNOWN_KEYS)]
    measures, notes = _measures(props.values, props.source)
    comments += [f"# note: {n}" for n in notes]
    beta = _beta(props)
    lines: list[str] = [
        f"{CONVERTED_HEADER}{p.resolve()}",
        f"# note: {JAVA_NUMBERS_NOTE}",
        f"# Paths were resolved from {paths.base}, as the Java tool resolves them (the folder it runs in).",
        *comments,
        "version: 1",
        "inputs:",
        "  format: java-project",
        f"  path: {_q(paths.show(paths.where(props.get('project.dir'))))}",
        "  sentences: lines        # the Java tool reads one sentence a line",
        *_preprocess_lines(props, paths, measures),
        "measures:",
        *(f"  - {_q(m)}" for m in measures),
        "multi_reference: average   # the Java tool: P and R averaged over references, F from them",
        f"beta: {beta:g}",
        *_output_lines(props, paths),
    ]
    return "\n".join(lines) + "\n"
