/*
 * rouge2.kernels._speedups: optional C kernels for the core scoring path.
 *
 * Both functions take token ids (non-negative Python ints below 2**64, as
 * rouge2.kernels.token_ids produces them) and return exact counts:
 * hash tables here only pick where to look, every match compares the ids
 * themselves, so no two different n-grams are ever confused.
 *
 *   ngram_hits(cand_ids, ref_ids, n) -> int
 *       sum over distinct n-grams of min(count in cand, count in ref)
 *   lcs_length(a_ids, b_ids) -> int
 *       length of a longest common subsequence (bit-parallel, any length)
 *
 * The pure-Python versions in rouge2/kernels/python.py are the reference;
 * tests/test_speedups.py checks that both agree.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
#else
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
        table = (Slot *)PyMem_Malloc((size_t)size * sizeof(Slot));
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
        PyMem_Free(table);
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

static Py_ssize_t
lcs_words(const uint64_t *a, Py_ssize_t m, const uint64_t *b, Py_ssize_t nb, int *nomem)
{
    Py_ssize_t words = (m + 63) / 64;
    Py_ssize_t size, hmask, i, j, w, distinct = 0, result;
    int bits;
    uint64_t top = (m % 64) ? ((UINT64_C(1) << (m % 64)) - 1) : ~UINT64_C(0);
    KeySlot small_slots[256];
    KeySlot *slots;
    uint64_t *masks = NULL, *v = NULL;
    Py_ssize_t *row = NULL; /* per b token: its mask row, or -1 */

    *nomem = 0;
    size = table_size(m, &bits);
    hmask = size - 1;
    slots = size <= 256 ? small_slots : (KeySlot *)PyMem_Malloc((size_t)size * sizeof(KeySlot));
    masks = (uint64_t *)PyMem_Calloc((size_t)m * (size_t)words, sizeof(uint64_t));
    v = (uint64_t *)PyMem_Malloc((size_t)words * sizeof(uint64_t));
    row = (Py_ssize_t *)PyMem_Malloc((size_t)nb * sizeof(Py_ssize_t));
    if (slots == NULL || masks == NULL || v == NULL || row == NULL) {
        *nomem = 1;
        result = 0;
        goto done;
    }
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
    for (j = 0; j < nb; j++) {
        uint64_t key = b[j];
        Py_ssize_t s = (Py_ssize_t)(mix64(key) >> (64 - bits));
        row[j] = -1;
        for (;;) {
            KeySlot *e = &slots[s];
            if (e->index < 0)
                break;
            if (e->key == key) {
                row[j] = e->index;
                break;
            }
            s = (s + 1) & hmask;
        }
    }
    for (w = 0; w < words; w++)
        v[w] = ~UINT64_C(0);
    v[words - 1] = top;
    for (j = 0; j < nb; j++) {
        const uint64_t *mk;
        uint64_t carry = 0;
        if (row[j] < 0)
            continue;
        mk = masks + row[j] * words;
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
            if (blen == cap) {
                char *bigger;
                cap *= 2;
                if (buf == small) {
                    bigger = (char *)PyMem_Malloc((size_t)cap);
                    if (bigger != NULL)
                        memcpy(bigger, small, (size_t)blen);
                }
                else {
                    bigger = (char *)PyMem_Realloc(buf, (size_t)cap);
                }
                if (bigger == NULL) {
                    PyErr_NoMemory();
                    goto fail;
                }
                buf = bigger;
            }
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
/* lcs_marks: the ROUGE-1.5.5 traceback for a sentence of <= 64 words. */

PyDoc_STRVAR(lcs_marks_doc,
"lcs_marks(a_ids, b_ids, /) -> int\n\n"
"Bit mask of the positions of a_ids (at most 64 ids) on ROUGE-1.5.5's LCS\n"
"traceback against b_ids: a diagonal move on equal ids first, then 'up'\n"
"(towards earlier a positions) on ties.  Same as\n"
"rouge2.kernels.python.lcs_marks(position_masks(a_ids), len(a_ids), b_ids).");

static PyObject *
lcs_marks(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    IdArray a, b;
    WordMasks t;
    uint64_t small_cols[2 * SMALL_IDS];
    uint64_t *cols = small_cols, *match;
    uint64_t full, v, marks = 0;
    Py_ssize_t m, nb, j;

    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "lcs_marks expected 2 arguments, got %zd", nargs);
        return NULL;
    }
    if (ids_load(args[0], &a) < 0)
        return NULL;
    if (ids_load(args[1], &b) < 0) {
        ids_free(&a);
        return NULL;
    }
    m = a.len;
    nb = b.len;
    if (m > 64) {
        ids_free(&a);
        ids_free(&b);
        PyErr_SetString(PyExc_ValueError, "lcs_marks takes at most 64 ids in a_ids");
        return NULL;
    }
    if (m == 0 || nb == 0)
        goto done;
    if (nb > SMALL_IDS) {
        cols = (uint64_t *)PyMem_Malloc((size_t)nb * 2 * sizeof(uint64_t));
        if (cols == NULL) {
            ids_free(&a);
            ids_free(&b);
            return PyErr_NoMemory();
        }
    }
    match = cols + nb;
    full = (m == 64) ? ~UINT64_C(0) : ((UINT64_C(1) << m) - 1);
    word_masks_build(&t, a.data, m);
    v = full;
    for (j = 0; j < nb; j++) {
        uint64_t mk = word_mask(&t, b.data[j]);
        match[j] = mk;
        v = ((v + (v & mk)) | (v & ~mk)) & full;
        cols[j] = v;
    }
    if (v != full) {
        Py_ssize_t row = m; /* i in the script's table */
        j = nb;
        while (row > 0 && j > 0) {
            uint64_t below = (row == 64) ? ~UINT64_C(0) : ((UINT64_C(1) << row) - 1);
            uint64_t mk = match[j - 1];
            uint64_t stop = (mk | (~cols[j - 1] & full)) & below;
            int p;
            if (!stop)
                break;
            p = HIGHBIT64(stop);
            if ((mk >> p) & 1) {
                marks |= UINT64_C(1) << p;
                row = p;
            }
            else {
                row = p + 1;
            }
            j--;
        }
    }
    if (cols != small_cols)
        PyMem_Free(cols);
