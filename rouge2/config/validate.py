"""A small validator for YAML configuration files: every mistake is one line.

The YAML text is first read as a stream of events (no recursion, no object
construction) to refuse what no rouge2 config needs and what a hostile file
uses to blow up a parser: nesting deeper than :data:`MAX_DEPTH` and aliases
(``*name``), which let a few kilobytes expand into gigabytes.  Then it is
composed into nodes that keep their line numbers, and each section is
checked against a schema made of the field kinds below.  Every error names
the file, the line and the key, and says what is allowed::

    run.yaml:7: preprocess.stem: unknown stemmer 'porter2' (did you mean ...); use one of: ...
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rouge2.errors import UserError
from rouge2.files import read_bytes
from rouge2.registry import suggest

#: deepest nesting of lists and mappings accepted (rouge2 configs need 4)
MAX_DEPTH = 32
#: largest config file accepted, in bytes
MAX_BYTES = 1 << 20

STR = "tag:yaml.org,2002:str"
INT = "tag:yaml.org,2002:int"
FLOAT = "tag:yaml.org,2002:float"
BOOL = "tag:yaml.org,2002:bool"
NULL = "tag:yaml.org,2002:null"

_KIND = {STR: "text", INT: "a whole number", FLOAT: "a number", BOOL: "true/false",
         NULL: "nothing (null)"}


# ---------------------------------------------------------------------------
# reading


def compose(text: str, file: str) -> yaml.Node | None:
    """The node tree of ``text``, after the safety checks above."""
    if len(text) > MAX_BYTES:
        raise UserError(f"{file}: the config is {len(text):,} characters long; a rouge2 config is "
                        f"a few kilobytes (at most {MAX_BYTES:,}): check that this is the right file")
    if text.startswith("\ufeff"):
        text = text[1:]
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise UserError(f"{file}:{event.start_mark.line + 1}: lists and mappings are "
                                    f"nested more than {MAX_DEPTH} deep; a rouge2 config needs a few "
                                    f"levels (rouge2 docs config)")
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            elif isinstance(event, yaml.AliasEvent):
                raise UserError(f"{file}:{event.start_mark.line + 1}: YAML aliases (*{event.anchor}) "
                                f"are not accepted in rouge2 configs; write the value out")
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = exc.problem or exc.context or "cannot be parsed"
        raise UserError(f"{file}{line}: malformed YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise UserError(f"{file}: malformed YAML: {str(exc).splitlines()[0]}") from None


def read_config_text(path: Path) -> str:
    """The text of config file ``path`` (UTF-8, BOM allowed); one-line errors."""
    if not path.exists():
        raise UserError(f"config file not found: {path}")
    raw = read_bytes(path, "YAML config file", limit=MAX_BYTES)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise UserError(f"{path}:{line}: the config is not valid UTF-8 "
                        f"(byte 0x{raw[exc.start]:02x}); save it as UTF-8") from None


# ---------------------------------------------------------------------------
# context


class Ctx:
    """Where a config comes from: file name for messages, folder for relative paths."""

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
        try:
            return self._loader.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            raise self.fail(node, f"cannot read this value: {str(exc).splitlines()[0]}") from None
        except ValueError as exc:  # e.g. an integer of more than 4,300 digits
            reason = str(exc).split(":")[0].split(";")[0]
            raise self.fail(node, f"cannot read this value ({reason})") from None

    def path(self, text: str) -> Path:
        """``text`` as a path, relative ones resolved from the config's folder."""
        if "\x00" in text:
            raise UserError("a path cannot contain a NUL character")
        p = Path(text).expanduser()
        if not p.is_absolute():
            p = self.base / p
        return Path(os.path.normpath(p))


def kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    return _KIND.get(node.tag, node.tag)


def show(node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode):
        return f"{node.value!r} ({kind(node)})"
    return kind(node)


