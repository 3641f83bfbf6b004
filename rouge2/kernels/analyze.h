/*
 * The batch path's text analysis (issues 12 and 22): the distinct texts of
 * a chunk of pairs analysed into raw word ids, without the GIL for every
 * text C tokenizes itself.
 *
 * Included by _speedups.c (uses mix64, POPCOUNT64).  The Python definition
 * is rouge2.analysis.analyzer.Analyzer.raw_streams, which
 * rouge2/kernels/python.py analyze_pairs lays out the same way;
 * tests/test_batch.py checks C, Python and the per-pair path against each
 * other on random texts under every setting.
 *
 *   analyze_pairs(pairs, start, stop, spec) -> None or
 *       ((ids, bounds, spans), nwords, empty_texts, cands, ref_starts, refs)
 *
 *   spec = (tokenizer, sentences, word_limit, byte_limit, byte_text, tokenize)
 *       tokenizer 0 rouge155, 1 unicode, 2 character; sentences 0 lines,
 *       1 splitter, 2 none; word_limit / byte_limit: ROUGE-1.5.5's -l / -b
 *       (0: none); byte_text: the texts are bytes decoded as latin-1, so a
 *       byte limit counts characters; tokenize: the Python tokenizer, called
 *       with the GIL held on the texts C does not tokenize itself (None for
 *       rouge155).
 *   ids: int32 raw word ids (a process-wide vocabulary); bounds: int64
 *   (start, end) in ids of each sentence with a token; spans: int64 (first
 *   sentence, end sentence, flat start, flat end) of each distinct text.
 *   The flat tokens (n-grams, skip-bigrams, unigram counts) are
 *   ids[flat start:flat end]; ROUGE-L/W's sentences are the bounds from
 *   first to end - 1.  Without a byte limit the sentences lie inside the
 *   flat range and cover it ("aliased"); under a byte limit they follow it
 *   (ROUGE-1.5.5 cuts the two differently).  nwords: the vocabulary's size
 *   after the call; empty_texts: the distinct texts without a flat token;
 *   cands / refs: int32 indices of each pair's candidate and references
 *   into the distinct texts, ref_starts: int64 first reference entry of
 *   each pair (plus the end).  None when a pair or text is not of the
 *   plain kinds (tuple or list pair, str texts) or a text cannot be
 *   analysed here (the caller takes the per-pair path, which reports it).
 *
 *   raw_words(start) -> list[str]   the words of raw ids start, start+1, ...
 *
 * Threads: the vocabulary is shared by every thread and guarded by one
 * lock, held only while a call maps its own new words to global ids; the
 * rest of a call works on memory of its own (PyMem_Raw*), with the GIL
 * released.
 */

#include "pythread.h"

/* Failure codes of the GIL-free parts, turned into exceptions after. */
enum { A_OK = 0, A_NOMEM = 1, A_TOO_MANY = 2, A_FALLBACK = 3, A_PYERR = 4, A_INDEX = 5 };

static PyObject *
raise_code(int code)
{
    switch (code) {
    case A_NOMEM:
        return PyErr_NoMemory();
    case A_TOO_MANY:
        PyErr_SetString(PyExc_OverflowError, "too many distinct words");
        return NULL;
    case A_INDEX:
        PyErr_SetString(PyExc_IndexError, "an index is outside its array");
        return NULL;
    default: /* A_PYERR: already set */
        return NULL;
    }
}

/* ------------------------------------------------------------------ */
/* Word tables: word bytes -> dense ids, open addressing.              */

typedef struct {
    uint64_t hash;
    uint64_t c0;  /* the word's first 8 bytes (zero past its end): words of up
                     to 8 bytes compare without reading the arena */
    int32_t id;   /* -1 when empty */
    int32_t len;
} WSlot;

typedef struct {
    WSlot *slots;
    Py_ssize_t size, count;
    char *arena;
    Py_ssize_t alen, acap;
    Py_ssize_t *offs; /* count + 1 offsets into arena */
    Py_ssize_t ocap;
    uint64_t *hashes; /* per id */
    Py_ssize_t hcap;
} WordTable;

#define MAX_WORDS ((Py_ssize_t)0x7FFFFFF0)

static void
wt_free(WordTable *t)
{
    PyMem_RawFree(t->slots);
    PyMem_RawFree(t->arena);
    PyMem_RawFree(t->offs);
    PyMem_RawFree(t->hashes);
    memset(t, 0, sizeof(*t));
}

static int
wt_resize(WordTable *t, Py_ssize_t size)
{
    Py_ssize_t i;
    WSlot *fresh = (WSlot *)PyMem_RawMalloc((size_t)size * sizeof(WSlot));
    if (fresh == NULL)
        return -1;
    for (i = 0; i < size; i++)
        fresh[i].id = -1;
    for (i = 0; i < t->size; i++) {
        if (t->slots[i].id >= 0) {
            Py_ssize_t s = (Py_ssize_t)(t->slots[i].hash & (uint64_t)(size - 1));
            while (fresh[s].id >= 0)
                s = (s + 1) & (size - 1);
            fresh[s] = t->slots[i];
        }
    }
    PyMem_RawFree(t->slots);
    t->slots = fresh;
    t->size = size;
    return 0;
}

static int
wt_grow(WordTable *t)
{
    return wt_resize(t, t->size ? t->size * 2 : 1 << 12);
}

/* The hash of a word's bytes, eight at a time: every word table uses it.
   hash_chunk folds in one little-endian chunk of up to 8 bytes (zero past
   the word's end); hash_end mixes in the length.  emit_c computes the same
   from the text's bytes, lowercasing a chunk at a time. */
#define HASH_SEED 0x243F6A8885A308D3ULL

static inline uint64_t
hash_chunk(uint64_t h, uint64_t chunk)
{
    h = (h ^ chunk) * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 31);
}

static inline uint64_t
hash_end(uint64_t h, Py_ssize_t n)
{
    return mix64(h ^ (uint64_t)n);
}

/* Up to 8 bytes at p as a little-endian integer, zero above n bytes. */
static inline uint64_t
load_le(const unsigned char *p, Py_ssize_t n)
{
    uint64_t x = 0;
    Py_ssize_t k;
    if (n >= 8) {
        memcpy(&x, p, 8);
#if PY_BIG_ENDIAN
        x = __builtin_bswap64(x);
#endif
        return x;
    }
    for (k = 0; k < n; k++)
        x |= (uint64_t)p[k] << (8 * k);
    return x;
}

static inline uint64_t
word_hash(const char *p, Py_ssize_t n)
{
    uint64_t h = HASH_SEED;
    Py_ssize_t k;
    for (k = 0; k < n; k += 8)
        h = hash_chunk(h, load_le((const unsigned char *)p + k, n - k));
    return hash_end(h, n);
}

/* Add word p[0:n] (hash h, first chunk c0) at slot s, known to be free;
   its id, or -A_NOMEM / -A_TOO_MANY. */
static int32_t
wt_add(WordTable *t, Py_ssize_t s, const char *p, Py_ssize_t n, uint64_t h, uint64_t c0)
{
    if (t->count >= MAX_WORDS || n > 0x7FFFFFFF)
        return -A_TOO_MANY;
    if (2 * (t->count + 1) > t->size) { /* grow, then find the word's slot again */
        if (wt_grow(t) < 0)
            return -A_NOMEM;
        s = (Py_ssize_t)(h & (uint64_t)(t->size - 1));
        while (t->slots[s].id >= 0)
            s = (s + 1) & (t->size - 1);
    }
    if (raw_reserve((void **)&t->arena, &t->acap, t->alen + n + 8, 1, 1 << 14) < 0 || /* 8 to read past */
        raw_reserve((void **)&t->offs, &t->ocap, t->count + 2, sizeof(Py_ssize_t), 1 << 10) < 0 ||
        raw_reserve((void **)&t->hashes, &t->hcap, t->count + 1, sizeof(uint64_t), 1 << 10) < 0)
        return -A_NOMEM;
    if (t->count == 0)
        t->offs[0] = 0;
    memcpy(t->arena + t->alen, p, (size_t)n);
    t->alen += n;
    t->offs[t->count + 1] = t->alen;
    t->hashes[t->count] = h;
    t->slots[s].hash = h;
    t->slots[s].c0 = c0;
    t->slots[s].len = (int32_t)n;
    t->slots[s].id = (int32_t)t->count;
    return (int32_t)t->count++;
}

