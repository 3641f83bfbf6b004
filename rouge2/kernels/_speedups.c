/*
 * rouge2.kernels._speedups: optional C kernels for rouge2's hot loops.
 *
 * Every function takes strings, token ids (non-negative ints below 2**64)
 * or numbers and returns numbers (records, in prf.h, packs numbers into a
 * tuple type its caller gives); _speedups.pyi types each one.  Hash tables
 * only pick where to look: every match compares the ids themselves, so no
 * two different n-grams are ever confused.
 *
 *   ngram_hits(cand_ids, ref_ids, n) -> int
 *       sum over distinct n-grams of min(count in cand, count in ref)
 *   lcs_length(a_ids, b_ids) -> int
 *       length of a longest common subsequence (bit-parallel, any length)
 *   rouge155_tokens, token_ids, porter155_stem, Rouge155Stemmer
 *       ROUGE-1.5.5's tokenizer and -m stemmer (porter155.h)
 *   analyze.h: the batch path's text analysis (analyze_pairs, raw_words)
 *   batch.h: its counting (score_pairs), and union_lcs_hit / wlcs_raw for
 *       one pair
 *   synonyms.h: ROUGE-N and ROUGE-L with a synonym relation in word ids
 *       (synonym_stats)
 *   prf.h: bulk P/R/F (prf_many), records and int_column
 *
 * The pure-Python versions in rouge2/kernels/python.py are the reference;
 * tests/test_speedups.py, tests/test_batch.py and
 * tests/test_differential_fuzz.py check that both agree.
 *
 * At the end, bulk resampling for rouge2.stats.resample (the bootstraps and
 * paired tests): Perl's drand48 table, index sums, randrange/coin draws from
 * raw Mersenne Twister words, and MT19937 run from a random.Random state
 * (mt_*); tests/test_resample.py checks them against Python and against the
 * one-at-a-time calls.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Growing buffers: the one place an array doubles.                    */

/* Room for ``need`` items of ``item`` bytes in ``*data`` (``*cap`` items
   now, ``first`` when empty), doubling; -1 (no exception set: callers may
   not hold the GIL) when out of memory, ``*data`` unchanged.  PyMem_Raw*
   needs no GIL. */
static int
raw_grow(void **data, Py_ssize_t *cap, Py_ssize_t need, size_t item, Py_ssize_t first)
{
    Py_ssize_t n;
    void *bigger;
    n = *cap ? *cap : first;
    while (n < need)
        n *= 2;
    bigger = PyMem_RawRealloc(*data, (size_t)n * item);
    if (bigger == NULL)
        return -1;
    *data = bigger;
    *cap = n;
    return 0;
}

static inline int
raw_reserve(void **data, Py_ssize_t *cap, Py_ssize_t need, size_t item, Py_ssize_t first)
{
    return need <= *cap ? 0 : raw_grow(data, cap, need, item, first);
}

/* A word being built in ``*buf``, which starts as the caller's stack array
   ``small`` of ``*cap`` bytes: double it when full (``len`` bytes used). */
