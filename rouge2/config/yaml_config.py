"""The schema of a ``rouge2 run`` YAML config: one schema per section.

A config is checked completely before any text is read or any output is
written, by the generic validator in :mod:`rouge2.config.validate`; every
mistake is one line naming the file, line and key::

    run.yaml:7: unknown key 'stemm' in 'preprocess' (did you mean 'stem'?); allowed keys: ...

The analysis and scoring settings (``preprocess``, ``inputs.sentences``,
``multi_reference``, ``alpha``/``beta``, ``rounding``) are validated by the
library's own :class:`~rouge2.scoring.options.Options`, the same code the
Python API and every command-line flag use, so they accept the same names
and give the same numbers.  Paths are resolved from the config file's folder
(absolute paths are kept).  Every key is documented in ``docs/config.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from rouge2 import files
from rouge2.analysis.languages import apply_preset
from rouge2.analysis.stopwords import STOPWORDS
from rouge2.aspects.lexicon import LEXICON_FORMATS, load_lexicon
from rouge2.aspects.match import ASSIGN
from rouge2.config.validate import (
    Apply,
    Bool,
    Checked,
    Choice,
    Ctx,
    Int,
    Kind,
    ListOf,
    Node,
    Number,
    Section,
    Text,
    compose,
    is_bool,
    is_null,
    is_text,
    mapping,
    read_config_text,
    show,
)
from rouge2.errors import UserError
from rouge2.io.inputs import INPUT_FORMATS, Columns, InputsConfig, compile_task_pattern
from rouge2.io.outputs import OUTPUTS
from rouge2.io.topic_report import report_paths
from rouge2.limits import MAX_RESAMPLES, MAX_TEST_RESAMPLES, MAX_VARIANTS
from rouge2.measures import MEASURES, default_score, measure_forms
from rouge2.pos.topics import TopicSelector
from rouge2.registry import suggest
from rouge2.scoring.options import Options, alpha_from_beta, normalize
from rouge2.scoring.scorer import DEFAULT_MEASURES, canonical_measures
from rouge2.stats.aggregate import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES
from rouge2.stats.correlation import STATISTICS
from rouge2.stats.meta import MetaSpec, Metric
from rouge2.stats.significance import DEFAULT_TEST, DEFAULT_TEST_RESAMPLES, TESTS
from rouge2.synonyms.base import SYNONYM_SOURCES

# ---------------------------------------------------------------------------
# the result


@dataclass(frozen=True)
class BootstrapConfig:
    resamples: int = DEFAULT_RESAMPLES
    confidence: float = DEFAULT_CONFIDENCE
    seed: int = 0


@dataclass(frozen=True)
class CompareConfig:
    pairs: tuple[tuple[str, str], ...]
    test: str = DEFAULT_TEST
    resamples: int = DEFAULT_TEST_RESAMPLES
    seed: int = 0
    #: the score tested: recall, precision, fmeasure, coverage (per aspect); None:
    #: each measure's default score (F for N/L/W/S, recall for Topic/TopicUniq/Aspect)
    score: str | None = None
    #: every pair of systems (``pairs: all``) instead of the listed ``pairs``
    all_pairs: bool = False
    #: the aspects compared on coverage (None: every aspect of the lexicon)
    aspects: tuple[str, ...] | None = None


@dataclass(frozen=True, init=False)
class OutputsConfig:
    dir: Path
    #: every output of the catalogue (:data:`rouge2.io.outputs.OUTPUTS`) -> its path,
    #: None when it is not written; also read (and given, as keywords) by name:
    #: ``outputs.csv``, ``replace(outputs, csv=path)``
    files: dict[str, Path | None] = field(default_factory=dict)
    console: bool = True
    rank_by: str | None = None              # console ranking measure; None: the first measure
    rank_by_score: str | None = None        # recall, precision or fmeasure; None: the measure's default
    topic_report_topics: str | None = None  # parts of speech; None: the first topic measure's
    topic_report_contrast: tuple[tuple[str, str], ...] | None = None  # None: compare.pairs
    topic_report_top: int = 50
    topic_report_task_order: str = "natural"
    topic_report_variant: str | None = None   # the variant the report shows (None: the first)
    overwrite: bool = False                 # replace existing files rouge2 did not write

    def __init__(self, dir: Path, files: dict[str, Path | None] | None = None, console: bool = True,
                 rank_by: str | None = None, rank_by_score: str | None = None,
                 topic_report_topics: str | None = None,
                 topic_report_contrast: tuple[tuple[str, str], ...] | None = None,
                 topic_report_top: int = 50, topic_report_task_order: str = "natural",
                 topic_report_variant: str | None = None, overwrite: bool = False,
                 **paths: Path | None) -> None:
        unknown = sorted(set(paths) - set(OUTPUTS.names()))
        if unknown:
            raise TypeError(f"OutputsConfig: no output named {unknown[0]!r}")
        merged = {**(files or {}), **paths}
        for name, value in (("dir", dir), ("files", merged), ("console", console), ("rank_by", rank_by),
                            ("rank_by_score", rank_by_score), ("topic_report_topics", topic_report_topics),
                            ("topic_report_contrast", topic_report_contrast),
                            ("topic_report_top", topic_report_top),
                            ("topic_report_task_order", topic_report_task_order),
                            ("topic_report_variant", topic_report_variant), ("overwrite", overwrite)):
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        files = self.__dict__.get("files")
        if files is not None and (name in files or name in OUTPUTS):
            return files.get(name)
        raise AttributeError(name)

    @property
    def topic_report_csv(self) -> Path | None:
        """The CSV next to the topic report's HTML page."""
        html = self.files.get("topic_report")
        return None if html is None else html.with_suffix(".csv")