/* Whether the arena's word at q (an arena keeps 8 bytes past its end, so
   8-byte reads there are safe) is p[0:n], compared 8 bytes at a time. */
static inline int
arena_equal(const char *q, const char *p, Py_ssize_t n)
{
    Py_ssize_t k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t x, y;
        memcpy(&x, q + k, 8);
        memcpy(&y, p + k, 8);
        if (x != y)
            return 0;
    }
    if (k == n)
        return 1;
    return (load_le((const unsigned char *)q + k, 8) & ((UINT64_C(1) << (8 * (n - k))) - 1)) ==
           load_le((const unsigned char *)p + k, n - k);
}

/* The id of word p[0:n] (hash h from word_hash, first chunk c0 as
   load_le gives it), adding it if new; -A_NOMEM or -A_TOO_MANY on failure. */
static inline int32_t
wt_intern(WordTable *t, const char *p, Py_ssize_t n, uint64_t h, uint64_t c0)
{
    Py_ssize_t s, mask;
    if (t->size == 0 && wt_grow(t) < 0)
        return -A_NOMEM;
    mask = t->size - 1;
    s = (Py_ssize_t)(h & (uint64_t)mask);
    for (;;) {
        const WSlot *e = &t->slots[s];
        if (e->id < 0)
            return wt_add(t, s, p, n, h, c0);
        if (e->hash == h && e->c0 == c0 && e->len == n &&
            (n <= 8 || arena_equal(t->arena + t->offs[e->id] + 8, p + 8, n - 8)))
            return e->id;
        s = (s + 1) & mask;
    }
}

/* The first chunk of a word, as load_le reads it. */
static inline uint64_t
first_chunk(const char *p, Py_ssize_t n)
{
    return load_le((const unsigned char *)p, n < 8 ? n : 8);
}

/* The process-wide raw vocabulary and its lock. */
static WordTable vocab;
static PyThread_type_lock vocab_lock = NULL;

/* Take the vocabulary lock from a thread holding the GIL, letting other
   threads run while it waits. */
