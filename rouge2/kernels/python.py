"""Pure-Python reference implementations of the hot loops.

Each function here is the definition; ``rouge2/kernels/_speedups.c`` gives the
same results faster and :mod:`rouge2.kernels` chooses between the two once,
at import.  Token ids are non-negative ints below 2**64.
"""

from __future__ import annotations

from array import array
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


# -- the batch path (issue 12): packed ids, every pair scored in one call ------
#
# The definitions of rouge2/kernels/batch.h.  A text is analysed once into raw
# word ids (a process-wide vocabulary of ROUGE-1.5.5 tokens); ``ids`` holds the
# ids of every non-empty sentence, ``sent_starts`` where each starts (plus the
# end), ``text_sents`` each text's first sentence (plus the end).

_RAW_IDS: dict[str, int] = {}
_RAW_WORDS: list[str] = []

#: measure kinds of :func:`score_pairs` specs ``(kind, n, unigrams, weight)``
M_NGRAM, M_LCS, M_LCS_FLAT, M_WLCS, M_SKIP = range(5)


def analyze_texts(texts, lines: bool):
    """``(ids, sent_starts, text_sents, nwords, empty)`` of ``texts`` (see
    above); ``empty`` lists the indices of the texts without a token.

    With ``lines`` each line is a sentence; otherwise a text is one sentence.
    Sentences without tokens are left out (they change no measure).
    """
    ids = array("i")
    sent_starts = array("q")
    text_sents = array("q")
    empty = []
    vocab = _RAW_IDS
    words = _RAW_WORDS
    for text in texts:
        if not isinstance(text, str):
            raise TypeError(f"texts must be str, not {type(text).__name__}")
        text_sents.append(len(sent_starts))
        before = len(ids)
        for part in (text.split("\n") if lines else (text,)):
            toks = rouge155_tokens(part)
            if not toks:
                continue
            sent_starts.append(len(ids))
            for t in toks:
                i = vocab.get(t)
                if i is None:
                    i = vocab[t] = len(words)
                    words.append(t)
                ids.append(i)
        if len(ids) == before:
            empty.append(len(text_sents) - 1)
    text_sents.append(len(sent_starts))
    sent_starts.append(len(ids))
    return ids, sent_starts, text_sents, len(words), empty


def analyze_pairs(pairs, start: int, stop: int, lines: bool):
    """:func:`analyze_texts` of the distinct texts of ``pairs[start:stop]``
    (``(candidate, references)`` pairs, references a str or a non-empty list
    or tuple of str), plus each pair's candidate text index, reference
    entry starts and reference text indices:
    ``(ids, sent_starts, text_sents, nwords, empty_texts, cands, ref_starts, refs)``.
    None when a text is not a str (the caller takes the per-pair path)."""
    index: dict[str, int] = {}
    add = index.setdefault
    cands = array("i")
    refs = array("i")
    ref_starts = array("q", [0])
    for pair in pairs[max(0, start):stop]:
        if type(pair) not in (tuple, list) or len(pair) != 2:
            return None
        c, r = pair
        if type(c) is not str:
            return None
        if type(r) is str:
            r = (r,)
        elif type(r) not in (list, tuple) or not r or any(type(x) is not str for x in r):
            return None
        cands.append(add(c, len(index)))
        refs.extend([add(x, len(index)) for x in r])
        ref_starts.append(len(refs))
    texts = list(index)
    ids, sent_starts, text_sents, nwords, empty = analyze_texts(texts, lines)
    return (ids, sent_starts, text_sents, nwords, [texts[t] for t in empty], cands,
            ref_starts, refs)


def raw_words(start: int) -> list[str]:
    """The words of raw ids ``start``, ``start + 1``, ... (every id given so far)."""
    return _RAW_WORDS[max(0, start):]


def _load_text(t, ids, sent_starts, text_sents, remap):
    """(tokens, non-empty sentences) of text ``t`` in final ids."""
    sents = []
    for s in range(text_sents[t], text_sents[t + 1]):
        sent = ids[sent_starts[s]:sent_starts[s + 1]].tolist()
        if remap is not None:
            sent = [remap[i] for i in sent]
            sent = [i for i in sent if i >= 0]
        if sent:
            sents.append(sent)
    tokens = [i for s in sents for i in s]
    return tokens, sents


def _union_lcs_hit(cand, cand_sents, ref, ref_sents) -> int:
    """ROUGE-1.5.5's summary-level union-LCS hit (both texts non-empty)."""
    if len(cand_sents) == 1 and len(ref_sents) == 1:
        return lcs_length(ref, cand)
    ref_left = Counter(ref)
    cand_left = Counter(cand)
    hit = 0
    for sent in ref_sents:
        m = len(sent)
        masks = position_masks(sent)
        union = 0
        for peer in cand_sents:
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


def _wlcs_raw(cand, cand_sents, ref, ref_sents, w: float):
    """(weighted hit, Σ f(reference sentence length)) as the script counts them."""
    ref_left = Counter(ref)
    cand_left = Counter(cand)
    hit = 0.0
    base = 0.0
    for sent in ref_sents:
        m = len(sent)
        base += m ** w
        mask = [0] * m
        for peer in cand_sents:
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


def score_pairs(ids, sent_starts, text_sents, remap, cands, ref_starts, refs, measures):
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
        cand, cand_sents = _load_text(cands[p], ids, sent_starts, text_sents, remap)
        for e in range(ref_starts[p], ref_starts[p + 1]):
            ref, ref_sents = _load_text(refs[e], ids, sent_starts, text_sents, remap)
            for kind, n, unigrams, weight in measures:
                if kind == M_NGRAM:
                    c_total = max(0, len(cand) - n + 1)
                    r_total = max(0, len(ref) - n + 1)
                    hit = ngram_hits(cand, ref, n) if c_total and r_total else 0
                    out.extend((hit, r_total, c_total, r_total))
                elif kind in (M_LCS, M_LCS_FLAT):
                    hit = 0
                    if cand and ref:
                        hit = (_union_lcs_hit(cand, cand_sents, ref, ref_sents) if kind == M_LCS
                               else lcs_length(ref, cand))
                    out.extend((hit, len(ref), len(cand), len(ref)))
                elif kind == M_WLCS:
                    hit, base = _wlcs_raw(cand, cand_sents, ref, ref_sents, weight)
                    out.extend((hit, base ** weight, len(cand) ** weight, base))
                elif kind == M_SKIP:
                    skip = None if n < 0 else n
                    c_counts, c_total = skip_bigram_counts(cand, skip, bool(unigrams))
                    r_counts, r_total = skip_bigram_counts(ref, skip, bool(unigrams))
                    hit = clipped_hits(c_counts, r_counts) if c_total and r_total else 0
                    out.extend((hit, r_total, c_total, r_total))
                else:
                    raise ValueError(f"bad measure spec {(kind, n, unigrams, weight)!r}")
    return out
