"""ROUGE-1.5.5's input formats: SPL, SEE and ISI.

Files are read as bytes and decoded as latin-1, one character per byte, so
lengths, ``-b`` limits and the script's byte-oriented character classes
work exactly as in Perl.  A reader returns the sentences the script's
``readText`` collects, before lowercasing.
"""

from __future__ import annotations

import re

from rouge2.errors import UserError
from rouge2.files import decode, read_bytes

# Perl's \s on byte strings: space, \t, \n, \v, \f, \r
_WS = "[ \\t\\n\\x0b\\f\\r]"
_SEE_1 = re.compile(
    r'<a size="[0-9]+" name="[0-9]+">\[([0-9]+)\]</a>' + _WS + r'+<a href="#[0-9]+" id=[0-9]+>([^<]+)'
)
_SEE_2 = re.compile(r'<a name="[0-9]+">\[([0-9]+)\]</a>' + _WS + r'+<a href="#[0-9]+" id=[0-9]+>([^<]+)')
_ISI = re.compile(r'<S SNTNO="[0-9a-z,]+">([^<]+)</S>')
_SPLIT_WS = re.compile(_WS + "+")


def perl_lines(text: str) -> list[str]:
    """Lines as Perl's readline returns them (each keeps its ``\\n``)."""
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def parse_spl(text: str) -> list[str]:
    """One sentence per line; empty lines skipped (only ``\\n`` is removed)."""
    return [line for line in text.split("\n") if line]


def parse_see(text: str) -> list[str]:
    out = []
    for line in perl_lines(text):
        m = _SEE_1.match(line) or _SEE_2.match(line)
        if m:
            out.append(m.group(2))
    return out


def parse_isi(text: str) -> list[str]:
    out = []
    for line in perl_lines(text):
        m = _ISI.match(line)
        if m:
            out.append(m.group(1))
    return out


PARSERS = {"SPL": parse_spl, "SEE": parse_see, "ISI": parse_isi}


def read_sentences(path: str, fmt: str | None, shown_path: str | None = None,
                   encoding: str = "latin-1") -> list[str]:
    """Read ``path`` in format ``fmt`` (case-insensitive).

    The drop-in command decodes as latin-1 (one character per byte, the
    script's semantics); YAML runs pass their ``inputs.encoding``.
    """
    shown = shown_path or path
    parser = PARSERS.get((fmt or "").upper())
    if parser is None:
        if fmt and fmt.upper() == "SIMPLE":
            raise UserError(f"input format SIMPLE (Basic Elements) is not supported: {shown}")
        raise UserError(f"unknown input format {fmt or '(none given)'!r} for {shown}")
    data = read_bytes(path, "summary file")
    if encoding == "latin-1":
        return parser(data.decode("latin-1"))
    return parser(decode(data, shown, encoding))


def perl_split_ws(s: str) -> list[str]:
    """Perl's ``split(/\\s+/, $s)``: a leading empty field is kept, trailing
    empty fields are dropped."""
    fields = _SPLIT_WS.split(s)
    while fields and fields[-1] == "":
        fields.pop()
    return fields


def flat_text_undefined(sentences: list[str], word_limit: int, byte_limit: int) -> bool:
    """Whether the script's ``readText`` ends with no text (it then warns
    "readText: PATH -> empty text").  Without limits it never does."""
    if word_limit == 0 and byte_limit == 0:
        return False
    tmp = ""
    tmp_len = 0
    if word_limit != 0:
        for s in sentences:
            tokens = perl_split_ws(s)
            if tmp_len + len(tokens) < word_limit:
                tmp += (" " if tmp_len != 0 else "") + s
                tmp_len += len(tokens)
            else:
                if tmp_len > 0:
                    tmp += " "
                k = word_limit - tmp_len - 1
                tmp += " ".join(tokens[i] if i < len(tokens) else "" for i in range(k + 1))
                break
    else:
        for s in sentences:
            if tmp_len + len(s) < byte_limit:
                tmp += (" " if tmp_len != 0 else "") + s
                tmp_len += len(s)
            else:
                if tmp_len > 0:
                    tmp += " "
                n = byte_limit - tmp_len
                tmp += s[0:n] if n >= 0 else s[0 : max(len(s) + n, 0)]
                break
    return len(tmp) == 0