static void
vocab_acquire_with_gil(void)
{
    if (!PyThread_acquire_lock(vocab_lock, NOWAIT_LOCK)) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(vocab_lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
}

PyDoc_STRVAR(raw_words_doc,
"raw_words(start, /) -> list[str]\n\n"
"The words of the raw ids start, start + 1, ... (every id given so far).");

static PyObject *
raw_words(PyObject *self, PyObject *arg)
{
    Py_ssize_t start = PyLong_AsSsize_t(arg), i;
    PyObject *out = NULL;
    if (start == -1 && PyErr_Occurred())
        return NULL;
    vocab_acquire_with_gil();
    if (start < 0)
        start = 0;
    if (start > vocab.count)
        start = vocab.count;
    out = PyList_New(vocab.count - start);
    for (i = start; out != NULL && i < vocab.count; i++) {
        PyObject *w = PyUnicode_DecodeUTF8(vocab.arena + vocab.offs[i],
                                           vocab.offs[i + 1] - vocab.offs[i], "strict");
        if (w == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i - start, w);
    }
    PyThread_release_lock(vocab_lock);
    return out;
}

/* ------------------------------------------------------------------ */
/* Texts and settings.                                                  */

typedef struct {
    PyObject *obj;
    const void *data;
    int kind;
    Py_ssize_t len;
    int ascii;
} UText;

#define UC(u, i) PyUnicode_READ((u)->kind, (u)->data, (i))

enum { TOK_ROUGE155 = 0, TOK_UNICODE = 1, TOK_CHARACTER = 2 };
enum { SENT_LINES = 0, SENT_SPLITTER = 1, SENT_NONE = 2 };

typedef struct {
    int tokenizer, sentences, byte_text;
    Py_ssize_t word_limit, byte_limit;
    PyObject *defs; /* borrowed: unitok.h's (word_label, grapheme_class, category, normalize) */
    PyObject *raw;  /* borrowed: text -> (flat, sentences, aliased), the Python definition */
} ASpec;

static int
aspec_load(PyObject *spec, ASpec *sp)
{
    sp->raw = Py_None;
    if (!PyTuple_Check(spec) ||
        !PyArg_ParseTuple(spec, "iinnpO|O", &sp->tokenizer, &sp->sentences, &sp->word_limit,
                          &sp->byte_limit, &sp->byte_text, &sp->defs, &sp->raw))
        return -1;
    if (sp->tokenizer < TOK_ROUGE155 || sp->tokenizer > TOK_CHARACTER || sp->sentences < SENT_LINES ||
        sp->sentences > SENT_NONE || sp->word_limit < 0 || sp->byte_limit < 0 ||
        (sp->word_limit && sp->byte_limit)) {
        PyErr_SetString(PyExc_ValueError, "bad analysis spec");
        return -1;
    }
    if (sp->tokenizer != TOK_ROUGE155 && (!PyTuple_Check(sp->defs) || PyTuple_GET_SIZE(sp->defs) != 4)) {
        PyErr_SetString(PyExc_TypeError, "the analysis spec needs the tokenizer's definitions");
        return -1;
    }
    if (sp->tokenizer == TOK_CHARACTER && (sp->word_limit || sp->byte_limit) && !PyCallable_Check(sp->raw)) {
        PyErr_SetString(PyExc_TypeError, "the analysis spec needs the analyzer's definition");
        return -1;
    }
    return 0;
}

/* Whether C tokenizes this text itself without Python (else unitok.h does,
   with the GIL held): every rouge155 text, and the ASCII texts of the
   others (unicode's tokens are rouge155's there, character's each letter
   and digit). */
static int
c_tokenizes(const ASpec *sp, const UText *u)
{
    return sp->tokenizer == TOK_ROUGE155 || u->ascii;
}

/* ------------------------------------------------------------------ */
/* Analysis state of one call.                                          */

typedef struct {
    Py_ssize_t a, b;
} Range;

typedef struct {
    WordTable local; /* this call's words -> local ids */
    int32_t *ids;
    Py_ssize_t nids, idcap;
    int64_t *bounds; /* (start, end) per sentence */
    Py_ssize_t nb, bcap;
    Range *pieces; /* segmentation scratch */
    Py_ssize_t np, pcap;
    Py_ssize_t *first; /* first piece of each sentence, then np */
    Py_ssize_t ns, fcap;
    Py_ssize_t *spans; /* byte limit: each sentence's tokens in the flat text */
    Py_ssize_t spcap;
    char *word;
    Py_ssize_t wcap;
    int32_t char_ids[128]; /* local id + 1 of each one-byte word (0: not met yet) */
    int32_t byte_ids[256]; /* emit_chars: each byte's token id (when byte_ids_set) */
    int byte_ids_set;
    int err;
} AState;

static void
astate_free(AState *st)
{
    wt_free(&st->local);
    PyMem_RawFree(st->ids);
    PyMem_RawFree(st->bounds);
    PyMem_RawFree(st->pieces);
    PyMem_RawFree(st->first);
    PyMem_RawFree(st->spans);
    PyMem_RawFree(st->word);
}

/* One call's buffers, kept for the next call (issue 22): fresh memory of
   this size comes from the system a page fault at a time, which cost more
   CPU than the analysis of a chunk's small texts.  Taken and given back
   with the GIL held (it guards them); at most SPARE_BYTES kept, the word
   table emptied before it is kept. */
static AState astate_spare;
static int astate_spared = 0;
#define SPARE_BYTES ((Py_ssize_t)32 << 20)

static void
astate_take(AState *st)
{
    memset(st, 0, sizeof(*st));
    if (astate_spared) {
        *st = astate_spare;
        astate_spared = 0;
    }
}

/* Free st's buffers, or keep them for the next call (GIL held). */
static void
astate_release(AState *st)
{
    WordTable *t = &st->local;
    Py_ssize_t bytes = st->idcap * 4 + st->bcap * 8 + t->size * (Py_ssize_t)sizeof(WSlot) + t->acap +
                       t->ocap * 8 + t->hcap * 8;
    if (astate_spared || st->err || bytes > SPARE_BYTES) {
        astate_free(st);
        return;
    }
    if (t->count) {
        Py_ssize_t i;
        for (i = 0; i < t->size; i++)
            t->slots[i].id = -1;
    }
    t->count = t->alen = 0;
    st->nids = st->nb = st->np = st->ns = 0;
    memset(st->char_ids, 0, sizeof(st->char_ids));
    st->byte_ids_set = 0;
    astate_spare = *st;
    astate_spared = 1;
}

static int
fail(AState *st, int code)
{
    if (!st->err)
        st->err = code;
    return -1;
}

/* Append the (local) id of word p[0:n]. */
static int
push_word(AState *st, const char *p, Py_ssize_t n)
{
    int32_t id = wt_intern(&st->local, p, n, word_hash(p, n), first_chunk(p, n));
    if (id < 0)
        return fail(st, -id);
    if (st->nids == st->idcap &&
        raw_reserve((void **)&st->ids, &st->idcap, st->nids + 1, sizeof(int32_t), 1 << 12) < 0)
        return fail(st, A_NOMEM);
    st->ids[st->nids++] = id;
    return 0;
}

static int
push_bounds(AState *st, Py_ssize_t a, Py_ssize_t b)
{
    if (raw_reserve((void **)&st->bounds, &st->bcap, 2 * (st->nb + 1), sizeof(int64_t), 1 << 10) < 0)
        return fail(st, A_NOMEM);
    st->bounds[2 * st->nb] = (int64_t)a;
    st->bounds[2 * st->nb + 1] = (int64_t)b;
    st->nb++;
    return 0;
}

/* A sentence's tokens were appended from ``start`` on: record it unless
   it has none. */
static int
close_sentence(AState *st, Py_ssize_t start)
{
    return st->nids > start ? push_bounds(st, start, st->nids) : 0;
}

/* byte -> lowercased ASCII letter or digit, 0 for a separator */
static unsigned char WORD_TABLE[256];

/* Py_UNICODE_ISSPACE and Py_UNICODE_ISLINEBREAK of the 256 one-byte
   characters (filled at start-up from the same functions). */
static unsigned char SPACE_1[256], LINEBREAK_1[256];
/* a one-byte character that can end a token ending a sentence: . ! ? or a
   closer (rule_sentences); any other last character means it does not */
static unsigned char ENDISH_1[256];

/* Append the (local) id of the word being built (st->word[0:n], its
   word_hash h); room for it in st->ids is reserved by the caller. */
static inline int
push_built(AState *st, Py_ssize_t n, uint64_t h)
{
    int32_t id = wt_intern(&st->local, st->word, n, h, first_chunk(st->word, n));
    if (id < 0)
        return fail(st, -id);
    st->ids[st->nids++] = id;
    return 0;
}

static int
emit_chars(AState *st, const UText *u, Py_ssize_t a, Py_ssize_t b);

/* The lowercase of up to 8 bytes of ASCII letters and digits: bit 5 set
   (digits have it already). */
#define LOWER8 0x2020202020202020ULL
#define HIGH8 0x8080808080808080ULL

/* Bit 7 of each byte of x set where the byte is an ASCII letter or digit
   (WORD_TABLE's non-zero bytes), eight at a time: range tests on the
   7-bit values, whose sums never carry into the next byte. */
static inline uint64_t
alnum_bits(uint64_t x)
{
    uint64_t v = x & 0x7F7F7F7F7F7F7F7FULL, y = v | LOWER8;
    uint64_t digit = (v + 0x5050505050505050ULL) & ~(v + 0x4646464646464646ULL); /* 0x30 <= v <= 0x39 */
    uint64_t letter = (y + 0x1F1F1F1F1F1F1F1FULL) & ~(y + 0x0505050505050505ULL); /* 0x61 <= y <= 0x7A */
    return (digit | letter) & ~x & HIGH8;
}

/* ROUGE-1.5.5's tokens of characters [a, b): runs of ASCII letters and
   digits, lowercased; every other character separates them.  One-byte
   texts are read 8 bytes at a time once a word's ends are found: each
   chunk is lowercased, hashed and copied in one step. */
static int
emit_c(AState *st, const ASpec *sp, const UText *u, Py_ssize_t a, Py_ssize_t b)
{
    const unsigned char *table = WORD_TABLE;
    if (sp->tokenizer == TOK_CHARACTER)
        return emit_chars(st, u, a, b);
    /* at most one token per two characters, a word at most b - a bytes */
    if (raw_reserve((void **)&st->ids, &st->idcap, st->nids + (b - a + 1) / 2 + 1, sizeof(int32_t),
                    1 << 12) < 0 ||
        raw_reserve((void **)&st->word, &st->wcap, b - a + 8, 1, 64) < 0)
        return fail(st, A_NOMEM);
    if (u->kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *d = (const Py_UCS1 *)u->data, *q = d + a, *end = d + b;
        const Py_UCS1 *dend = d + u->len; /* 8-byte reads stay inside the text */
        char *w = st->word;
        while (q < end) {
            const Py_UCS1 *p;
            Py_ssize_t n, k;
            uint64_t h = HASH_SEED;
            while (q < end && !table[*q])
                q++;
            if (q == end)
                break;
            p = q;
            if (p + 8 <= dend) { /* the word's first 8 bytes: where it ends, if it does there */
                uint64_t x = load_le(p, 8), stop = ~alnum_bits(x) & HIGH8;
                n = stop ? (Py_ssize_t)(LOWBIT64(stop) >> 3) : 8;
                if (n > end - p)
                    n = end - p;
                if (n < 8 || p + 8 == end || !table[p[8]]) {
                    /* the common word: one chunk, no copy on a hit */
                    static const uint64_t masks[9] = {0, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF,
                                                      0xFFFFFFFFFFULL, 0xFFFFFFFFFFFFULL,
                                                      0xFFFFFFFFFFFFFFULL, ~UINT64_C(0)};
                    uint64_t c0 = (x | LOWER8) & masks[n];
                    int32_t id;
                    q = p + n;
#if PY_BIG_ENDIAN
                    uint64_t y = __builtin_bswap64(c0);
                    memcpy(w, &y, 8);
#else
                    memcpy(w, &c0, 8);
#endif
                    id = wt_intern(&st->local, w, n, hash_end(hash_chunk(HASH_SEED, c0), n), c0);
                    if (id < 0)
                        return fail(st, -id);
                    st->ids[st->nids++] = id;
                    continue;
                }
            }
            while (q < end && table[*q])
                q++;
            n = q - p;
            for (k = 0; k < n; k += 8) {
                uint64_t x = (p + k + 8 <= dend) ? load_le(p + k, 8) : load_le(p + k, n - k);
                x |= LOWER8;
                if (n - k < 8)
                    x &= (UINT64_C(1) << (8 * (n - k))) - 1;
#if PY_BIG_ENDIAN
                {
                    uint64_t y = __builtin_bswap64(x);
                    memcpy(w + k, &y, 8);
                }
#else
                memcpy(w + k, &x, 8);
#endif
                h = hash_chunk(h, x);
            }
            if (push_built(st, n, hash_end(h, n)) < 0)
                return -1;
        }
        return 0;
    }
    {
        Py_ssize_t i, n = 0;
        for (i = a; i <= b; i++) {
            Py_UCS4 ch = i < b ? UC(u, i) : 0;
            unsigned char c = ch < 128 ? table[ch] : 0;
            if (c) {
                st->word[n++] = (char)c;
            }
            else if (n) {
                if (push_built(st, n, word_hash(st->word, n)) < 0)
                    return -1;
                n = 0;
            }
        }
    }
    return 0;
}

/* The local id of the one-byte word c (an ASCII character), interned
   once a call: the character tokenizer's tokens are mostly these. */
static inline int32_t
char_id(AState *st, unsigned char c)
{
    int32_t id = st->char_ids[c & 0x7F] - 1;
    if (id < 0) {
        char w = (char)c;
        id = wt_intern(&st->local, &w, 1, hash_end(hash_chunk(HASH_SEED, c), 1), c);
        if (id < 0)
            return fail(st, -id);
        st->char_ids[c & 0x7F] = id + 1;
    }
    return id;
}

/* character's tokens of ASCII characters [a, b): each letter and digit,
   lowercased (NFKC and case folding change nothing else there). */
static int
emit_chars(AState *st, const UText *u, Py_ssize_t a, Py_ssize_t b)
{
    Py_ssize_t i;
    if (raw_reserve((void **)&st->ids, &st->idcap, st->nids + (b - a), sizeof(int32_t), 1 << 12) < 0)
        return fail(st, A_NOMEM);
    if (u->kind == PyUnicode_1BYTE_KIND) { /* every id written, kept when a token: no branch */
        const Py_UCS1 *d = (const Py_UCS1 *)u->data;
        int32_t *out = st->ids, *byte_ids = st->byte_ids;
        Py_ssize_t n = st->nids;
        if (!st->byte_ids_set) { /* -1: no token; -2: a letter or digit not met yet */
            for (i = 0; i < 256; i++)
                byte_ids[i] = WORD_TABLE[i] ? -2 : -1;
            st->byte_ids_set = 1;
        }
        for (i = a; i < b; i++) {
            int32_t id = byte_ids[d[i]];
            if (id < -1) {
                unsigned char c = WORD_TABLE[d[i]];
                if ((id = char_id(st, c)) < 0)
                    return -1;
                byte_ids[c] = byte_ids[c >= 'a' ? c - 32 : c] = id; /* both cases */
            }
            out[n] = id;
            n += id >= 0;
        }
        st->nids = n;
        return 0;
    }
    for (i = a; i < b; i++) {
        Py_UCS4 ch = UC(u, i);
        unsigned char c = ch < 128 ? WORD_TABLE[ch] : 0;
        if (c) {
            int32_t id = char_id(st, c);
            if (id < 0)
                return -1;
            st->ids[st->nids++] = id;
        }
    }
    return 0;
}

#include "unitok.h"

/* unitok.h's sink: a token's UTF-8 bytes (in st->word) interned like a word. */
static int
sink_push(void *ctx, const char *utf8, Py_ssize_t n)
{
    AState *st = (AState *)ctx;
    if (raw_reserve((void **)&st->ids, &st->idcap, st->nids + 1, sizeof(int32_t), 1 << 12) < 0)
        return fail(st, A_NOMEM);
    if (n == 1) { /* an ASCII character */
        int32_t id = char_id(st, (unsigned char)utf8[0]);
        if (id < 0)
            return -1;
        st->ids[st->nids++] = id;
        return 0;
    }
    return push_built(st, n, word_hash(utf8, n));
}

static int
sink_error(void *ctx, int python_error)
{
    return fail((AState *)ctx, python_error ? A_PYERR : A_NOMEM);
}

/* The tokens of a str through unitok.h (GIL held). */
static int
emit_str(AState *st, const ASpec *sp, PyObject *part)
{
    UniSink k = {st, &st->word, &st->wcap, sink_push, sink_error};
    return sp->tokenizer == TOK_UNICODE ? unicode_tokens_c(&k, sp->defs, part)
                                        : character_tokens_c(&k, sp->defs, part);
}

/* The tokens of characters [a, b) of a text C does not tokenize alone. */
static int
emit_python(AState *st, const ASpec *sp, const UText *u, Py_ssize_t a, Py_ssize_t b)
{
    PyObject *part = (a == 0 && b == u->len) ? (Py_INCREF(u->obj), u->obj)
                                             : PyUnicode_Substring(u->obj, a, b);
    int rc;
    if (part == NULL)
        return fail(st, A_PYERR);
    rc = emit_str(st, sp, part);
    Py_DECREF(part);
    return rc;
}

static int
emit_range(AState *st, const ASpec *sp, const UText *u, Py_ssize_t a, Py_ssize_t b)
{
    if (a >= b)
        return 0;
    return c_tokenizes(sp, u) ? emit_c(st, sp, u, a, b) : emit_python(st, sp, u, a, b);
}

/* ------------------------------------------------------------------ */
/* Sentences (rouge2.analysis.sentences): a sentence is a list of       */
/* pieces, character ranges the sentence string joins with one space   */
/* (for "lines" one piece, the line itself).                            */

static int
add_piece(AState *st, Py_ssize_t a, Py_ssize_t b)
{
    if (raw_reserve((void **)&st->pieces, &st->pcap, st->np + 1, sizeof(Range), 64) < 0)
        return fail(st, A_NOMEM);
    st->pieces[st->np].a = a;
    st->pieces[st->np].b = b;
    st->np++;
    return 0;
}

/* Close the sentence being built (pieces since the last close). */
static int
end_sentence(AState *st)
{
    Py_ssize_t last = st->ns ? st->first[st->ns] : 0;
    if (st->np == last)
        return 0;
    if (raw_reserve((void **)&st->first, &st->fcap, st->ns + 2, sizeof(Py_ssize_t), 64) < 0)
        return fail(st, A_NOMEM);
    if (st->ns == 0)
        st->first[0] = 0;
    st->ns++;
    st->first[st->ns] = st->np;
    return 0;
}

static void
seg_reset(AState *st)
{
    st->np = 0;
    st->ns = 0;
}

/* ``line_sentences``: lines with a non-space character. */
static int
seg_lines(AState *st, const UText *u)
{
    Py_ssize_t i = 0;
    if (u->kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *d = (const Py_UCS1 *)u->data;
        while (i <= u->len) {
            const Py_UCS1 *nl = (const Py_UCS1 *)memchr(d + i, '\n', (size_t)(u->len - i));
            Py_ssize_t b = nl ? nl - d : u->len, k = i;
            while (k < b && SPACE_1[d[k]])
                k++;
            if (k < b && (add_piece(st, i, b) < 0 || end_sentence(st) < 0))
                return -1;
            i = b + 1;
        }
        return 0;
    }
    while (i <= u->len) {
        Py_ssize_t a = i, blank = 1;
        while (i < u->len && UC(u, i) != '\n') {
            if (blank && !Py_UNICODE_ISSPACE(UC(u, i)))
                blank = 0;
            i++;
        }
        if (!blank && (add_piece(st, a, i) < 0 || end_sentence(st) < 0))
            return -1;
        i++;
    }
    return 0;
}

static const Py_UCS4 CLOSERS[] = {'"', '\'', 0x201D, 0x2019, ')', ']', '}', 0xBB};
static const Py_UCS4 OPENERS[] = {'(', '"', '\'', 0x201C, 0x2018};

static int
in_set(Py_UCS4 c, const Py_UCS4 *set, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++)
        if (set[k] == c)
            return 1;
    return 0;
}