static int
grow_word(char **buf, char *small, Py_ssize_t *cap, Py_ssize_t len)
{
    char *bigger;
    Py_ssize_t n = *cap * 2;
    if (*buf == small) {
        bigger = (char *)PyMem_Malloc((size_t)n);
        if (bigger != NULL)
            memcpy(bigger, small, (size_t)len);
    }
    else {
        bigger = (char *)PyMem_Realloc(*buf, (size_t)n);
    }
    if (bigger == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *buf = bigger;
    *cap = n;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Id arrays: a Python sequence of ints copied into uint64_t.           */

#define SMALL_IDS 512

typedef struct {
    uint64_t *data;
    Py_ssize_t len;
    uint64_t small[SMALL_IDS];
} IdArray;

static void
ids_free(IdArray *a)
{
    if (a->data != NULL && a->data != a->small)
        PyMem_Free(a->data);
    a->data = NULL;
}

/* 0 on success, -1 with an exception set. */
static int
ids_load(PyObject *obj, IdArray *a)
{
    PyObject *seq = PySequence_Fast(obj, "token ids must be a sequence of ints");
    Py_ssize_t i, n;
    PyObject **items;

    a->data = NULL;
    if (seq == NULL)
        return -1;
    n = PySequence_Fast_GET_SIZE(seq);
    items = PySequence_Fast_ITEMS(seq);
    if (n <= SMALL_IDS) {
        a->data = a->small;
    }
    else {
        a->data = (uint64_t *)PyMem_Malloc((size_t)n * sizeof(uint64_t));
        if (a->data == NULL) {
            Py_DECREF(seq);
            PyErr_NoMemory();
            return -1;
        }
    }
    a->len = n;
    for (i = 0; i < n; i++) {
        PyObject *item = items[i];
        unsigned long long v;
        if (!PyLong_Check(item)) {
            PyErr_Format(PyExc_TypeError, "token ids must be ints, not %.100s",
                         Py_TYPE(item)->tp_name);
            goto fail;
        }
        v = PyLong_AsUnsignedLongLong(item);
        if (v == (unsigned long long)-1 && PyErr_Occurred())
            goto fail;
        a->data[i] = (uint64_t)v;
    }
    Py_DECREF(seq);
    return 0;
fail:
    Py_DECREF(seq);
    ids_free(a);
    return -1;
}

#if defined(__GNUC__) || defined(__clang__)
#define POPCOUNT64(x) ((Py_ssize_t)__builtin_popcountll(x))
#define HIGHBIT64(x) (63 - __builtin_clzll(x))
#define LOWBIT64(x) __builtin_ctzll(x)
#else
static inline int
LOWBIT64(uint64_t x)
{
    int p = 0;
    while (!(x & 1)) {
        x >>= 1;
        p++;
    }
    return p;
}

static inline int
HIGHBIT64(uint64_t x)
{
    int p = -1;
    while (x) {
        x >>= 1;
        p++;
    }
    return p;
}

static inline Py_ssize_t
POPCOUNT64(uint64_t x)
{
    Py_ssize_t c = 0;
    while (x) {
        x &= x - 1;
        c++;
    }
    return c;
}
#endif

static inline uint64_t
mix64(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9E3779B97F4A7C15ULL;
    x ^= x >> 29;
    return x;
}

static inline uint64_t
seq_hash(const uint64_t *p, Py_ssize_t n)
{
    uint64_t h = 0x243F6A8885A308D3ULL;
    Py_ssize_t k;
    for (k = 0; k < n; k++)
        h = (h ^ p[k]) * 0x9E3779B97F4A7C15ULL + (h >> 32);
    return mix64(h);
}

static inline int
seq_equal(const uint64_t *a, const uint64_t *b, Py_ssize_t n)
{
    Py_ssize_t k;
    for (k = 0; k < n; k++)
        if (a[k] != b[k])
            return 0;
    return 1;
}

/* Smallest power of two >= 2 * n (at least 16), and its log2. */
static Py_ssize_t
table_size(Py_ssize_t n, int *bits)
{
    Py_ssize_t size = 16;
    int b = 4;
    while (size < 2 * n) {
        size <<= 1;
        b++;
    }
    *bits = b;
    return size;
}

/* ------------------------------------------------------------------ */
/* ngram_hits                                                           */

typedef struct {
    Py_ssize_t start; /* first position of the n-gram in ref, -1 if empty */
    Py_ssize_t count; /* unmatched reference copies left */
} Slot;

#define SMALL_SLOTS 1024

static Py_ssize_t
count_hits(const IdArray *cand, const IdArray *ref, Py_ssize_t n, int *nomem)
{
    Py_ssize_t nc = cand->len - n + 1, nr = ref->len - n + 1;
    Py_ssize_t size, mask, i, hits = 0;
    Slot small[SMALL_SLOTS];
    Slot *table;
    int bits;
    const uint64_t *cd = cand->data, *rd = ref->data;

    *nomem = 0;
    if (n < 1 || nc <= 0 || nr <= 0)
        return 0;
    /* Hash the side with fewer n-grams; look the other one up. */
    if (nc < nr) {
        const uint64_t *t = cd;
        Py_ssize_t tn = nc;
        cd = rd;
        nc = nr;
        rd = t;
        nr = tn;
    }
    size = table_size(nr, &bits);
    mask = size - 1;
    if (size <= SMALL_SLOTS) {
        table = small;
    }
    else {
        table = (Slot *)PyMem_RawMalloc((size_t)size * sizeof(Slot)); /* no GIL needed */
        if (table == NULL) {
            *nomem = 1;
            return 0;
        }
    }
    for (i = 0; i < size; i++)
        table[i].start = -1;

    if (n == 1) {
        for (i = 0; i < nr; i++) {
            uint64_t key = rd[i];
            Py_ssize_t s = (Py_ssize_t)(mix64(key) >> (64 - bits));
            for (;;) {
                Slot *e = &table[s];
                if (e->start < 0) {
                    e->start = i;
                    e->count = 1;
                    break;
                }
                if (rd[e->start] == key) {
                    e->count++;
                    break;
                }
                s = (s + 1) & mask;
            }
        }
        for (i = 0; i < nc; i++) {
            uint64_t key = cd[i];
            Py_ssize_t s = (Py_ssize_t)(mix64(key) >> (64 - bits));
            for (;;) {
                Slot *e = &table[s];
                if (e->start < 0)
                    break;
                if (rd[e->start] == key) {
                    if (e->count > 0) {
                        e->count--;
                        hits++;
                    }
                    break;
                }
                s = (s + 1) & mask;
            }
        }
    }
    else {
        for (i = 0; i < nr; i++) {
            const uint64_t *key = rd + i;
            Py_ssize_t s = (Py_ssize_t)(seq_hash(key, n) >> (64 - bits));
            for (;;) {
                Slot *e = &table[s];
                if (e->start < 0) {
                    e->start = i;
                    e->count = 1;
                    break;
                }
                if (seq_equal(rd + e->start, key, n)) {
                    e->count++;
                    break;
                }
                s = (s + 1) & mask;
            }
        }
        for (i = 0; i < nc; i++) {
            const uint64_t *key = cd + i;
            Py_ssize_t s = (Py_ssize_t)(seq_hash(key, n) >> (64 - bits));
            for (;;) {
                Slot *e = &table[s];
                if (e->start < 0)
                    break;
                if (seq_equal(rd + e->start, key, n)) {
                    if (e->count > 0) {
                        e->count--;
                        hits++;
                    }
                    break;
                }
                s = (s + 1) & mask;
            }
        }
    }
    if (table != small)
        PyMem_RawFree(table);
    return hits;
}

PyDoc_STRVAR(ngram_hits_doc,
"ngram_hits(cand_ids, ref_ids, n, /) -> int\n\n"
"Clipped count of shared n-grams: the sum over distinct n-grams of\n"
"min(occurrences in cand_ids, occurrences in ref_ids).  Ids are ints in\n"
"[0, 2**64); n must be at least 1.");

static PyObject *
ngram_hits(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    IdArray cand, ref;
    Py_ssize_t n, hits;
    int nomem;

    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "ngram_hits expected 3 arguments, got %zd", nargs);
        return NULL;
    }
    n = PyLong_AsSsize_t(args[2]);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "n must be at least 1");
        return NULL;
    }
    if (ids_load(args[0], &cand) < 0)
        return NULL;
    if (ids_load(args[1], &ref) < 0) {
        ids_free(&cand);
        return NULL;
    }
    hits = count_hits(&cand, &ref, n, &nomem);
    ids_free(&cand);
    ids_free(&ref);
    if (nomem)
        return PyErr_NoMemory();
    return PyLong_FromSsize_t(hits);
}

/* ------------------------------------------------------------------ */
/* lcs_length: Hyyrö's bit-parallel LCS, V' = (V + (V & M)) | (V & ~M), */
/* over ceil(m / 64) words for the shorter sequence of length m.       */

typedef struct {
    uint64_t key;
    Py_ssize_t index; /* -1 when the slot is empty */
} KeySlot;

/* Position masks of the keys of a (m of them) in an open-addressing table of
   2**bits slots: each distinct key gets the next row of ``masks`` (``words``
   words a row, zeroed by the caller) with bit i set where a[i] is that key.
   Returns the number of distinct keys. */
static Py_ssize_t
key_masks_build(KeySlot *slots, int bits, const uint64_t *a, Py_ssize_t m, uint64_t *masks,
                Py_ssize_t words)
{
    Py_ssize_t size = (Py_ssize_t)1 << bits, hmask = size - 1, i, distinct = 0;
    for (i = 0; i < size; i++)
        slots[i].index = -1;
    for (i = 0; i < m; i++) {
        uint64_t key = a[i];
        Py_ssize_t s = (Py_ssize_t)(mix64(key) >> (64 - bits));
        for (;;) {
            KeySlot *e = &slots[s];
            if (e->index < 0) {
                e->key = key;
                e->index = distinct++;
                break;
            }
            if (e->key == key)
                break;
            s = (s + 1) & hmask;
        }
        masks[slots[s].index * words + i / 64] |= UINT64_C(1) << (i % 64);
    }
    return distinct;
}

/* The mask row of ``key`` in a table key_masks_build filled, or -1. */
static Py_ssize_t
key_masks_row(const KeySlot *slots, int bits, uint64_t key)
{
    Py_ssize_t hmask = ((Py_ssize_t)1 << bits) - 1;
    Py_ssize_t s = (Py_ssize_t)(mix64(key) >> (64 - bits));
    for (;;) {
        const KeySlot *e = &slots[s];
        if (e->index < 0)
            return -1;
        if (e->key == key)
            return e->index;
        s = (s + 1) & hmask;
    }
}

/* One step of the bit-parallel LCS over ``words`` words:
   V' = (V + (V & M)) | (V & ~M), the carry running from word to word and
   the last word kept to the bits of ``top``. */
static inline void
lcs_step(uint64_t *v, const uint64_t *mk, Py_ssize_t words, uint64_t top)
{
    Py_ssize_t w;
    uint64_t carry = 0;
    for (w = 0; w < words; w++) {
        uint64_t x = v[w], u = x & mk[w];
        uint64_t t = x + u;
        uint64_t c1 = t < x;
        uint64_t s = t + carry;
        carry = c1 | (s < t);
        v[w] = s | (x & ~mk[w]);
    }
    v[words - 1] &= top;
}

