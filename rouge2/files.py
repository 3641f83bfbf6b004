"""Reading the user's files: the one place every input file is opened.

Summaries, settings files, configs, stopword lists and synonym dictionaries
all come through here, so every door refuses the same things the same way:

* only regular files are read: a folder, a FIFO (which would block forever),
  a device such as ``/dev/zero`` (which never ends) or a socket is refused
  before it is opened;
* a file read whole is at most :func:`max_file_bytes` long (64 MiB unless
  ``ROUGE2_MAX_FILE_BYTES`` says otherwise): no summary, stopword list or
  dictionary is that large, and a larger one is almost always the wrong file;
  corpus files read line by line (JSONL, CSV, standard input) have no limit,
  but each of their lines does (the same 64 MiB), so an endless line ends in
  one error line, not in exhausted memory;
* text is decoded with the encoding asked for; an undecodable byte is
  reported with the file and line; only text encodings are accepted; UTF-16
  and UTF-32 without a byte-order mark are refused (say ``utf-16-le`` ...);
* a UTF-8 byte-order mark is dropped;
* a JSON number too long for Python to read (more than 4,300 digits) is one
  error line naming the row.

Every file opened here is noted by the active :func:`recording` (its
device, inode and resolved path), so the output layer can refuse to write
over a file the same command read (:mod:`rouge2.io.ownership`).
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO

from rouge2.errors import UserError

DEFAULT_MAX_FILE_BYTES = 64 << 20
#: bytes read at a time from a streamed file
_BLOCK = 1 << 16


def max_file_bytes() -> int:
    """The largest file read whole (``ROUGE2_MAX_FILE_BYTES``, default 64 MiB)."""
    text = os.environ.get("ROUGE2_MAX_FILE_BYTES", "").strip()
    if not text:
        return DEFAULT_MAX_FILE_BYTES
    try:
        value = int(text)
    except ValueError:
        raise UserError(f"ROUGE2_MAX_FILE_BYTES={text!r}: expected a whole number of bytes") from None
    if value <= 0:
        raise UserError(f"ROUGE2_MAX_FILE_BYTES={text!r}: expected a positive number of bytes")
    return value


# ---------------------------------------------------------------------------
# which files a command read


class InputRecord:
    """The files read while a :func:`recording` is active: ``(device, inode)``
    and resolved path of each, and the folders whose listing was read."""

    def __init__(self) -> None:
        self.ids: dict[tuple[int, int], str] = {}
        self.paths: dict[str, str] = {}
        self.folders: dict[str, str] = {}

    def add(self, path: str | os.PathLike, st: os.stat_result | None = None) -> None:
        shown = str(path)
        if st is not None:
            self.ids.setdefault((st.st_dev, st.st_ino), shown)
        self.paths.setdefault(os.path.realpath(path), shown)

    def add_folder(self, folder: str | os.PathLike) -> None:
        self.folders.setdefault(os.path.realpath(folder), str(folder))

    def update(self, other: InputRecord) -> None:
        """Add what ``other`` holds."""
        for name in ("ids", "paths", "folders"):
            mine, theirs = getattr(self, name), getattr(other, name)
            for k, v in theirs.items():
                mine.setdefault(k, v)


_RECORDS: list[InputRecord] = []


@contextlib.contextmanager
def recording(record: InputRecord | None = None) -> Iterator[InputRecord]:
    """Note every file opened through this module until the block ends
    (nested recordings each get every file)."""
    rec = record if record is not None else InputRecord()
    _RECORDS.append(rec)
    try:
        yield rec
    finally:
        _RECORDS.remove(rec)


def active_records() -> list[InputRecord]:
    """The recordings active now (outermost first)."""
    return list(_RECORDS)


def note_input(path: str | os.PathLike, st: os.stat_result | None = None) -> None:
    """Tell the active recordings that ``path`` is read (``st``: its stat)."""
    for rec in _RECORDS:
        rec.add(path, st)


def note_folder(folder: str | os.PathLike) -> None:
    """Tell the active recordings that ``folder``'s files are read as inputs."""
    for rec in _RECORDS:
        rec.add_folder(folder)


def note_stdin() -> None:
    """Standard input is read: when it is a regular file (``< file``), note it."""
    try:
        st = os.fstat(0)
    except OSError:
        return
    if stat.S_ISREG(st.st_mode):
        for rec in _RECORDS:
            rec.ids.setdefault((st.st_dev, st.st_ino), "<stdin>")


