"""The schema of a ``rouge2 run`` YAML config and its validation.

A config is checked completely before any text is read or any output is
written.  The YAML is loaded with PyYAML's *compose* API, so every node keeps
its line number and every mistake is reported as one line::

    run.yaml:7: unknown key 'stemm' in 'preprocess'; did you mean 'stem'? allowed keys: tokenizer, stem, ...

Paths inside a config are resolved relative to the folder of the config file
(absolute paths are kept).  Every key is documented in ``docs/config.md``.
"""

from __future__ import annotations

import codecs
import os
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import yaml

from rouge2.errors import UserError

# ---------------------------------------------------------------------------
# allowed values

INPUT_FORMATS = ("java-project", "rouge155-xml", "jsonl", "csv", "tsv")
SENTENCE_MODES = ("lines", "splitter", "none")
TOKENIZERS = ("rouge155", "unicode")
MULTI_REFERENCE_MODES = ("pooled", "best", "average", "max-f")
COMPARE_TESTS = ("approximate-randomization", "paired-bootstrap")
SNOWBALL_LANGUAGES = (
    "arabic", "danish", "dutch", "english", "finnish", "french", "german",
    "hungarian", "italian", "norwegian", "porter", "portuguese", "romanian",
    "russian", "spanish", "swedish",
)
DEFAULT_MEASURES = ("rouge-1", "rouge-2", "rouge-l")

_TAGS = r"[a-z$]+(?:\|[a-z$]+)*"
MEASURE_RE = re.compile(
    r"^rouge-(?:"
    r"(?P<n>[1-9][0-9]*)"
    r"|(?P<l>l)"
    r"|w-(?P<w>[0-9]+(?:\.[0-9]+)?)"
    r"|s(?P<s>[0-9]+|\*)"
    r"|su(?P<su>[0-9]+|\*)"
    r"|topic-(?P<topic>" + _TAGS + r")"
    r"|topicuniq-(?P<topicuniq>" + _TAGS + r")"
    r")$"
)
MEASURE_FORMS = (
    "rouge-<n>, rouge-l, rouge-w-<weight>, rouge-s<k>, rouge-su<k>, rouge-s*, "
    "rouge-su*, rouge-topic-<tags>, rouge-topicuniq-<tags> (tags like nn|jj)"
)

# ---------------------------------------------------------------------------
# the schema


@dataclass(frozen=True)
class Columns:
    """Field (JSONL) or column (CSV/TSV) names of a row."""

    task: str = "task"
    system: str = "system"
    candidate: str = "candidate"
    references: tuple[str, ...] = ("references",)
    reference_names: str | None = None


@dataclass(frozen=True)
class InputsConfig:
    format: str
    path: Path
    encoding: str = "utf-8"
    sentences: str = "lines"
    columns: Columns = field(default_factory=Columns)


@dataclass(frozen=True)
class PreprocessConfig:
    tokenizer: str = "rouge155"
    stem: bool | str = False
    stopwords: bool | str = False
    word_limit: int | None = None
    byte_limit: int | None = None
    synonyms: bool | str | tuple[tuple[str, ...], ...] = False


@dataclass(frozen=True)
class BootstrapConfig:
    resamples: int = 1000
    confidence: float = 0.95
    seed: int = 0


@dataclass(frozen=True)
class CompareConfig:
    pairs: tuple[tuple[str, str], ...]
    test: str = "approximate-randomization"
    resamples: int = 10000
    seed: int = 0


@dataclass(frozen=True)
class OutputsConfig:
    dir: Path
    csv: Path | None
    per_summary_jsonl: Path | None
    per_summary_csv: Path | None
    summary_json: Path | None
    console: bool = True
    topic_report: Path | None = None        # the HTML page
    topic_report_csv: Path | None = None    # the CSV next to it
    topic_report_topics: str | None = None  # parts of speech; None: the first topic measure's


