"""Reading the user's files: the one place every input file is opened.

Summaries, settings files, configs, stopword lists and synonym dictionaries
all come through here, so every door refuses the same things the same way:

* only regular files are read: a folder, a FIFO (which would block forever),
  a device such as ``/dev/zero`` (which never ends) or a socket is refused
  before it is opened;
* a file read whole is at most :func:`max_file_bytes` long (64 MiB unless
  ``ROUGE2_MAX_FILE_BYTES`` says otherwise): no summary, stopword list or
  dictionary is that large, and a larger one is almost always the wrong file;
  corpus files read line by line (JSONL, CSV) have no limit;
* text is decoded with the encoding asked for; an undecodable byte is
  reported with the file and line; only text encodings are accepted;
* a UTF-8 byte-order mark is dropped.
"""

from __future__ import annotations

import codecs
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from rouge2.errors import UserError

DEFAULT_MAX_FILE_BYTES = 64 << 20


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
    if stat.S_ISDIR(st.st_mode):
        raise UserError(f"{p}: is a folder; give the path of a {what}")
    if not stat.S_ISREG(st.st_mode):
        kind = ("a FIFO (named pipe)" if stat.S_ISFIFO(st.st_mode) else
                "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else
                "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
        raise UserError(f"{p}: is {kind}; rouge2 reads regular files only")
    return p


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
            data = fh.read()
    except OSError as exc:
        raise UserError(f"{p}: cannot read the {what}: {exc.strerror}") from None
    if len(data) > limit:  # it grew while being read
        raise too_large
    return data


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


def decode(data: bytes, path: str | os.PathLike, encoding: str = "utf-8") -> str:
    """``data`` decoded; a one-line error naming the file and line otherwise."""
    check_encoding(encoding)
    try:
        text = data.decode(_decoder_name(encoding))
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise DecodeError(f"{path}:{line}", f"byte 0x{data[exc.start]:02x}", encoding) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def read_text(path: str | os.PathLike, encoding: str = "utf-8", what: str = "file",
              limit: int | None = None) -> str:
    """The decoded text of a regular file read whole."""
    return decode(read_bytes(path, what, limit), path, encoding)


def decoded_lines(path: str | os.PathLike, encoding: str = "utf-8",
                  what: str = "file") -> Iterator[tuple[int, str]]:
    """``(line number, line with its ending)`` of a text file, streamed (no size limit)."""
    p = check_regular(path, what)
    check_encoding(encoding)
    decoder = codecs.getincrementaldecoder(_decoder_name(encoding))(errors="strict")
    lineno = 1
    pending = ""
    first = True
    try:
        handle = open(p, "rb")
    except OSError as exc:
        raise UserError(f"{p}: cannot read the {what}: {exc.strerror}") from None
    with handle:
        for raw in _with_end(handle):
            try:
                text = decoder.decode(raw or b"", final=raw is None)
            except UnicodeDecodeError as exc:
                bad = (raw or b"")[exc.start:exc.start + 1]
                shown = f"byte 0x{bad[0]:02x}" if bad else "the bytes"
                raise DecodeError(f"{p}:{lineno + pending.count(chr(10))}", shown, encoding) from None
            if first and text:
                if text.startswith("\ufeff"):
                    text = text[1:]
                first = False
            pending += text
            while True:
                i = pending.find("\n")
                if i < 0:
                    break
                yield lineno, pending[:i + 1]
                lineno += 1
                pending = pending[i + 1:]
    if pending:
        yield lineno, pending


def _with_end(handle) -> Iterator[bytes | None]:
    yield from handle
    yield None


def jsonl_objects(path: str | os.PathLike, encoding: str = "utf-8", what: str = "JSONL file",
                  lines: Iterator[tuple[int, str]] | None = None) -> Iterator[tuple[str, dict]]:
    """``(where, object)`` for each non-blank line of a JSONL file, streamed;
    ``where`` is ``path:line`` for messages.  A line that is not a JSON
    object is a one-line error naming it.  ``lines`` replaces the file
    (e.g. standard input as ``(number, line)`` pairs)."""
    source = decoded_lines(path, encoding, what) if lines is None else lines
    for lineno, line in source:
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UserError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno}); "
                            f"a JSONL file holds one JSON object a line") from None
        except RecursionError:
            raise UserError(f"{where}: the JSON is nested too deeply to read") from None
        if not isinstance(row, dict):
            raise UserError(f"{where}: expected a JSON object, got {type(row).__name__}")
        yield where, row