# ---------------------------------------------------------------------------
# regular files


def check_regular(path: str | os.PathLike, what: str = "file") -> Path:
    """``path`` if it is an existing regular file; a one-line error otherwise."""
    p = Path(path)
    if "\x00" in str(p):
        raise UserError(f"{what} path {str(p)!r} contains a NUL character")
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise UserError(f"{p}: {what} not found: check the path") from None
    except NotADirectoryError:
        raise UserError(f"{p}: {what} not found (a part of the path is not a folder)") from None
    except PermissionError:
        raise UserError(f"{p}: cannot read the {what}: permission denied") from None
    except OSError as exc:
        raise UserError(f"{p}: cannot read the {what}: {exc.strerror}") from None
    except ValueError:  # e.g. a file name that cannot be encoded
        raise UserError(f"{what} path {str(p)!r} cannot be used on this system") from None
    if stat.S_ISDIR(st.st_mode):
        raise UserError(f"{p}: is a folder; give the path of a {what}")
    if not stat.S_ISREG(st.st_mode):
        raise UserError(f"{p}: is {file_kind(st.st_mode)}; rouge2 reads regular files only")
    note_input(p, st)
    return p


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, for messages."""
    return ("a folder" if stat.S_ISDIR(mode) else
            "a FIFO (named pipe)" if stat.S_ISFIFO(mode) else
            "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
            "a socket" if stat.S_ISSOCK(mode) else
            "a symbolic link" if stat.S_ISLNK(mode) else "not a regular file")


def read_bytes(path: str | os.PathLike, what: str = "file", limit: int | None = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (default :func:`max_file_bytes`)."""
    p = check_regular(path, what)
    hint = "check the path"
    if limit is None:  # the general limit, which the environment can raise
        limit = max_file_bytes()
        hint += ", or raise the limit with ROUGE2_MAX_FILE_BYTES"
    too_large = UserError(f"{p}: the {what} is larger than {limit:,} bytes, implausibly large; {hint}")
    try:
        with open(p, "rb") as fh:
            if os.fstat(fh.fileno()).st_size > limit:
                raise too_large
            data = fh.read(limit + 1)
    except OSError as exc:
        raise UserError(f"{p}: cannot read the {what}: {exc.strerror}") from None
    if len(data) > limit:  # it grew while being read
        raise too_large
    return data


# ---------------------------------------------------------------------------
# decoding


def check_encoding(name: str) -> str:
    """``name`` if it is a text encoding Python knows; a one-line error otherwise."""
    try:
        info = codecs.lookup(name)
    except (LookupError, TypeError, ValueError):
        raise UserError(f"unknown encoding {name!r}; use a text encoding such as utf-8, utf-16, "
                        f"latin-1, cp1252") from None
    if not getattr(info, "_is_text_encoding", True):
        raise UserError(f"{name!r} is not a text encoding (it converts bytes to bytes); use a text "
                        f"encoding such as utf-8, utf-16, latin-1, cp1252")
    return name


def _decoder_name(encoding: str) -> str:
    # A UTF-8 byte-order mark is accepted (and dropped) whatever the spelling.
    if codecs.lookup(encoding).name == "utf-8":
        return "utf-8-sig"
    return encoding


class DecodeError(UserError):
    """A byte the encoding cannot decode: the file and line, and what to do.
    :meth:`with_setting` names the setting of the encoding at the door
    (``--encoding``, ``inputs.encoding``)."""

    def __init__(self, where: str, what: str, encoding: str, setting: str = "the encoding"):
        self.where, self.what, self.encoding = where, what, encoding
        super().__init__(f"{where}: cannot decode {what} as {encoding}; set {setting} to the file's "
                         f"(e.g. latin-1, cp1252, utf-16) or save the file as {encoding}")

    def with_setting(self, setting: str) -> DecodeError:
        """The same error, naming ``setting`` as the place to give the encoding."""
        return DecodeError(self.where, self.what, self.encoding, setting)


#: encodings whose byte order comes from a byte-order mark
_NEEDS_BOM = {"utf-16": (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE),
              "utf-32": (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)}