static Py_ssize_t
lcs_words(const uint64_t *a, Py_ssize_t m, const uint64_t *b, Py_ssize_t nb, int *nomem)
{
    Py_ssize_t words = (m + 63) / 64;
    Py_ssize_t size, j, w, result;
    int bits;
    uint64_t top = (m % 64) ? ((UINT64_C(1) << (m % 64)) - 1) : ~UINT64_C(0);
    KeySlot small_slots[256];
    KeySlot *slots;
    uint64_t *masks = NULL, *v = NULL;
    Py_ssize_t *row = NULL; /* per b token: its mask row, or -1 */

    *nomem = 0;
    size = table_size(m, &bits);
    slots = size <= 256 ? small_slots : (KeySlot *)PyMem_Malloc((size_t)size * sizeof(KeySlot));
    masks = (uint64_t *)PyMem_Calloc((size_t)m * (size_t)words, sizeof(uint64_t));
    v = (uint64_t *)PyMem_Malloc((size_t)words * sizeof(uint64_t));
    row = (Py_ssize_t *)PyMem_Malloc((size_t)nb * sizeof(Py_ssize_t));
    if (slots == NULL || masks == NULL || v == NULL || row == NULL) {
        *nomem = 1;
        result = 0;
        goto done;
    }
    key_masks_build(slots, bits, a, m, masks, words);
    for (j = 0; j < nb; j++)
        row[j] = key_masks_row(slots, bits, b[j]);
    for (w = 0; w < words; w++)
        v[w] = ~UINT64_C(0);
    v[words - 1] = top;
    for (j = 0; j < nb; j++)
        if (row[j] >= 0)
            lcs_step(v, masks + row[j] * words, words, top);
    result = m;
    for (w = 0; w < words; w++)
        result -= POPCOUNT64(v[w]);
done:
    if (slots != NULL && slots != small_slots)
        PyMem_Free(slots);
    PyMem_Free(masks);
    PyMem_Free(v);
    PyMem_Free(row);
    return result;
}

/* Position masks of a sequence of at most 64 ids, in a 128-slot open-
   addressing table: word_masks_build fills it, word_mask returns the mask
   of an id (0 when the id does not occur). */
typedef struct {
    KeySlot slots[128];
    uint64_t masks[64];
} WordMasks;

static void
word_masks_build(WordMasks *t, const uint64_t *a, Py_ssize_t m)
{
    Py_ssize_t i, distinct = 0;

    for (i = 0; i < 128; i++)
        t->slots[i].index = -1;
    for (i = 0; i < m; i++) {
        uint64_t key = a[i];
        Py_ssize_t s = (Py_ssize_t)(mix64(key) >> 57);
        for (;;) {
            KeySlot *e = &t->slots[s];
            if (e->index < 0) {
                e->key = key;
                e->index = distinct;
                t->masks[distinct++] = 0;
                break;
            }
            if (e->key == key)
                break;
            s = (s + 1) & 127;
        }
        t->masks[t->slots[s].index] |= UINT64_C(1) << i;
    }
}

static inline uint64_t
word_mask(const WordMasks *t, uint64_t key)
{
    Py_ssize_t s = (Py_ssize_t)(mix64(key) >> 57);
    for (;;) {
        const KeySlot *e = &t->slots[s];
        if (e->index < 0)
            return 0;
        if (e->key == key)
            return t->masks[e->index];
        s = (s + 1) & 127;
    }
}

static Py_ssize_t
lcs_one_word(const uint64_t *a, Py_ssize_t m, const uint64_t *b, Py_ssize_t nb)
{
    /* m <= 64: one machine word per DP column. */
    WordMasks t;
    uint64_t full = (m == 64) ? ~UINT64_C(0) : ((UINT64_C(1) << m) - 1);
    uint64_t v = full;
    Py_ssize_t j;

    word_masks_build(&t, a, m);
    for (j = 0; j < nb; j++) {
        uint64_t mk = word_mask(&t, b[j]);
        if (mk) {
            uint64_t u = v & mk;
            v = ((v + u) | (v & ~mk)) & full;
        }
    }
    return m - POPCOUNT64(v);
}

PyDoc_STRVAR(lcs_length_doc,
"lcs_length(a_ids, b_ids, /) -> int\n\n"
"Length of a longest common subsequence of two id sequences (ints in\n"
"[0, 2**64)), bit-parallel over 64-bit words, any length.");

static PyObject *
lcs_length(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    IdArray a, b;
    const IdArray *short_, *long_;
    Py_ssize_t result;
    int nomem = 0;

    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "lcs_length expected 2 arguments, got %zd", nargs);
        return NULL;
    }
    if (ids_load(args[0], &a) < 0)
        return NULL;
    if (ids_load(args[1], &b) < 0) {
        ids_free(&a);
        return NULL;
    }
    if (a.len <= b.len) {
        short_ = &a;
        long_ = &b;
    }
    else {
        short_ = &b;
        long_ = &a;
    }
    if (short_->len == 0)
        result = 0;
    else if (short_->len <= 64)
        result = lcs_one_word(short_->data, short_->len, long_->data, long_->len);
    else
        result = lcs_words(short_->data, short_->len, long_->data, long_->len, &nomem);
    ids_free(&a);
    ids_free(&b);
    if (nomem)
        return PyErr_NoMemory();
    return PyLong_FromSsize_t(result);
}

/* ------------------------------------------------------------------ */
/* rouge155_tokens: the ROUGE-1.5.5 tokenizer in one pass.             */
/*                                                                      */
/* Tokens are the maximal runs of ASCII letters and digits, lowercased; */
/* every other code point (non-ASCII included) separates tokens.  Each */
/* token is returned as a canonical str object kept in a private intern */
/* table, so the same word is one object everywhere and its hash is     */
/* computed once (dictionary look-ups of tokens then cost no hashing).  */

typedef struct {
    uint64_t hash;
    PyObject *str; /* NULL when empty */
} InternSlot;

static InternSlot *intern_slots = NULL;
static Py_ssize_t intern_size = 0; /* power of two */
static Py_ssize_t intern_used = 0;

/* The table is a cache: past this many words it is emptied and refilled. */
#define INTERN_MAX ((Py_ssize_t)1 << 21)

static void
intern_clear(void)
{
    Py_ssize_t i;
    if (intern_slots == NULL)
        return;
    for (i = 0; i < intern_size; i++)
        Py_XDECREF(intern_slots[i].str);
    PyMem_Free(intern_slots);
    intern_slots = NULL;
    intern_size = intern_used = 0;
}