@dataclass(frozen=True)
class RunConfig:
    source: Path | None
    inputs: InputsConfig
    outputs: OutputsConfig
    name: str | None = None
    preprocess: PreprocessConfig = field(default_factory=PreprocessConfig)
    measures: tuple[str, ...] = DEFAULT_MEASURES
    multi_reference: str = "average"
    alpha: float | None = 0.5
    beta: float | None = None
    bootstrap: BootstrapConfig | None = None
    compare: CompareConfig | None = None

    def score_options(self) -> dict[str, Any]:
        """Keyword options for ``rouge2.score_corpus``."""
        p = self.preprocess
        opts: dict[str, Any] = {
            "tokenizer": p.tokenizer,
            "stem": p.stem,
            "stopwords": p.stopwords,
            "synonyms": [list(g) for g in p.synonyms] if isinstance(p.synonyms, tuple) else p.synonyms,
            "word_limit": p.word_limit,
            "byte_limit": p.byte_limit,
            "multi_reference": self.multi_reference,
        }
        if self.beta is not None:
            opts["beta"] = self.beta
        else:
            opts["alpha"] = self.alpha
        return opts

    def settings(self) -> dict[str, Any]:
        """Every setting that changes a number, as plain JSON data."""
        p = self.preprocess
        syn: Any = p.synonyms
        if isinstance(syn, tuple):
            syn = [list(g) for g in syn]
        return {
            "inputs": {
                "format": self.inputs.format,
                "encoding": self.inputs.encoding,
                "sentences": self.inputs.sentences,
            },
            "preprocess": {
                "tokenizer": p.tokenizer,
                "stem": p.stem,
                "stopwords": p.stopwords,
                "word_limit": p.word_limit,
                "byte_limit": p.byte_limit,
                "synonyms": syn,
            },
            "measures": list(self.measures),
            "multi_reference": self.multi_reference,
            "alpha": self.alpha if self.beta is None else None,
            "beta": self.beta,
            "bootstrap": None if self.bootstrap is None else {
                "resamples": self.bootstrap.resamples,
                "confidence": self.bootstrap.confidence,
                "seed": self.bootstrap.seed,
            },
            "compare": None if self.compare is None else {
                "pairs": [list(pr) for pr in self.compare.pairs],
                "test": self.compare.test,
                "resamples": self.compare.resamples,
                "seed": self.compare.seed,
            },
        }


# ---------------------------------------------------------------------------
# node helpers

_KIND = {
    "tag:yaml.org,2002:str": "text",
    "tag:yaml.org,2002:int": "a whole number",
    "tag:yaml.org,2002:float": "a number",
    "tag:yaml.org,2002:bool": "true/false",
    "tag:yaml.org,2002:null": "nothing (null)",
    "tag:yaml.org,2002:seq": "a list",
    "tag:yaml.org,2002:map": "a mapping",
}


class _Ctx:
    def __init__(self, file: str, base: Path):
        self.file = file
        self.base = base
        self._loader = yaml.SafeLoader("")

    def loc(self, node: yaml.Node | None) -> str:
        if node is None:
            return self.file
        return f"{self.file}:{node.start_mark.line + 1}"

    def fail(self, node: yaml.Node | None, message: str) -> UserError:
        return UserError(f"{self.loc(node)}: {message}")

    def value(self, node: yaml.Node) -> Any:
        return self._loader.construct_object(node, deep=True)


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    return _KIND.get(node.tag, node.tag)


def _show(node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode):
        return f"{node.value!r} ({_kind(node)})"
    return _kind(node)


