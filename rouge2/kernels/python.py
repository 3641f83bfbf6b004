"""Pure-Python reference implementations of the hot loops.

Each function here is the definition; ``rouge2/kernels/_speedups.c`` gives the
same results faster and :mod:`rouge2.kernels` chooses between the two once,
at import.  Token ids are non-negative ints below 2**64.
"""

from __future__ import annotations

from collections import Counter


def clipped_hits(cand: Counter, ref: Counter) -> int:
    """Σ min(count in candidate, count in reference) over shared units."""
    if len(cand) > len(ref):
        cand, ref = ref, cand
    hit = 0
    get = ref.get
    for unit, c in cand.items():
        r = get(unit)
        if r:
            hit += c if c < r else r
    return hit


def packed_ngrams(ids, n: int, width: int) -> Counter:
    """Counts of the n-grams of ``ids``, each packed into one int of ``n * width`` bits.

    Exact (no two n-grams share a key) when every id is below ``2 ** width``.
    """
    if n == 1:
        return Counter(ids)
    keys = list(ids[: len(ids) - n + 1])
    for k in range(1, n):
        keys = [(key << width) | b for key, b in zip(keys, ids[k:])]
    return Counter(keys)


def ngram_hits(cand_ids, ref_ids, n: int) -> int:
    """Σ over distinct n-grams of min(count in ``cand_ids``, count in ``ref_ids``)."""
    if n < 1:
        raise ValueError("n must be at least 1")
    if len(cand_ids) < n or len(ref_ids) < n:
        return 0
    # Pack each n-gram into one int, wide enough for the largest id: exact.
    width = max(32, max(cand_ids).bit_length(), max(ref_ids).bit_length())
    return clipped_hits(packed_ngrams(cand_ids, n, width), packed_ngrams(ref_ids, n, width))


def position_masks(tokens) -> dict:
    """token -> bit mask of the positions where it occurs."""
    masks: dict = {}
    for i, tok in enumerate(tokens):
        masks[tok] = masks.get(tok, 0) | (1 << i)
    return masks


def mask_lcs_length(masks: dict, m: int, peer) -> int:
    """LCS length of a sequence of length ``m`` (given by its position masks) and ``peer``.

    Bit-parallel: one integer holds a whole column of the DP table.
    """
    full = (1 << m) - 1
    v = full
    for match in map(masks.get, peer):
        if match:
            u = v & match
            if u:
                v = ((v + u) | (v - u)) & full
    return m - v.bit_count()


def lcs_length(a_ids, b_ids) -> int:
    """Length of a longest common subsequence (bit-parallel over Python ints)."""
    if not a_ids or not b_ids:
        return 0
    return mask_lcs_length(position_masks(a_ids), len(a_ids), b_ids)



def lcs_marks(masks: dict, m: int, peer) -> int:
    """Bit mask of reference positions on the script's LCS traceback."""
    full = (1 << m) - 1
    v = full
    get = masks.get
    columns = []
    append = columns.append
    for tok in peer:
        u = v & get(tok, 0)
        if u:
            v = ((v + u) | (v - u)) & full
        append(v)
    if v == full:
        return 0
    marks = 0
    i = m
    j = len(peer)
    while i > 0 and j > 0:
        match = get(peer[j - 1], 0)
        # Rows where the LCS length grows in column j, plus matching rows:
        # the traceback walks up until it meets one of them.
        stop = (match | (~columns[j - 1] & full)) & ((1 << i) - 1)
        if not stop:
            break
        p = stop.bit_length() - 1
        if (match >> p) & 1:
            marks |= 1 << p
            i = p
        else:
            i = p + 1
        j -= 1
    return marks

def token_ids(tokens, vocab: dict) -> list[int]:
    """``[vocab[t] for t in tokens]``, new words getting the next free ids."""
    ids = list(map(vocab.get, tokens))
    if None in ids:  # words never seen before get the next free ids
        for pos, (tok, i) in enumerate(zip(tokens, ids)):
            if i is None:
                i = vocab.get(tok)
                if i is None:
                    i = vocab[tok] = len(vocab)
                ids[pos] = i
    return ids

def _byte_table() -> bytes:
    """Byte map: A-Z to a-z, a-z and 0-9 kept, every other byte a space."""
    table = bytearray(b" " * 256)
    for c in b"abcdefghijklmnopqrstuvwxyz0123456789":
        table[c] = c
    for c in b"ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        table[c] = c + 32
    return bytes(table)


_ROUGE155_TABLE = _byte_table()


def rouge155_tokens(text: str) -> list[str]:
    """Tokens of ``text`` as ROUGE-1.5.5.pl keeps them (``-`` tokens dropped).

    Only ASCII letters and digits survive, so one byte-translation pass
    (lowercase A-Z, everything outside ``[a-z0-9]`` to a space) and a split
    give the script's tokens.  Non-ASCII characters are first replaced by
    ``?`` (a separator): Python's ``str.lower`` would otherwise map a few of
    them, such as the Kelvin sign, onto ASCII letters.
    """
    return text.encode("ascii", "replace").translate(_ROUGE155_TABLE).decode("ascii").split()


class MemoStemmer:
    """The Python counterpart of ``_speedups.Rouge155Stemmer``: a bounded memo.

    ``fallback`` is the uncached stemming function, the definition
    (:func:`rouge2.analysis.stem.rouge155_stem_uncached`), used here for
    every token; ``table`` is accepted for the same signature and unused.
    The memo is emptied when it holds ``memo_limit`` tokens.
    """

    def __init__(self, table, fallback, memo_limit: int = 1 << 18):
        if memo_limit < 1:
            raise ValueError("memo_limit must be at least 1")
        self._fn = fallback
        self._memo: dict[str, str] = {}
        self.memo_limit = memo_limit

    def stem(self, token: str) -> str:
        memo = self._memo
        try:
            return memo[token]
        except KeyError:
            pass
        result = self._fn(token)
        if len(memo) >= self.memo_limit:
            memo.clear()
        memo[token] = result
        return result

    def stem_many(self, tokens, min_length: int = 0) -> list[str]:
        stem = self.stem
        return [t if len(t) < min_length else stem(t) for t in tokens]

    def clear(self) -> None:
        self._memo.clear()

    @property
    def memo_size(self) -> int:
        return len(self._memo)