static int
intern_grow(void)
{
    Py_ssize_t new_size = intern_size ? intern_size * 2 : 4096;
    InternSlot *fresh = (InternSlot *)PyMem_Calloc((size_t)new_size, sizeof(InternSlot));
    Py_ssize_t i;
    if (fresh == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (i = 0; i < intern_size; i++) {
        InternSlot *e = &intern_slots[i];
        if (e->str != NULL) {
            Py_ssize_t s = (Py_ssize_t)(e->hash & (uint64_t)(new_size - 1));
            while (fresh[s].str != NULL)
                s = (s + 1) & (new_size - 1);
            fresh[s] = *e;
        }
    }
    PyMem_Free(intern_slots);
    intern_slots = fresh;
    intern_size = new_size;
    return 0;
}

/* A new reference to the canonical str for the ASCII bytes p[0:n]. */
static PyObject *
intern_word(const char *p, Py_ssize_t n)
{
    uint64_t h = 0xCBF29CE484222325ULL; /* FNV-1a, then mixed */
    Py_ssize_t k, s;
    PyObject *str;

    for (k = 0; k < n; k++)
        h = (h ^ (unsigned char)p[k]) * 0x100000001B3ULL;
    h = mix64(h);
    if (intern_used >= INTERN_MAX)
        intern_clear();
    if (2 * (intern_used + 1) > intern_size && intern_grow() < 0)
        return NULL;
    s = (Py_ssize_t)(h & (uint64_t)(intern_size - 1));
    for (;;) {
        InternSlot *e = &intern_slots[s];
        if (e->str == NULL)
            break;
        if (e->hash == h && PyUnicode_GET_LENGTH(e->str) == n &&
            memcmp(PyUnicode_1BYTE_DATA(e->str), p, (size_t)n) == 0) {
            Py_INCREF(e->str);
            return e->str;
        }
        s = (s + 1) & (intern_size - 1);
    }
    str = PyUnicode_New(n, 127);
    if (str == NULL)
        return NULL;
    memcpy(PyUnicode_1BYTE_DATA(str), p, (size_t)n);
    intern_slots[s].hash = h;
    intern_slots[s].str = str;
    intern_used++;
    Py_INCREF(str);
    return str;
}

static const unsigned char *
word_table(void)
{
    /* byte -> lowercased letter or digit, 0 for a separator */
    static unsigned char table[256];
    static int ready = 0;
    int c;
    if (!ready) {
        memset(table, 0, sizeof(table));
        for (c = 'a'; c <= 'z'; c++)
            table[c] = (unsigned char)c;
        for (c = 'A'; c <= 'Z'; c++)
            table[c] = (unsigned char)(c + 32);
        for (c = '0'; c <= '9'; c++)
            table[c] = (unsigned char)c;
        ready = 1;
    }
    return table;
}

PyDoc_STRVAR(rouge155_tokens_doc,
"rouge155_tokens(text, /) -> list[str]\n\n"
"Runs of ASCII letters and digits of text, lowercased (ROUGE-1.5.5's\n"
"tokens); every other character separates them.");

static PyObject *
rouge155_tokens(PyObject *self, PyObject *text)
{
    const unsigned char *table = word_table();
    Py_ssize_t len, i, cap = 256;
    int kind;
    const void *data;
    char small[256];
    char *buf = small;
    Py_ssize_t blen = 0;
    PyObject *out;

    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "rouge155_tokens() argument must be str, not %.100s",
                     Py_TYPE(text)->tp_name);
        return NULL;
    }
    if (PyUnicode_READY(text) < 0)
        return NULL;
    len = PyUnicode_GET_LENGTH(text);
    kind = PyUnicode_KIND(text);
    data = PyUnicode_DATA(text);
    out = PyList_New(0);
    if (out == NULL)
        return NULL;
    for (i = 0; i <= len; i++) {
        Py_UCS4 ch = i < len ? PyUnicode_READ(kind, data, i) : 0;
        unsigned char c = ch < 128 ? table[ch] : 0;
        if (c) {
            if (blen == cap && grow_word(&buf, small, &cap, blen) < 0)
                goto fail;
            buf[blen++] = (char)c;
        }
        else if (blen) {
            PyObject *word = intern_word(buf, blen);
            int rc;
            if (word == NULL)
                goto fail;
            rc = PyList_Append(out, word);
            Py_DECREF(word);
            if (rc < 0)
                goto fail;
            blen = 0;
        }
    }
    if (buf != small)
        PyMem_Free(buf);
    return out;
fail:
    if (buf != small)
        PyMem_Free(buf);
    Py_DECREF(out);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* token_ids: tokens -> process-wide ids through a Python dict.        */

PyDoc_STRVAR(token_ids_doc,
"token_ids(tokens, vocab, /) -> list[int]\n\n"
"[vocab[t] for t in tokens], giving each token not yet in vocab the next\n"
"free id, len(vocab), as it is met.");