def _suggest(word: str, allowed: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(allowed), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _mapping(ctx: _Ctx, node: yaml.Node, where: str, allowed: Iterable[str],
             required: Iterable[str] = ()) -> dict[str, tuple[yaml.Node, yaml.Node]]:
    allowed = list(allowed)
    if not isinstance(node, yaml.MappingNode):
        what = "the config" if where == "config" else f"'{where}'"
        raise ctx.fail(node, f"{what} must be a mapping (key: value lines), got {_show(node)}; "
                             f"allowed keys: {', '.join(allowed)}")
    out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for knode, vnode in node.value:
        if not isinstance(knode, yaml.ScalarNode) or knode.tag != "tag:yaml.org,2002:str":
            raise ctx.fail(knode, f"keys in '{where}' must be text, got {_show(knode)}; "
                                  f"allowed keys: {', '.join(allowed)}")
        key = knode.value
        if key not in allowed:
            scope = f" in '{where}'" if where != "config" else ""
            raise ctx.fail(knode, f"unknown key '{key}'{scope}{_suggest(key, allowed)}; "
                                  f"allowed keys: {', '.join(allowed)}")
        if key in out:
            raise ctx.fail(knode, f"key '{key}' appears twice in '{where}' "
                                  f"(first at line {out[key][0].start_mark.line + 1})")
        out[key] = (knode, vnode)
    for key in required:
        if key not in out:
            what = "the config" if where == "config" else f"'{where}'"
            raise ctx.fail(node, f"{what} is missing the required key '{key}'")
    return out


def _is_null(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null"


def _is_bool(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:bool"


def _str(ctx: _Ctx, node: yaml.Node, key: str, allowed: str = "text") -> str:
    if not isinstance(node, yaml.ScalarNode) or node.tag not in (
            "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"):
        raise ctx.fail(node, f"{key}: expected {allowed}, got {_show(node)}")
    return str(node.value)


def _choice(ctx: _Ctx, node: yaml.Node, key: str, choices: Iterable[str]) -> str:
    choices = list(choices)
    allowed = "allowed values: " + ", ".join(choices)
    if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:str":
        raise ctx.fail(node, f"{key}: expected one of the allowed values, got {_show(node)}; {allowed}")
    value = node.value
    if value not in choices:
        low = value.lower()
        if low in choices:
            return low
        raise ctx.fail(node, f"{key}: {value!r} is not allowed{_suggest(value, choices)}; {allowed}")
    return value


def _bool(ctx: _Ctx, node: yaml.Node, key: str) -> bool:
    if not _is_bool(node):
        raise ctx.fail(node, f"{key}: expected true or false, got {_show(node)}")
    return bool(ctx.value(node))


def _int(ctx: _Ctx, node: yaml.Node, key: str, minimum: int | None = None,
         nullable: bool = False) -> int | None:
    if nullable and _is_null(node):
        return None
    what = "a whole number" + (f" >= {minimum}" if minimum is not None else "")
    if nullable:
        what += " or null"
    if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:int":
        raise ctx.fail(node, f"{key}: expected {what}, got {_show(node)}")
    value = int(ctx.value(node))
    if minimum is not None and value < minimum:
        raise ctx.fail(node, f"{key}: expected {what}, got {value}")
    return value


def _float(ctx: _Ctx, node: yaml.Node, key: str, check: Callable[[float], bool],
           what: str) -> float:
    if not isinstance(node, yaml.ScalarNode) or node.tag not in (
            "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"):
        raise ctx.fail(node, f"{key}: expected {what}, got {_show(node)}")
    value = float(ctx.value(node))
    if not check(value):
        raise ctx.fail(node, f"{key}: expected {what}, got {value:g}")
    return value


def _path(ctx: _Ctx, node: yaml.Node, key: str) -> Path:
    text = _str(ctx, node, key, "a path")
    if not text.strip():
        raise ctx.fail(node, f"{key}: expected a path, got an empty value")
    p = Path(text).expanduser()
    if not p.is_absolute():
        p = ctx.base / p
    return Path(os.path.normpath(p))


def _str_list(ctx: _Ctx, node: yaml.Node, key: str) -> list[tuple[yaml.Node, str]]:
    if not isinstance(node, yaml.SequenceNode):
        raise ctx.fail(node, f"{key}: expected a list, got {_show(node)}")
    return [(item, _str(ctx, item, f"{key} item")) for item in node.value]


# ---------------------------------------------------------------------------
# sections

_TOP_KEYS = ("version", "name", "inputs", "preprocess", "measures", "multi_reference",
             "alpha", "beta", "bootstrap", "compare", "outputs")
_INPUT_KEYS = ("format", "path", "encoding", "sentences", "columns")
_COLUMN_KEYS = ("task", "system", "candidate", "references", "reference_names")
_PREPROCESS_KEYS = ("tokenizer", "stem", "stopwords", "word_limit", "byte_limit", "synonyms")
_BOOTSTRAP_KEYS = ("resamples", "confidence", "seed")
_COMPARE_KEYS = ("pairs", "test", "resamples", "seed")
_OUTPUT_KEYS = ("dir", "csv", "per_summary_jsonl", "per_summary_csv", "summary_json",
                "console", "topic_report")
OUTPUT_DEFAULTS = {
    "dir": "rouge2-results",
    "csv": "results.csv",
    "per_summary_jsonl": "per_summary.jsonl",
    "per_summary_csv": "per_summary.csv",
    "summary_json": "summary.json",
}


def _inputs(ctx: _Ctx, node: yaml.Node) -> InputsConfig:
    m = _mapping(ctx, node, "inputs", _INPUT_KEYS, required=("format", "path"))
    fmt = _choice(ctx, m["format"][1], "inputs.format", INPUT_FORMATS)
    pnode = m["path"][1]
    path = _path(ctx, pnode, "inputs.path")
    if fmt == "java-project":
        if not path.is_dir():
            what = "is a file, not a folder" if path.exists() else "not found"
            raise ctx.fail(pnode, f"inputs.path: project folder {what}: {path} "
                                  f"(a java-project folder holds 'reference/' and 'system/'; "
                                  f"relative paths are resolved from the config's folder)")
        for sub in ("reference", "system"):
            if not (path / sub).is_dir():
                raise ctx.fail(pnode, f"inputs.path: the project folder {path} has no '{sub}/' "
                                      f"folder (a java-project folder holds 'reference/' and 'system/')")
    else:
        if not path.is_file():
            what = "is a folder, not a file" if path.exists() else "not found"
            raise ctx.fail(pnode, f"inputs.path: {fmt} file {what}: {path} "
                                  f"(relative paths are resolved from the config's folder)")
    encoding = "utf-8"
    if "encoding" in m:
        enode = m["encoding"][1]
        encoding = _str(ctx, enode, "inputs.encoding", "an encoding name such as utf-8")
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise ctx.fail(enode, f"inputs.encoding: unknown encoding {encoding!r}; "
                                  f"use a Python codec name such as utf-8, utf-16, latin-1, cp1252") from None
    sentences = "lines"
    if "sentences" in m:
        sentences = _choice(ctx, m["sentences"][1], "inputs.sentences", SENTENCE_MODES)
    columns = Columns()
    if "columns" in m:
        cnode = m["columns"][1]
        if fmt not in ("jsonl", "csv", "tsv"):
            raise ctx.fail(m["columns"][0], f"inputs.columns: only used with the jsonl, csv and tsv "
                                            f"formats, not with {fmt}")
        cm = _mapping(ctx, cnode, "inputs.columns", _COLUMN_KEYS)
        kw: dict[str, Any] = {}
        for key in ("task", "system", "candidate"):
            if key in cm:
                kw[key] = _str(ctx, cm[key][1], f"inputs.columns.{key}", "a column name")
        if "references" in cm:
            rnode = cm["references"][1]
            if isinstance(rnode, yaml.SequenceNode):
                names = [v for _, v in _str_list(ctx, rnode, "inputs.columns.references")]
                if not names:
                    raise ctx.fail(rnode, "inputs.columns.references: the list is empty; "
                                          "name at least one reference column")
                kw["references"] = tuple(names)
            else:
                kw["references"] = (_str(ctx, rnode, "inputs.columns.references",
                                         "a column name or a list of column names"),)
        if "reference_names" in cm:
            rn = cm["reference_names"][1]
            kw["reference_names"] = None if _is_null(rn) else _str(
                ctx, rn, "inputs.columns.reference_names", "a field name")
        columns = Columns(**kw)
        if fmt == "jsonl" and len(columns.references) != 1:
            raise ctx.fail(cnode, "inputs.columns.references: JSONL rows keep their references in one "
                                  "field (a text or a list of texts); give one field name")
    return InputsConfig(format=fmt, path=path, encoding=encoding, sentences=sentences, columns=columns)


def _stem(ctx: _Ctx, node: yaml.Node) -> bool | str:
    allowed = ("false, true (the ROUGE-1.5.5 stemmer), rouge155, or snowball:<language> "
               f"with language one of {', '.join(SNOWBALL_LANGUAGES)}")
    if _is_bool(node):
        return bool(ctx.value(node))
    if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:str":
        raise ctx.fail(node, f"preprocess.stem: expected {allowed}, got {_show(node)}")
    value = node.value.strip().lower()
    if value == "rouge155":
        return True
    if value.startswith("snowball:"):
        lang = value.split(":", 1)[1]
        if lang in SNOWBALL_LANGUAGES:
            return value
        raise ctx.fail(node, f"preprocess.stem: unknown Snowball language {lang!r}"
                             f"{_suggest(lang, SNOWBALL_LANGUAGES)}; allowed languages: "
                             f"{', '.join(SNOWBALL_LANGUAGES)}")
    raise ctx.fail(node, f"preprocess.stem: {node.value!r} is not allowed; allowed values: {allowed}")


STOPWORD_NAMES = ("smart", "rouge2-java", "spacy:<lang>")


def _stopwords(ctx: _Ctx, node: yaml.Node) -> bool | str:
    allowed = ("false, true (= smart, the list of ROUGE-1.5.5 -s), smart, rouge2-java "
               "(the Java ROUGE 2.0 default list), spacy:<lang>, or the path of a file "
               "with one word a line")
    if _is_bool(node):
        return bool(ctx.value(node))
    text = _str(ctx, node, "preprocess.stopwords", allowed)
    low = text.strip().lower()
    if low in ("smart", "rouge2-java"):
        return low
    if low.startswith("spacy:"):
        if not re.match(r"^spacy:[a-z]{2,3}$", low):
            raise ctx.fail(node, f"preprocess.stopwords: bad spaCy language in {text!r}; "
                                 f"use a language code such as spacy:en")
        return low
    p = Path(text).expanduser()
    if not p.is_absolute():
        p = ctx.base / p
    if p.is_file():
        return str(p)
    raise ctx.fail(node, f"preprocess.stopwords: {text!r} is neither a known list nor an existing "
                         f"file ({p}; relative paths are resolved from the config's folder)"
                         f"{_suggest(low, STOPWORD_NAMES)}; allowed values: {allowed}")


def _synonyms(ctx: _Ctx, node: yaml.Node) -> bool | str | tuple[tuple[str, ...], ...]:
    allowed = ("false, true (WordNet), a synonym file path (one comma-separated group a line), "
               "or a list of groups such as [[screen, display], [cheap, inexpensive]]")
    if _is_bool(node):
        return bool(ctx.value(node))
    if isinstance(node, yaml.SequenceNode):
        groups = []
        for item in node.value:
            if isinstance(item, yaml.SequenceNode):
                words = tuple(w for _, w in _str_list(ctx, item, "preprocess.synonyms group"))
            elif isinstance(item, yaml.ScalarNode) and item.tag == "tag:yaml.org,2002:str":
                words = tuple(w.strip() for w in item.value.split(",") if w.strip())
            else:
                raise ctx.fail(item, f"preprocess.synonyms: expected a group of words, got {_show(item)}; "
                                     f"allowed values: {allowed}")
            if len(words) < 2:
                raise ctx.fail(item, "preprocess.synonyms: a synonym group needs at least two words")
            groups.append(words)
        return tuple(groups)
    text = _str(ctx, node, "preprocess.synonyms", allowed)
    p = Path(text).expanduser()
    if not p.is_absolute():
        p = ctx.base / p
    if not p.is_file():
        raise ctx.fail(node, f"preprocess.synonyms: synonym file not found: {p} "
                             f"(relative paths are resolved from the config's folder); allowed values: {allowed}")
    return str(p)


def _preprocess(ctx: _Ctx, node: yaml.Node) -> PreprocessConfig:
    if _is_null(node):
        return PreprocessConfig()
    m = _mapping(ctx, node, "preprocess", _PREPROCESS_KEYS)
    kw: dict[str, Any] = {}
    if "tokenizer" in m:
        kw["tokenizer"] = _choice(ctx, m["tokenizer"][1], "preprocess.tokenizer", TOKENIZERS)
    if "stem" in m:
        kw["stem"] = _stem(ctx, m["stem"][1])
    if "stopwords" in m:
        kw["stopwords"] = _stopwords(ctx, m["stopwords"][1])
    for key in ("word_limit", "byte_limit"):
        if key in m:
            kw[key] = _int(ctx, m[key][1], f"preprocess.{key}", minimum=1, nullable=True)
    if kw.get("word_limit") is not None and kw.get("byte_limit") is not None:
        raise ctx.fail(m["byte_limit"][0], "preprocess: give word_limit or byte_limit, not both "
                                           "(ROUGE-1.5.5 -l and -b exclude each other)")
    if "synonyms" in m:
        kw["synonyms"] = _synonyms(ctx, m["synonyms"][1])
    return PreprocessConfig(**kw)


def _check_measure_api(name: str) -> str | None:
    """Ask the measure parser, when it is there, whether it knows ``name``.

    Topic measures are only checked by the grammar here: building them loads
    a POS tagger, which is work the run does later."""
    if "topic" in name:
        return None
    try:
        from rouge2.measures import parse_measure  # type: ignore
    except Exception:  # the measures package may not be importable yet
        return None
    try:
        parse_measure(name)
    except UserError as exc:
        return str(exc)
    except Exception:
        return None
    return None


def _measures(ctx: _Ctx, node: yaml.Node) -> tuple[str, ...]:
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:str":
        items = [(node, node.value)]
    else:
        items = _str_list(ctx, node, "measures")
    if not items:
        raise ctx.fail(node, f"measures: the list is empty; allowed forms: {MEASURE_FORMS}")
    out: list[str] = []
    for item, text in items:
        name = text.strip().lower()
        if not MEASURE_RE.match(name):
            raise ctx.fail(item, f"measures: unknown measure {text!r}; allowed forms: {MEASURE_FORMS}")
        problem = _check_measure_api(name)
        if problem:
            raise ctx.fail(item, f"measures: {text!r}: {problem}")
        if name in out:
            raise ctx.fail(item, f"measures: {text!r} is listed twice")
        out.append(name)
    return tuple(out)


def _bootstrap(ctx: _Ctx, node: yaml.Node) -> BootstrapConfig | None:
    if _is_null(node):
        return None
    if _is_bool(node):
        return BootstrapConfig() if ctx.value(node) else None
    m = _mapping(ctx, node, "bootstrap", _BOOTSTRAP_KEYS)
    kw: dict[str, Any] = {}
    if "resamples" in m:
        kw["resamples"] = _int(ctx, m["resamples"][1], "bootstrap.resamples", minimum=1)
    if "confidence" in m:
        kw["confidence"] = _float(ctx, m["confidence"][1], "bootstrap.confidence",
                                  lambda v: 0.0 < v < 1.0, "a number between 0 and 1, such as 0.95")
    if "seed" in m:
        kw["seed"] = _int(ctx, m["seed"][1], "bootstrap.seed", minimum=0)
    return BootstrapConfig(**kw)


def _compare(ctx: _Ctx, node: yaml.Node) -> CompareConfig | None:
    if _is_null(node):
        return None
    m = _mapping(ctx, node, "compare", _COMPARE_KEYS, required=("pairs",))
    pnode = m["pairs"][1]
    if not isinstance(pnode, yaml.SequenceNode) or not pnode.value:
        raise ctx.fail(pnode, f"compare.pairs: expected a list of system pairs such as "
                              f"[[systemA, systemB]], got {_show(pnode)}")
    pairs = []
    for item in pnode.value:
        names = [v for _, v in _str_list(ctx, item, "compare.pairs item")] \
            if isinstance(item, yaml.SequenceNode) else None
        if names is None or len(names) != 2:
            raise ctx.fail(item, "compare.pairs: each item must be a list of two system names, "
                                 "such as [systemA, systemB]")
        if names[0] == names[1]:
            raise ctx.fail(item, f"compare.pairs: a system cannot be compared with itself ({names[0]!r})")
        pairs.append((names[0], names[1]))
    kw: dict[str, Any] = {"pairs": tuple(pairs)}
    if "test" in m:
        kw["test"] = _choice(ctx, m["test"][1], "compare.test", COMPARE_TESTS)
    if "resamples" in m:
        kw["resamples"] = _int(ctx, m["resamples"][1], "compare.resamples", minimum=1)
    if "seed" in m:
        kw["seed"] = _int(ctx, m["seed"][1], "compare.seed", minimum=0)
    return CompareConfig(**kw)


_TOPIC_REPORT_KEYS = ("file", "topics")
TOPIC_REPORT_DEFAULT = "topic_coverage"


def _topic_report_base(ctx: _Ctx, node: yaml.Node, key: str, out_dir: Path) -> Path:
    text = _str(ctx, node, key, "a file name, true or false")
    if not text.strip():
        raise ctx.fail(node, f"{key}: expected a file name, got an empty value")
    p = Path(text).expanduser()
    if p.suffix.lower() in (".html", ".htm", ".csv"):
        p = p.with_suffix("")
    return p if p.is_absolute() else out_dir / p


def _topic_report(ctx: _Ctx, node: yaml.Node, out_dir: Path,
                  measures: tuple[str, ...]) -> tuple[Path | None, str | None]:
    """``outputs.topic_report``: false/null, true, a file name, or a mapping
    ``{file, topics}``.  Returns (base path without suffix, topics spec)."""
    if _is_null(node) or (_is_bool(node) and not ctx.value(node)):
        return None, None
    base: Path = out_dir / TOPIC_REPORT_DEFAULT
    topics: str | None = None
    if _is_bool(node):
        pass
    elif isinstance(node, yaml.MappingNode):
        m = _mapping(ctx, node, "outputs.topic_report", _TOPIC_REPORT_KEYS)
        if "file" in m:
            base = _topic_report_base(ctx, m["file"][1], "outputs.topic_report.file", out_dir)
        if "topics" in m:
            tnode = m["topics"][1]
            spec = _str(ctx, tnode, "outputs.topic_report.topics", "parts of speech such as nn|jj")
            from rouge2.pos.topics import TopicSelector

            try:
                topics = str(TopicSelector.parse(spec)).lower()
            except UserError as exc:
                raise ctx.fail(tnode, f"outputs.topic_report.topics: {exc}") from None
    else:
        base = _topic_report_base(ctx, node, "outputs.topic_report", out_dir)
    if topics is None and not any(m.startswith("rouge-topic") for m in measures):
        raise ctx.fail(node, "outputs.topic_report: the run has no topic measure to take the parts "
                             "of speech from; add one (e.g. \"rouge-topic-nn|jj\") or write "
                             "topic_report: {topics: nn|jj}")
    return base, topics


def _outputs(ctx: _Ctx, node: yaml.Node | None, measures: tuple[str, ...] = ()) -> OutputsConfig:
    m = {} if node is None or _is_null(node) else _mapping(ctx, node, "outputs", _OUTPUT_KEYS)
    out_dir = _path(ctx, m["dir"][1], "outputs.dir") if "dir" in m else ctx.base / OUTPUT_DEFAULTS["dir"]
    if out_dir.exists() and not out_dir.is_dir():
        raise ctx.fail(m["dir"][1] if "dir" in m else node, f"outputs.dir: {out_dir} is a file, not a folder")
    files: dict[str, Path | None] = {}
    for key in ("csv", "per_summary_jsonl", "per_summary_csv", "summary_json"):
        default = OUTPUT_DEFAULTS[key]
        if key not in m:
            files[key] = out_dir / default
            continue
        vnode = m[key][1]
        if _is_null(vnode) or (_is_bool(vnode) and not ctx.value(vnode)):
            files[key] = None
        elif _is_bool(vnode):
            files[key] = out_dir / default
        else:
            text = _str(ctx, vnode, f"outputs.{key}", "a file name, true or false")
            p = Path(text).expanduser()
            files[key] = p if p.is_absolute() else out_dir / p
    topics = None
    files["topic_report"] = files["topic_report_csv"] = None
    if "topic_report" in m:
        base, topics = _topic_report(ctx, m["topic_report"][1], out_dir, measures)
        if base is not None:
            files["topic_report"] = base.with_name(base.name + ".html")
            files["topic_report_csv"] = base.with_name(base.name + ".csv")
    console = _bool(ctx, m["console"][1], "outputs.console") if "console" in m else True
    seen: dict[Path, str] = {}
    for key, p in files.items():
        if p is None:
            continue
        name = "topic_report" if key == "topic_report_csv" else key
        if p in seen:
            raise ctx.fail(m[name][1] if name in m else node,
                           f"outputs.{name}: writes to the same file as outputs.{seen[p]}: {p}")
        seen[p] = name
    return OutputsConfig(dir=out_dir, console=console, topic_report_topics=topics, **files)


# ---------------------------------------------------------------------------
# entry points


def parse_config(text: str, source: str | Path | None = None,
                 base: str | Path | None = None) -> RunConfig:
    """Validate config ``text``; ``source`` names it in messages, ``base`` resolves paths."""
    file = str(source) if source is not None else "<config>"
    base_dir = Path(base) if base is not None else (
        Path(source).resolve().parent if source is not None else Path.cwd())
    ctx = _Ctx(file, base_dir)
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = exc.problem or exc.context or "cannot be parsed"
        raise UserError(f"{file}{line}: malformed YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise UserError(f"{file}: malformed YAML: {exc}") from None
    if root is None:
        raise UserError(f"{file}: the config is empty; it needs at least 'inputs' "
                        f"(format and path)")
    m = _mapping(ctx, root, "config", _TOP_KEYS, required=("inputs",))
    if "version" in m:
        vnode = m["version"][1]
        if _int(ctx, vnode, "version") != 1:
            raise ctx.fail(vnode, "version: this rouge2 reads config version 1; allowed values: 1")
    name = _str(ctx, m["name"][1], "name") if "name" in m else None
    inputs = _inputs(ctx, m["inputs"][1])
    preprocess = _preprocess(ctx, m["preprocess"][1]) if "preprocess" in m else PreprocessConfig()
    measures = _measures(ctx, m["measures"][1]) if "measures" in m else DEFAULT_MEASURES
    multi = "average"
    if "multi_reference" in m:
        multi = _choice(ctx, m["multi_reference"][1], "multi_reference", MULTI_REFERENCE_MODES)
    alpha: float | None = 0.5
    beta: float | None = None
    if "alpha" in m and "beta" in m:
        raise ctx.fail(m["beta"][0], "give alpha or beta, not both (alpha = 1 / (1 + beta^2))")
    if "alpha" in m:
        alpha = _float(ctx, m["alpha"][1], "alpha", lambda v: 0.0 <= v <= 1.0,
                       "a number from 0 to 1 (0.5 = F1)")
    if "beta" in m:
        beta = _float(ctx, m["beta"][1], "beta", lambda v: v > 0.0, "a number above 0 (1 = F1)")
        alpha = None
    bootstrap = _bootstrap(ctx, m["bootstrap"][1]) if "bootstrap" in m else None
    compare = _compare(ctx, m["compare"][1]) if "compare" in m else None
    outputs = _outputs(ctx, m["outputs"][1] if "outputs" in m else None, measures)
    return RunConfig(
        source=Path(source).resolve() if source is not None else None,
        name=name, inputs=inputs, preprocess=preprocess, measures=measures,
        multi_reference=multi, alpha=alpha, beta=beta, bootstrap=bootstrap,
        compare=compare, outputs=outputs,
    )


def load_config(path: str | Path) -> RunConfig:
    """Read and validate the YAML config at ``path``."""
    p = Path(path)
    if not p.exists():
        raise UserError(f"config file not found: {p}")
    if p.is_dir():
        raise UserError(f"{p}: is a folder; give the path of a YAML config file")
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise UserError(f"{p}: cannot read the config: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise UserError(f"{p}:{line}: the config is not valid UTF-8 "
                        f"(byte 0x{raw[exc.start]:02x})") from None
    return parse_config(text, source=p, base=p.resolve().parent)
