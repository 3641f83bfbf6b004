"""Pure-Python reference implementations of the hot loops.

Each function here is the definition; ``rouge2/kernels/_speedups.c`` gives the
same results faster and :mod:`rouge2.kernels` chooses between the two once,
at import.  Token ids are non-negative ints below 2**64.
"""

from __future__ import annotations

import random
import sys
from array import array
from collections import Counter
from collections.abc import Mapping
from typing import Any


def clipped_hits(cand: Mapping[Any, int], ref: Mapping[Any, int]) -> int:
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
    columns: list[int] = []
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
    return ids  # type: ignore[return-value]  # every None was replaced


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


def int_column(values, start: int, step: int) -> bytes | None:
    """``values[start::step]`` of a float64 buffer as int32 bytes
    (``array('i')``), or None when one of them is not a whole number within
    32 bits."""
    if start < 0 or step < 1:
        raise ValueError("int_column: start >= 0 and step >= 1")
    part = memoryview(values).cast("B").cast("d")[start::step]
    out = array("i")
    for x in part:
        if not (-2147483648.0 <= x <= 2147483647.0) or x != int(x):
            return None
        out.append(int(x))
    return out.tobytes()


def indexed_sums(values, table, n: int) -> list[float]:
    """For each row of ``n`` indices in ``table``, the sum of ``values`` at
    those indices, added left to right from 0.0."""
    vals = [float(v) for v in values]
    idx = memoryview(table).cast("B").cast("i")
    sums: list[float] = []
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
    sums: list[float] = []
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


_LITTLE = sys.byteorder == "little"


def _le_words(words: bytes) -> list[int]:
    return [int.from_bytes(words[i:i + 4], "little") for i in range(0, len(words) - len(words) % 4, 4)]


def skip_bigram_counts(tokens, max_skip: int | None, unigrams: bool) -> tuple[Counter, int]:
    counts: Counter = Counter()
    n = len(tokens)
    total = 0
    for i in range(n - 1):
        a = tokens[i]
        if unigrams:
            counts[(a,)] += 1
            total += 1
        stop = n if max_skip is None else min(n, i + max_skip + 2)
        for j in range(i + 1, stop):
            counts[(a, tokens[j])] += 1
        total += stop - i - 1
    return counts, total


def wlcs_marks(model, peer, weight: float, hit_mask: list, same=None) -> None:
    """The script's weighted-LCS table and traceback for one sentence pair."""
    m = len(model)
    n = len(peer)
    prev_c = [0.0] * (n + 1)
    prev_l = [0] * (n + 1)
    back = []  # per row: list of moves, 0 diag, 1 up, 2 left
    for i in range(1, m + 1):
        tok = model[i - 1]
        cur_c = [0.0] * (n + 1)
        cur_l = [0] * (n + 1)
        moves = [0] * (n + 1)
        for j in range(1, n + 1):
            if tok == peer[j - 1] or (same is not None and same(tok, peer[j - 1])):
                k = prev_l[j - 1]
                cur_c[j] = prev_c[j - 1] + (k + 1) ** weight - k ** weight
                cur_l[j] = k + 1
            elif prev_c[j] >= cur_c[j - 1]:
                cur_c[j] = prev_c[j]
                moves[j] = 1
            else:
                cur_c[j] = cur_c[j - 1]
                moves[j] = 2
        back.append(moves)
        prev_c, prev_l = cur_c, cur_l
    i, j = m, n
    while i and j:
        move = back[i - 1][j]
        if move == 0:
            i -= 1
            j -= 1
            hit_mask[i] = 1
        elif move == 1:
            i -= 1
        else:
            j -= 1



# -- the Mersenne Twister draws from a state (rouge2.stats.resample) ---------


def _rng_at(state) -> random.Random:
    rng = random.Random()
    rng.setstate((3, tuple(state), None))
    return rng


def mt_words(state, m: int) -> tuple[bytes, tuple]:
    """The next ``m`` 32-bit outputs of the Mersenne Twister in ``state``
    (``random.Random.getstate()[1]``), little-endian, and the advanced state."""
    rng = _rng_at(state)
    words = rng.getrandbits(32 * m).to_bytes(4 * m, "little") if m > 0 else b""
    return words, rng.getstate()[1]