@dataclass(frozen=True)
class RunConfig:
    source: Path | None
    inputs: InputsConfig
    outputs: OutputsConfig
    name: str | None = None
    options: Options = field(default_factory=Options)
    measures: tuple[str, ...] = DEFAULT_MEASURES
    bootstrap: BootstrapConfig | None = None
    compare: CompareConfig | None = None
    #: named option sets scored side by side in one pass; empty: one unnamed set (``options``)
    variants: tuple[tuple[str, Options], ...] = ()
    compare_variants: tuple[tuple[str, str], ...] = ()
    meta_evaluation: Any = None  # rouge2.run.meta.MetaSpec

    @property
    def option_sets(self) -> tuple[tuple[str | None, Options], ...]:
        """``(variant name, options)`` of every set the run scores (``None``: no variants)."""
        return self.variants or ((None, self.options),)

    @property
    def aspects(self) -> bool:
        """Whether the run has an aspect lexicon (the ``aspects`` section): the
        per-aspect outputs exist for it."""
        return self.options.aspects != "none"

    @property
    def synonyms(self) -> bool:
        """Whether the run or one of its variants uses synonyms: the synonym
        outputs exist for it."""
        return any(o.synonyms for _, o in self.option_sets)
    #: ``file:line`` of keys checked after the inputs are read, such as
    #: ``compare.pairs[0]`` or ``outputs.topic_report.contrast[1]`` (messages only)
    locations: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def settings(self) -> dict[str, Any]:
        """Every setting that changes a number, as plain JSON data."""
        out: dict[str, Any] = {
            "inputs": {"format": self.inputs.format, "encoding": self.inputs.encoding},
            "options": self.options.settings(),
            "measures": list(self.measures),
            "bootstrap": None if self.bootstrap is None else {
                "resamples": self.bootstrap.resamples,
                "confidence": self.bootstrap.confidence,
                "seed": self.bootstrap.seed,
            },
            "compare": None if self.compare is None else {
                "pairs": "all" if self.compare.all_pairs else [list(pr) for pr in self.compare.pairs],
                "test": self.compare.test,
                "resamples": self.compare.resamples,
                "seed": self.compare.seed,
                **({"score": self.compare.score} if self.compare.score is not None else {}),
                **({"aspects": list(self.compare.aspects)} if self.compare.aspects is not None else {}),
            },
        }
        if self.variants:
            out["variants"] = {name: o.settings() for name, o in self.variants}
            out["compare_variants"] = [list(p) for p in self.compare_variants]
        return out


#: the default output folder (the files' default names are in the output catalogue)
OUTPUT_DIR_DEFAULT = "rouge2-results"
#: what ``outputs.rank_by_score`` accepts
RANK_SCORES = ("fmeasure", "recall", "precision")
#: what ``compare.score`` accepts (coverage: per aspect, runs with aspects)
COMPARE_SCORES = ("recall", "precision", "fmeasure", "coverage")
TOPIC_REPORT_DEFAULT = OUTPUTS.get("topic_report").default


# ---------------------------------------------------------------------------
# field kinds that need the config's folder


@dataclass
class PathKind(Kind):
    """A path, resolved from the config's folder."""

    what: str = "a path"

    def check(self, ctx, node, key):
        text = Text(self.what).check(ctx, node, key)
        if not text.strip():
            raise ctx.fail(node, f"{key}: expected {self.what}, got an empty value")
        return _path(ctx, node, key, text)


def _path(ctx, node, key, text) -> Path:
    """``ctx.path(text)``, its errors (a NUL character) naming the key and line."""
    try:
        return ctx.path(text)
    except UserError as exc:
        raise ctx.fail(node, f"{key}: {exc}") from None


@dataclass
class NameOrPath(Kind):
    """An option that takes a registered name or a file path (relative to the config)."""

    option: str = ""
    registry: Any = None
    what: str = ""

    def check(self, ctx, node, key):
        if is_bool(node) or is_null(node):
            value = ctx.value(node)
        else:
            text = Text(self.what).check(ctx, node, key)
            value = text
            if self.registry.find(text) is None:
                path = _path(ctx, node, key, text)
                if path.exists() or "/" in text or "\\" in text or Path(text).suffix:
                    value = str(path)  # a file, relative to the config's folder
        return Apply(lambda v: normalize(self.option, v), self.what).check_value(ctx, node, key, value)


@dataclass
class SynonymsKind(Kind):
    """``preprocess.synonyms``: false, true (WordNet), a source name or file path,
    inline groups, or a list mixing them."""

    what: str = ("false, true (WordNet), a synonym source name, a dictionary file path (one "
                 "comma-separated group a line), or a list of these and of inline groups such as "
                 "[screen, display]")

    def check(self, ctx, node, key):
        if is_bool(node) or is_null(node):
            items: Any = ctx.value(node)
        elif isinstance(node, yaml.SequenceNode):
            items = [self._item(ctx, item, key) for item in node.value]
        else:
            items = [self._item(ctx, node, key)]
        return Apply(lambda v: normalize("synonyms", v), self.what).check_value(ctx, node, key, items)

    def _item(self, ctx, node, key):
        if isinstance(node, yaml.SequenceNode):
            return tuple(ListOf(Text("a word")).check(ctx, node, f"{key} group"))
        text = Text(self.what).check(ctx, node, key)
        if "," in text and not Path(_path(ctx, node, key, text)).exists():
            return tuple(w.strip() for w in text.split(",") if w.strip())  # "screen, display"
        if SYNONYM_SOURCES.find(text) is not None:
            return text
        return str(_path(ctx, node, key, text))