def _check_bom(head: bytes, path: str | os.PathLike, encoding: str) -> None:
    """UTF-16 and UTF-32 name no byte order: without a byte-order mark the
    text cannot be read reliably (one error line instead of a guess)."""
    name = codecs.lookup(encoding).name
    boms = _NEEDS_BOM.get(name)
    if boms and head and not head.startswith(boms):
        raise UserError(f"{path}:1: the file has no byte-order mark, which {encoding} needs to know "
                        f"the byte order; set the encoding to {name}-le or {name}-be")


def decode(data: bytes, path: str | os.PathLike, encoding: str = "utf-8") -> str:
    """``data`` decoded; a one-line error naming the file and line otherwise."""
    check_encoding(encoding)
    _check_bom(data[:4], path, encoding)
    try:
        text = data.decode(_decoder_name(encoding))
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise DecodeError(f"{path}:{line}", f"byte 0x{data[exc.start]:02x}", encoding) from None
    except UnicodeError as exc:  # a codec's own complaint (no position)
        raise DecodeError(f"{path}", f"the file ({exc})", encoding) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def read_text(path: str | os.PathLike, encoding: str = "utf-8", what: str = "file",
              limit: int | None = None) -> str:
    """The decoded text of a regular file read whole."""
    return decode(read_bytes(path, what, limit), path, encoding)


# ---------------------------------------------------------------------------
# streaming


def decoded_lines(path: str | os.PathLike, encoding: str = "utf-8",
                  what: str = "file") -> Iterator[tuple[int, str]]:
    """``(line number, line with its ending)`` of a text file, streamed (no
    size limit; each line at most :func:`max_file_bytes`)."""
    p, handle = _open_text_file(path, encoding, what)
    with handle:
        yield from stream_lines(handle, p, encoding, what)


def _open_text_file(path: str | os.PathLike, encoding: str, what: str) -> tuple[Path, IO[bytes]]:
    """A regular file, checked, opened for reading in binary, with a known
    ``encoding``; its path as checked (an error is one line)."""
    p = check_regular(path, what)
    check_encoding(encoding)
    try:
        return p, open(p, "rb")  # the caller closes it
    except OSError as exc:
        raise UserError(f"{p}: cannot read the {what}: {exc.strerror}") from None


def _block_decoder(name: str | os.PathLike, encoding: str) -> Callable[[bytes | None, int], str]:
    """``decode(raw, lineno)``: the text of a stream's next block (None: the
    end) in ``encoding`` (checked by the caller), a UTF-16/32 text without
    its byte-order mark refused, a leading BOM dropped; ``lineno``, the line
    being read, names it in a decoding error."""
    decoder = codecs.getincrementaldecoder(_decoder_name(encoding))(errors="strict")
    first = True

    def decode(raw: bytes | None, lineno: int) -> str:
        nonlocal first
        if first:
            _check_bom(raw or b"", name, encoding)
        text = _decode_block(decoder, raw, name, encoding, lineno)
        if first and text:
            text = text[1:] if text.startswith("\ufeff") else text
            first = False
        return text

    return decode


def _long_line(name: str | os.PathLike, lineno: int, limit: int) -> UserError:
    """The one-line error for a line longer than ``limit`` characters."""
    return UserError(f"{name}:{lineno}: the line is longer than {limit:,} characters, "
                     f"implausibly long for one summary; check the file (is it "
                     f"line-aligned text?), or raise the limit with ROUGE2_MAX_FILE_BYTES")


def stream_lines(handle: IO[bytes], name: str | os.PathLike, encoding: str = "utf-8",
                 what: str = "file") -> Iterator[tuple[int, str]]:
    """``(line number, line with its ending)`` of a binary stream (a file,
    standard input), read a block at a time: memory holds one line, and a
    line longer than :func:`max_file_bytes` is a one-line error."""
    check_encoding(encoding)
    limit = max_file_bytes()
    lineno = 1
    partial: list[str] = []  # the current line's pieces (no newline yet)
    size = 0
    decode = _block_decoder(name, encoding)
    for raw in _blocks(handle, name, what):
        text = decode(raw, lineno)
        start = 0
        while True:
            i = text.find("\n", start)
            if i < 0:
                break
            partial.append(text[start:i + 1])
            yield lineno, "".join(partial)
            lineno, partial, size, start = lineno + 1, [], 0, i + 1
        if start < len(text):
            partial.append(text[start:])
            size += len(text) - start
            if size > limit:
                raise _long_line(name, lineno, limit)
    if partial:
        yield lineno, "".join(partial)