static PyObject *
token_ids(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *seq, *vocab, *out;
    PyObject **items;
    Py_ssize_t i, n;

    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "token_ids expected 2 arguments, got %zd", nargs);
        return NULL;
    }
    vocab = args[1];
    if (!PyDict_CheckExact(vocab)) {
        PyErr_SetString(PyExc_TypeError, "token_ids() vocab must be a dict");
        return NULL;
    }
    seq = PySequence_Fast(args[0], "tokens must be a sequence");
    if (seq == NULL)
        return NULL;
    n = PySequence_Fast_GET_SIZE(seq);
    out = PyList_New(n);
    if (out == NULL)
        goto fail;
    for (i = 0; i < n; i++) {
        PyObject *id;
        /* Re-read: a key's __eq__ could in principle change a list. */
        if (i >= PySequence_Fast_GET_SIZE(seq)) {
            PyErr_SetString(PyExc_RuntimeError, "tokens changed size during token_ids()");
            goto fail;
        }
        items = PySequence_Fast_ITEMS(seq);
        id = PyDict_GetItemWithError(vocab, items[i]); /* borrowed */
        if (id == NULL) {
            if (PyErr_Occurred())
                goto fail;
            id = PyLong_FromSsize_t(PyDict_GET_SIZE(vocab));
            if (id == NULL)
                goto fail;
            if (PyDict_SetItem(vocab, items[i], id) < 0) {
                Py_DECREF(id);
                goto fail;
            }
            PyList_SET_ITEM(out, i, id); /* steals the new reference */
        }
        else {
            Py_INCREF(id);
            PyList_SET_ITEM(out, i, id);
        }
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_XDECREF(out);
    Py_DECREF(seq);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Bulk resampling for rouge2.stats (bootstraps and paired tests).      */
/* The pure-Python definitions are in rouge2/kernels/python.py; every   */
/* sum adds left to right from 0.0, one double addition per term.       */

static double *
doubles_from(PyObject *seq, Py_ssize_t *len)
{
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of numbers");
    Py_ssize_t i, n;
    double *out;
    if (fast == NULL)
        return NULL;
    n = PySequence_Fast_GET_SIZE(fast);
    out = PyMem_Malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    if (out == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (i = 0; i < n; i++) {
        double v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1.0 && PyErr_Occurred()) {
            PyMem_Free(out);
            Py_DECREF(fast);
            return NULL;
        }
        out[i] = v;
    }
    Py_DECREF(fast);
    *len = n;
    return out;
}

static uint32_t
le_word(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

PyDoc_STRVAR(perl_resample_table_doc,
"perl_resample_table(n, count) -> bytes\n\n"
"ROUGE-1.5.5's bootstrap draws as native int32: for each resample r < count,\n"
"Perl's srand(r) then int(rand(n)) n times (drand48).");

static PyObject *
perl_resample_table(PyObject *self, PyObject *args)
{
    Py_ssize_t n, count, r, j;
    PyObject *out;
    int32_t *dst;
    double fn;
    if (!PyArg_ParseTuple(args, "nn:perl_resample_table", &n, &count))
        return NULL;
    if (n < 0 || count < 0 || n > INT32_MAX || (count > 0 && n > PY_SSIZE_T_MAX / 4 / count)) {
        PyErr_SetString(PyExc_ValueError, "perl_resample_table: bad n or count");
        return NULL;
    }
    out = PyBytes_FromStringAndSize(NULL, n * count * 4);
    if (out == NULL)
        return NULL;
    dst = (int32_t *)PyBytes_AS_STRING(out);
    fn = (double)n;
    for (r = 0; r < count; r++) {
        uint64_t x = ((((uint64_t)r & 0xFFFFFFFFu) << 16) + 0x330E) & UINT64_C(0xFFFFFFFFFFFF);
        for (j = 0; j < n; j++) {
            x = (UINT64_C(0x5DEECE66D) * x + 0xB) & UINT64_C(0xFFFFFFFFFFFF);
            *dst++ = (int32_t)(fn * ((double)x * (1.0 / 281474976710656.0)));
        }
    }
    return out;
}

PyDoc_STRVAR(indexed_sums_doc,
"indexed_sums(values, table, n) -> list[float]\n\n"
"For each row of n int32 indices in table (a buffer), the sum of values at\n"
"those indices, added left to right from 0.0.");

static PyObject *
indexed_sums(PyObject *self, PyObject *args)
{
    PyObject *values, *out = NULL;
    Py_buffer tb;
    Py_ssize_t n, len, rows, r, j;
    double *vals;
    const int32_t *idx;
    if (!PyArg_ParseTuple(args, "Oy*n:indexed_sums", &values, &tb, &n))
        return NULL;
    vals = doubles_from(values, &len);
    if (vals == NULL) {
        PyBuffer_Release(&tb);
        return NULL;
    }
    rows = n > 0 ? tb.len / 4 / n : 0;
    idx = (const int32_t *)tb.buf;
    out = PyList_New(rows);
    if (out == NULL)
        goto done;
    for (r = 0; r < rows; r++) {
        double s = 0.0;
        const int32_t *row = idx + r * n;
        PyObject *f;
        for (j = 0; j < n; j++) {
            int32_t k = row[j];
            if (k < 0 || k >= len) {
                PyErr_SetString(PyExc_IndexError, "indexed_sums: index out of range");
                Py_CLEAR(out);
                goto done;
            }
            s += vals[k];
        }
        f = PyFloat_FromDouble(s);
        if (f == NULL) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, r, f);
    }
done:
    PyMem_Free(vals);
    PyBuffer_Release(&tb);
    return out;
}

PyDoc_STRVAR(words_below_doc,
"words_below(words, n) -> bytes\n\n"
"The int32 indices random.Random.randrange(n) accepts from little-endian\n"
"32-bit MT outputs: each word >> (32 - n.bit_length()), kept when < n.");

static PyObject *
words_below(PyObject *self, PyObject *args)
{
    Py_buffer wb;
    Py_ssize_t n, m, i, kept = 0;
    int k = 0, shift;
    PyObject *out;
    int32_t *dst;
    const unsigned char *src;
    if (!PyArg_ParseTuple(args, "y*n:words_below", &wb, &n))
        return NULL;
    if (n < 1 || n > INT32_MAX) {
        PyBuffer_Release(&wb);
        PyErr_SetString(PyExc_ValueError, "words_below: n must be in [1, 2**31)");
        return NULL;
    }
    while (((Py_ssize_t)1 << k) <= n)
        k++;
    shift = 32 - k;
    m = wb.len / 4;
    out = PyBytes_FromStringAndSize(NULL, m * 4);
    if (out == NULL) {
        PyBuffer_Release(&wb);
        return NULL;
    }
    dst = (int32_t *)PyBytes_AS_STRING(out);
    src = (const unsigned char *)wb.buf;
    for (i = 0; i < m; i++) {
        uint32_t v = le_word(src + 4 * i) >> shift;
        if ((Py_ssize_t)v < n)
            dst[kept++] = (int32_t)v;
    }
    PyBuffer_Release(&wb);
    if (_PyBytes_Resize(&out, kept * 4) < 0)
        return NULL;
    return out;
}

PyDoc_STRVAR(signed_sums_doc,
"signed_sums(diffs, words, n) -> list[float]\n\n"
"Approximate randomization: two little-endian 32-bit MT outputs per coin;\n"
"diffs[j] is kept when the first word is below 2**31 (random() < 0.5),\n"
"else negated; per resample of n coins the sum, left to right from 0.0.");

static PyObject *
signed_sums(PyObject *self, PyObject *args)
{
    PyObject *diffs, *out = NULL;
    Py_buffer wb;
    Py_ssize_t n, len, rows, r, j;
    double *d;
    const unsigned char *src;
    if (!PyArg_ParseTuple(args, "Oy*n:signed_sums", &diffs, &wb, &n))
        return NULL;
    d = doubles_from(diffs, &len);
    if (d == NULL) {
        PyBuffer_Release(&wb);
        return NULL;
    }
    if (n > len) {
        PyErr_SetString(PyExc_ValueError, "signed_sums: n exceeds len(diffs)");
        goto done;
    }
    rows = n > 0 ? wb.len / 8 / n : 0;
    src = (const unsigned char *)wb.buf;
    out = PyList_New(rows);
    if (out == NULL)
        goto done;
    for (r = 0; r < rows; r++) {
        double s = 0.0;
        const unsigned char *p = src + (size_t)r * (size_t)n * 8;
        PyObject *f;
        for (j = 0; j < n; j++, p += 8)
            s += (le_word(p) < UINT32_C(0x80000000)) ? d[j] : -d[j];
        f = PyFloat_FromDouble(s);
        if (f == NULL) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, r, f);
    }
done:
    PyMem_Free(d);
    PyBuffer_Release(&wb);
    return out;
}

/* MT19937 as random.Random runs it: a state is getstate()[1], the 624
   words and the position of the next one. */

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    unsigned long pos;
} MTState;

static int
mt_load(MTState *st, PyObject *state)
{
    Py_ssize_t i;
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != MT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "expected random.Random.getstate()[1]");
        return -1;
    }
    for (i = 0; i <= MT_N; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(state, i));
        if (v == (unsigned long)-1 && PyErr_Occurred())
            return -1;
        if (i < MT_N)
            st->mt[i] = (uint32_t)v;
        else
            st->pos = v;
    }
    if (st->pos > MT_N) {
        PyErr_SetString(PyExc_ValueError, "bad Mersenne Twister state position");
        return -1;
    }
    return 0;
}

static PyObject *
mt_dump(const MTState *st)
{
    Py_ssize_t i;
    PyObject *t = PyTuple_New(MT_N + 1);
    if (t == NULL)
        return NULL;
    for (i = 0; i <= MT_N; i++) {
        PyObject *v = PyLong_FromUnsignedLong(i < MT_N ? (unsigned long)st->mt[i] : st->pos);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static void
mt_refill(MTState *st)
{
    static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
    uint32_t *mt = st->mt;
    uint32_t y;
    int kk;
    for (kk = 0; kk < MT_N - MT_M; kk++) {
        y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
        mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 1u];
    }
    for (; kk < MT_N - 1; kk++) {
        y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
        mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1u];
    }
    y = (mt[MT_N - 1] & 0x80000000u) | (mt[0] & 0x7fffffffu);
    mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1u];
    st->pos = 0;
}

