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


# ---------------------------------------------------------------------------
# bulk resampling (the bootstraps and paired tests in rouge2.stats)
#
# Index tables are bytes of native int32 (any buffer is accepted), flat:
# row r holds the n indices of resample r.  Sums add a row's values left to right starting
# from 0.0, one addition per index, exactly like Perl's ``$sum += ...`` and
# like the builtin ``sum`` of Python <= 3.11 (3.12 compensates, so it is
# not used here).

from array import array  # noqa: E402

#: Perl's drand48 (also used by rouge2.stats.drand48)
DRAND48_A = 0x5DEECE66D
DRAND48_C = 0xB
DRAND48_SEED = 0x330E
MASK48 = (1 << 48) - 1
SCALE48 = 1.0 / (1 << 48)


def perl_resample_table(n: int, count: int) -> bytes:
    """ROUGE-1.5.5's bootstrap draws: for each resample r < ``count``, Perl's
    ``srand(r)`` then ``int(rand(n))`` ``n`` times (Perl's drand48: the seed
    is ``(r mod 2**32) << 16 | 0x330E``, then ``x = (0x5DEECE66D x + 0xB)
    mod 2**48`` and ``rand(n) = n * (x / 2**48)``)."""
    out = array("i")
    fn = float(n)
    for r in range(count):
        x = (((r & 0xFFFFFFFF) << 16) + DRAND48_SEED) & MASK48
        row = []
        for _ in range(n):
            x = (DRAND48_A * x + DRAND48_C) & MASK48
            row.append(int(fn * (x * SCALE48)))
        out.extend(row)
    return out.tobytes()


def indexed_sums(values, table, n: int) -> list[float]:
    """For each row of ``n`` indices in ``table``, the sum of ``values`` at
    those indices, added left to right from 0.0."""
    vals = [float(v) for v in values]
    idx = memoryview(table).cast("B").cast("i")
    sums = []
    if n <= 0:
        return sums
    for start in range(0, len(idx) - len(idx) % n, n):
        s = 0.0
        for j in idx[start:start + n]:
            s += vals[j]
        sums.append(s)
    return sums


def words_below(words: bytes, n: int) -> bytes:
    """The indices ``random.Random.randrange(n)`` accepts from consecutive
    32-bit Mersenne Twister outputs (``words``, little-endian, as
    ``getrandbits(32 * m).to_bytes(4 * m, "little")`` gives them): each
    word shifted right to ``n.bit_length()`` bits, kept when below ``n``
    (``1 <= n < 2**31``)."""
    shift = 32 - n.bit_length()
    out = array("i")
    for w in memoryview(words).cast("I") if _LITTLE else _le_words(words):
        r = w >> shift
        if r < n:
            out.append(r)
    return out.tobytes()


def signed_sums(diffs, words: bytes, n: int) -> list[float]:
    """Approximate randomization: ``words`` holds two little-endian 32-bit
    Mersenne Twister outputs per coin (what ``random.Random.random()``
    consumes); a coin keeps ``diffs[j]`` when ``random() < 0.5``, i.e. when
    the first word is below 2**31, else negates it.  For each resample (n
    coins) the signed values added left to right from 0.0."""
    d = [float(x) for x in diffs]
    ws = memoryview(words).cast("I") if _LITTLE else _le_words(words)
    sums = []
    if n <= 0:
        return sums
    coins = len(ws) // 2
    for start in range(0, coins - coins % n, n):
        s = 0.0
        for j in range(n):
            x = d[j]
            s += x if ws[2 * (start + j)] < 0x80000000 else -x
        sums.append(s)
    return sums


import sys as _sys  # noqa: E402

_LITTLE = _sys.byteorder == "little"


def _le_words(words: bytes) -> list[int]:
    return [int.from_bytes(words[i:i + 4], "little") for i in range(0, len(words) - len(words) % 4, 4)]
