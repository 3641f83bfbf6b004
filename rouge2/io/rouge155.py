"""The ROUGE-1.5.5 settings file (XML) and the ``-z`` file list.

The XML is walked the way the script's ``readEvals`` walks it: ``EVAL``
elements anywhere in the document (element names case-insensitive), and
inside them ``PEER-ROOT``, ``MODEL-ROOT``, ``INPUT-FORMAT TYPE=...``,
``PEERS/P ID=...`` and ``MODELS/M ID=...`` at any depth.  Evaluations keep
the order in which their IDs first appear; a repeated ``M`` ID is listed
again (and then scored twice with the file given last), as in the script.

The file is untrusted input: it is checked first with a streaming (expat)
pass that refuses a document type declaration with an internal subset or an
external identifier (so no entity is ever declared: no external entity can
read a local file, no "billion laughs" can expand) and elements nested more
than :data:`MAX_XML_DEPTH` deep; the tree is then walked without recursion.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import cast
from xml.dom import Node, minidom
from xml.parsers import expat
from xml.parsers.expat import ExpatError

from rouge2.errors import UserError
from rouge2.files import read_bytes

# A settings file nests 3-4 levels (ROUGE-EVAL/EVAL/PEERS/P); 64 leaves room
# for any wrapper and stops a hostile file long before anything runs deep.
MAX_XML_DEPTH = 64

KNOWN_FORMATS = re.compile(r"^(SEE|ISI|SPL|SIMPLE)$", re.IGNORECASE)
# Perl's \s on character strings (Unicode whitespace), plus \n
_TRIM_CHARS = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
               "\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def _trim(s: str) -> str:
    return s.strip(_TRIM_CHARS)


@dataclass
class Evaluation:
    """One ``EVAL``: its peers (ID -> file) and models (IDs in order, ID -> file)."""

    id: str
    peer_root: str | None = None
    model_root: str | None = None
    input_format: str | None = None
    peers: dict[str, str] = field(default_factory=dict)
    model_ids: list[str] = field(default_factory=list)
    models: dict[str, str] = field(default_factory=dict)


@dataclass
class Settings:
    evaluations: list[Evaluation]          # in first-seen order
    peer_ids: list[str]                    # every peer ID, in first-seen order
    base_dir: str                          # folder of the settings file
    file_list: bool = False                # read with -z

    def peer_path(self, ev: Evaluation, peer_id: str) -> str:
        """The script's peer path string (before resolution)."""
        name = ev.peers[peer_id]
        if self.file_list:
            return name
        return f"{ev.peer_root or ''}/{name}"

    def model_paths(self, ev: Evaluation) -> list[str]:
        out = []
        for mid in ev.model_ids:
            name = ev.models.get(mid, "")
            if self.file_list:
                out.append(name)
            else:
                out.append(f"{ev.model_root or ''}/{name}")
        return out

    def resolve(self, path: str) -> str | None:
        """The file to open for ``path``: as given (relative to the current
        directory, like the script), else relative to the settings file's
        folder; None when neither exists."""
        if os.path.exists(path):
            return path
        if not os.path.isabs(path):
            alt = os.path.join(self.base_dir, path)
            if os.path.exists(alt):
                return alt
        return None


def _attr(node: minidom.Element, name: str, what: str, path: str) -> str:
    a = node.getAttributeNode(name)
    if a is None:
        raise UserError(f"{path}: <{node.nodeName}> has no {name} attribute ({what})")
    return a.value


def _text_of(node: minidom.Element) -> str | None:
    """The last text child, trimmed (the script keeps the last one it sees)."""
    value = None
    for child in node.childNodes:
        if child.nodeType == Node.TEXT_NODE:
            value = _trim(child.data)
    return value


class _Refused(Exception):
    pass


def _check_xml(data: bytes, path: str) -> None:
    """Refuse entity declarations, external identifiers and deep nesting, in
    one streaming pass (expat does not recurse)."""
    parser = expat.ParserCreate()
    try:
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    except AttributeError:  # pragma: no cover
        pass
    depth = 0

    def doctype(name, system_id, public_id, has_internal_subset):
        if system_id or public_id or has_internal_subset:
            raise _Refused("has a document type declaration with entity or external "
                           "declarations; a ROUGE settings file needs none: remove the <!DOCTYPE ...>")

    def entity(*args):
        raise _Refused("declares an entity; a ROUGE settings file needs none: remove it")

    def external(*args):
        raise _Refused("refers to an external entity; a ROUGE settings file needs none: remove it")

    def start(name, attrs):
        nonlocal depth
        depth += 1
        if depth > MAX_XML_DEPTH:
            raise _Refused(f"has elements nested more than {MAX_XML_DEPTH} deep; a ROUGE settings "
                           f"file nests 4 (ROUGE-EVAL, EVAL, PEERS, P)")

    def end(name):
        nonlocal depth
        depth -= 1

    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = entity
    parser.UnparsedEntityDeclHandler = entity
    parser.ExternalEntityRefHandler = external
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(data, True)
    except _Refused as exc:
        raise UserError(f"{path}:{parser.CurrentLineNumber}: settings file {exc}") from None
    except ExpatError as exc:
        raise UserError(f"settings file {path} is not valid XML: {exc}") from None