def mt_bootstrap_sums(state, values, rows: int) -> tuple[list[float], tuple]:
    """For each of ``rows`` resamples, ``len(values)`` draws of
    ``randrange(len(values))`` from ``state`` and the sum of the values
    there, left to right from 0.0; and the advanced state."""
    rng = _rng_at(state)
    n = len(values)
    table = array("i")
    while len(table) < rows * n:
        need = rows * n - len(table)
        table.frombytes(words_below(rng.getrandbits(32 * need).to_bytes(4 * need, "little"), n))
    return indexed_sums(values, table.tobytes(), n), rng.getstate()[1]


def mt_paired_sums(state, columns, rows: int, limit: int = 256,
                   simd: bool = True) -> tuple[list[list[float]], tuple]:
    """The paired bootstrap (:func:`rouge2.stats.resample.paired_bootstrap_sums`):
    for each of ``rows`` resamples, ``n = len(column)`` draws of
    ``randrange(n)`` from ``state`` counted per task (``c_i``), and for every
    column the sum over ``i`` of ``c_i * x_i``, left to right from 0.0; one
    list of sums per column, and the advanced state.  (``limit`` and ``simd``
    only steer the C kernel's counters and vectors; the numbers do not
    depend on them.)"""
    rng = _rng_at(state)
    cols = [[float(x) for x in col] for col in columns]
    n = len(cols[0]) if cols else 0
    if n < 1 or any(len(col) != n for col in cols) or rows < 0:
        raise ValueError("mt_paired_sums: need columns of one length n >= 1 and rows >= 0")
    sums: list[list[float]] = [[] for _ in cols]
    for _ in range(rows):
        counts = [0] * n
        need = n
        while need:  # as many words as draws still missing: randrange(n) one at a time
            drawn = memoryview(words_below(rng.getrandbits(32 * need).to_bytes(4 * need, "little"), n)).cast("i")
            for i in drawn:
                counts[i] += 1
            need -= len(drawn)
        for col, out in zip(cols, sums):
            s = 0.0
            for c, x in zip(counts, col):
                s += c * x
            out.append(s)
    return sums, rng.getstate()[1]


def mt_signed_sums(state, diffs, rows: int) -> tuple[list[float], tuple]:
    """For each of ``rows`` resamples, one coin per value (``random() < 0.5``
    from ``state``) keeping or negating it, summed left to right from 0.0;
    and the advanced state."""
    rng = _rng_at(state)
    m = 2 * rows * len(diffs)
    words = rng.getrandbits(32 * m).to_bytes(4 * m, "little") if m else b""
    return signed_sums(diffs, words, len(diffs)), rng.getstate()[1]


# -- summary-level LCS and ROUGE-W of one pair, on ids -------------------------


def union_lcs_hit(cand, cand_sents, ref, ref_sents) -> int:
    """ROUGE-1.5.5's summary-level union-LCS hit: for each reference
    sentence, the union of its positions on the script's LCS with each
    candidate sentence, each position counted while the reference and the
    candidate (``ref``, ``cand``: their flat tokens) both have an unused
    copy of its word.  One sentence each, equal to the flat tokens: the
    LCS length (the clipping cannot bind)."""
    if not cand or not ref:
        return 0
    if len(cand_sents) == 1 and len(ref_sents) == 1 and list(cand_sents[0]) == list(cand) \
            and list(ref_sents[0]) == list(ref):
        return lcs_length(ref, cand)
    ref_left = Counter(ref)
    cand_left = Counter(cand)
    hit = 0
    for sent in ref_sents:
        m = len(sent)
        if not m:
            continue
        masks = position_masks(sent)
        union = 0
        for peer in cand_sents:
            if peer:
                union |= lcs_marks(masks, m, peer)
        while union:
            low = union & -union
            tok = sent[low.bit_length() - 1]
            union ^= low
            if ref_left[tok] > 0 and cand_left[tok] > 0:
                hit += 1
                ref_left[tok] -= 1
                cand_left[tok] -= 1
    return hit


def wlcs_raw(cand, cand_sents, ref, ref_sents, w: float) -> tuple[float, float]:
    """ROUGE-W as the script counts it: (weighted hit, Σ f(reference
    sentence length)), sentences aligned with :func:`wlcs_marks`, runs of
    counted tokens clipped by the flat tokens' counts."""
    ref_left = Counter(ref)
    cand_left = Counter(cand)
    hit = 0.0
    base = 0.0
    for sent in ref_sents:
        m = len(sent)
        base += m ** w
        if not m:
            continue
        mask = [0] * m
        for peer in cand_sents:
            if peer:
                wlcs_marks(sent, peer, w, mask)
        run = 0
        for j in range(m):
            if mask[j]:
                tok = sent[j]
                if ref_left[tok] > 0 and cand_left[tok] > 0:
                    run += 1
                    if j + 1 == m or not mask[j + 1]:
                        hit += run ** w
                        run = 0
                    ref_left[tok] -= 1
                    cand_left[tok] -= 1
    return hit, base