done:
    ids_free(&a);
    ids_free(&b);
    return PyLong_FromUnsignedLongLong(marks);
}

/* ------------------------------------------------------------------ */

#include <math.h>
#include "batch.h"

/* ------------------------------------------------------------------ */

static PyMethodDef speedups_methods[] = {
    {"ngram_hits", (PyCFunction)(void (*)(void))ngram_hits, METH_FASTCALL, ngram_hits_doc},
    {"lcs_length", (PyCFunction)(void (*)(void))lcs_length, METH_FASTCALL, lcs_length_doc},
    {"rouge155_tokens", (PyCFunction)rouge155_tokens, METH_O, rouge155_tokens_doc},
    {"token_ids", (PyCFunction)(void (*)(void))token_ids, METH_FASTCALL, token_ids_doc},
    {"lcs_marks", (PyCFunction)(void (*)(void))lcs_marks, METH_FASTCALL, lcs_marks_doc},
    {"analyze_texts", (PyCFunction)(void (*)(void))analyze_texts, METH_FASTCALL, analyze_texts_doc},
    {"raw_words", (PyCFunction)raw_words, METH_O, raw_words_doc},
    {"analyze_pairs", (PyCFunction)(void (*)(void))analyze_pairs, METH_FASTCALL, analyze_pairs_doc},
    {"score_pairs", (PyCFunction)(void (*)(void))score_pairs, METH_FASTCALL, score_pairs_doc},
    {"finish_many", (PyCFunction)(void (*)(void))finish_many, METH_FASTCALL, finish_many_doc},
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
    return PyModule_Create(&speedups_module);
}