static inline uint32_t
mt_next(MTState *st)
{
    uint32_t y;
    if (st->pos >= MT_N)
        mt_refill(st);
    y = st->mt[st->pos++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

static PyObject *
with_state(PyObject *value, const MTState *st)
{
    PyObject *t, *res;
    if (value == NULL)
        return NULL;
    t = mt_dump(st);
    if (t == NULL) {
        Py_DECREF(value);
        return NULL;
    }
    res = PyTuple_Pack(2, value, t);
    Py_DECREF(value);
    Py_DECREF(t);
    return res;
}

PyDoc_STRVAR(mt_words_doc,
"mt_words(state, m) -> (bytes, state)\n\n"
"The next m 32-bit Mersenne Twister outputs (MT19937, as random.Random\n"
"generates them), little-endian, from state = random.Random.getstate()[1];\n"
"returns them and the advanced state.  The same as\n"
"getrandbits(32 * m).to_bytes(4 * m, 'little') without the big int.");

static PyObject *
mt_words(PyObject *self, PyObject *args)
{
    PyObject *state, *out;
    Py_ssize_t m, i;
    MTState st;
    unsigned char *dst;
    if (!PyArg_ParseTuple(args, "On:mt_words", &state, &m))
        return NULL;
    if (m < 0 || m > PY_SSIZE_T_MAX / 4) {
        PyErr_SetString(PyExc_ValueError, "mt_words: bad m");
        return NULL;
    }
    if (mt_load(&st, state) < 0)
        return NULL;
    out = PyBytes_FromStringAndSize(NULL, m * 4);
    if (out == NULL)
        return NULL;
    dst = (unsigned char *)PyBytes_AS_STRING(out);
    for (i = 0; i < m; i++, dst += 4) {
        uint32_t y = mt_next(&st);
        dst[0] = (unsigned char)(y & 0xff);
        dst[1] = (unsigned char)((y >> 8) & 0xff);
        dst[2] = (unsigned char)((y >> 16) & 0xff);
        dst[3] = (unsigned char)(y >> 24);
    }
    return with_state(out, &st);
}

PyDoc_STRVAR(mt_bootstrap_sums_doc,
"mt_bootstrap_sums(state, values, rows) -> (list[float], state)\n\n"
"From random.Random state getstate()[1]: for each of rows resamples, n =\n"
"len(values) draws randrange(n) (n.bit_length() top bits of the next\n"
"word, drawn again while >= n) and the sum of values there, left to right\n"
"from 0.0.  The same as indexed_sums over words_below of the words.");

static PyObject *
mt_bootstrap_sums(PyObject *self, PyObject *args)
{
    PyObject *state, *values, *out = NULL;
    Py_ssize_t rows, n, r;
    MTState st;
    double *vals;
    uint32_t *row = NULL;
    int k = 0, shift;
    if (!PyArg_ParseTuple(args, "OOn:mt_bootstrap_sums", &state, &values, &rows))
        return NULL;
    if (mt_load(&st, state) < 0)
        return NULL;
    vals = doubles_from(values, &n);
    if (vals == NULL)
        return NULL;
    if (n < 1 || n > INT32_MAX || rows < 0) {
        PyErr_SetString(PyExc_ValueError, "mt_bootstrap_sums: need 1 <= len(values) < 2**31, rows >= 0");
        goto done;
    }
    while (((Py_ssize_t)1 << k) <= n)
        k++;
    shift = 32 - k;
    row = PyMem_Malloc((size_t)n * sizeof(uint32_t));
    if (row == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    out = PyList_New(rows);
    if (out == NULL)
        goto done;
    for (r = 0; r < rows; r++) {
        Py_ssize_t kept = 0, j;
        double s = 0.0;
        PyObject *f;
        while (kept < n) {  /* branch-free compaction of the accepted draws */
            uint32_t v = mt_next(&st) >> shift;
            row[kept] = v;
            kept += ((Py_ssize_t)v < n);
        }
        for (j = 0; j < n; j++)
            s += vals[row[j]];
        f = PyFloat_FromDouble(s);
        if (f == NULL) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, r, f);
    }
done:
    PyMem_Free(row);
    PyMem_Free(vals);
    return with_state(out, &st);
}

PyDoc_STRVAR(mt_signed_sums_doc,
"mt_signed_sums(state, diffs, rows) -> (list[float], state)\n\n"
"From random.Random state getstate()[1]: for each of rows resamples, one\n"
"coin per value (two words, as random() draws them; heads when the first\n"
"is below 2**31, i.e. random() < 0.5) keeping the value or negating it,\n"
"summed left to right from 0.0.  The same as signed_sums of the words.");

static PyObject *
mt_signed_sums(PyObject *self, PyObject *args)
{
    PyObject *state, *diffs, *out = NULL;
    Py_ssize_t rows, n, r;
    MTState st;
    double *d;
    if (!PyArg_ParseTuple(args, "OOn:mt_signed_sums", &state, &diffs, &rows))
        return NULL;
    if (mt_load(&st, state) < 0)
        return NULL;
    d = doubles_from(diffs, &n);
    if (d == NULL)
        return NULL;
    if (rows < 0) {
        PyErr_SetString(PyExc_ValueError, "mt_signed_sums: rows >= 0");
        goto done;
    }
    out = PyList_New(n > 0 ? rows : 0);
    if (out == NULL || n == 0)
        goto done;
    for (r = 0; r < rows; r++) {
        Py_ssize_t j;
        double s = 0.0;
        PyObject *f;
        for (j = 0; j < n; j++) {
            uint32_t a = mt_next(&st);
            (void)mt_next(&st);
            s += (a < UINT32_C(0x80000000)) ? d[j] : -d[j];
        }
        f = PyFloat_FromDouble(s);
        if (f == NULL) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, r, f);
    }
done:
    PyMem_Free(d);
    return with_state(out, &st);
}

/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* ROUGE-1.5.5's -m stemming: the WordNet exception table, then its     */
/* Porter variant (porter155.h), memoized per distinct token.           */
/* rouge2/analysis/stem.py's rouge155_stem is the definition.           */

#include "porter155.h"
#include "rouge_score.h" /* the rouge-score drop-in's counts and nltk Porter stemmer */

PyDoc_STRVAR(porter155_stem_doc,
"porter155_stem(word, /) -> str\n\n"
"ROUGE-1.5.5's Porter variant of an ASCII word without newlines, as is\n"
"(no lowercasing, no exception table): rouge2.analysis.stem.porter_stem\n"
"for those words.  ValueError for other words.");

/* Stem the ASCII bytes p[0:n] (no '\n') into a new str. */
static PyObject *
porter155_str(const char *p, Py_ssize_t n)
{
    char small_out[128];
    unsigned char small_scratch[2 * 129];
    char *out = small_out;
    unsigned char *scratch = small_scratch;
    PyObject *result;
    size_t m;

    if (n > 127) {
        out = PyMem_Malloc((size_t)n + 2 * ((size_t)n + 1));
        if (out == NULL)
            return PyErr_NoMemory();
        scratch = (unsigned char *)out + n;
    }
    m = porter155_stem(p, (size_t)n, out, scratch);
    result = PyUnicode_FromStringAndSize(out, (Py_ssize_t)m);
    if (out != small_out)
        PyMem_Free(out);
    return result;
}

/* 1 when the C stemmer takes the str: ASCII without '\n'. */
static int
porter155_takes(PyObject *word)
{
    return PyUnicode_IS_ASCII(word)
        && memchr(PyUnicode_1BYTE_DATA(word), '\n', (size_t)PyUnicode_GET_LENGTH(word)) == NULL;
}

static PyObject *
porter155_stem_py(PyObject *self, PyObject *word)
{
    if (!PyUnicode_Check(word)) {
        PyErr_SetString(PyExc_TypeError, "porter155_stem: expected a str");
        return NULL;
    }
    if (!porter155_takes(word)) {
        PyErr_SetString(PyExc_ValueError, "porter155_stem: only ASCII words without newlines");
        return NULL;
    }
    return porter155_str((const char *)PyUnicode_1BYTE_DATA(word), PyUnicode_GET_LENGTH(word));
}

typedef struct {
    PyObject_HEAD
    PyObject *table;    /* dict: lowercased word -> stem, or NULL until loaded */
    PyObject *loader;   /* callable returning the table (called once) */
    PyObject *fallback; /* callable(token) -> stem for tokens C does not take */
    PyObject *memo;     /* dict: token -> stem */
    Py_ssize_t memo_limit;
} Rouge155Stemmer;

static int
r155_init(Rouge155Stemmer *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"table", "fallback", "memo_limit", NULL};
    PyObject *table, *fallback;
    Py_ssize_t limit = 1 << 18;

    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|n:Rouge155Stemmer", kwlist,
                                     &table, &fallback, &limit))
        return -1;
    if (!PyDict_Check(table) && !PyCallable_Check(table)) {
        PyErr_SetString(PyExc_TypeError, "Rouge155Stemmer: table must be a dict or a callable returning one");
        return -1;
    }
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "Rouge155Stemmer: fallback must be callable");
        return -1;
    }
    if (limit < 1) {
        PyErr_SetString(PyExc_ValueError, "Rouge155Stemmer: memo_limit must be at least 1");
        return -1;
    }
    Py_CLEAR(self->table);
    Py_CLEAR(self->loader);
    if (PyDict_Check(table)) {
        Py_INCREF(table);
        self->table = table;
    }
    else {
        Py_INCREF(table);
        self->loader = table;
    }
    Py_INCREF(fallback);
    Py_XSETREF(self->fallback, fallback);
    if (self->memo == NULL && (self->memo = PyDict_New()) == NULL)
        return -1;
    self->memo_limit = limit;
    return 0;
}