def read_settings(path: str) -> Settings:
    """Parse an XML settings file; UserError names the file on any problem."""
    data = read_bytes(path, "settings file")
    _check_xml(data, path)
    try:
        doc = minidom.parseString(data)
    except ExpatError as exc:
        raise UserError(f"settings file {path} is not valid XML: {exc}") from None
    return _SettingsReader(path).read(doc)


class _SettingsReader:
    """Walks a settings document as ``readEvals`` does: pre-order, every node
    once, without recursion; each element name the script knows has its handler."""

    def __init__(self, path: str):
        self.path = path
        self.evals: dict[str, Evaluation] = {}
        self.order: list[str] = []
        self.peer_ids: dict[str, None] = {}  # an ordered set
        # nodes to visit, each with the ID of the EVAL it is in
        self.stack: list[tuple[minidom.Node, str | None]] = []
        self.handlers: dict[str, Callable[[minidom.Element, str | None], None]] = {
            "EVAL": self._eval, "INPUT-FORMAT": self._input_format, "PEER-ROOT": self._peer_root,
            "MODEL-ROOT": self._model_root, "PEERS": self._peers, "MODELS": self._models,
        }

    def read(self, doc: minidom.Document) -> Settings:
        self.stack.append((doc, None))
        while self.stack:
            node, eval_id = self.stack.pop()
            if node.nodeType == Node.ELEMENT_NODE:
                element = cast(minidom.Element, node)
                self.handlers.get(element.nodeName.upper(), self._visit)(element, eval_id)
            elif node.childNodes:
                self._visit(node, eval_id)
        return Settings(
            [self.evals[e] for e in self.order],
            list(self.peer_ids),
            os.path.dirname(os.path.abspath(self.path)),
        )

    def _visit(self, node: minidom.Node, eval_id: str | None) -> None:
        """Visit the children of ``node`` next, in document order."""
        self.stack.extend((child, eval_id) for child in reversed(node.childNodes))

    def _need_eval(self, eval_id: str | None, tag: str) -> Evaluation:
        if eval_id is None or eval_id not in self.evals:
            raise UserError(f"{self.path}: <{tag}> outside an <EVAL> element")
        return self.evals[eval_id]

    def _eval(self, node: minidom.Element, eval_id: str | None) -> None:
        eval_id = _attr(node, "ID", "the evaluation ID", self.path)
        if eval_id not in self.evals:
            self.evals[eval_id] = Evaluation(eval_id)
            self.order.append(eval_id)
        self._visit(node, eval_id)

    def _input_format(self, node: minidom.Element, eval_id: str | None) -> None:
        fmt = _attr(node, "TYPE", "the input format", self.path)
        if not KNOWN_FORMATS.match(fmt):
            raise UserError(f"{self.path}: unknown input type {fmt!r} (use SPL, SEE or ISI)")
        self._need_eval(eval_id, node.nodeName).input_format = fmt

    def _peer_root(self, node: minidom.Element, eval_id: str | None) -> None:
        text = _text_of(node)
        if text is not None:
            self._need_eval(eval_id, node.nodeName).peer_root = text

    def _model_root(self, node: minidom.Element, eval_id: str | None) -> None:
        text = _text_of(node)
        if text is not None:
            self._need_eval(eval_id, node.nodeName).model_root = text

    def _peers(self, node: minidom.Element, eval_id: str | None) -> None:
        for child in _children(node, "P"):
            pid = _attr(child, "ID", "the peer ID", self.path)
            self.peer_ids.setdefault(pid, None)
            ev = self._need_eval(eval_id, node.nodeName)
            text = _text_of(child)
            if text is not None:
                ev.peers[pid] = text

    def _models(self, node: minidom.Element, eval_id: str | None) -> None:
        for child in _children(node, "M"):
            mid = _attr(child, "ID", "the model ID", self.path)
            ev = self._need_eval(eval_id, node.nodeName)
            ev.model_ids.append(mid)
            text = _text_of(child)
            if text is not None:
                ev.models[mid] = text


def _children(node: minidom.Element, name: str) -> Iterator[minidom.Element]:
    """The child elements named ``name`` (case-insensitive), in order."""
    for child in node.childNodes:
        if child.nodeType == Node.ELEMENT_NODE and child.nodeName.upper() == name:
            yield child


def read_file_list(path: str, fmt: str, system_id: str) -> Settings:
    """The ``-z`` file list: one evaluation per line, ``peer model1 model2 ...``;
    lines starting with ``#`` and blank lines are skipped; IDs are 1, 2, ..."""
    data = read_bytes(path, "file list")
    evals = []
    n = 1
    ws = re.compile(rb"[ \t\n\r\f\x0b]+")
    lines = data.split(b"\n")
    for lineno, line in enumerate(lines, 1):
        if line.startswith(b"#") or not line.strip(b" \t\n\r\f\x0b"):
            continue
        files = [f for f in ws.split(line.strip(b" \t\n\r\f\x0b")) if f]
        if len(files) < 2:
            raise UserError(
                f"{path}, line {lineno}: a file-list line needs a peer file and at least one model file"
            )
        ev = Evaluation(str(n), input_format=fmt)
        ev.peers[system_id] = os.fsdecode(files[0])
        for k, f in enumerate(files[1:], 1):
            mid = f"M.{k}"
            ev.model_ids.append(mid)
            ev.models[mid] = os.fsdecode(f)
        evals.append(ev)
        n += 1
    return Settings(evals, [system_id], os.path.dirname(os.path.abspath(path)), file_list=True)