@dataclass
class TaskPatternKind(Kind):
    """``inputs.task_pattern``: a regular expression with a named group ``task``."""

    what: str = "a regular expression with a named group 'task', such as '(?P<task>[^_]+_[^_]+)_'"

    def check(self, ctx, node, key):
        text = Text(self.what, allow_numbers=False).check(ctx, node, key)
        try:
            compile_task_pattern(text)
        except UserError as exc:
            raise ctx.fail(node, f"{key}: {exc}") from None
        return text


def _option(name: str, what: str) -> Apply:
    return Apply(lambda v: normalize(name, v), what)


# ---------------------------------------------------------------------------
# schemas, one per section

INPUTS = Section("inputs", {
    "format": Choice(INPUT_FORMATS.names),
    "path": PathKind("a path"),
    "encoding": Text("an encoding name such as utf-8"),
    "sentences": _option("sentences", "a sentence splitting name"),
    "columns": Node(),  # checked below: it depends on the format
    "task_pattern": TaskPatternKind(),
}, required=("format", "path"))

PREPROCESS = Section("preprocess", {
    "tokenizer": _option("tokenizer", "a tokenizer name"),
    "stem": _option("stem", "false, true or a stemmer name"),
    "stopwords": NameOrPath("stopwords", STOPWORDS, "false, true, a stopword list name or a file path"),
    "word_limit": _option("word_limit", "a whole number of words"),
    "byte_limit": _option("byte_limit", "a whole number of bytes"),
    "synonyms": SynonymsKind(),
    "synonym_lemmas": _option("synonym_lemmas", "true or false"),
    "tagger": _option("tagger", "a tagger name"),
    "topic_auxiliaries": _option("topic_auxiliaries", "true or false"),
    "topic_weights": _option("topic_weights", "none or idf"),
    "language": _option("language", "an ISO 639-1 language code such as zh or de"),
})

ASPECTS = Section("aspects", {
    "lexicon": Node(),  # a path (checked below)
    "format": Choice(("seeds", "yaml", "tsv")),
    "top": Int(minimum=0),
    "min_mentions": Int(minimum=1),
    "lemmas": Bool(),
    "synonyms": Bool(),
    "assign": Choice(ASSIGN),
}, required=("lexicon",))

COLUMNS = Section("inputs.columns", {
    "task": Text("a column name"),
    "system": Text("a column name"),
    "candidate": Text("a column name"),
    "references": ListOf(Text("a column name"), scalar_ok=True),
    "reference_names": Text("a field name"),
})

BOOTSTRAP = Section("bootstrap", {
    "resamples": Int(minimum=1, maximum=MAX_RESAMPLES),
    "confidence": Number(lambda v: 0.0 < v < 1.0, "a number between 0 and 1, such as 0.95"),
    "seed": Int(minimum=0),
})

COMPARE = Section("compare", {
    "pairs": Node(),  # checked below
    "test": Choice(TESTS),
    "resamples": Int(minimum=1, maximum=MAX_TEST_RESAMPLES),
    "seed": Int(minimum=0),
    "score": Choice(COMPARE_SCORES),
    "aspects": ListOf(Text("an aspect name"), scalar_ok=True),
})

def _outputs_section() -> Section:
    """The ``outputs`` keys: the output catalogue's files (read at each load,
    so an output registered later is a key too) and the settings."""
    return Section("outputs", {
        "dir": PathKind("a folder path"),
        **{e.name: Node() for e in OUTPUTS},
        "console": Bool(),
        "rank_by": Text("a measure of the run", allow_numbers=False),
        "rank_by_score": Choice(RANK_SCORES),
        "overwrite": Bool(),
    })

TOP = Section("config", {
    "version": Int(minimum=1, maximum=1),
    "name": Text("a name"),
    "inputs": Node(), "preprocess": Node(), "measures": Node(),
    "multi_reference": _option("multi_reference", "pooled, best, average or max-f"),
    "alpha": _option("alpha", "a number from 0 to 1 (0.5 = F1)"),
    "beta": Apply(alpha_from_beta, "a number >= 0 (1 = F1)"),
    "rounding": _option("rounding", "none or rouge155"),
    "bootstrap": Node(), "compare": Node(), "outputs": Node(),
    "variants": Node(), "compare_variants": Node(), "meta_evaluation": Node(),
    "aspects": Node(),
}, required=("inputs",))

#: what a variant may override
VARIANT_KEYS = ("preprocess", "multi_reference")

META = Section("meta_evaluation", {
    "judgments": PathKind("a judgments file"),
    "dimensions": ListOf(Text("a dimension name"), scalar_ok=True),
    "levels": ListOf(Choice(("system", "summary", "global")), scalar_ok=True),
    "scores": ListOf(Choice(("recall", "precision", "fmeasure")), scalar_ok=True),
    "measures": ListOf(Text("a measure name"), scalar_ok=True),
    "resampling": Choice(("systems", "tasks", "both")),
    "permutation": Choice(("systems", "tasks", "both")),
    "resamples": Int(minimum=1, maximum=MAX_RESAMPLES),
    "confidence": Number(lambda v: 0.0 < v < 1.0, "a number between 0 and 1, such as 0.95"),
    "seed": Int(minimum=0),
    "compare": Node(),
    "statistics": ListOf(Text("a statistic name"), scalar_ok=True),
    "test": Choice(("permutation", "williams")),
}, required=("judgments",))