static int
r155_traverse(Rouge155Stemmer *self, visitproc visit, void *arg)
{
    Py_VISIT(self->table);
    Py_VISIT(self->loader);
    Py_VISIT(self->fallback);
    Py_VISIT(self->memo);
    return 0;
}

static int
r155_clear_refs(Rouge155Stemmer *self)
{
    Py_CLEAR(self->table);
    Py_CLEAR(self->loader);
    Py_CLEAR(self->fallback);
    Py_CLEAR(self->memo);
    return 0;
}

static void
r155_dealloc(Rouge155Stemmer *self)
{
    PyObject_GC_UnTrack(self);
    r155_clear_refs(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
r155_get_table(Rouge155Stemmer *self)
{
    if (self->table == NULL) {
        PyObject *t;
        if (self->loader == NULL) {
            PyErr_SetString(PyExc_RuntimeError, "Rouge155Stemmer: not initialised");
            return NULL;
        }
        t = PyObject_CallNoArgs(self->loader);
        if (t == NULL)
            return NULL;
        if (!PyDict_Check(t)) {
            Py_DECREF(t);
            PyErr_SetString(PyExc_TypeError, "Rouge155Stemmer: the table loader must return a dict");
            return NULL;
        }
        self->table = t;
        Py_CLEAR(self->loader);
    }
    return self->table;
}

/* The stem of a str token, uncached: a new reference. */
static PyObject *
r155_compute(Rouge155Stemmer *self, PyObject *token)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(token), k;
    const char *p;
    char small[128];
    char *low = small;
    int upper = 0;
    PyObject *table, *key, *hit, *result;

    if (n == 0) {
        Py_INCREF(token);
        return token;
    }
    if (!porter155_takes(token))
        return PyObject_CallOneArg(self->fallback, token);
    table = r155_get_table(self);
    if (table == NULL)
        return NULL;
    p = (const char *)PyUnicode_1BYTE_DATA(token);
    for (k = 0; k < n; k++)
        if (p[k] >= 'A' && p[k] <= 'Z') {
            upper = 1;
            break;
        }
    if (!upper) {
        key = token;
        Py_INCREF(key);
    }
    else {
        if (n > (Py_ssize_t)sizeof(small) && (low = PyMem_Malloc((size_t)n)) == NULL)
            return PyErr_NoMemory();
        for (k = 0; k < n; k++)
            low[k] = (p[k] >= 'A' && p[k] <= 'Z') ? (char)(p[k] + 32) : p[k];
        key = PyUnicode_FromStringAndSize(low, n);
        if (low != small)
            PyMem_Free(low);
        if (key == NULL)
            return NULL;
        p = (const char *)PyUnicode_1BYTE_DATA(key);
    }
    hit = PyDict_GetItemWithError(table, key);
    if (hit != NULL) {
        Py_INCREF(hit);
        result = hit;
    }
    else if (PyErr_Occurred())
        result = NULL;
    else
        result = porter155_str(p, n);
    Py_DECREF(key);
    return result;
}

/* 0 when the object was initialised; -1 with an exception otherwise. */
static int
r155_ready(Rouge155Stemmer *self)
{
    if (self->memo == NULL || self->fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Rouge155Stemmer: not initialised");
        return -1;
    }
    return 0;
}

/* The memoized stem of a token: a new reference. */
static PyObject *
r155_stem_one(Rouge155Stemmer *self, PyObject *token)
{
    PyObject *s = PyDict_GetItemWithError(self->memo, token);
    if (s != NULL || PyErr_Occurred())
        return s == NULL ? NULL : (Py_INCREF(s), s);
    if (!PyUnicode_Check(token)) {
        PyErr_Format(PyExc_TypeError, "Rouge155Stemmer: expected a str, not %.100s",
                     Py_TYPE(token)->tp_name);
        return NULL;
    }
    s = r155_compute(self, token);
    if (s == NULL)
        return NULL;
    if (PyDict_GET_SIZE(self->memo) >= self->memo_limit)
        PyDict_Clear(self->memo);
    if (PyDict_SetItem(self->memo, token, s) < 0) {
        Py_DECREF(s);
        return NULL;
    }
    return s;
}

PyDoc_STRVAR(r155_stem_doc,
"stem(token, /) -> str\n\n"
"ROUGE-1.5.5's -m stem of token (rouge2.analysis.stem.rouge155_stem).");

static PyObject *
r155_stem(Rouge155Stemmer *self, PyObject *token)
{
    if (r155_ready(self) < 0)
        return NULL;
    return r155_stem_one(self, token);
}

PyDoc_STRVAR(r155_stem_many_doc,
"stem_many(tokens, min_length=0, /) -> list[str]\n\n"
"The stems of a list of tokens; tokens shorter than min_length are kept\n"
"as they are (ROUGE-1.5.5 stems tokens of 4+ characters).");

static PyObject *
r155_stem_many(Rouge155Stemmer *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *seq, *out;
    Py_ssize_t min_length = 0, n, i;

    if (r155_ready(self) < 0)
        return NULL;
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "stem_many(tokens, min_length=0)");
        return NULL;
    }
    if (nargs == 2) {
        min_length = PyLong_AsSsize_t(args[1]);
        if (min_length == -1 && PyErr_Occurred())
            return NULL;
    }
    seq = PySequence_Fast(args[0], "stem_many: tokens must be a sequence of str");
    if (seq == NULL)
        return NULL;
    n = PySequence_Fast_GET_SIZE(seq);
    out = PyList_New(n);
    if (out == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    for (i = 0; i < n; i++) {
        PyObject *t, *s;
        if (i >= PySequence_Fast_GET_SIZE(seq)) { /* a fallback shrank the list */
            PyErr_SetString(PyExc_RuntimeError, "stem_many: the token list changed size");
            Py_DECREF(out);
            Py_DECREF(seq);
            return NULL;
        }
        t = PySequence_Fast_GET_ITEM(seq, i);
        if (min_length > 0 && PyUnicode_Check(t) && PyUnicode_GET_LENGTH(t) < min_length) {
            Py_INCREF(t);
            s = t;
        }
        else {
            Py_INCREF(t); /* a fallback may change the list */
            s = r155_stem_one(self, t);
            Py_DECREF(t);
            if (s == NULL) {
                Py_DECREF(out);
                Py_DECREF(seq);
                return NULL;
            }
        }
        PyList_SET_ITEM(out, i, s);
    }
    Py_DECREF(seq);
    return out;
}