def is_null(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == NULL


def is_bool(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == BOOL


def is_text(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == STR


# ---------------------------------------------------------------------------
# field kinds: each turns a node into a value or raises a one-line error


class Kind:
    """A kind of value; ``check`` returns the value or raises ``ctx.fail``."""

    what = "a value"

    def check(self, ctx: Ctx, node: yaml.Node, key: str) -> Any:  # pragma: no cover
        raise NotImplementedError


@dataclass
class Text(Kind):
    what: str = "text"
    allow_numbers: bool = True

    def check(self, ctx, node, key):
        tags = (STR, INT, FLOAT) if self.allow_numbers else (STR,)
        if not isinstance(node, yaml.ScalarNode) or node.tag not in tags:
            raise ctx.fail(node, f"{key}: expected {self.what}, got {show(node)}")
        return str(node.value)


@dataclass
class Bool(Kind):
    what: str = "true or false"

    def check(self, ctx, node, key):
        if not is_bool(node):
            raise ctx.fail(node, f"{key}: expected true or false, got {show(node)}")
        return bool(ctx.value(node))


@dataclass
class Int(Kind):
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    what: str = field(init=False, default="a whole number")

    def __post_init__(self) -> None:
        w = "a whole number"
        if self.minimum is not None and self.maximum is not None:
            w += f" from {self.minimum} to {self.maximum}"
        elif self.minimum is not None:
            w += f" >= {self.minimum}"
        self.what = w + (" or null" if self.nullable else "")

    def check(self, ctx, node, key):
        if self.nullable and is_null(node):
            return None
        if not isinstance(node, yaml.ScalarNode) or node.tag != INT:
            raise ctx.fail(node, f"{key}: expected {self.what}, got {show(node)}")
        value = int(ctx.value(node))
        if (self.minimum is not None and value < self.minimum) or \
                (self.maximum is not None and value > self.maximum):
            raise ctx.fail(node, f"{key}: expected {self.what}, got {value}")
        return value


@dataclass
class Number(Kind):
    test: Callable[[float], bool] = lambda v: True
    what: str = "a number"

    def check(self, ctx, node, key):
        if not isinstance(node, yaml.ScalarNode) or node.tag not in (INT, FLOAT):
            raise ctx.fail(node, f"{key}: expected {self.what}, got {show(node)}")
        value = float(ctx.value(node))
        if not math.isfinite(value) or not self.test(value):
            raise ctx.fail(node, f"{key}: expected {self.what}, got {node.value}")
        return value


@dataclass
class Choice(Kind):
    #: the allowed values, or a function giving them when a value is checked
    #: (a registry's ``names``: components registered after import count too)
    choices: Sequence[str] | Callable[[], Sequence[str]] = ()

    def check(self, ctx, node, key):
        choices = self.choices() if callable(self.choices) else self.choices
        allowed = "allowed values: " + ", ".join(choices)
        if not is_text(node):
            raise ctx.fail(node, f"{key}: expected one of the allowed values, got {show(node)}; {allowed}")
        value = node.value.strip()
        low = value.lower()
        if low in choices:
            return low
        raise ctx.fail(node, f"{key}: {value!r} is not allowed{suggest(value, choices)}; {allowed}")


@dataclass
class Apply(Kind):
    """A value handed to ``convert`` (e.g. a library option normaliser), whose
    :class:`UserError` is reported at the node."""

    convert: Callable[[Any], Any] = lambda v: v
    what: str = "a value"
    scalar: bool = True

    def check(self, ctx, node, key):
        if self.scalar and not isinstance(node, yaml.ScalarNode):
            raise ctx.fail(node, f"{key}: expected {self.what}, got {show(node)}")
        return self.check_value(ctx, node, key, ctx.value(node))

    def check_value(self, ctx: Ctx, node: yaml.Node, key: str, value: Any) -> Any:
        """``convert(value)``, its error reported at ``node`` under ``key``."""
        try:
            return self.convert(value)
        except UserError as exc:
            msg = str(exc)
            prefix = key.rsplit(".", 1)[-1] + ": "
            if msg.startswith(prefix):
                msg = msg[len(prefix):]
            raise ctx.fail(node, f"{key}: {msg}") from None


class Node(Kind):
    """The node itself, for sections checked by code of their own."""

    def check(self, ctx, node, key):
        return node


@dataclass
class ListOf(Kind):
    item: Kind = field(default_factory=Text)
    nonempty: bool = True
    scalar_ok: bool = False  # a single item may be written without brackets

    def check(self, ctx, node, key):
        if self.scalar_ok and isinstance(node, yaml.ScalarNode) and not is_null(node):
            return [self.item.check(ctx, node, key)]
        if not isinstance(node, yaml.SequenceNode):
            raise ctx.fail(node, f"{key}: expected a list, got {show(node)}")
        if self.nonempty and not node.value:
            raise ctx.fail(node, f"{key}: the list is empty")
        return [self.item.check(ctx, item, f"{key} item") for item in node.value]


def mapping(ctx: Ctx, node: yaml.Node, where: str, allowed: Iterable[str],
            required: Iterable[str] = ()) -> dict[str, tuple[yaml.Node, yaml.Node]]:
    """``key -> (key node, value node)`` of a mapping with only ``allowed`` keys."""
    allowed = list(allowed)
    what = "the config" if where == "config" else f"'{where}'"
    if not isinstance(node, yaml.MappingNode):
        raise ctx.fail(node, f"{what} must be a mapping (key: value lines), got {show(node)}; "
                             f"allowed keys: {', '.join(allowed)}")
    out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for knode, vnode in node.value:
        if not is_text(knode):
            raise ctx.fail(knode, f"keys in {what} must be text, got {show(knode)}; "
                                  f"allowed keys: {', '.join(allowed)}")
        key = knode.value
        if key == "<<":
            raise ctx.fail(knode, "YAML merge keys (<<) are not accepted in rouge2 configs; "
                                  "write the keys out")
        if key not in allowed:
            scope = f" in '{where}'" if where != "config" else ""
            raise ctx.fail(knode, f"unknown key '{key}'{scope}{suggest(key, allowed)}; "
                                  f"allowed keys: {', '.join(allowed)}")
        if key in out:
            raise ctx.fail(knode, f"key '{key}' appears twice in {what} "
                                  f"(first at line {out[key][0].start_mark.line + 1})")
        out[key] = (knode, vnode)
    for key in required:
        if key not in out:
            raise ctx.fail(node, f"{what} is missing the required key '{key}'")
    return out


@dataclass
class Section:
    """A mapping section: its fields (key -> kind) and required keys."""

    name: str
    fields: dict[str, Kind]
    required: tuple[str, ...] = ()

    def check(self, ctx: Ctx, node: yaml.Node | None) -> Checked:
        if node is None or is_null(node):
            if self.required:
                raise ctx.fail(node, f"'{self.name}' is missing the required key '{self.required[0]}'")
            return Checked(self.name, {}, {}, node)
        m = mapping(ctx, node, self.name, self.fields, self.required)
        values = {}
        for key, (_, vnode) in m.items():
            values[key] = self.fields[key].check(ctx, vnode, f"{self.name}.{key}"
                                                 if self.name != "config" else key)
        return Checked(self.name, values, m, node)


@dataclass
class Checked:
    """A checked section: values by key, and the nodes for later messages."""

    name: str
    values: dict[str, Any]
    nodes: dict[str, tuple[yaml.Node, yaml.Node]]
    node: yaml.Node | None

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def __contains__(self, key: str) -> bool:
        return key in self.values

    def key_node(self, key: str) -> yaml.Node | None:
        return self.nodes[key][0] if key in self.nodes else self.node

    def value_node(self, key: str) -> yaml.Node | None:
        return self.nodes[key][1] if key in self.nodes else self.node