# -- the batch path (issues 12, 22): packed ids, every pair scored in one call -
#
# The definitions of rouge2/kernels/analyze.h and batch.h.  The distinct
# texts of a chunk are analysed once into raw word ids (a process-wide
# vocabulary): ``ids`` holds every text's tokens, ``bounds`` the (start,
# end) of each sentence with a token, ``spans`` per text (first sentence,
# end sentence, flat start, flat end).  The flat tokens feed n-grams,
# skip-bigrams and the counts that clip ROUGE-L/W; the sentences feed the
# LCS.  Without a byte limit the sentences cover the flat range
# ("aliased"); under one they are stored after it.

_RAW_IDS: dict[str, int] = {}
_RAW_WORDS: list[str] = []

#: measure kinds of :func:`score_pairs` specs ``(kind, n, unigrams, weight)``
M_NGRAM, M_LCS, M_LCS_FLAT, M_WLCS, M_SKIP = range(5)


def _intern(tokens) -> list[int]:
    vocab = _RAW_IDS
    words = _RAW_WORDS
    out = []
    for t in tokens:
        i = vocab.get(t)
        if i is None:
            i = vocab[t] = len(words)
            words.append(t)
        out.append(i)
    return out


def _pair_texts(pair):
    """(candidate, references) of a plain pair, or None (the caller falls back)."""
    if type(pair) not in (tuple, list) or len(pair) != 2:
        return None
    c, r = pair
    if type(c) is not str:
        return None
    if type(r) is str:
        r = (r,)
    elif type(r) not in (list, tuple) or not r or any(type(x) is not str for x in r):
        return None
    return c, r


def _analyze_text(raw, text, ids, bounds) -> tuple[int, int]:
    """Append ``text``'s tokens (``raw(text)``: flat tokens, sentences,
    aliased) to ``ids`` and its sentences to ``bounds``; its flat range."""
    flat, sentences, aliased = raw(text)
    f0 = len(ids)
    if not aliased:
        ids.extend(_intern(flat))
    f1 = len(ids)
    for sent in sentences:
        start = len(ids)
        ids.extend(_intern(sent))
        if len(ids) > start:
            bounds.extend((start, len(ids)))
    return (f0, len(ids)) if aliased else (f0, f1)