static PyObject *
r155_clear(Rouge155Stemmer *self, PyObject *unused)
{
    if (self->memo != NULL)
        PyDict_Clear(self->memo);
    Py_RETURN_NONE;
}

static PyObject *
r155_memo_size(Rouge155Stemmer *self, void *closure)
{
    return PyLong_FromSsize_t(self->memo == NULL ? 0 : PyDict_GET_SIZE(self->memo));
}

static PyObject *
r155_memo_limit(Rouge155Stemmer *self, void *closure)
{
    return PyLong_FromSsize_t(self->memo_limit);
}

static PyMethodDef r155_methods[] = {
    {"stem", (PyCFunction)r155_stem, METH_O, r155_stem_doc},
    {"stem_many", (PyCFunction)(void (*)(void))r155_stem_many, METH_FASTCALL, r155_stem_many_doc},
    {"clear", (PyCFunction)r155_clear, METH_NOARGS, "clear() -> None\n\nEmpty the memo."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef r155_getset[] = {
    {"memo_size", (getter)r155_memo_size, NULL, "distinct tokens memoized now", NULL},
    {"memo_limit", (getter)r155_memo_limit, NULL, "the memo is emptied when it holds this many", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyDoc_STRVAR(r155_doc,
"Rouge155Stemmer(table, fallback, memo_limit=262144)\n\n"
"ROUGE-1.5.5's -m stemming, memoized per distinct token.  table: the\n"
"exception dict (lowercased word -> stem) or a callable returning it,\n"
"called on first need; fallback: callable stemming the tokens C does not\n"
"take (non-ASCII, or containing a newline); the memo is emptied when it\n"
"holds memo_limit tokens.");

static PyTypeObject Rouge155StemmerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "rouge2.kernels._speedups.Rouge155Stemmer",
    .tp_basicsize = sizeof(Rouge155Stemmer),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = r155_doc,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)r155_init,
    .tp_dealloc = (destructor)r155_dealloc,
    .tp_traverse = (traverseproc)r155_traverse,
    .tp_clear = (inquiry)r155_clear_refs,
    .tp_methods = r155_methods,
    .tp_getset = r155_getset,
};

#include <math.h>
#include "analyze.h"
#include "batch.h"
#include "synonyms.h"
#include "prf.h"
#include "stats_kernels.h"
#include "paired.h"

/* ------------------------------------------------------------------ */

static PyMethodDef speedups_methods[] = {
    {"ngram_hits", (PyCFunction)(void (*)(void))ngram_hits, METH_FASTCALL, ngram_hits_doc},
    {"lcs_length", (PyCFunction)(void (*)(void))lcs_length, METH_FASTCALL, lcs_length_doc},
    {"rouge155_tokens", (PyCFunction)rouge155_tokens, METH_O, rouge155_tokens_doc},
    {"token_ids", (PyCFunction)(void (*)(void))token_ids, METH_FASTCALL, token_ids_doc},
    {"porter155_stem", (PyCFunction)porter155_stem_py, METH_O, porter155_stem_doc},
    {"perl_resample_table", perl_resample_table, METH_VARARGS, perl_resample_table_doc},
    {"indexed_sums", indexed_sums, METH_VARARGS, indexed_sums_doc},
    {"words_below", words_below, METH_VARARGS, words_below_doc},
    {"signed_sums", signed_sums, METH_VARARGS, signed_sums_doc},
    {"mt_words", mt_words, METH_VARARGS, mt_words_doc},
    {"mt_bootstrap_sums", mt_bootstrap_sums, METH_VARARGS, mt_bootstrap_sums_doc},
    {"mt_signed_sums", mt_signed_sums, METH_VARARGS, mt_signed_sums_doc},
    {"raw_words", (PyCFunction)raw_words, METH_O, raw_words_doc},
    {"analyze_pairs", (PyCFunction)(void (*)(void))analyze_pairs, METH_FASTCALL, analyze_pairs_doc},
    {"score_pairs", (PyCFunction)(void (*)(void))score_pairs, METH_FASTCALL, score_pairs_doc},
    {"synonym_stats", (PyCFunction)(void (*)(void))synonym_stats, METH_FASTCALL, synonym_stats_doc},
    {"union_lcs_hit", (PyCFunction)(void (*)(void))union_lcs_hit, METH_FASTCALL, union_lcs_hit_doc},
    {"wlcs_raw", (PyCFunction)(void (*)(void))wlcs_raw_py, METH_FASTCALL, wlcs_raw_doc},
    {"prf_many", (PyCFunction)(void (*)(void))prf_many, METH_FASTCALL, prf_many_doc},
    {"records", (PyCFunction)(void (*)(void))records, METH_FASTCALL, records_doc},
    {"int_column", (PyCFunction)(void (*)(void))int_column, METH_FASTCALL, int_column_doc},
    STATS_KERNEL_METHODS
    PAIRED_KERNEL_METHODS
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT,
    "rouge2.kernels._speedups",
    "Optional C kernels for rouge2 (see rouge2/kernels/python.py).",
    -1,
    speedups_methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    PyObject *m;
    if (vocab_lock == NULL && analyze_init() < 0)
        return NULL;
    m = PyModule_Create(&speedups_module);
    if (m == NULL)
        return NULL;
    if (PyType_Ready(&Rouge155StemmerType) < 0
        || PyModule_AddObjectRef(m, "Rouge155Stemmer", (PyObject *)&Rouge155StemmerType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    if (rs_add_functions(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