# ---------------------------------------------------------------------------
# sections that need more than their schema


def _inputs(ctx: Ctx, node: yaml.Node) -> tuple[InputsConfig, str | None]:
    c = INPUTS.check(ctx, node)
    fmt, path = c.get("format"), c.get("path")
    pnode = c.value_node("path")
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
    elif not path.is_file():
        what = "is a folder, not a file" if path.is_dir() else (
            "is not a regular file" if path.exists() else "not found")
        raise ctx.fail(pnode, f"inputs.path: {fmt} file {what}: {path} "
                              f"(relative paths are resolved from the config's folder)")
    encoding = c.get("encoding", "utf-8")
    if "encoding" in c:
        encoding = check_encoding(encoding, ctx, c.value_node("encoding"), "inputs.encoding")
    columns = Columns()
    if "columns" in c:
        if fmt not in ("jsonl", "csv", "tsv", "summeval"):
            raise ctx.fail(c.key_node("columns"), f"inputs.columns: only used with the jsonl, csv, "
                                                  f"tsv and summeval formats, not with {fmt}")
        cc = COLUMNS.check(ctx, c.get("columns"))
        kw: dict[str, Any] = {k: cc.get(k) for k in ("task", "system", "candidate",
                                                     "reference_names") if k in cc}
        if "references" in cc:
            kw["references"] = tuple(cc.get("references"))
        columns = Columns(**kw)
        if fmt in ("jsonl", "summeval") and len(columns.references) != 1:
            raise ctx.fail(cc.node, "inputs.columns.references: JSONL rows keep their references in "
                                    "one field (a text or a list of texts); give one field name")
    if "task_pattern" in c and fmt != "java-project":
        raise ctx.fail(c.key_node("task_pattern"), f"inputs.task_pattern: only used with the "
                                                   f"java-project format, not with {fmt}")
    return InputsConfig(format=fmt, path=path, encoding=encoding, columns=columns,
                        task_pattern=c.get("task_pattern")), c.get("sentences")


def check_encoding(name: str, ctx: Ctx, node, key: str) -> str:
    try:
        return files.check_encoding(name)
    except UserError as exc:
        raise ctx.fail(node, f"{key}: {exc}") from None


def _measures(ctx: Ctx, node: yaml.Node) -> tuple[str, ...]:
    items = ListOf(Text("a measure name", allow_numbers=False), scalar_ok=True).check(
        ctx, node, "measures") if not (isinstance(node, yaml.SequenceNode) and not node.value) else []
    if not items:
        raise ctx.fail(node, f"measures: the list is empty; use one of: {measure_forms()}")
    nodes = node.value if isinstance(node, yaml.SequenceNode) else [node]
    seen: list[str] = []
    for item_node, text in zip(nodes, items):
        try:
            seen = canonical_measures([*seen, text])
        except UserError as exc:
            raise ctx.fail(item_node, f"measures: {exc}") from None
    return tuple(seen)


def _bootstrap(ctx: Ctx, node: yaml.Node) -> BootstrapConfig | None:
    if is_null(node):
        return None
    if is_bool(node):
        return BootstrapConfig() if ctx.value(node) else None
    c = BOOTSTRAP.check(ctx, node)
    return BootstrapConfig(**c.values)