def analyze_pairs(pairs, start: int, stop: int, spec):
    """The distinct texts of ``pairs[start:stop]`` (``(candidate, references)``
    pairs, references a str or a non-empty list or tuple of str) analysed
    into raw ids, with each pair's candidate text, reference entry starts and
    reference texts: ``((ids, bounds, spans), nwords, empty_texts, cands,
    ref_starts, refs)``.  ``spec[6]`` is the analyzer's definition,
    ``text -> (flat tokens, sentence tokens, aliased)``
    (:meth:`rouge2.analysis.analyzer.Analyzer.raw_streams`).  None when a
    pair or text is not of the plain kinds, or a text cannot be analysed
    (the caller takes the per-pair path, which reports it)."""
    raw = spec[6]
    index: dict[str, int] = {}
    add = index.setdefault
    cands, refs, ref_starts = array("i"), array("i"), array("q", [0])
    for pair in pairs[max(0, start):stop]:
        texts = _pair_texts(pair)
        if texts is None:
            return None
        c, r = texts
        cands.append(add(c, len(index)))
        refs.extend([add(x, len(index)) for x in r])
        ref_starts.append(len(refs))
    ids, bounds, spans = array("i"), array("q"), array("q")
    empty = []
    for text in index:
        first = len(bounds) // 2
        try:
            f0, f1 = _analyze_text(raw, text, ids, bounds)
        except UnicodeEncodeError:  # a lone surrogate under a byte limit
            return None
        spans.extend((first, len(bounds) // 2, f0, f1))
        if f0 == f1:
            empty.append(text)
    return (ids, bounds, spans), len(_RAW_WORDS), empty, cands, ref_starts, refs


def raw_words(start: int) -> list[str]:
    """The words of raw ids ``start``, ``start + 1``, ... (every id given so far)."""
    return _RAW_WORDS[max(0, start):]


def _load_text(t, packed, remap):
    """(flat tokens, non-empty sentences) of text ``t`` in final ids."""
    ids, bounds, spans = packed
    first, end, f0, f1 = spans[4 * t:4 * t + 4]

    def final(a, b):
        part = list(ids[a:b])
        if remap is None:
            return part
        return [x for x in (remap[i] for i in part) if x >= 0]

    sents = [s for s in (final(bounds[2 * k], bounds[2 * k + 1]) for k in range(first, end)) if s]
    return final(f0, f1), sents


def _measure_stats(spec, cand, cand_sents, ref, ref_sents) -> tuple:
    kind, n, unigrams, weight = spec
    if kind == M_NGRAM:
        c_total = max(0, len(cand) - n + 1)
        r_total = max(0, len(ref) - n + 1)
        hit = ngram_hits(cand, ref, n) if c_total and r_total else 0
        return hit, r_total, c_total, r_total
    if kind == M_LCS:
        base = sum(map(len, ref_sents))
        hit = union_lcs_hit(cand, cand_sents, ref, ref_sents) if base and cand else 0
        return hit, base, len(cand), base
    if kind == M_LCS_FLAT:
        hit = lcs_length(ref, cand) if cand and ref else 0
        return hit, len(ref), len(cand), len(ref)
    if kind == M_WLCS:
        whit, wbase = wlcs_raw(cand, cand_sents, ref, ref_sents, weight)
        return whit, wbase ** weight, len(cand) ** weight, wbase
    if kind == M_SKIP:
        skip = None if n < 0 else n
        c_counts, c_total = skip_bigram_counts(cand, skip, bool(unigrams))
        r_counts, r_total = skip_bigram_counts(ref, skip, bool(unigrams))
        hit = clipped_hits(c_counts, r_counts) if c_total and r_total else 0
        return hit, r_total, c_total, r_total
    raise ValueError(f"bad measure spec {spec!r}")


def score_pairs(packed, remap, cands, ref_starts, refs, measures):
    """Statistics of every pair and measure: ``array('d')`` of
    ``(hit, ref_total, cand_total, key_base)`` at ``[(e * M + k) * 4]`` for
    reference entry ``e`` (pair ``p``'s are ``ref_starts[p]`` to
    ``ref_starts[p + 1] - 1``, text ``refs[e]`` against text ``cands[p]``)
    and measure spec ``k``.  ``remap`` maps raw ids to final ids (-1: drop
    the word), or is None.  ``key_base`` is ROUGE-W's Σ f(sentence length)
    and ``ref_total`` for every other measure.
    """
    out = array("d")
    for p in range(len(cands)):
        cand, cand_sents = _load_text(cands[p], packed, remap)
        for e in range(ref_starts[p], ref_starts[p + 1]):
            ref, ref_sents = _load_text(refs[e], packed, remap)
            for spec in measures:
                out.extend(_measure_stats(spec, cand, cand_sents, ref, ref_sents))
    return out


# -- synonyms on the batch path (issue 22): the pair's words as raw ids ------
#
# The definition of rouge2/kernels/synonyms.h.  A synonym relation comes
# resolved into raw word ids (rouge2.synonyms.ids.WordRelation): ``offsets``
# and ``targets``, the words related to raw id ``a`` with a smaller id being
# ``targets[offsets[a]:offsets[a + 1]]``.  Units match when their words are
# the same, have the same final id (the stem, with stemming) or are related,
# position by position (docs/synonyms.md).

def _surface(t, packed, remap) -> list[list[int]]:
    """Text ``t``'s non-empty sentences as the raw ids of its kept words."""
    ids, bounds, spans = packed
    sents = []
    for k in range(spans[4 * t], spans[4 * t + 1]):
        sent = [i for i in ids[bounds[2 * k]:bounds[2 * k + 1]] if remap is None or remap[i] >= 0]
        if sent:
            sents.append(sent)
    return sents


def _pair_relation(cand: list[int], ref: list[int], fin, offsets, targets):
    """``related(a, b)`` over the words of a pair (same final id, or related
    through the lists), or None when no word of one text is related to a
    word of the other with another final id (every measure then has its
    plain value)."""
    near: dict[int, set[int]] = {w: set() for w in (*cand, *ref)}
    for a in near:
        for b in targets[offsets[a]:offsets[a + 1]]:
            if b in near and fin(a) != fin(b):
                near[a].add(b)
                near[b].add(a)
    in_ref = set(ref)
    if not any(b in in_ref for a in set(cand) for b in near[a]):
        return None
    return lambda a, b: fin(a) == fin(b) or b in near[a]


def _b_matching(cand: Counter, ref: Counter, related) -> int:
    """The maximum number of candidate unit occurrences matched to distinct
    reference unit occurrences of a related unit (Kuhn's augmenting paths,
    one occurrence at a time)."""
    slots = [v for v, k in ref.items() for _ in range(k)]
    owner: list[int] = [-1] * len(slots)
    units = [u for u, k in cand.items() for _ in range(k)]
    reach = {u: [s for s, v in enumerate(slots) if related(u, v)] for u in cand}

    def augment(i: int, seen: set[int]) -> bool:
        for s in reach[units[i]]:
            if s not in seen:
                seen.add(s)
                if owner[s] < 0 or augment(owner[s], seen):
                    owner[s] = i
                    return True
        return False

    return sum(1 for i in range(len(units)) if augment(i, set()))


def _related_lcs_marks(sent: list[int], peer: list[int], related) -> set[int]:
    """The positions of ``sent`` on the script's LCS traceback against
    ``peer`` (a diagonal step where the words match, else up on ties), words
    matching when ``related``."""
    m, n = len(sent), len(peer)
    c = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            c[i][j] = c[i - 1][j - 1] + 1 if related(peer[j - 1], sent[i - 1]) else max(c[i - 1][j], c[i][j - 1])
    marks = set()
    i, j = m, n
    while i and j:
        if related(peer[j - 1], sent[i - 1]):
            marks.add(i - 1)
            i, j = i - 1, j - 1
        elif c[i - 1][j] >= c[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return marks


def _synonym_hit(kind: int, n: int, cand: list[list[int]], ref: list[list[int]], related, plain: float) -> float:
    """The hit of one measure with synonyms: ROUGE-N's maximum matching of
    n-grams; ROUGE-L's larger of the plain hit and the maximum matching of
    the reference words on the related LCS (summary-level: per reference
    sentence, the union over the candidate sentences)."""
    flat_c = [w for s in cand for w in s]
    flat_r = [w for s in ref for w in s]
    if kind == M_NGRAM:
        if len(flat_c) < n or len(flat_r) < n:
            return plain
        grams = [Counter(zip(*(words[i:] for i in range(n)))) for words in (flat_c, flat_r)]
        return float(_b_matching(grams[0], grams[1], lambda u, v: all(map(related, u, v))))
    if not flat_c or not flat_r:
        return plain
    if kind == M_LCS_FLAT:
        cand, ref = [flat_c], [flat_r]
    marked: Counter = Counter()
    for sent in ref:
        marks: set[int] = set()
        for peer in cand:
            marks |= _related_lcs_marks(sent, peer, related)
        marked.update(sent[i] for i in marks)
    return max(plain, float(_b_matching(Counter(flat_c), marked, related)))


def synonym_stats(packed, remap, cands, ref_starts, refs, stats, width: int, measures, relation):
    """``stats`` (what :func:`score_pairs` gave for ``width`` measures) with
    the hits of the measures ``measures`` (``(k, kind, n)``: column ``k``,
    ROUGE-N or ROUGE-L of :func:`score_pairs`' kinds) counted with synonyms:
    units match when equal, of the same final id, or related through
    ``relation = (offsets, targets)`` position by position.  A pair whose
    texts have no related words of different final ids keeps its plain
    statistics.  Word limits are not taken (the texts' sentences must be
    their flat tokens)."""
    offsets, targets = relation
    fin = (lambda w: w) if remap is None else remap.__getitem__
    out = array("d", stats)
    for p in range(len(cands)):
        cand = _surface(cands[p], packed, remap)
        for e in range(ref_starts[p], ref_starts[p + 1]):
            ref = _surface(refs[e], packed, remap)
            related = _pair_relation([w for s in cand for w in s], [w for s in ref for w in s], fin,
                                     offsets, targets)
            if related is None:
                continue
            for k, kind, n in measures:
                i = (e * width + k) * 4
                out[i] = _synonym_hit(kind, n, cand, ref, related, out[i])
    return out