def stream_line_batches(handle: IO[bytes], name: str | os.PathLike, encoding: str = "utf-8",
                        what: str = "file") -> Iterator[list[str]]:
    """The lines of a binary stream as :func:`stream_lines` reads them, without
    their ``\n``, a decoded block at a time (a list of the block's complete
    lines; the last line of the stream may lack its ``\n``): the same lines
    and the same errors, with no Python step per line."""
    check_encoding(encoding)
    limit = max_file_bytes()
    lineno = 1
    partial = ""  # the current line's start (no newline yet)
    decode = _block_decoder(name, encoding)
    for raw in _blocks(handle, name, what):
        text = decode(raw, lineno)
        if partial:
            text = partial + text
        lines = text.split("\n")
        partial = lines.pop()
        if len(partial) > limit:
            raise _long_line(name, lineno + len(lines), limit)
        if lines:
            lineno += len(lines)
            yield lines
    if partial:
        yield [partial]


def decoded_line_batches(path: str | os.PathLike, encoding: str = "utf-8",
                         what: str = "file") -> Iterator[list[str]]:
    """:func:`stream_line_batches` of a text file (checked as :func:`decoded_lines` checks it)."""
    p, handle = _open_text_file(path, encoding, what)
    with handle:
        yield from stream_line_batches(handle, p, encoding, what)


def stdin_line_batches(encoding: str = "utf-8", what: str = "standard input") -> Iterator[list[str]]:
    """Standard input as :func:`stream_line_batches` gives a file's lines."""
    note_stdin()
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream without bytes (e.g. replaced in tests)
        return ([line[:-1] if line.endswith("\n") else line] for line in sys.stdin)
    return stream_line_batches(stream, "<stdin>", encoding, what)


def _blocks(handle: IO[bytes], name: str | os.PathLike, what: str) -> Iterator[bytes | None]:
    """The stream's blocks, then None (the end)."""
    read = getattr(handle, "read1", None) or handle.read
    while True:
        try:
            raw = read(_BLOCK)
        except OSError as exc:
            raise UserError(f"{name}: cannot read the {what}: {exc.strerror}") from None
        if not raw:
            break
        yield raw
    yield None


def _decode_block(decoder, raw: bytes | None, name, encoding: str, lineno: int) -> str:
    try:
        return decoder.decode(raw or b"", final=raw is None)
    except UnicodeDecodeError as exc:
        block = raw or b""
        bad = block[exc.start:exc.start + 1]
        shown = f"byte 0x{bad[0]:02x}" if bad else "the bytes at the end of the file"
        line = lineno + block[:max(exc.start, 0)].count(b"\n")
        raise DecodeError(f"{name}:{line}", shown, encoding) from None
    except UnicodeError as exc:  # a codec's own complaint (no position)
        raise DecodeError(f"{name}", f"the file ({exc})", encoding) from None


def stdin_lines(encoding: str = "utf-8", what: str = "standard input") -> Iterator[tuple[int, str]]:
    """Standard input as :func:`stream_lines` gives a file's lines."""
    note_stdin()
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream without bytes (e.g. replaced in tests)
        return ((i + 1, line) for i, line in enumerate(sys.stdin))
    return stream_lines(stream, "<stdin>", encoding, what)


def parse_json(line: str, where: str, what: str = "a JSONL file holds one JSON object a line"):
    """``json.loads(line)``; one error line naming ``where`` for what it cannot read."""
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise UserError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno}); {what}") from None
    except RecursionError:
        raise UserError(f"{where}: the JSON is nested too deeply to read") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        reason = str(exc).split(":")[0].split(";")[0]
        raise UserError(f"{where}: cannot read a value ({reason}); a number has at most "
                        f"4,300 digits") from None


def jsonl_objects(path: str | os.PathLike, encoding: str = "utf-8", what: str = "JSONL file",
                  lines: Iterable[tuple[int, str]] | None = None) -> Iterator[tuple[str, dict]]:
    """``(where, object)`` for each non-blank line of a JSONL file, streamed;
    ``where`` is ``path:line`` for messages.  A line that is not a JSON
    object is a one-line error naming it.  ``lines`` replaces the file
    (e.g. standard input as ``(number, line)`` pairs)."""
    source = decoded_lines(path, encoding, what) if lines is None else lines
    for lineno, line in source:
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        row = parse_json(line, where)
        if not isinstance(row, dict):
            raise UserError(f"{where}: expected a JSON object, got {type(row).__name__}")
        yield where, row