def _system_pairs(ctx: Ctx, pnode: yaml.Node, key: str,
                  locations: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """A non-empty list of ``[systemA, systemB]`` pairs; ``locations`` gets
    ``"<key>[i]" -> "file:line"`` of each pair."""
    if not isinstance(pnode, yaml.SequenceNode) or not pnode.value:
        raise ctx.fail(pnode, f"{key}: expected a list of system pairs such as "
                              f"[[systemA, systemB]], got {show(pnode)}")
    pairs: list[tuple[str, str]] = []
    for item in pnode.value:
        names = ListOf(Text("a system name")).check(ctx, item, f"{key} item") \
            if isinstance(item, yaml.SequenceNode) else None
        if names is None or len(names) != 2:
            raise ctx.fail(item, f"{key}: each item must be a list of two system names, "
                                 "such as [systemA, systemB]")
        if names[0] == names[1]:
            raise ctx.fail(item, f"{key}: a system cannot be compared with itself ({names[0]!r})")
        if locations is not None:
            locations[f"{key}[{len(pairs)}]"] = ctx.loc(item)
        pairs.append((names[0], names[1]))
    return pairs


def _compare(ctx: Ctx, node: yaml.Node, locations: dict[str, str],
             aspects: tuple[str, ...] | None) -> CompareConfig | None:
    """``compare``: ``pairs`` (a list, or ``all``), ``test``, ``resamples``,
    ``seed``, ``score``, ``aspects``; ``aspects``: the aspects of the run's
    lexicon (None without one)."""
    if is_null(node):
        return None
    c = COMPARE.check(ctx, node)
    kw = {k: v for k, v in c.values.items() if k not in ("pairs", "aspects")}
    pnode = c.get("pairs")
    pairs: list[tuple[str, str]] = []
    if pnode is not None and is_text(pnode) and pnode.value.strip().lower() == "all":
        kw["all_pairs"] = True
    elif pnode is not None:
        pairs = _system_pairs(ctx, pnode, "compare.pairs", locations)
    if c.get("score") == "coverage" and aspects is None:
        raise ctx.fail(c.value_node("score"), "compare.score: coverage is the per-aspect coverage; "
                                              "add an 'aspects' section (a lexicon), or test recall, "
                                              "precision or fmeasure")
    if "aspects" in c:
        kw["aspects"] = _compare_aspects(ctx, c, aspects, locations)
    return CompareConfig(pairs=tuple(pairs), **kw)


def _compare_aspects(ctx: Ctx, c: Checked, aspects: tuple[str, ...] | None,
                     locations: dict[str, str]) -> tuple[str, ...]:
    """``compare.aspects``: each an aspect of the run's lexicon."""
    vnode = c.value_node("aspects")
    if aspects is None:
        raise ctx.fail(vnode, "compare.aspects: the config has no 'aspects' section")
    for name in c.get("aspects"):
        if name not in aspects:
            raise ctx.fail(vnode, f"compare.aspects: no aspect named {name!r} in the lexicon"
                                  f"{suggest(name, aspects)}; aspects: {', '.join(aspects)}")
    locations["compare.aspects"] = ctx.loc(vnode)
    return tuple(dict.fromkeys(c.get("aspects")))


def _aspects(ctx: Ctx, node: yaml.Node) -> dict[str, Any]:
    """``aspects``: a lexicon path, or ``{lexicon, format, top, min_mentions,
    lemmas, synonyms, assign}``; the options it sets."""
    if is_null(node):
        return {}
    if not isinstance(node, yaml.MappingNode):
        return {"aspects": _lexicon(ctx, node, "aspects", None)}
    c = ASPECTS.check(ctx, node)
    values = {"aspects": _lexicon(ctx, c.get("lexicon"), "aspects.lexicon", c.get("format"))}
    for key, option in (("top", "aspect_top"), ("min_mentions", "aspect_min_mentions"),
                        ("lemmas", "aspect_lemmas"), ("synonyms", "aspect_synonyms"),
                        ("assign", "aspect_assign")):
        if key in c:
            values[option] = c.get(key)
    return values


def _lexicon(ctx: Ctx, node: yaml.Node, key: str, fmt: str | None) -> Any:
    """An aspect lexicon: a shipped one by name, or a path (relative to the
    config's folder), read now: a mistake in the lexicon is reported before
    any text is read."""
    text = Text("a lexicon: space, or a path (a folder of <aspect>.txt files, a .yaml or a .tsv file)"
                ).check(ctx, node, key)
    if fmt is None and LEXICON_FORMATS.find(text) is not None and ":" not in text:
        value = text  # a shipped lexicon (space)
    else:
        path = _path(ctx, node, key, text)
        value = f"{fmt}:{path}" if fmt else str(path)
    try:
        canonical = normalize("aspects", value)
        load_lexicon(canonical)
    except UserError as exc:
        raise ctx.fail(node, f"{key}: {str(exc).removeprefix('aspects: ')}") from None
    return canonical


def _output_file(ctx: Ctx, node: yaml.Node, key: str, out_dir: Path, default: str) -> Path | None:
    if is_null(node) or (is_bool(node) and not ctx.value(node)):
        return None
    if is_bool(node):
        return out_dir / default
    text = Text("a file name, true or false").check(ctx, node, key)
    if not text.strip():
        raise ctx.fail(node, f"{key}: expected a file name, got an empty value")
    if "\x00" in text:
        raise ctx.fail(node, f"{key}: a file name cannot contain a NUL character")
    p = Path(text).expanduser()
    return p if p.is_absolute() else out_dir / p


TOPIC_REPORT = Section("outputs.topic_report", {
    "file": Node(), "topics": Node(), "variant": Text("a variant name"),
    "contrast": Node(),
    "top": Int(minimum=1, maximum=100_000),
    "task_order": Choice(("natural", "input", "lexical")),
})


def _topic_report(ctx: Ctx, node: yaml.Node, out_dir: Path, measures: tuple[str, ...],
                  locations: dict[str, str]) -> tuple[Path | None, str | None, dict[str, Any]]:
    """``outputs.topic_report``: false/null, true, a file name, or a mapping
    ``{file, topics, contrast, top, task_order}``."""
    extra: dict[str, Any] = {}
    if is_null(node) or (is_bool(node) and not ctx.value(node)):
        return None, None, extra
    base: Path | None = out_dir / TOPIC_REPORT_DEFAULT
    topics: str | None = None
    if is_bool(node):
        pass
    elif isinstance(node, yaml.MappingNode):
        checked = TOPIC_REPORT.check(ctx, node)
        m = checked.nodes
        if "top" in checked:
            extra["topic_report_top"] = checked.get("top")
        if "task_order" in checked:
            extra["topic_report_task_order"] = checked.get("task_order")
        if "variant" in checked:
            extra["topic_report_variant"] = checked.get("variant")
            locations["outputs.topic_report.variant"] = ctx.loc(checked.value_node("variant"))
        if "contrast" in checked:
            extra["topic_report_contrast"] = tuple(_system_pairs(ctx, checked.get("contrast"),
                                                                 "outputs.topic_report.contrast",
                                                                 locations))
        if "file" in m:
            base = _output_file(ctx, m["file"][1], "outputs.topic_report.file", out_dir,
                                TOPIC_REPORT_DEFAULT)
        if "topics" in m:
            tnode = m["topics"][1]
            spec = Text("parts of speech such as nn|jj").check(ctx, tnode, "outputs.topic_report.topics")
            try:
                topics = str(TopicSelector.parse(spec)).lower()
            except UserError as exc:
                raise ctx.fail(tnode, f"outputs.topic_report.topics: {exc}") from None
    else:
        base = _output_file(ctx, node, "outputs.topic_report", out_dir, TOPIC_REPORT_DEFAULT)
    if base is not None and base.suffix.lower() in (".html", ".htm", ".csv"):
        base = base.with_suffix("")
    if topics is None and not any(MEASURES.capability(m, "topic_tags") for m in measures):
        raise ctx.fail(node, "outputs.topic_report: the run has no topic measure to take the parts "
                             "of speech from; add one (e.g. \"rouge-topic-nn|jj\") or write "
                             "topic_report: {topics: nn|jj}")
    return base, topics, extra


def _rank_by(ctx: Ctx, c: Checked, measures: tuple[str, ...]) -> str | None:
    """``outputs.rank_by``: one of the run's measures, by any of its names."""
    if "rank_by" not in c:
        return None
    text, node = c.get("rank_by"), c.value_node("rank_by")
    try:
        (name,) = canonical_measures([text])
    except UserError as exc:
        raise ctx.fail(node, f"outputs.rank_by: {exc}") from None
    if name not in measures:
        raise ctx.fail(node, f"outputs.rank_by: {text!r} is not a measure of this run"
                             f"{suggest(name, measures)}; measures: {', '.join(measures)}")
    return name


def _outputs(ctx: Ctx, node: yaml.Node | None, measures: tuple[str, ...],
             locations: dict[str, str], present: frozenset[str] = frozenset()) -> OutputsConfig:
    """``present``: the top-level sections the config has (conditional outputs need theirs)."""
    c = _outputs_section().check(ctx, node)
    out_dir = c.get("dir") if "dir" in c else ctx.base / OUTPUT_DIR_DEFAULT
    if out_dir.exists() and not out_dir.is_dir():
        raise ctx.fail(c.value_node("dir"), f"outputs.dir: {out_dir} is a file, not a folder")
    files: dict[str, Path | None] = {}
    for entry in OUTPUTS:
        key, spec = entry.name, entry.value
        if not spec.generic:
            continue
        if spec.needs is not None and spec.needs not in present:
            if key in c and not (is_null(c.get(key)) or is_bool(c.get(key))):
                what = "synonyms (preprocess.synonyms, here or in a variant)" if spec.needs == "synonyms" \
                    else f"'{spec.needs}' section"
                raise ctx.fail(c.value_node(key), f"outputs.{key}: the config has no {what} to write it for")
            files[key] = None
        elif key in c:
            files[key] = _output_file(ctx, c.get(key), f"outputs.{key}", out_dir, spec.default)
        else:
            files[key] = out_dir / spec.default
    topics = None
    extra: dict[str, Any] = {}
    files["topic_report"] = None
    if "topic_report" in c:
        base, topics, extra = _topic_report(ctx, c.get("topic_report"), out_dir, measures, locations)
        if base is not None:
            files["topic_report"] = base.with_name(base.name + ".html")
    _distinct_files(ctx, c, files)
    return OutputsConfig(dir=out_dir, files=files, console=c.get("console", True), topic_report_topics=topics,
                         overwrite=c.get("overwrite", False), rank_by=_rank_by(ctx, c, measures),
                         rank_by_score=c.get("rank_by_score"), **extra)


def _distinct_files(ctx: Ctx, c: Checked, files: dict[str, Path | None]) -> None:
    """No two outputs write one file (the topic report's files included)."""
    seen: dict[Path, str] = {}
    named = dict(files)
    if files["topic_report"] is not None:
        named["topic_report_csv"] = files["topic_report"].with_suffix(".csv")
    for key, p in named.items():
        if p is None:
            continue
        name = "topic_report" if key == "topic_report_csv" else key
        if p in seen:
            raise ctx.fail(c.value_node(name), f"outputs.{name}: writes to the same file as "
                                               f"outputs.{seen[p]}: {p}")
        seen[p] = name
    if files["topic_report"] is not None:
        for kind, p in report_paths(files["topic_report"]).items():
            if kind != "html" and p in seen:
                raise ctx.fail(c.value_node(seen[p]), f"outputs.{seen[p]}: writes to {p}, which the "
                                                      f"topic report also writes ({kind})")


def _language_values(ctx: Ctx, pre: Checked) -> dict[str, Any]:
    """``preprocess`` values with the ``language`` preset filled in (``stem: true`` and
    ``stopwords: true`` mean the preset's stemmer and list)."""
    values: dict[str, Any] = dict(pre.values)
    if values.get("language", "none") == "none":
        return values
    switched_on = {k for k in ("stem", "stopwords") if k in pre and ctx.value(pre.value_node(k)) is True}
    given = {k: v for k, v in values.items() if k != "language" and k not in switched_on}
    try:
        return {**apply_preset(values["language"], given, switched_on), "language": values["language"]}
    except UserError as exc:
        raise ctx.fail(pre.value_node("stopwords"), f"preprocess.{exc}") from None


def _options(ctx: Ctx, top: Checked, pre: Checked, sentences: str | None,
             aspects: dict[str, Any]) -> Options:
    values: dict[str, Any] = {**_language_values(ctx, pre), **aspects}
    if sentences is not None:
        values["sentences"] = sentences
    for key in ("multi_reference", "rounding"):
        if key in top:
            values[key] = top.get(key)
    if "alpha" in top and "beta" in top:
        raise ctx.fail(top.key_node("beta"), "give alpha or beta, not both (alpha = 1 / (1 + beta^2))")
    if "alpha" in top:
        values["alpha"] = top.get("alpha")
    if "beta" in top:
        values["alpha"] = top.get("beta")  # already turned into alpha
    options = replace(Options(), **values)
    try:
        options.check()
    except UserError as exc:
        raise ctx.fail(pre.key_node("byte_limit"), f"preprocess: {exc}") from None
    return options


# ---------------------------------------------------------------------------
# entry points


def _variants(ctx: Ctx, node: yaml.Node, base: Options, base_pre: Checked,
              sentences: str | None, top: Checked, aspects: dict[str, Any]) -> tuple[tuple[str, Options], ...]:
    """``variants: {name: {preprocess: {...}, multi_reference: ...}}``: each a copy of the
    run's options with those overrides."""
    if is_null(node):
        return ()
    if not isinstance(node, yaml.MappingNode) or not node.value:
        raise ctx.fail(node, f"variants: expected a mapping of variant names to overrides such as "
                             f"{{plain: {{}}, wordnet: {{preprocess: {{synonyms: true}}}}}}, got {show(node)}")
    if len(node.value) > MAX_VARIANTS:
        raise ctx.fail(node, f"variants: {len(node.value):,} variants, more than the {MAX_VARIANTS:,} "
                             f"one run scores (each is a full pass over the inputs); split the grid "
                             f"into several runs")
    out: list[tuple[str, Options]] = []
    names: set[str] = set()
    for knode, vnode in node.value:
        name = Text("a variant name", allow_numbers=True).check(ctx, knode, "variants")
        if not name.strip() or any(c in name for c in "@/|,\n"):
            raise ctx.fail(knode, f"variants: {name!r} is not a usable variant name (no @ / | , allowed)")
        if name in names:
            raise ctx.fail(knode, f"variants: {name!r} is given twice")
        values: dict[str, Any] = {**_language_values(ctx, base_pre), **aspects}
        if sentences is not None:
            values["sentences"] = sentences
        for key in ("multi_reference", "rounding", "alpha"):
            if key in top:
                values[key] = top.get(key)
        if "beta" in top:
            values["alpha"] = top.get("beta")
        if not is_null(vnode):
            m = mapping(ctx, vnode, f"variants.{name}", VARIANT_KEYS)
            if "preprocess" in m:
                pre = Section(f"variants.{name}.preprocess", PREPROCESS.fields).check(ctx, m["preprocess"][1])
                values.update(_language_values(ctx, pre))
            if "multi_reference" in m:
                values["multi_reference"] = _option("multi_reference", "pooled, best, average or max-f") \
                    .check(ctx, m["multi_reference"][1], f"variants.{name}.multi_reference")
        options = replace(Options(), **values)
        try:
            options.check()
        except UserError as exc:
            raise ctx.fail(vnode, f"variants.{name}: {exc}") from None
        out.append((name, options))
        names.add(name)
    return tuple(out)


def _check_report_variant(outputs: OutputsConfig, variants: tuple[tuple[str, Options], ...],
                          locations: dict[str, str]) -> None:
    """``outputs.topic_report.variant`` names one of the run's variants."""
    name = outputs.topic_report_variant
    if name is None:
        return
    names = [n for n, _ in variants]
    if name not in names:
        where = locations.get("outputs.topic_report.variant", "")
        raise UserError(f"{where}: outputs.topic_report.variant: no variant named {name!r}"
                        f"{suggest(name, names)}; variants: {', '.join(names) or 'none (add a variants section)'}")


def _variant_pairs(ctx: Ctx, node: yaml.Node, variants: tuple[tuple[str, Options], ...],
                   key: str) -> tuple[tuple[str, str], ...]:
    names = [n for n, _ in variants]
    pairs = _system_pairs(ctx, node, key)
    for (a, b), item in zip(pairs, node.value):
        for n in (a, b):
            if n not in names:
                raise ctx.fail(item, f"{key}: no variant named {n!r}{suggest(n, names)}; "
                                     f"variants: {', '.join(names) or 'none (add a variants section)'}")
    return tuple(pairs)


def _meta_measures(ctx: Ctx, c: Checked, measures: tuple[str, ...]) -> tuple[str, ...]:
    """``meta_evaluation.measures``: some of the run's measures, by any of their names."""
    try:
        chosen = tuple(canonical_measures(c.get("measures")))
    except UserError as exc:
        raise ctx.fail(c.value_node("measures"), f"meta_evaluation.measures: {exc}") from None
    for m in chosen:
        if m not in measures:
            raise ctx.fail(c.value_node("measures"), f"meta_evaluation.measures: {m!r} is not among "
                                                     f"the run's measures: {', '.join(measures)}")
    return chosen


def _meta_metric(ctx: Ctx, item: yaml.Node, text: str, measures: tuple[str, ...], names: list[str]) -> Metric:
    """One side of a ``meta_evaluation.compare`` pair: a metric of this run (and variant)."""
    try:
        m = Metric.parse(text)
    except UserError as exc:
        raise ctx.fail(item, f"meta_evaluation.compare: {exc}") from None
    if m.measure not in measures:
        raise ctx.fail(item, f"meta_evaluation.compare: {m}: {m.measure!r} is not among the "
                             f"run's measures: {', '.join(measures)}")
    if (m.variant is None) != (not names) or (m.variant is not None and m.variant not in names):
        raise ctx.fail(item, f"meta_evaluation.compare: {m}: name a variant with @ "
                             f"({', '.join(names)})" if names else
                             f"meta_evaluation.compare: {m}: the run has no variants")
    return m


def _meta_compare(ctx: Ctx, c: Checked, measures: tuple[str, ...], names: list[str],
                  compare_variants: tuple[tuple[str, str], ...]) -> tuple:
    """``meta_evaluation.compare``; by default each compared pair of variants, every measure, on
    the measure's default score (F for N/L/W/S, recall for Topic/TopicUniq/Aspect)."""
    if "compare" in c:
        cnode = c.get("compare")
        raw = _system_pairs(ctx, cnode, "meta_evaluation.compare")
        return tuple((_meta_metric(ctx, item, a, measures, names), _meta_metric(ctx, item, b, measures, names))
                     for (a, b), item in zip(raw, cnode.value))
    return tuple((Metric(m, default_score(m), a), Metric(m, default_score(m), b))
                 for a, b in compare_variants for m in measures)


def _meta_statistics(ctx: Ctx, c: Any) -> dict[str, Any]:
    """``statistics:`` resolved through the STATISTICS registry (did-you-mean on a typo)."""
    if "statistics" not in c:
        return {}
    try:
        return {"statistics": tuple(dict.fromkeys(STATISTICS.canonical(n) for n in c.get("statistics")))}
    except UserError as exc:
        raise ctx.fail(c.value_node("statistics"), f"meta_evaluation.statistics: {exc}") from None


def _meta(ctx: Ctx, node: yaml.Node, variants: tuple[tuple[str, Options], ...],
          measures: tuple[str, ...], compare_variants: tuple[tuple[str, str], ...]):
    if is_null(node):
        return None
    c = META.check(ctx, node)
    path = c.get("judgments")
    if not path.is_file():
        raise ctx.fail(c.value_node("judgments"), f"meta_evaluation.judgments: file not found: {path} "
                                                  f"(relative paths are resolved from the config's folder)")
    kw: dict[str, Any] = {"judgments": path}
    for key in ("dimensions", "levels", "scores"):
        if key in c:
            kw[key] = tuple(dict.fromkeys(c.get(key)))
    if "measures" in c:
        kw["measures"] = _meta_measures(ctx, c, measures)
    for key in ("resampling", "permutation", "resamples", "confidence", "seed", "test"):
        if key in c:
            kw[key] = c.get(key)
    kw.update(_meta_statistics(ctx, c))
    kw["compare"] = _meta_compare(ctx, c, kw.get("measures", measures), [n for n, _ in variants],
                                  compare_variants)
    return MetaSpec(**kw)


def parse_config(text: str, source: str | Path | None = None,
                 base: str | Path | None = None) -> RunConfig:
    """Validate config ``text``; ``source`` names it in messages, ``base`` resolves paths."""
    file = str(source) if source is not None else "<config>"
    base_dir = Path(base) if base is not None else (
        Path(source).resolve().parent if source is not None else Path.cwd())
    ctx = Ctx(file, base_dir)
    root = compose(text, file)
    if root is None:
        raise UserError(f"{file}: the config is empty; it needs at least 'inputs' (format and path)")
    top = TOP.check(ctx, root)
    inputs, sentences = _inputs(ctx, top.get("inputs"))
    pre = PREPROCESS.check(ctx, top.get("preprocess"))
    aspects = _aspects(ctx, top.get("aspects")) if "aspects" in top else {}
    options = _options(ctx, top, pre, sentences, aspects)
    measures = _measures(ctx, top.get("measures")) if "measures" in top else DEFAULT_MEASURES
    if not aspects and any("aspects" in MEASURES.capability(m, "options", ()) for m in measures):
        raise ctx.fail(top.value_node("measures"), "measures: rouge-aspect needs an aspect lexicon: "
                                                   "add 'aspects: PATH' or 'aspects: space' (docs/aspects.md)")
    bootstrap = _bootstrap(ctx, top.get("bootstrap")) if "bootstrap" in top else None
    locations: dict[str, str] = {}
    lexicon = load_lexicon(aspects["aspects"]) if aspects else None
    names = lexicon.aspects if lexicon is not None else None
    compare = _compare(ctx, top.get("compare"), locations, names) if "compare" in top else None
    variants = _variants(ctx, top.get("variants"), options, pre, sentences, top, aspects) \
        if "variants" in top else ()
    synonyms = any(o.synonyms for _, o in (variants or (("", options),)))
    outputs = _outputs(ctx, top.get("outputs"), measures, locations,
                       frozenset(k for k in ("variants", "meta_evaluation", "aspects") if k in top and
                                 (k != "aspects" or aspects)) | ({"synonyms"} if synonyms else set()))
    _check_report_variant(outputs, variants, locations)
    compare_variants: tuple[tuple[str, str], ...] = ()
    if "compare_variants" in top:
        compare_variants = _variant_pairs(ctx, top.get("compare_variants"), variants, "compare_variants")
    meta = _meta(ctx, top.get("meta_evaluation"), variants, measures, compare_variants) \
        if "meta_evaluation" in top else None
    return RunConfig(
        source=Path(source).resolve() if source is not None else None,
        name=top.get("name"), inputs=inputs, options=options, measures=measures,
        bootstrap=bootstrap, compare=compare, outputs=outputs, variants=variants,
        compare_variants=compare_variants, meta_evaluation=meta, locations=locations,
    )


def load_config(path: str | Path) -> RunConfig:
    """Read and validate the YAML config at ``path``."""
    p = Path(path)
    text = read_config_text(p)
    return parse_config(text, source=p, base=p.resolve().parent)