#define IS_CLOSER(c) in_set((c), CLOSERS, sizeof(CLOSERS) / sizeof(CLOSERS[0]))
#define IS_OPENER(c) (IS_CLOSER(c) || in_set((c), OPENERS, sizeof(OPENERS) / sizeof(OPENERS[0])))

static const char *const ABBREVIATIONS[] = {
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "vs", "etc", "e.g", "i.e", "fig", "no",
    "vol", "gen", "col", "lt", "sgt", "capt", "rev", "jan", "feb", "mar", "apr", "jun", "jul", "aug",
    "sep", "sept", "oct", "nov", "dec", "inc", "ltd", "co", "corp", "u.s", "u.k"};

/* Whether characters [a, b), lowercased as str.lower() does, are one of
   the splitter's abbreviations.  Only ASCII letters and the Kelvin sign
   (U+212A -> "k") lowercase to ASCII (tests/test_batch.py checks every
   code point), and every abbreviation is ASCII. */
static int
is_abbreviation(const UText *u, Py_ssize_t a, Py_ssize_t b)
{
    char low[8];
    Py_ssize_t n = b - a, k;
    size_t j;
    if (n < 1 || n > 4)
        return 0;
    for (k = 0; k < n; k++) {
        Py_UCS4 c = UC(u, a + k);
        if (c == 0x212A)
            c = 'k';
        else if (c >= 128)
            return 0;
        low[k] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    low[n] = 0;
    for (j = 0; j < sizeof(ABBREVIATIONS) / sizeof(ABBREVIATIONS[0]); j++)
        if (strcmp(low, ABBREVIATIONS[j]) == 0)
            return 1;
    return 0;
}

/* ``rule_sentences``' test of one whitespace token [a, b). */
static int
ends_sentence(const UText *u, Py_ssize_t a, Py_ssize_t b)
{
    Py_ssize_t e = b, s;
    Py_UCS4 last;
    while (e > a && IS_CLOSER(UC(u, e - 1)))
        e--;
    if (e == a)
        return 0;
    last = UC(u, e - 1);
    if (last != '.' && last != '!' && last != '?')
        return 0;
    if (last != '.')
        return 1;
    s = a;
    while (s < e - 1 && IS_OPENER(UC(u, s)))
        s++;
    /* a single letter: str.lower() of it is one alphabetic character
       (U+0130 alone lowercases to two) */
    if (e - 1 - s == 1) {
        Py_UCS4 c = UC(u, s);
        if (c != 0x130 && Py_UNICODE_ISALPHA(c))
            return 0;
    }
    return !is_abbreviation(u, s, e - 1);
}

/* seg_splitter for one-byte (latin-1) texts: the same rules, the
   character classes read from tables. */
static int
seg_splitter1(AState *st, const UText *u)
{
    const Py_UCS1 *d = (const Py_UCS1 *)u->data;
    Py_ssize_t i = 0, n = u->len;
    while (i < n) {
        Py_ssize_t a;
        if (SPACE_1[d[i]]) {
            if (LINEBREAK_1[d[i]] && end_sentence(st) < 0)
                return -1;
            i++;
            continue;
        }
        a = i;
        while (i < n && !SPACE_1[d[i]])
            i++;
        if (add_piece(st, a, i) < 0)
            return -1;
        if (ENDISH_1[d[i - 1]] && ends_sentence(u, a, i) && end_sentence(st) < 0)
            return -1;
    }
    return end_sentence(st);
}

/* ``rule_sentences``: whitespace tokens, a sentence ending after a token
   ending in . ! ? (closing quotes or brackets after it) unless it is an
   abbreviation or an initial; line breaks (str.splitlines) end sentences. */
static int
seg_splitter(AState *st, const UText *u)
{
    Py_ssize_t i = 0, n = u->len;
    if (u->kind == PyUnicode_1BYTE_KIND)
        return seg_splitter1(st, u);
    while (i < n) {
        Py_UCS4 c = UC(u, i);
        Py_ssize_t a;
        if (Py_UNICODE_ISSPACE(c)) {
            if (Py_UNICODE_ISLINEBREAK(c) && end_sentence(st) < 0)
                return -1;
            i++;
            continue;
        }
        a = i;
        while (i < n && !Py_UNICODE_ISSPACE(UC(u, i)))
            i++;
        if (add_piece(st, a, i) < 0)
            return -1;
        c = UC(u, i - 1);
        if ((c > 255 || ENDISH_1[c]) && ends_sentence(u, a, i) && end_sentence(st) < 0)
            return -1;
    }
    return end_sentence(st);
}

/* ``one_sentence``: every whitespace token, one sentence. */
static int
seg_none(AState *st, const UText *u)
{
    Py_ssize_t i = 0, n = u->len;
    while (i < n) {
        Py_ssize_t a;
        if (Py_UNICODE_ISSPACE(UC(u, i))) {
            i++;
            continue;
        }
        a = i;
        while (i < n && !Py_UNICODE_ISSPACE(UC(u, i)))
            i++;
        if (add_piece(st, a, i) < 0)
            return -1;
    }
    return end_sentence(st);
}

static int
segment(AState *st, const ASpec *sp, const UText *u)
{
    seg_reset(st);
    if (sp->sentences == SENT_LINES)
        return seg_lines(st, u);
    if (sp->sentences == SENT_SPLITTER)
        return seg_splitter(st, u);
    return seg_none(st, u);
}

/* character's tokens of the sentence string of pieces k0 .. k1-1 joined
   with one space: a grapheme cluster of whitespace and a mark depends on
   which whitespace it is, so the string is built as Python builds it. */
static int
emit_joined(AState *st, const ASpec *sp, const UText *u, Py_ssize_t k0, Py_ssize_t k1)
{
    PyObject *parts = PyList_New(k1 - k0), *sep = NULL, *joined = NULL;
    Py_ssize_t k;
    int rc = -1;
    if (parts == NULL)
        return fail(st, A_PYERR);
    for (k = k0; k < k1; k++) {
        PyObject *p = PyUnicode_Substring(u->obj, st->pieces[k].a, st->pieces[k].b);
        if (p == NULL)
            goto done;
        PyList_SET_ITEM(parts, k - k0, p);
    }
    sep = PyUnicode_FromString(" ");
    joined = sep == NULL ? NULL : PyUnicode_Join(sep, parts);
    if (joined != NULL)
        rc = emit_str(st, sp, joined);
done:
    if (rc < 0 && !st->err)
        fail(st, A_PYERR);
    Py_XDECREF(joined);
    Py_XDECREF(sep);
    Py_DECREF(parts);
    return rc;
}

/* The tokens of sentence s.  Its pieces are consecutive in the text with
   only whitespace between them, which separates tokens for rouge155 and
   unicode alike: one range from the first piece to the last gives the
   joined sentence's tokens (character joins them as Python does). */
static int
emit_sentence(AState *st, const ASpec *sp, const UText *u, Py_ssize_t s)
{
    Py_ssize_t k0 = st->first[s], k1 = st->first[s + 1];
    if (k1 <= k0)
        return 0;
    if (sp->tokenizer == TOK_CHARACTER && !u->ascii && k1 - k0 > 1)
        return emit_joined(st, sp, u, k0, k1);
    return emit_range(st, sp, u, st->pieces[k0].a, st->pieces[k1 - 1].b);
}

/* ------------------------------------------------------------------ */
/* Length limits (rouge2.analysis.limits): ROUGE-1.5.5's -l and -b.    */

static inline int
perl_space(Py_UCS4 c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Perl's split(/\s+/) of a line [a, b): its fields (a leading empty one
   when the line starts with whitespace); with ``upto`` > 0, *end gets the
   end of field ``upto``. */
static Py_ssize_t
line_fields(const UText *u, Py_ssize_t a, Py_ssize_t b, Py_ssize_t upto, Py_ssize_t *end)
{
    Py_ssize_t i = a, n = 0;
    if (i < b && perl_space(UC(u, i))) {
        n = 1; /* the empty field before the leading whitespace */
        if (n == upto)
            *end = a;
    }
    while (i < b) {
        while (i < b && perl_space(UC(u, i)))
            i++;
        if (i == b)
            break;
        while (i < b && !perl_space(UC(u, i)))
            i++;
        n++;
        if (n == upto)
            *end = i;
    }
    return n;
}

/* A sentence's word count as perl_split counts it: the line's fields, or
   the joined tokens' number (they hold no whitespace). */
static Py_ssize_t
sentence_fields(const AState *st, const ASpec *sp, const UText *u, Py_ssize_t s)
{
    if (sp->sentences == SENT_LINES)
        return line_fields(u, st->pieces[st->first[s]].a, st->pieces[st->first[s]].b, 0, NULL);
    return st->first[s + 1] - st->first[s];
}

/* The tokens of a sentence's first k fields (" ".join(words[:k])). */
static int
emit_fields(AState *st, const ASpec *sp, const UText *u, Py_ssize_t s, Py_ssize_t k)
{
    Py_ssize_t p0 = st->first[s], j;
    if (sp->sentences == SENT_LINES) {
        Py_ssize_t end = st->pieces[p0].a;
        line_fields(u, st->pieces[p0].a, st->pieces[p0].b, k, &end);
        return emit_range(st, sp, u, st->pieces[p0].a, end);
    }
    for (j = p0; j < p0 + k && j < st->first[s + 1]; j++)
        if (emit_range(st, sp, u, st->pieces[j].a, st->pieces[j].b) < 0)
            return -1;
    return 0;
}

static inline Py_ssize_t
utf8_len(Py_UCS4 c)
{
    return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

/* Bytes of characters [a, b) (UTF-8, or one a character for byte texts);
   -1 for a lone surrogate, which str.encode refuses. */
static Py_ssize_t
range_bytes(const ASpec *sp, const UText *u, Py_ssize_t a, Py_ssize_t b)
{
    Py_ssize_t i, n = 0;
    if (sp->byte_text || u->ascii)
        return b - a;
    for (i = a; i < b; i++) {
        Py_UCS4 c = UC(u, i);
        if (c >= 0xD800 && c <= 0xDFFF)
            return -1;
        n += utf8_len(c);
    }
    return n;
}

static Py_ssize_t
sentence_bytes(const AState *st, const ASpec *sp, const UText *u, Py_ssize_t s)
{
    Py_ssize_t k, total = 0;
    for (k = st->first[s]; k < st->first[s + 1]; k++) {
        Py_ssize_t b = range_bytes(sp, u, st->pieces[k].a, st->pieces[k].b);
        if (b < 0)
            return -1;
        total += b + (k > st->first[s]); /* the joining space */
    }
    return total;
}

/* The end of the characters of [a, b) that fit whole in ``*left`` bytes;
   *left loses their bytes. */
static Py_ssize_t
bytes_cut(const ASpec *sp, const UText *u, Py_ssize_t a, Py_ssize_t b, Py_ssize_t *left)
{
    Py_ssize_t i;
    if (sp->byte_text || u->ascii) {
        Py_ssize_t n = b - a < *left ? b - a : *left;
        *left -= n;
        return a + n;
    }
    for (i = a; i < b; i++) {
        Py_ssize_t c = utf8_len(UC(u, i));
        if (c > *left)
            break;
        *left -= c;
    }
    return i;
}

/* The tokens of a sentence string's first k bytes (whole characters only:
   a cut character is a separator to rouge155 and dropped when the bytes
   are decoded for the other tokenizers). */
static int
emit_bytes(AState *st, const ASpec *sp, const UText *u, Py_ssize_t s, Py_ssize_t k)
{
    Py_ssize_t j, left = k;
    for (j = st->first[s]; j < st->first[s + 1]; j++) {
        Py_ssize_t a = st->pieces[j].a, b = st->pieces[j].b, cut;
        if (j > st->first[s]) {
            if (left < 1)
                break;
            left--; /* the joining space */
        }
        cut = bytes_cut(sp, u, a, b, &left);
        if (emit_range(st, sp, u, a, cut) < 0)
            return -1;
        if (cut < b)
            break;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* One text.                                                            */

/* No limit: the sentences, aliased to the flat tokens. */
static int
analyze_plain(AState *st, const ASpec *sp, const UText *u)
{
    Py_ssize_t s, start;
    if (sp->sentences == SENT_LINES || sp->sentences == SENT_NONE) {
        /* a line's (or the text's) tokens are its sentence's: no pieces needed */
        Py_ssize_t i = 0;
        if (sp->sentences == SENT_NONE || u->kind != PyUnicode_1BYTE_KIND) {
            while (i <= u->len) {
                Py_ssize_t a = i;
                if (sp->sentences == SENT_LINES)
                    while (i < u->len && UC(u, i) != '\n')
                        i++;
                else
                    i = u->len;
                start = st->nids;
                if (emit_range(st, sp, u, a, i) < 0 || close_sentence(st, start) < 0)
                    return -1;
                i++;
            }
            return 0;
        }
        {
            const Py_UCS1 *d = (const Py_UCS1 *)u->data;
            while (i <= u->len) {
                const Py_UCS1 *nl = (const Py_UCS1 *)memchr(d + i, '\n', (size_t)(u->len - i));
                Py_ssize_t b = nl ? nl - d : u->len;
                start = st->nids;
                if (emit_range(st, sp, u, i, b) < 0 || close_sentence(st, start) < 0)
                    return -1;
                i = b + 1;
            }
        }
        return 0;
    }
    if (segment(st, sp, u) < 0)
        return -1;
    for (s = 0; s < st->ns; s++) {
        start = st->nids;
        if (emit_sentence(st, sp, u, s) < 0 || close_sentence(st, start) < 0)
            return -1;
    }
    return 0;
}

/* -l: the sentences kept whole while the word count stays below the
   limit, then the first words of the next; the flat text is the same
   words (``flat_text`` and ``lcs_sentences`` cut alike), so aliased. */
static int
analyze_words(AState *st, const ASpec *sp, const UText *u)
{
    Py_ssize_t s, used = 0, limit = sp->word_limit;
    if (segment(st, sp, u) < 0)
        return -1;
    for (s = 0; s < st->ns; s++) {
        Py_ssize_t nf = sentence_fields(st, sp, u, s), start = st->nids;
        int whole = used + nf < limit;
        if ((whole ? emit_sentence(st, sp, u, s) : emit_fields(st, sp, u, s, limit - used)) < 0 ||
            close_sentence(st, start) < 0)
            return -1;
        if (!whole)
            break;
        used += nf;
    }
    return 0;
}

/* -b: the flat text counts the bytes of the sentences it keeps; the
   script's sentence list never does, so each sentence is kept whole when
   shorter than the limit, and the first one that is not is cut there.
   Returns the end of the flat tokens (the sentences follow them). */
static int
analyze_bytes(AState *st, const ASpec *sp, const UText *u, Py_ssize_t *flat_end)
{
    Py_ssize_t s, used = 0, limit = sp->byte_limit, whole_flat = 0;
    if (range_bytes(sp, u, 0, u->len) < 0)
        return fail(st, A_FALLBACK); /* a lone surrogate: str.encode refuses it */
    if (segment(st, sp, u) < 0)
        return -1;
    if (raw_reserve((void **)&st->spans, &st->spcap, 2 * st->ns + 2, sizeof(Py_ssize_t), 64) < 0)
        return fail(st, A_NOMEM);
    for (s = 0; s < st->ns; s++) {
        Py_ssize_t nb = sentence_bytes(st, sp, u, s);
        if (used + nb < limit) {
            st->spans[2 * s] = st->nids; /* where its tokens are, to copy them below */
            if (emit_sentence(st, sp, u, s) < 0)
                return -1;
            st->spans[2 * s + 1] = st->nids;
            whole_flat = s + 1;
            used += nb;
        }
        else {
            if (emit_bytes(st, sp, u, s, limit - used) < 0)
                return -1;
            break;
        }
    }
    *flat_end = st->nids;
    for (s = 0; s < st->ns; s++) {
        Py_ssize_t nb = sentence_bytes(st, sp, u, s), start = st->nids;
        int whole = nb < limit, rc;
        if (s < whole_flat) { /* whole in the flat text too (its bytes were below the limit) */
            Py_ssize_t a = st->spans[2 * s], n = st->spans[2 * s + 1] - a;
            if (raw_reserve((void **)&st->ids, &st->idcap, st->nids + n, sizeof(int32_t), 1 << 12) < 0)
                return fail(st, A_NOMEM);
            memcpy(st->ids + st->nids, st->ids + a, (size_t)n * sizeof(int32_t));
            st->nids += n;
            rc = 0;
        }
        else {
            rc = whole ? emit_sentence(st, sp, u, s) : emit_bytes(st, sp, u, s, limit);
        }
        if (rc < 0 || close_sentence(st, start) < 0)
            return -1;
        if (!whole)
            break;
    }
    return 0;
}

/* Under a byte limit, when the sentences' tokens (after the flat ones,
   sentences first_b .. st->nb - 1) are exactly the flat tokens: drop the
   copy and point the sentences into the flat range (the layout without a
   limit, which the counting takes faster). */
static void
alias_if_equal(AState *st, Py_ssize_t first_b, Py_ssize_t flat0, Py_ssize_t *flat_end)
{
    Py_ssize_t nflat = *flat_end - flat0, shift = *flat_end - flat0, k;
    if (st->nids - *flat_end != nflat ||
        memcmp(st->ids + flat0, st->ids + *flat_end, (size_t)nflat * sizeof(int32_t)) != 0)
        return;
    for (k = 2 * first_b; k < 2 * st->nb; k++)
        st->bounds[k] -= shift;
    st->nids = *flat_end;
}

/* Push the tokens of a list of str (GIL held). */
static int
push_list(AState *st, PyObject *toks)
{
    Py_ssize_t k;
    if (!PyList_Check(toks)) {
        PyErr_SetString(PyExc_TypeError, "the analyzer's definition must give lists of str");
        return fail(st, A_PYERR);
    }
    for (k = 0; k < PyList_GET_SIZE(toks); k++) {
        PyObject *t = PyList_GET_ITEM(toks, k);
        Py_ssize_t len;
        const char *p = PyUnicode_Check(t) ? PyUnicode_AsUTF8AndSize(t, &len) : NULL;
        if (p == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "the analyzer's definition must give lists of str");
            return fail(st, A_PYERR);
        }
        if (push_word(st, p, len) < 0)
            return -1;
    }
    return 0;
}

/* The analyzer's own definition of text u (``raw(text) -> (flat tokens,
   sentence tokens, aliased)``), laid out as analyze_one does (GIL held):
   what character takes under a length limit for a non-ASCII text, where
   the cut strings' grapheme clusters are simplest left to Python. */
static int
analyze_raw(AState *st, const ASpec *sp, const UText *u, Py_ssize_t *flat_end)
{
    PyObject *res = PyObject_CallOneArg(sp->raw, u->obj), *flat, *sents;
    Py_ssize_t k;
    int aliased, rc = 0;
    if (res == NULL) {
        if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) { /* a lone surrogate under -b */
            PyErr_Clear();
            return fail(st, A_FALLBACK);
        }
        return fail(st, A_PYERR);
    }
    if (!PyArg_ParseTuple(res, "OOp", &flat, &sents, &aliased) || !PyList_Check(sents)) {
        Py_DECREF(res);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "the analyzer's definition must give (list, list, bool)");
        return fail(st, A_PYERR);
    }
    if (!aliased)
        rc = push_list(st, flat);
    *flat_end = st->nids;
    for (k = 0; k < PyList_GET_SIZE(sents) && rc == 0; k++) {
        Py_ssize_t start = st->nids;
        rc = push_list(st, PyList_GET_ITEM(sents, k));
        if (rc == 0)
            rc = close_sentence(st, start);
    }
    if (aliased)
        *flat_end = st->nids;
    Py_DECREF(res);
    return rc;
}

/* Analyse text u; span gets (first sentence, end sentence, flat start,
   flat end). */
static int
analyze_one(AState *st, const ASpec *sp, const UText *u, int64_t *span)
{
    Py_ssize_t first = st->nb, flat0 = st->nids, flat1;
    int rc;
    if (sp->tokenizer == TOK_CHARACTER && !u->ascii && (sp->word_limit || sp->byte_limit)) {
        rc = analyze_raw(st, sp, u, &flat1);
    }
    else if (sp->byte_limit) {
        rc = analyze_bytes(st, sp, u, &flat1);
        if (rc == 0)
            alias_if_equal(st, first, flat0, &flat1);
    }
    else {
        rc = sp->word_limit ? analyze_words(st, sp, u) : analyze_plain(st, sp, u);
        flat1 = st->nids;
    }
    if (rc < 0)
        return -1;
    span[0] = (int64_t)first;
    span[1] = (int64_t)st->nb;
    span[2] = (int64_t)flat0;
    span[3] = (int64_t)flat1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Distinct texts of a chunk, by content (no GIL needed).               */

static uint64_t
text_hash(const UText *u)
{
    const unsigned char *p = (const unsigned char *)u->data;
    Py_ssize_t n = u->len * u->kind, k = 0;
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
    for (; k + 8 <= n; k += 8) {
        uint64_t x;
        memcpy(&x, p + k, 8);
        h = (h ^ x) * 0xFF51AFD7ED558CCDULL;
        h ^= h >> 32;
    }
    if (k < n) {
        uint64_t x = 0;
        memcpy(&x, p + k, (size_t)(n - k));
        h = (h ^ x) * 0xFF51AFD7ED558CCDULL;
    }
    return mix64(h);
}

static int
text_equal(const UText *a, const UText *b)
{
    return a->obj == b->obj ||
           (a->kind == b->kind && a->len == b->len &&
            memcmp(a->data, b->data, (size_t)(a->len * a->kind)) == 0);
}

static UText
utext_of(PyObject *s)
{
    UText u;
    u.obj = s;
    u.data = PyUnicode_DATA(s);
    u.kind = PyUnicode_KIND(s);
    u.len = PyUnicode_GET_LENGTH(s);
    u.ascii = PyUnicode_IS_ASCII(s);
    return u;
}

/* For each of n text occurrences, its index among the distinct texts;
   *distinct gets the distinct texts' first occurrences.  -1 no memory. */
static int
dedupe_texts(const UText *occ, Py_ssize_t n, int32_t *index, Py_ssize_t *distinct,
             Py_ssize_t *ndistinct)
{
    Py_ssize_t size = 16, i, nd = 0;
    struct {
        uint64_t h;
        Py_ssize_t first;
    } *table;
    while (size < 2 * n)
        size <<= 1;
    table = PyMem_RawMalloc((size_t)size * sizeof(*table));
    if (table == NULL)
        return -1;
    for (i = 0; i < size; i++)
        table[i].first = -1;
    for (i = 0; i < n; i++) {
        uint64_t h = text_hash(&occ[i]);
        Py_ssize_t s = (Py_ssize_t)(h & (uint64_t)(size - 1));
        for (;;) {
            if (table[s].first < 0) {
                table[s].h = h;
                table[s].first = nd;
                distinct[nd] = i;
                index[i] = (int32_t)nd++;
                break;
            }
            if (table[s].h == h && text_equal(&occ[distinct[table[s].first]], &occ[i])) {
                index[i] = (int32_t)table[s].first;
                break;
            }
            s = (s + 1) & (size - 1);
        }
    }
    PyMem_RawFree(table);
    *ndistinct = nd;
    return 0;
}

/* ------------------------------------------------------------------ */
/* analyze_pairs                                                        */

/* The str texts of one pair into occ (candidate first); ``*nref`` gets
   the number of references.  0, or 1 when the pair is not of the plain
   kinds (the caller falls back). */
static int
pair_texts(PyObject *pair, PyObject ***occ, Py_ssize_t *nocc, Py_ssize_t *cap, Py_ssize_t *nref)
{
    PyObject *c, *r, *const *items;
    Py_ssize_t k, nr;
    if (!(PyTuple_CheckExact(pair) || PyList_CheckExact(pair)) || Py_SIZE(pair) != 2)
        return 1;
    c = PyTuple_CheckExact(pair) ? PyTuple_GET_ITEM(pair, 0) : PyList_GET_ITEM(pair, 0);
    r = PyTuple_CheckExact(pair) ? PyTuple_GET_ITEM(pair, 1) : PyList_GET_ITEM(pair, 1);
    if (!PyUnicode_CheckExact(c))
        return 1;
    if (PyUnicode_CheckExact(r)) {
        items = &r;
        nr = 1;
    }
    else if (PyList_CheckExact(r) || PyTuple_CheckExact(r)) {
        nr = Py_SIZE(r);
        items = PyList_CheckExact(r) ? ((PyListObject *)r)->ob_item : ((PyTupleObject *)r)->ob_item;
        if (nr == 0)
            return 1;
        for (k = 0; k < nr; k++)
            if (!PyUnicode_CheckExact(items[k]))
                return 1;
    }
    else {
        return 1;
    }
    if (*nocc + nr + 1 > *cap) {
        Py_ssize_t want = (*nocc + nr + 1) * 2;
        PyObject **bigger = PyMem_RawRealloc(*occ, (size_t)want * sizeof(PyObject *));
        if (bigger == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        *occ = bigger;
        *cap = want;
    }
    (*occ)[(*nocc)++] = c;
    Py_INCREF(c);
    for (k = 0; k < nr; k++) {
        (*occ)[(*nocc)++] = items[k];
        Py_INCREF(items[k]);
    }
    *nref = nr;
    return 0;
}

/* Local ids -> global ids under the vocabulary lock (no GIL needed). */
static int
globalize(AState *st, Py_ssize_t *nwords)
{
    int32_t *map;
    Py_ssize_t i;
    WordTable *lw = &st->local;
    map = (int32_t *)PyMem_RawMalloc((size_t)(lw->count ? lw->count : 1) * sizeof(int32_t));
    if (map == NULL)
        return fail(st, A_NOMEM);
    PyThread_acquire_lock(vocab_lock, WAIT_LOCK);
    for (i = 0; i < lw->count; i++) {
        Py_ssize_t off = lw->offs[i];
        Py_ssize_t len = lw->offs[i + 1] - off;
        int32_t g = wt_intern(&vocab, lw->arena + off, len, lw->hashes[i], first_chunk(lw->arena + off, len));
        if (g < 0) {
            PyThread_release_lock(vocab_lock);
            PyMem_RawFree(map);
            return fail(st, -g);
        }
        map[i] = g;
    }
    *nwords = vocab.count;
    PyThread_release_lock(vocab_lock);
    for (i = 0; i < st->nids; i++)
        st->ids[i] = map[st->ids[i]];
    PyMem_RawFree(map);
    return 0;
}

/* Room for the tokens and words of ``chars`` characters of text, guessed
   (about one token per six characters; the character tokenizer's at most
   one per character) so that few buffers grow. */
static int
astate_presize(AState *st, const ASpec *sp, Py_ssize_t chars)
{
    Py_ssize_t tokens = (sp->tokenizer == TOK_CHARACTER ? chars : chars / 6) + 64;
    Py_ssize_t words = chars / 48 + 64, size = 1 << 12;
    while (size < 2 * words && size < (1 << 18))
        size <<= 1;
    if (raw_reserve((void **)&st->ids, &st->idcap, tokens, sizeof(int32_t), 1 << 12) < 0 ||
        raw_reserve((void **)&st->bounds, &st->bcap, tokens / 8 + 16, sizeof(int64_t), 1 << 10) < 0)
        return fail(st, A_NOMEM);
    if (st->local.size < size && wt_resize(&st->local, size) < 0)
        return fail(st, A_NOMEM);
    return 0;
}

/* Analyse the distinct texts: first (GIL released) those C tokenizes,
   then (GIL held) those the Python tokenizer takes. */
static int
analyze_distinct(AState *st, const ASpec *sp, const UText *occ, const Py_ssize_t *distinct,
                 Py_ssize_t nd, int64_t *spans)
{
    Py_ssize_t t, chars = 0;
    int pass;
    for (t = 0; t < nd; t++)
        chars += occ[distinct[t]].len;
    if (astate_presize(st, sp, chars) < 0)
        return -1;
    for (pass = 0; pass < 2 && !st->err; pass++) {
        if (pass == 0) {
            Py_BEGIN_ALLOW_THREADS
            for (t = 0; t < nd && !st->err; t++)
                if (c_tokenizes(sp, &occ[distinct[t]]))
                    analyze_one(st, sp, &occ[distinct[t]], spans + 4 * t);
            Py_END_ALLOW_THREADS
        }
        else {
            for (t = 0; t < nd && !st->err; t++)
                if (!c_tokenizes(sp, &occ[distinct[t]]))
                    analyze_one(st, sp, &occ[distinct[t]], spans + 4 * t);
        }
    }
    return st->err ? -1 : 0;
}

static PyObject *
bytes_of(const void *p, Py_ssize_t n)
{
    return PyBytes_FromStringAndSize(n ? (const char *)p : "", n);
}

/* The result tuple (see the top of this file). */
static PyObject *
analysis_result(AState *st, const int64_t *spans, const UText *occ, const Py_ssize_t *distinct,
                Py_ssize_t nd, Py_ssize_t nwords, const int32_t *index, Py_ssize_t nocc,
                const int64_t *rstarts, Py_ssize_t npairs)
{
    PyObject *empty = PyList_New(0), *packed = NULL, *out = NULL;
    int32_t *cands = NULL, *refs = NULL;
    Py_ssize_t t, p, e = 0;
    if (empty == NULL)
        return NULL;
    for (t = 0; t < nd; t++) {
        if (spans[4 * t + 2] == spans[4 * t + 3] && PyList_Append(empty, occ[distinct[t]].obj) < 0)
            goto done;
    }
    cands = (int32_t *)PyMem_RawMalloc((size_t)(npairs + 1) * sizeof(int32_t));
    refs = (int32_t *)PyMem_RawMalloc((size_t)(nocc - npairs + 1) * sizeof(int32_t));
    if (cands == NULL || refs == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (p = 0; p < npairs; p++) {
        Py_ssize_t base = rstarts[p] + p, k; /* occurrences: candidate, then its references */
        cands[p] = index[base];
        for (k = 1; k <= rstarts[p + 1] - rstarts[p]; k++)
            refs[e++] = index[base + k];
    }
    packed = Py_BuildValue("(NNN)", bytes_of(st->ids, st->nids * 4), bytes_of(st->bounds, st->nb * 16),
                           bytes_of(spans, nd * 32));
    if (packed == NULL)
        goto done;
    out = Py_BuildValue("(OnONNN)", packed, nwords, empty, bytes_of(cands, npairs * 4),
                        bytes_of(rstarts, (npairs + 1) * 8), bytes_of(refs, e * 4));
done:
    Py_XDECREF(packed);
    Py_DECREF(empty);
    PyMem_RawFree(cands);
    PyMem_RawFree(refs);
    return out;
}

PyDoc_STRVAR(analyze_pairs_doc,
"analyze_pairs(pairs, start, stop, spec, /) -> None or\n"
"((ids, bounds, spans), nwords, empty_texts, cands, ref_starts, refs)\n\n"
"The distinct texts of pairs[start:stop] ((candidate, references) pairs)\n"
"analysed into raw word ids under spec; see analyze.h.");

static PyObject *
analyze_pairs(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *seq = NULL, **objs = NULL, *out = NULL;
    UText *occ = NULL;
    int32_t *index = NULL;
    int64_t *rstarts = NULL, *spans = NULL;
    Py_ssize_t *distinct = NULL;
    Py_ssize_t start, stop, n, p, nocc = 0, cap = 0, nd = 0, nwords = 0, npairs, i;
    ASpec sp;
    AState st;
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "analyze_pairs expected 4 arguments, got %zd", nargs);
        return NULL;
    }
    if (aspec_load(args[3], &sp) < 0)
        return NULL;
    start = PyLong_AsSsize_t(args[1]);
    stop = PyLong_AsSsize_t(args[2]);
    if ((start == -1 || stop == -1) && PyErr_Occurred())
        return NULL;
    seq = PySequence_Fast(args[0], "pairs must be a sequence");
    if (seq == NULL)
        return NULL;
    n = PySequence_Fast_GET_SIZE(seq);
    if (start < 0)
        start = 0;
    if (stop > n)
        stop = n;
    npairs = stop > start ? stop - start : 0;
    astate_take(&st); /* from here on every exit releases it */
    rstarts = (int64_t *)PyMem_RawMalloc((size_t)(npairs + 1) * sizeof(int64_t));
    if (rstarts == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    rstarts[0] = 0;
    for (p = 0; p < npairs; p++) {
        Py_ssize_t nref = 0;
        int rc = pair_texts(PySequence_Fast_ITEMS(seq)[start + p], &objs, &nocc, &cap, &nref);
        if (rc < 0)
            goto done;
        if (rc > 0) {
            out = Py_None;
            Py_INCREF(out);
            goto done;
        }
        rstarts[p + 1] = rstarts[p] + nref;
    }
    occ = (UText *)PyMem_RawMalloc((size_t)(nocc + 1) * sizeof(UText));
    index = (int32_t *)PyMem_RawMalloc((size_t)(nocc + 1) * sizeof(int32_t));
    distinct = (Py_ssize_t *)PyMem_RawMalloc((size_t)(nocc + 1) * sizeof(Py_ssize_t));
    spans = (int64_t *)PyMem_RawMalloc((size_t)(4 * nocc + 4) * sizeof(int64_t));
    if (occ == NULL || index == NULL || distinct == NULL || spans == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (i = 0; i < nocc; i++)
        occ[i] = utext_of(objs[i]);
    {
        int rc;
        Py_BEGIN_ALLOW_THREADS
        rc = dedupe_texts(occ, nocc, index, distinct, &nd);
        Py_END_ALLOW_THREADS
        if (rc < 0) {
            PyErr_NoMemory();
            goto done;
        }
    }
    if (analyze_distinct(&st, &sp, occ, distinct, nd, spans) == 0) {
        Py_BEGIN_ALLOW_THREADS
        globalize(&st, &nwords);
        Py_END_ALLOW_THREADS
    }
    if (st.err == A_FALLBACK) {
        out = Py_None;
        Py_INCREF(out);
    }
    else if (st.err) {
        raise_code(st.err);
    }
    else {
        out = analysis_result(&st, spans, occ, distinct, nd, nwords, index, nocc, rstarts, npairs);
    }
done:
    for (i = 0; i < nocc; i++)
        Py_DECREF(objs[i]);
    PyMem_RawFree(objs);
    PyMem_RawFree(occ);
    PyMem_RawFree(index);
    PyMem_RawFree(distinct);
    PyMem_RawFree(spans);
    PyMem_RawFree(rstarts);
    astate_release(&st);
    Py_XDECREF(seq);
    return out;
}

/* Module start-up for this file: the lock and the byte table. */
static int
analyze_init(void)
{
    int c;
    memset(WORD_TABLE, 0, sizeof(WORD_TABLE));
    for (c = 'a'; c <= 'z'; c++)
        WORD_TABLE[c] = (unsigned char)c;
    for (c = 'A'; c <= 'Z'; c++)
        WORD_TABLE[c] = (unsigned char)(c + 32);
    for (c = '0'; c <= '9'; c++)
        WORD_TABLE[c] = (unsigned char)c;
    for (c = 0; c < 256; c++) {
        SPACE_1[c] = (unsigned char)(Py_UNICODE_ISSPACE((Py_UCS4)c) != 0);
        LINEBREAK_1[c] = (unsigned char)(Py_UNICODE_ISLINEBREAK((Py_UCS4)c) != 0);
        ENDISH_1[c] = (unsigned char)(c == '.' || c == '!' || c == '?' || IS_CLOSER((Py_UCS4)c));
    }
    vocab_lock = PyThread_allocate_lock();
    if (vocab_lock == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}
