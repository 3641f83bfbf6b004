/*
 * The batch path (issue 12): texts analysed once into packed integer ids,
 * every pair and measure scored in one call, P/R/F built in bulk.
 *
 * Included by _speedups.c (uses its IdArray, count_hits, lcs_one_word,
 * lcs_words, mix64, word_table, table_size).  The pure-Python definitions
 * are in rouge2/kernels/python.py (analyze_texts, raw_words, score_pairs)
 * and rouge2/stats/prf.py (finish_many); tests/test_batch.py checks that
 * both agree with each other and with the per-pair Scorer path.
 *
 *   analyze_texts(texts, lines) -> (ids, sent_starts, text_sents, nwords, empty)
 *       ids: int32 raw word ids (process-wide vocabulary), sent_starts:
 *       int64 start of each non-empty sentence plus the end, text_sents:
 *       int64 first sentence of each text plus the end; nwords: the
 *       vocabulary's size after the call; empty: indices of the texts
 *       without a token.
 *   raw_words(start) -> list[str]   the words of raw ids start, start+1, ...
 *   score_pairs(ids, sent_starts, text_sents, remap, cands, ref_starts,
 *               refs, measures) -> bytes of float64
 *       per reference entry e (pair p's references are entries
 *       ref_starts[p] .. ref_starts[p+1]-1, texts refs[e], candidate text
 *       cands[p]) and measure k: (hit, ref_total, cand_total, key_base) at
 *       [(e * M + k) * 4].
 *   finish_many(stats, ref_starts, weights, key_kinds, mode, alpha,
 *               rounding155, names, score_type) -> list[dict]
 */

/* ------------------------------------------------------------------ */
/* The raw vocabulary: word bytes -> id, process-wide, only grows.      */

typedef struct {
    uint64_t hash;
    int32_t id; /* -1 when empty */
} RawSlot;

static RawSlot *raw_slots = NULL;
static Py_ssize_t raw_size = 0;
static Py_ssize_t raw_count = 0;
static char *raw_arena = NULL;
static Py_ssize_t raw_arena_len = 0, raw_arena_cap = 0;
static Py_ssize_t *raw_offsets = NULL; /* raw_count + 1 entries */
static Py_ssize_t raw_offsets_cap = 0;

#define RAW_MAX_WORDS ((Py_ssize_t)0x7FFFFFF0)

static int
raw_grow(void)
{
    Py_ssize_t new_size = raw_size ? raw_size * 2 : 1 << 14;
    RawSlot *fresh = (RawSlot *)PyMem_Malloc((size_t)new_size * sizeof(RawSlot));
    Py_ssize_t i;
    if (fresh == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (i = 0; i < new_size; i++)
        fresh[i].id = -1;
    for (i = 0; i < raw_size; i++) {
        if (raw_slots[i].id >= 0) {
            Py_ssize_t s = (Py_ssize_t)(raw_slots[i].hash & (uint64_t)(new_size - 1));
            while (fresh[s].id >= 0)
                s = (s + 1) & (new_size - 1);
            fresh[s] = raw_slots[i];
        }
    }
    PyMem_Free(raw_slots);
    raw_slots = fresh;
    raw_size = new_size;
    return 0;
}

/* The id of the word p[0:n], interning it if new; -1 with an exception. */
static int32_t
raw_intern(const char *p, Py_ssize_t n, uint64_t h)
{
    Py_ssize_t s;
    h = mix64(h);
    if (2 * (raw_count + 1) > raw_size && raw_grow() < 0)
        return -1;
    s = (Py_ssize_t)(h & (uint64_t)(raw_size - 1));
    for (;;) {
        RawSlot *e = &raw_slots[s];
        if (e->id < 0)
            break;
        if (e->hash == h) {
            Py_ssize_t off = raw_offsets[e->id], len = raw_offsets[e->id + 1] - off;
            if (len == n) {
                const char *q = raw_arena + off;
                Py_ssize_t k = 0;
                while (k < n && q[k] == p[k])
                    k++;
                if (k == n)
                    return e->id;
            }
        }
        s = (s + 1) & (raw_size - 1);
    }
    if (raw_count >= RAW_MAX_WORDS) {
        PyErr_SetString(PyExc_OverflowError, "too many distinct words");
        return -1;
    }
    if (grow_array((void **)&raw_arena, &raw_arena_cap, raw_arena_len + n, 1, 1 << 16) < 0)
        return -1;
    if (raw_count + 2 > raw_offsets_cap) {
        Py_ssize_t cap = raw_offsets_cap ? raw_offsets_cap * 2 : 1 << 14;
        Py_ssize_t *bigger = (Py_ssize_t *)PyMem_Realloc(raw_offsets, (size_t)cap * sizeof(Py_ssize_t));
        if (bigger == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        if (raw_offsets == NULL)
            bigger[0] = 0;
        raw_offsets = bigger;
        raw_offsets_cap = cap;
    }
    memcpy(raw_arena + raw_arena_len, p, (size_t)n);
    raw_arena_len += n;
    raw_offsets[raw_count + 1] = raw_arena_len;
    raw_slots[s].hash = h;
    raw_slots[s].id = (int32_t)raw_count;
    return (int32_t)raw_count++;
}

/* A growable buffer of fixed-size items. */
typedef struct {
    char *data;
    Py_ssize_t len, cap; /* in bytes */
} GrowBuf;

static int
gb_reserve(GrowBuf *b, Py_ssize_t extra)
{
    return grow_array((void **)&b->data, &b->cap, b->len + extra, 1, 4096);
}

static int
gb_i32(GrowBuf *b, int32_t v)
{
    if (gb_reserve(b, 4) < 0)
        return -1;
    memcpy(b->data + b->len, &v, 4);
    b->len += 4;
    return 0;
}

static int
gb_i64(GrowBuf *b, int64_t v)
{
    if (gb_reserve(b, 8) < 0)
        return -1;
    memcpy(b->data + b->len, &v, 8);
    b->len += 8;
    return 0;
}

PyDoc_STRVAR(analyze_texts_doc,
"analyze_texts(texts, lines, /) -> (ids, sent_starts, text_sents, nwords, empty)\n\n"
"ROUGE-1.5.5 tokens of each text as raw word ids (see batch.h).");

static PyObject *
analyze_texts(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const unsigned char *table = word_table();
    PyObject *seq, *empty, *result = NULL;
    GrowBuf ids = {0}, sents = {0}, texts = {0};
    Py_ssize_t t, ntexts, nsent = 0, ntok = 0;
    int lines;
    char small[256];
    char *buf = small;
    Py_ssize_t cap = sizeof(small);

    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "analyze_texts expected 2 arguments, got %zd", nargs);
        return NULL;
    }
    lines = PyObject_IsTrue(args[1]);
    if (lines < 0)
        return NULL;
    seq = PySequence_Fast(args[0], "texts must be a sequence of str");
    if (seq == NULL)
        return NULL;
    empty = PyList_New(0);
    if (empty == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    ntexts = PySequence_Fast_GET_SIZE(seq);
    for (t = 0; t < ntexts; t++) {
        PyObject *text = PySequence_Fast_ITEMS(seq)[t];
        Py_ssize_t len, i, blen = 0, sent_tok = 0, text_tok = 0;
        int kind;
        const void *data;
        if (!PyUnicode_Check(text)) {
            PyErr_Format(PyExc_TypeError, "texts[%zd] must be str, not %.100s", t,
                         Py_TYPE(text)->tp_name);
            goto fail;
        }
        if (gb_i64(&texts, (int64_t)nsent) < 0)
            goto fail;
        len = PyUnicode_GET_LENGTH(text);
        kind = PyUnicode_KIND(text);
        data = PyUnicode_DATA(text);
        {
            uint64_t h = 0xCBF29CE484222325ULL; /* FNV-1a of the word so far */
            const Py_UCS1 *d1 = kind == PyUnicode_1BYTE_KIND ? (const Py_UCS1 *)data : NULL;
            if (d1 != NULL) {
                /* one byte a character: find each word, then copy it lowercased */
                const Py_UCS1 *q = d1, *end = d1 + len;
                while (q < end) {
                    const Py_UCS1 *w;
                    Py_ssize_t k, n;
                    int32_t id;
                    while (q < end && !table[*q]) {
                        if (*q == '\n' && lines)
                            sent_tok = 0;
                        q++;
                    }
                    if (q == end)
                        break;
                    w = q;
                    while (q < end && table[*q])
                        q++;
                    n = q - w;
                    if (n > cap) {
                        char *bigger = (char *)(buf == small ? PyMem_Malloc((size_t)n)
                                                             : PyMem_Realloc(buf, (size_t)n));
                        if (bigger == NULL) {
                            PyErr_NoMemory();
                            goto fail;
                        }
                        buf = bigger;
                        cap = n;
                    }
                    h = 0xCBF29CE484222325ULL;
                    for (k = 0; k < n; k++) {
                        unsigned char c = table[w[k]];
                        buf[k] = (char)c;
                        h = (h ^ c) * 0x100000001B3ULL;
                    }
                    id = raw_intern(buf, n, h);
                    if (id < 0)
                        goto fail;
                    if (sent_tok == 0) {
                        if (gb_i64(&sents, (int64_t)ntok) < 0)
                            goto fail;
                        nsent++;
                    }
                    if (gb_i32(&ids, id) < 0)
                        goto fail;
                    sent_tok++;
                    ntok++;
                    text_tok++;
                }
                len = -1; /* skip the general loop */
            }
            for (i = 0; i <= len; i++) {
                Py_UCS4 ch;
                unsigned char c;
                if (d1 != NULL) {
                    ch = i < len ? d1[i] : 0;
                    c = table[ch]; /* 0 for every byte >= 128 */
                }
                else {
                    ch = i < len ? PyUnicode_READ(kind, data, i) : 0;
                    c = ch < 128 ? table[ch] : 0;
                }
                if (c) {
                    if (blen == cap && grow_word(&buf, small, &cap, blen) < 0)
                        goto fail;
                    buf[blen++] = (char)c;
                    h = (h ^ c) * 0x100000001B3ULL;
                    continue;
                }
                if (blen) {
                    int32_t id = raw_intern(buf, blen, h);
                    if (id < 0)
                        goto fail;
                    if (sent_tok == 0) {
                        if (gb_i64(&sents, (int64_t)ntok) < 0)
                            goto fail;
                        nsent++;
                    }
                    if (gb_i32(&ids, id) < 0)
                        goto fail;
                    sent_tok++;
                    ntok++;
                    text_tok++;
                    blen = 0;
                    h = 0xCBF29CE484222325ULL;
                }
                if (ch == '\n' && lines)
                    sent_tok = 0;
            }
        }
        if (text_tok == 0) {
            PyObject *ix = PyLong_FromSsize_t(t);
            int rc = ix == NULL ? -1 : PyList_Append(empty, ix);
            Py_XDECREF(ix);
            if (rc < 0)
                goto fail;
        }
    }
    if (gb_i64(&texts, (int64_t)nsent) < 0 || gb_i64(&sents, (int64_t)ntok) < 0)
        goto fail;
    result = Py_BuildValue("(y#y#y#nO)", ids.data ? ids.data : "", ids.len,
                           sents.data, sents.len, texts.data, texts.len, raw_count, empty);
fail:
    if (buf != small)
        PyMem_Free(buf);
    PyMem_Free(ids.data);
    PyMem_Free(sents.data);
    PyMem_Free(texts.data);
    Py_DECREF(empty);
    Py_DECREF(seq);
    return result;
}

PyDoc_STRVAR(raw_words_doc,
"raw_words(start, /) -> list[str]\n\n"
"The words of the raw ids start, start + 1, ... (every id given so far).");

static PyObject *
raw_words(PyObject *self, PyObject *arg)
{
    Py_ssize_t start = PyLong_AsSsize_t(arg), i;
    PyObject *out;
    if (start == -1 && PyErr_Occurred())
        return NULL;
    if (start < 0)
        start = 0;
    if (start > raw_count)
        start = raw_count;
    out = PyList_New(raw_count - start);
    if (out == NULL)
        return NULL;
    for (i = start; i < raw_count; i++) {
        PyObject *w = PyUnicode_FromStringAndSize(raw_arena + raw_offsets[i],
                                                  raw_offsets[i + 1] - raw_offsets[i]);
        if (w == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i - start, w);
    }
    return out;
}

/* The index of text in texts (through the dict index), appending it if new. */
static int
text_index(PyObject *index, PyObject *texts, PyObject *text, int32_t *out)
{
    PyObject *ix = PyDict_GetItemWithError(index, text); /* borrowed */
    if (ix != NULL) {
        *out = (int32_t)PyLong_AsLong(ix);
        return 0;
    }
    if (PyErr_Occurred())
        return -1;
    ix = PyLong_FromSsize_t(PyList_GET_SIZE(texts));
    if (ix == NULL)
        return -1;
    *out = (int32_t)PyList_GET_SIZE(texts);
    if (PyDict_SetItem(index, text, ix) < 0 || PyList_Append(texts, text) < 0) {
        Py_DECREF(ix);
        return -1;
    }
    Py_DECREF(ix);
    return 0;
}

PyDoc_STRVAR(analyze_pairs_doc,
"analyze_pairs(pairs, start, stop, lines, /) -> None or\n"
"(ids, sent_starts, text_sents, nwords, empty_texts, cands, ref_starts, refs)\n\n"
"analyze_texts of the distinct texts of pairs[start:stop] ((candidate,\n"
"references) pairs, references a str or a non-empty list or tuple of str),\n"
"with each pair's candidate text index (int32), reference entries (int64\n"
"starts) and reference text indices (int32).  None when a text is not a\n"
"str (the caller then takes the per-pair path, which checks it).");

static PyObject *
analyze_pairs(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *seq, *index = NULL, *texts = NULL, *res = NULL, *out = NULL, *empty = NULL;
    PyObject *targs[2];
    GrowBuf cands = {0}, rstarts = {0}, refs = {0};
    Py_ssize_t start, stop, p, n;
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "analyze_pairs expected 4 arguments, got %zd", nargs);
        return NULL;
    }
    seq = PySequence_Fast(args[0], "pairs must be a sequence");
    if (seq == NULL)
        return NULL;
    start = PyLong_AsSsize_t(args[1]);
    stop = PyLong_AsSsize_t(args[2]);
    if ((start == -1 || stop == -1) && PyErr_Occurred())
        goto done;
    n = PySequence_Fast_GET_SIZE(seq);
    if (start < 0)
        start = 0;
    if (stop > n)
        stop = n;
    index = PyDict_New();
    texts = PyList_New(0);
    if (index == NULL || texts == NULL || gb_i64(&rstarts, 0) < 0)
        goto done;
    for (p = start; p < stop; p++) {
        PyObject *pair = PySequence_Fast_ITEMS(seq)[p], *c, *r;
        int32_t ix;
        if (!(PyTuple_CheckExact(pair) || PyList_CheckExact(pair)) || Py_SIZE(pair) != 2)
            goto fallback;
        c = PyTuple_CheckExact(pair) ? PyTuple_GET_ITEM(pair, 0) : PyList_GET_ITEM(pair, 0);
        r = PyTuple_CheckExact(pair) ? PyTuple_GET_ITEM(pair, 1) : PyList_GET_ITEM(pair, 1);
        if (!PyUnicode_CheckExact(c))
            goto fallback;
        if (text_index(index, texts, c, &ix) < 0 || gb_i32(&cands, ix) < 0)
            goto done;
        if (PyUnicode_CheckExact(r)) {
            if (text_index(index, texts, r, &ix) < 0 || gb_i32(&refs, ix) < 0)
                goto done;
        }
        else if (PyList_CheckExact(r) || PyTuple_CheckExact(r)) {
            Py_ssize_t k, nr = Py_SIZE(r);
            if (nr == 0)
                goto fallback;
            for (k = 0; k < nr; k++) {
                PyObject *x = PyList_CheckExact(r) ? PyList_GET_ITEM(r, k) : PyTuple_GET_ITEM(r, k);
                if (!PyUnicode_CheckExact(x))
                    goto fallback;
            }
            for (k = 0; k < nr; k++) {
                PyObject *x = PyList_CheckExact(r) ? PyList_GET_ITEM(r, k) : PyTuple_GET_ITEM(r, k);
                if (text_index(index, texts, x, &ix) < 0 || gb_i32(&refs, ix) < 0)
                    goto done;
            }
        }
        else {
            goto fallback;
        }
        if (gb_i64(&rstarts, (int64_t)(refs.len / 4)) < 0)
            goto done;
    }
    targs[0] = texts;
    targs[1] = args[3];
    res = analyze_texts(self, targs, 2);
    if (res == NULL)
        goto done;
    {
        PyObject *idx = PyTuple_GET_ITEM(res, 4);
        Py_ssize_t k, ne = PyList_GET_SIZE(idx);
        empty = PyList_New(ne);
        if (empty == NULL)
            goto done;
        for (k = 0; k < ne; k++) {
            PyObject *t = PyList_GET_ITEM(texts, PyLong_AsSsize_t(PyList_GET_ITEM(idx, k)));
            Py_INCREF(t);
            PyList_SET_ITEM(empty, k, t);
        }
    }
    out = Py_BuildValue("(OOOOOy#y#y#)", PyTuple_GET_ITEM(res, 0), PyTuple_GET_ITEM(res, 1),
                        PyTuple_GET_ITEM(res, 2), PyTuple_GET_ITEM(res, 3), empty,
                        cands.data ? cands.data : "", cands.len, rstarts.data, rstarts.len,
                        refs.data ? refs.data : "", refs.len);
    goto done;
fallback:
    out = Py_None;
    Py_INCREF(out);
done:
    Py_XDECREF(res);
    Py_XDECREF(empty);
    Py_XDECREF(index);
    Py_XDECREF(texts);
    PyMem_Free(cands.data);
    PyMem_Free(rstarts.data);
    PyMem_Free(refs.data);
    Py_DECREF(seq);
    return out;
}

/* ------------------------------------------------------------------ */
/* score_pairs                                                          */

enum { M_NGRAM = 0, M_LCS = 1, M_LCS_FLAT = 2, M_WLCS = 3, M_SKIP = 4 };

typedef struct {
    int kind;
    Py_ssize_t n;    /* n-gram size; skip distance (-1: any) */
    int unigrams;    /* skip: SU */
    double weight;   /* ROUGE-W */
} MSpec;

/* One analysed text with its final ids: flat tokens and sentence ends. */
typedef struct {
    uint64_t *tok;
    Py_ssize_t ntok, cap;
    Py_ssize_t *send; /* end of each non-empty sentence in tok */
    Py_ssize_t nsent, scap;
    uint64_t maxid;
} Text;

typedef struct {
    const int32_t *ids;
    const int64_t *sstart;
    Py_ssize_t nsent_all;
    const int64_t *tsent;
    Py_ssize_t ntexts;
    const int32_t *remap;
    Py_ssize_t nremap;
} Packed;

static int
text_load(const Packed *pk, Py_ssize_t t, Text *out)
{
    Py_ssize_t s0, s1, s;
    if (t < 0 || t >= pk->ntexts) {
        PyErr_SetString(PyExc_IndexError, "text index out of range");
        return -1;
    }
    s0 = (Py_ssize_t)pk->tsent[t];
    s1 = (Py_ssize_t)pk->tsent[t + 1];
    out->ntok = 0;
    out->nsent = 0;
    out->maxid = 0;
    for (s = s0; s < s1; s++) {
        Py_ssize_t a = (Py_ssize_t)pk->sstart[s], b = (Py_ssize_t)pk->sstart[s + 1], k;
        Py_ssize_t before = out->ntok;
        if (grow_array((void **)&out->tok, &out->cap, out->ntok + (b - a), sizeof(uint64_t), 256) < 0)
            return -1;
        for (k = a; k < b; k++) {
            int32_t id = pk->ids[k];
            if (pk->remap != NULL) {
                if (id < 0 || id >= pk->nremap) {
                    PyErr_SetString(PyExc_IndexError, "raw id outside the remap array");
                    return -1;
                }
                id = pk->remap[id];
                if (id < 0)
                    continue; /* a stopword */
            }
            if ((uint64_t)(uint32_t)id > out->maxid)
                out->maxid = (uint64_t)(uint32_t)id;
            out->tok[out->ntok++] = (uint64_t)(uint32_t)id;
        }
        if (out->ntok > before) {
            if (out->nsent == out->scap) {
                Py_ssize_t cap = out->scap ? out->scap * 2 : 16;
                Py_ssize_t *bigger = (Py_ssize_t *)PyMem_Realloc(out->send, (size_t)cap * sizeof(Py_ssize_t));
                if (bigger == NULL) {
                    PyErr_NoMemory();
                    return -1;
                }
                out->send = bigger;
                out->scap = cap;
            }
            out->send[out->nsent++] = out->ntok;
        }
    }
    return 0;
}

static void
text_free(Text *t)
{
    PyMem_Free(t->tok);
    PyMem_Free(t->send);
}

/* Scratch space reused across pairs. */
typedef struct {
    int32_t *cnt_ref, *cnt_cand; /* per final id; all zero between uses */
    Py_ssize_t ncnt;
    uint64_t *u64;
    Py_ssize_t u64cap;
    double *dbl;
    Py_ssize_t dblcap;
    unsigned char *bytes;
    Py_ssize_t bytecap;
    KeySlot *slots;
    Py_ssize_t slotcap;
    struct CountSlot *cslots; /* key counts, valid where stamp == cstamp */
    Py_ssize_t ncslots;
    uint32_t cstamp;
} Scratch;

typedef struct CountSlot {
    uint64_t key;
    int32_t count;
    uint32_t stamp;
} CountSlot;

/* Clipped hits of two key sequences (each key matched at most as often as
   it occurs on both sides), in a stamped table reused across calls. */
static int
key_hits(Scratch *sc, const uint64_t *ck, Py_ssize_t nc, const uint64_t *rk, Py_ssize_t nr,
         double *hit)
{
    Py_ssize_t size = 16, i, h = 0;
    int bits = 4;
    uint64_t mask;
    uint32_t stamp;
    CountSlot *t;
    while (size < 2 * nc) {
        size <<= 1;
        bits++;
    }
    if (size > sc->ncslots) {
        CountSlot *fresh = (CountSlot *)PyMem_Calloc((size_t)size, sizeof(CountSlot));
        if (fresh == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        PyMem_Free(sc->cslots);
        sc->cslots = fresh;
        sc->ncslots = size;
        sc->cstamp = 0;
    }
    if (++sc->cstamp == 0) { /* wrapped: clear every stamp */
        memset(sc->cslots, 0, (size_t)sc->ncslots * sizeof(CountSlot));
        sc->cstamp = 1;
    }
    stamp = sc->cstamp;
    t = sc->cslots;
    mask = (uint64_t)size - 1;
    for (i = 0; i < nc; i++) {
        uint64_t key = ck[i], s = mix64(key) >> (64 - bits);
        for (;;) {
            CountSlot *e = &t[s];
            if (e->stamp != stamp) {
                e->stamp = stamp;
                e->key = key;
                e->count = 1;
                break;
            }
            if (e->key == key) {
                e->count++;
                break;
            }
            s = (s + 1) & mask;
        }
    }
    for (i = 0; i < nr; i++) {
        uint64_t key = rk[i], s = mix64(key) >> (64 - bits);
        for (;;) {
            CountSlot *e = &t[s];
            if (e->stamp != stamp)
                break;
            if (e->key == key) {
                if (e->count > 0) {
                    e->count--;
                    h++;
                }
                break;
            }
            s = (s + 1) & mask;
        }
    }
    *hit = (double)h;
    return 0;
}

static void *
scratch_get(void **p, Py_ssize_t *cap, Py_ssize_t n, size_t item)
{
    if (n > *cap) {
        Py_ssize_t c = *cap ? *cap : 256;
        void *bigger;
        while (c < n)
            c *= 2;
        bigger = PyMem_Realloc(*p, (size_t)c * item);
        if (bigger == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        *p = bigger;
        *cap = c;
    }
    return *p;
}

static int
scratch_counts(Scratch *sc, uint64_t maxid)
{
    Py_ssize_t need = (Py_ssize_t)maxid + 1;
    if (need > sc->ncnt) {
        Py_ssize_t c = sc->ncnt ? sc->ncnt : 4096;
        int32_t *a, *b;
        while (c < need)
            c *= 2;
        a = (int32_t *)PyMem_Calloc((size_t)c, sizeof(int32_t));
        b = (int32_t *)PyMem_Calloc((size_t)c, sizeof(int32_t));
        if (a == NULL || b == NULL) {
            PyMem_Free(a);
            PyMem_Free(b);
            PyErr_NoMemory();
            return -1;
        }
        PyMem_Free(sc->cnt_ref);
        PyMem_Free(sc->cnt_cand);
        sc->cnt_ref = a;
        sc->cnt_cand = b;
        sc->ncnt = c;
    }
    return 0;
}

static uint64_t
max_id(const Text *t)
{
    return t->maxid;
}

/* Clipped unigram hits through per-id counts (no hashing). */
static int
unigram_hits(Scratch *sc, const Text *c, const Text *r, double *hit)
{
    Py_ssize_t i, h = 0;
    int32_t *cnt;
    if (scratch_counts(sc, c->maxid > r->maxid ? c->maxid : r->maxid) < 0)
        return -1;
    cnt = sc->cnt_cand;
    for (i = 0; i < c->ntok; i++)
        cnt[c->tok[i]]++;
    for (i = 0; i < r->ntok; i++) {
        uint64_t t = r->tok[i];
        if (cnt[t] > 0) {
            cnt[t]--;
            h++;
        }
    }
    for (i = 0; i < c->ntok; i++)
        cnt[c->tok[i]] = 0;
    *hit = (double)h;
    return 0;
}

/* Clipped bigram hits: each bigram packed into one 64-bit key (ids < 2**31). */
static int
bigram_hits(Scratch *sc, const Text *c, const Text *r, double *hit)
{
    Py_ssize_t nc = c->ntok - 1, nr = r->ntok - 1, i;
    uint64_t *k;
    k = (uint64_t *)scratch_get((void **)&sc->u64, &sc->u64cap, nc + nr, sizeof(uint64_t));
    if (k == NULL)
        return -1;
    for (i = 0; i < nc; i++)
        k[i] = (c->tok[i] << 32) | c->tok[i + 1];
    for (i = 0; i < nr; i++)
        k[nc + i] = (r->tok[i] << 32) | r->tok[i + 1];
    return key_hits(sc, k, nc, k + nc, nr, hit);
}

/* LCS length of a (m ids) and b (nb ids), bit-parallel over a, with each
   id's position mask found through an id-indexed array (cnt_ref, zero
   between uses: row + 1 per id of a) instead of a hash table. */
static int
lcs_len_ids(Scratch *sc, const uint64_t *a, Py_ssize_t m, uint64_t amax, const uint64_t *b,
            Py_ssize_t nb, uint64_t bmax, double *out)
{
    Py_ssize_t words = (m + 63) / 64, i, j, w, rows = 0, result;
    uint64_t top = (m % 64) ? ((UINT64_C(1) << (m % 64)) - 1) : ~UINT64_C(0);
    uint64_t *masks, *v;
    int32_t *rowmap;
    if (m == 0 || nb == 0) {
        *out = 0.0;
        return 0;
    }
    if (scratch_counts(sc, amax > bmax ? amax : bmax) < 0)
        return -1;
    rowmap = sc->cnt_ref;
    masks = (uint64_t *)scratch_get((void **)&sc->u64, &sc->u64cap, (m + 1) * words, sizeof(uint64_t));
    if (masks == NULL)
        return -1;
    for (i = 0; i < m; i++) {
        int32_t r = rowmap[a[i]];
        if (r == 0) {
            r = rowmap[a[i]] = (int32_t)++rows;
            memset(masks + (r - 1) * words, 0, (size_t)words * sizeof(uint64_t));
        }
        masks[(r - 1) * words + i / 64] |= UINT64_C(1) << (i % 64);
    }
    v = masks + rows * words;
    if (words == 1) {
        uint64_t full = top, x = full;
        for (j = 0; j < nb; j++) {
            uint64_t id = b[j];
            int32_t r = id <= amax ? rowmap[id] : 0;
            if (r) {
                uint64_t mk = masks[r - 1];
                uint64_t u = x & mk;
                x = ((x + u) | (x & ~mk)) & full;
            }
        }
        v[0] = x;
    }
    else {
        for (w = 0; w < words; w++)
            v[w] = ~UINT64_C(0);
        v[words - 1] = top;
        for (j = 0; j < nb; j++) {
            uint64_t id = b[j];
            int32_t r = id <= amax ? rowmap[id] : 0;
            if (r)
                lcs_step(v, masks + (r - 1) * words, words, top);
        }
    }
    result = m;
    for (w = 0; w < words; w++)
        result -= POPCOUNT64(v[w]);
    for (i = 0; i < m; i++)
        rowmap[a[i]] = 0;
    *out = (double)result;
    return 0;
}

/* The script's LCS traceback of sentence a (m ids) against b (nb ids),
   OR-ed into union (words = ceil(m / 64) words); bit-parallel columns as
   rouge2.kernels.python.lcs_marks computes them. */
static int
union_marks(Scratch *sc, const uint64_t *a, Py_ssize_t m, const uint64_t *b, Py_ssize_t nb,
            uint64_t *un)
{
    Py_ssize_t words = (m + 63) / 64, size, j, w;
    int bits;
    uint64_t top = (m % 64) ? ((UINT64_C(1) << (m % 64)) - 1) : ~UINT64_C(0);
    uint64_t *masks, *cols, *v, *zero;
    Py_ssize_t *row;
    KeySlot *slots;
    Py_ssize_t need;

    size = table_size(m, &bits);
    slots = (KeySlot *)scratch_get((void **)&sc->slots, &sc->slotcap, size, sizeof(KeySlot));
    /* u64 scratch: masks m*words, cols nb*words, v words, zero words */
    need = m * words + nb * words + 2 * words + nb;
    masks = (uint64_t *)scratch_get((void **)&sc->u64, &sc->u64cap, need, sizeof(uint64_t));
    if (slots == NULL || masks == NULL)
        return -1;
    cols = masks + m * words;
    v = cols + nb * words;
    zero = v + words;
    row = (Py_ssize_t *)(zero + words);
    memset(masks, 0, (size_t)(m * words) * sizeof(uint64_t));
    memset(zero, 0, (size_t)words * sizeof(uint64_t));
    key_masks_build(slots, bits, a, m, masks, words);
    for (w = 0; w < words; w++)
        v[w] = ~UINT64_C(0);
    v[words - 1] = top;
    for (j = 0; j < nb; j++) {
        row[j] = key_masks_row(slots, bits, b[j]);
        if (row[j] >= 0)
            lcs_step(v, masks + row[j] * words, words, top);
        memcpy(cols + j * words, v, (size_t)words * sizeof(uint64_t));
    }
    /* v == full: no common token */
    {
        int any = 0;
        for (w = 0; w < words; w++)
            if (v[w] != (w == words - 1 ? top : ~UINT64_C(0)))
                any = 1;
        if (!any)
            return 0;
    }
    {
        Py_ssize_t r = m; /* rows below r are candidates */
        j = nb;
        while (r > 0 && j > 0) {
            const uint64_t *mk = row[j - 1] >= 0 ? masks + row[j - 1] * words : zero;
            const uint64_t *col = cols + (j - 1) * words;
            Py_ssize_t p = -1;
            /* highest p < r with (mk | ~col) bit set (col restricted to full) */
            for (w = (r - 1) / 64; w >= 0; w--) {
                uint64_t fullw = (w == words - 1) ? top : ~UINT64_C(0);
                uint64_t stop = (mk[w] | (~col[w] & fullw));
                Py_ssize_t lim = r - w * 64; /* bits below lim in this word */
                if (lim < 64)
                    stop &= (UINT64_C(1) << lim) - 1;
                if (stop) {
                    p = w * 64 + HIGHBIT64(stop);
                    break;
                }
            }
            if (p < 0)
                break;
            if ((mk[p / 64] >> (p % 64)) & 1) {
                un[p / 64] |= UINT64_C(1) << (p % 64);
                r = p;
            }
            else {
                r = p + 1;
            }
            j--;
        }
    }
    return 0;
}

/* The token counts of reference r and candidate c in the scratch tables
   (which clip the union-LCS and WLCS hits); clear_pair_counts zeroes them
   again, touching only the ids the texts hold. */
static int
count_pair(Scratch *sc, const Text *c, const Text *r)
{
    Py_ssize_t i;
    if (scratch_counts(sc, max_id(c) > max_id(r) ? max_id(c) : max_id(r)) < 0)
        return -1;
    for (i = 0; i < r->ntok; i++)
        sc->cnt_ref[r->tok[i]]++;
    for (i = 0; i < c->ntok; i++)
        sc->cnt_cand[c->tok[i]]++;
    return 0;
}

static void
clear_pair_counts(Scratch *sc, const Text *c, const Text *r)
{
    Py_ssize_t i;
    for (i = 0; i < r->ntok; i++)
        sc->cnt_ref[r->tok[i]] = 0;
    for (i = 0; i < c->ntok; i++)
        sc->cnt_cand[c->tok[i]] = 0;
}

/* ROUGE-1.5.5's summary-level union-LCS hit (both texts non-empty). */
static int
lcs_hit(Scratch *sc, const Text *c, const Text *r, double *hit)
{
    Py_ssize_t k, i, h = 0, rs0 = 0;
    uint64_t *un;
    Py_ssize_t uncap_words;
    if (c->nsent == 1 && r->nsent == 1)
        return lcs_len_ids(sc, r->tok, r->ntok, r->maxid, c->tok, c->ntok, c->maxid, hit);
    if (count_pair(sc, c, r) < 0)
        return -1;
    uncap_words = (r->ntok + 63) / 64 + 1;
    un = (uint64_t *)PyMem_Malloc((size_t)uncap_words * sizeof(uint64_t));
    if (un == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (k = 0; k < r->nsent; k++) {
        Py_ssize_t re = r->send[k], m = re - rs0, words = (m + 63) / 64, cs0 = 0, q;
        const uint64_t *sent = r->tok + rs0;
        memset(un, 0, (size_t)words * sizeof(uint64_t));
        for (q = 0; q < c->nsent; q++) {
            Py_ssize_t ce = c->send[q];
            if (union_marks(sc, sent, m, c->tok + cs0, ce - cs0, un) < 0) {
                PyMem_Free(un);
                goto fail;
            }
            cs0 = ce;
        }
        for (i = 0; i < m; i++) {
            if ((un[i / 64] >> (i % 64)) & 1) {
                uint64_t tok = sent[i];
                if (sc->cnt_ref[tok] > 0 && sc->cnt_cand[tok] > 0) {
                    h++;
                    sc->cnt_ref[tok]--;
                    sc->cnt_cand[tok]--;
                }
            }
        }
        rs0 = re;
    }
    PyMem_Free(un);
    clear_pair_counts(sc, c, r);
    *hit = (double)h;
    return 0;
fail:
    clear_pair_counts(sc, c, r);
    return -1;
}

/* The script's weighted-LCS table and traceback for one sentence pair
   (rouge2.kernels.python.wlcs_marks). */
static int
wlcs_marks(Scratch *sc, const uint64_t *model, Py_ssize_t m, const uint64_t *peer, Py_ssize_t n,
           double w, unsigned char *hit_mask)
{
    double *prev_c, *cur_c;
    Py_ssize_t *prev_l, *cur_l;
    unsigned char *back;
    Py_ssize_t i, j;
    size_t need_d = (size_t)(2 * (n + 1)) * 2; /* doubles + lengths (as doubles' space) */
    double *d = (double *)scratch_get((void **)&sc->dbl, &sc->dblcap, (Py_ssize_t)need_d, sizeof(double));
    back = (unsigned char *)scratch_get((void **)&sc->bytes, &sc->bytecap, m * (n + 1), 1);
    if (d == NULL || back == NULL)
        return -1;
    prev_c = d;
    cur_c = d + (n + 1);
    prev_l = (Py_ssize_t *)(d + 2 * (n + 1));
    cur_l = prev_l + (n + 1);
    for (j = 0; j <= n; j++) {
        prev_c[j] = 0.0;
        prev_l[j] = 0;
    }
    for (i = 1; i <= m; i++) {
        uint64_t tok = model[i - 1];
        unsigned char *moves = back + (i - 1) * (n + 1);
        cur_c[0] = 0.0;
        cur_l[0] = 0;
        moves[0] = 0;
        for (j = 1; j <= n; j++) {
            if (tok == peer[j - 1]) {
                Py_ssize_t k = prev_l[j - 1];
                cur_c[j] = prev_c[j - 1] + pow((double)(k + 1), w) - pow((double)k, w);
                cur_l[j] = k + 1;
                moves[j] = 0;
            }
            else if (prev_c[j] >= cur_c[j - 1]) {
                cur_c[j] = prev_c[j];
                cur_l[j] = 0;
                moves[j] = 1;
            }
            else {
                cur_c[j] = cur_c[j - 1];
                cur_l[j] = 0;
                moves[j] = 2;
            }
        }
        {
            double *t = prev_c;
            Py_ssize_t *tl = prev_l;
            prev_c = cur_c;
            cur_c = t;
            prev_l = cur_l;
            cur_l = tl;
        }
    }
    i = m;
    j = n;
    while (i && j) {
        unsigned char mv = back[(i - 1) * (n + 1) + j];
        if (mv == 0) {
            i--;
            j--;
            hit_mask[i] = 1;
        }
        else if (mv == 1) {
            i--;
        }
        else {
            j--;
        }
    }
    return 0;
}

static int
wlcs_raw(Scratch *sc, const Text *c, const Text *r, double w, double *hit_out, double *base_out)
{
    Py_ssize_t k, rs0 = 0;
    double hit = 0.0, base = 0.0;
    unsigned char *mask;
    mask = (unsigned char *)PyMem_Malloc((size_t)(r->ntok + 1));
    if (mask == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (count_pair(sc, c, r) < 0) {
        PyMem_Free(mask);
        return -1;
    }
    for (k = 0; k < r->nsent; k++) {
        Py_ssize_t re = r->send[k], m = re - rs0, cs0 = 0, q, j, run = 0;
        const uint64_t *sent = r->tok + rs0;
        base += pow((double)m, w);
        memset(mask, 0, (size_t)m);
        for (q = 0; q < c->nsent; q++) {
            Py_ssize_t ce = c->send[q];
            if (wlcs_marks(sc, sent, m, c->tok + cs0, ce - cs0, w, mask) < 0) {
                PyMem_Free(mask);
                goto fail;
            }
            cs0 = ce;
        }
        for (j = 0; j < m; j++) {
            if (mask[j]) {
                uint64_t tok = sent[j];
                if (sc->cnt_ref[tok] > 0 && sc->cnt_cand[tok] > 0) {
                    run++;
                    if (j + 1 < m && !mask[j + 1]) {
                        hit += pow((double)run, w);
                        run = 0;
                    }
                    else if (j + 1 == m) {
                        hit += pow((double)run, w);
                        run = 0;
                    }
                    sc->cnt_ref[tok]--;
                    sc->cnt_cand[tok]--;
                }
            }
        }
        rs0 = re;
    }
    PyMem_Free(mask);
    clear_pair_counts(sc, c, r);
    *hit_out = hit;
    *base_out = base;
    return 0;
fail:
    clear_pair_counts(sc, c, r);
    return -1;
}

/* Skip-bigram keys of a text: pairs (a << 32 | b), unigrams (1 << 63 | a). */
static Py_ssize_t
skip_keys(const Text *t, Py_ssize_t max_skip, int unigrams, uint64_t *out)
{
    Py_ssize_t n = t->ntok, i, j, k = 0;
    for (i = 0; i + 1 < n; i++) {
        uint64_t a = t->tok[i];
        Py_ssize_t stop = n;
        if (unigrams)
            out[k++] = (UINT64_C(1) << 63) | a;
        if (max_skip >= 0 && i + max_skip + 2 < n)
            stop = i + max_skip + 2;
        for (j = i + 1; j < stop; j++)
            out[k++] = (a << 32) | t->tok[j];
    }
    return k;
}

static Py_ssize_t
skip_total(Py_ssize_t n, Py_ssize_t max_skip, int unigrams)
{
    Py_ssize_t i, total = 0;
    for (i = 0; i + 1 < n; i++) {
        Py_ssize_t stop = n;
        if (unigrams)
            total++;
        if (max_skip >= 0 && i + max_skip + 2 < n)
            stop = i + max_skip + 2;
        total += stop - i - 1;
    }
    return total;
}

static int
skip_hits(Scratch *sc, const Text *c, const Text *r, Py_ssize_t max_skip, int unigrams,
          Py_ssize_t ct, Py_ssize_t rt, double *hit)
{
    uint64_t *ck, *rk;
    Py_ssize_t nc, nr;
    ck = (uint64_t *)scratch_get((void **)&sc->u64, &sc->u64cap, ct + rt + 2, sizeof(uint64_t));
    if (ck == NULL)
        return -1;
    rk = ck + ct + 1;
    nc = skip_keys(c, max_skip, unigrams, ck);
    nr = skip_keys(r, max_skip, unigrams, rk);
    return key_hits(sc, ck, nc, rk, nr, hit);
}

static int
mspecs_load(PyObject *measures, MSpec **out, Py_ssize_t *count)
{
    PyObject *seq = PySequence_Fast(measures, "measures must be a sequence");
    Py_ssize_t i, n;
    MSpec *specs;
    if (seq == NULL)
        return -1;
    n = PySequence_Fast_GET_SIZE(seq);
    specs = (MSpec *)PyMem_Calloc((size_t)(n ? n : 1), sizeof(MSpec));
    if (specs == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_ITEMS(seq)[i];
        int kind, uni = 0;
        Py_ssize_t np = 0;
        double w = 0.0;
        if (!PyArg_ParseTuple(item, "inid", &kind, &np, &uni, &w))
            goto fail;
        if (kind < M_NGRAM || kind > M_SKIP || (kind == M_NGRAM && np < 1)) {
            PyErr_SetString(PyExc_ValueError, "bad measure spec");
            goto fail;
        }
        specs[i].kind = kind;
        specs[i].n = np;
        specs[i].unigrams = uni;
        specs[i].weight = w;
    }
    Py_DECREF(seq);
    *out = specs;
    *count = n;
    return 0;
fail:
    Py_DECREF(seq);
    PyMem_Free(specs);
    return -1;
}

PyDoc_STRVAR(score_pairs_doc,
"score_pairs(ids, sent_starts, text_sents, remap, cands, ref_starts, refs, measures, /)\n"
"-> bytes of float64 (hit, ref_total, cand_total, key_base) per reference\n"
"entry and measure (see batch.h).");

static PyObject *
score_pairs(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer bufs[7];
    int have[7] = {0};
    Packed pk;
    MSpec *specs = NULL;
    Py_ssize_t M = 0, npairs, nentries, p, i;
    PyObject *out = NULL;
    double *o;
    Text ct = {0}, rt = {0};
    Scratch sc = {0};
    const int32_t *cands, *refs;
    const int64_t *rstarts;

    if (nargs != 8) {
        PyErr_Format(PyExc_TypeError, "score_pairs expected 8 arguments, got %zd", nargs);
        return NULL;
    }
    for (i = 0; i < 7; i++) {
        PyObject *a = args[i];
        if (i == 3 && a == Py_None)
            continue;
        if (PyObject_GetBuffer(a, &bufs[i], PyBUF_SIMPLE) < 0)
            goto done;
        have[i] = 1;
    }
    if (mspecs_load(args[7], &specs, &M) < 0)
        goto done;
    pk.ids = (const int32_t *)bufs[0].buf;
    pk.sstart = (const int64_t *)bufs[1].buf;
    pk.nsent_all = bufs[1].len / 8 - 1;
    pk.tsent = (const int64_t *)bufs[2].buf;
    pk.ntexts = bufs[2].len / 8 - 1;
    pk.remap = have[3] ? (const int32_t *)bufs[3].buf : NULL;
    pk.nremap = have[3] ? bufs[3].len / 4 : 0;
    cands = (const int32_t *)bufs[4].buf;
    npairs = bufs[4].len / 4;
    rstarts = (const int64_t *)bufs[5].buf;
    refs = (const int32_t *)bufs[6].buf;
    if (bufs[5].len / 8 != npairs + 1 || (npairs >= 0 && rstarts[npairs] * 4 != bufs[6].len)) {
        PyErr_SetString(PyExc_ValueError, "ref_starts does not fit cands and refs");
        goto done;
    }
    nentries = (Py_ssize_t)rstarts[npairs];
    out = PyBytes_FromStringAndSize(NULL, nentries * M * 4 * (Py_ssize_t)sizeof(double));
    if (out == NULL)
        goto done;
    o = (double *)PyBytes_AS_STRING(out);
    for (p = 0; p < npairs; p++) {
        Py_ssize_t e;
        if (text_load(&pk, cands[p], &ct) < 0)
            goto fail;
        for (e = (Py_ssize_t)rstarts[p]; e < (Py_ssize_t)rstarts[p + 1]; e++) {
            Py_ssize_t k;
            if (text_load(&pk, refs[e], &rt) < 0)
                goto fail;
            for (k = 0; k < M; k++) {
                const MSpec *ms = &specs[k];
                double *d = o + (e * M + k) * 4;
                double hit = 0.0, rtot = 0.0, ctot = 0.0, key = 0.0;
                switch (ms->kind) {
                case M_NGRAM: {
                    Py_ssize_t c_total = ct.ntok - ms->n + 1, r_total = rt.ntok - ms->n + 1;
                    if (c_total > 0 && r_total > 0 && ms->n == 1) {
                        if (unigram_hits(&sc, &ct, &rt, &hit) < 0)
                            goto fail;
                    }
                    else if (c_total > 0 && r_total > 0 && ms->n == 2) {
                        if (bigram_hits(&sc, &ct, &rt, &hit) < 0)
                            goto fail;
                    }
                    else if (c_total > 0 && r_total > 0) {
                        IdArray ca, ra;
                        int nomem = 0;
                        ca.data = ct.tok;
                        ca.len = ct.ntok;
                        ra.data = rt.tok;
                        ra.len = rt.ntok;
                        hit = (double)count_hits(&ca, &ra, ms->n, &nomem);
                        if (nomem) {
                            PyErr_NoMemory();
                            goto fail;
                        }
                    }
                    rtot = (double)(r_total > 0 ? r_total : 0);
                    ctot = (double)(c_total > 0 ? c_total : 0);
                    key = rtot;
                    break;
                }
                case M_LCS:
                    rtot = (double)rt.ntok;
                    ctot = (double)ct.ntok;
                    if (rt.ntok && ct.ntok && lcs_hit(&sc, &ct, &rt, &hit) < 0)
                        goto fail;
                    key = rtot;
                    break;
                case M_LCS_FLAT:
                    rtot = (double)rt.ntok;
                    ctot = (double)ct.ntok;
                    if (rt.ntok && ct.ntok &&
                        lcs_len_ids(&sc, rt.tok, rt.ntok, rt.maxid, ct.tok, ct.ntok, ct.maxid, &hit) < 0)
                        goto fail;
                    key = rtot;
                    break;
                case M_WLCS: {
                    double base = 0.0;
                    if (wlcs_raw(&sc, &ct, &rt, ms->weight, &hit, &base) < 0)
                        goto fail;
                    rtot = pow(base, ms->weight);
                    ctot = pow((double)ct.ntok, ms->weight);
                    key = base;
                    break;
                }
                case M_SKIP: {
                    Py_ssize_t c_total = skip_total(ct.ntok, ms->n, ms->unigrams);
                    Py_ssize_t r_total = skip_total(rt.ntok, ms->n, ms->unigrams);
                    if (c_total && r_total &&
                        skip_hits(&sc, &ct, &rt, ms->n, ms->unigrams, c_total, r_total, &hit) < 0)
                        goto fail;
                    rtot = (double)r_total;
                    ctot = (double)c_total;
                    key = rtot;
                    break;
                }
                }
                d[0] = hit;
                d[1] = rtot;
                d[2] = ctot;
                d[3] = key;
            }
        }
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    for (i = 0; i < 7; i++)
        if (have[i])
            PyBuffer_Release(&bufs[i]);
    PyMem_Free(specs);
    text_free(&ct);
    text_free(&rt);
    PyMem_Free(sc.cnt_ref);
    PyMem_Free(sc.cnt_cand);
    PyMem_Free(sc.u64);
    PyMem_Free(sc.dbl);
    PyMem_Free(sc.bytes);
    PyMem_Free(sc.slots);
    PyMem_Free(sc.cslots);
    return out;
}

/* ------------------------------------------------------------------ */
/* finish_many: P, R, F per pair and measure, combined over references. */

static int
round5(double x, double *out)
{
    char *s = PyOS_double_to_string(x, 'f', 5, 0, NULL);
    if (s == NULL)
        return -1;
    *out = PyOS_string_to_double(s, NULL, NULL);
    PyMem_Free(s);
    if (*out == -1.0 && PyErr_Occurred())
        return -1;
    return 0;
}

static double
fmeasure(double p, double r, double alpha)
{
    double denom = (1.0 - alpha) * p + alpha * r;
    if (denom > 0)
        return p * r / denom;
    return 0.0;
}

/* P and R of statistics: plain ratios (w == 0) or ROUGE-W's f^-1 of them. */
static void
prf_ratios(double hit, double rt, double ctot, double w, double *prec, double *rec)
{
    if (w == 0.0) {
        *rec = rt ? hit / rt : 0.0;
        *prec = ctot ? hit / ctot : 0.0;
    }
    else {
        *rec = rt ? pow(hit / rt, 1.0 / w) : 0.0;
        *prec = ctot ? pow(hit / ctot, 1.0 / w) : 0.0;
    }
}
#define prec_rec prf_ratios

/* The -f B ranking key of an entry (hit, ref_total, cand_total, key_base):
   kind 0 recall, 1 recall rounded as %.5f, 2 ROUGE-W's f^-1(hit / key_base). */
static int
best_key(const double *x, int kind, double w, double *key)
{
    if (kind == 2) {
        *key = x[3] ? pow(x[0] / x[3], 1.0 / w) : 0.0;
        return 0;
    }
    if (!x[1]) {
        *key = 0.0;
        return 0;
    }
    *key = x[0] / x[1];
    return kind == 1 ? round5(*key, key) : 0;
}

PyDoc_STRVAR(finish_many_doc,
"finish_many(stats, ref_starts, weights, key_kinds, mode, alpha, rounding155,\n"
"            names, score_type, /) -> list[dict[str, Score]]\n\n"
"Per pair, each measure's Score over its references as\n"
"rouge2.stats.combine.combine_many defines it: mode 0 pooled, 1 best,\n"
"2 max-f.  weights[k] is 0.0 for plain ratios, ROUGE-W's weight\n"
"otherwise; key_kinds[k] says how best ranks references (see best_key).");

static PyObject *
finish_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer sb, rb;
    PyObject *wseq = NULL, *kseq = NULL, *names, *out = NULL, *result = NULL;
    PyTypeObject *stype;
    double alpha, *ws = NULL;
    int r155, mode, *kinds = NULL;
    Py_ssize_t M, npairs, p, k;
    const double *st;
    const int64_t *rs;

    if (nargs != 9) {
        PyErr_Format(PyExc_TypeError, "finish_many expected 9 arguments, got %zd", nargs);
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &sb, PyBUF_SIMPLE) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[1], &rb, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&sb);
        return NULL;
    }
    mode = (int)PyLong_AsLong(args[4]);
    alpha = PyFloat_AsDouble(args[5]);
    r155 = PyObject_IsTrue(args[6]);
    names = args[7];
    if ((alpha == -1.0 && PyErr_Occurred()) || r155 < 0 || (mode == -1 && PyErr_Occurred()))
        goto done;
    if (mode < 0 || mode > 2) {
        PyErr_SetString(PyExc_ValueError, "mode must be 0 (pooled), 1 (best) or 2 (max-f)");
        goto done;
    }
    if (!PyTuple_Check(names) || !PyType_Check(args[8])) {
        PyErr_SetString(PyExc_TypeError, "names must be a tuple and score_type a type");
        goto done;
    }
    stype = (PyTypeObject *)args[8];
    kseq = PySequence_Fast(args[3], "key_kinds must be a sequence");
    if (kseq == NULL)
        goto done;
    wseq = PySequence_Fast(args[2], "weights must be a sequence");
    if (wseq == NULL)
        goto done;
    M = PySequence_Fast_GET_SIZE(wseq);
    if (M != PyTuple_GET_SIZE(names)) {
        PyErr_SetString(PyExc_ValueError, "one name per measure");
        goto done;
    }
    if (PySequence_Fast_GET_SIZE(kseq) != M) {
        PyErr_SetString(PyExc_ValueError, "one key kind per measure");
        goto done;
    }
    ws = (double *)PyMem_Malloc((size_t)(M ? M : 1) * sizeof(double));
    kinds = (int *)PyMem_Malloc((size_t)(M ? M : 1) * sizeof(int));
    if (ws == NULL || kinds == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (k = 0; k < M; k++) {
        ws[k] = PyFloat_AsDouble(PySequence_Fast_ITEMS(wseq)[k]);
        if (ws[k] == -1.0 && PyErr_Occurred())
            goto done;
        kinds[k] = (int)PyLong_AsLong(PySequence_Fast_ITEMS(kseq)[k]);
        if (kinds[k] == -1 && PyErr_Occurred())
            goto done;
    }
    st = (const double *)sb.buf;
    rs = (const int64_t *)rb.buf;
    npairs = rb.len / 8 - 1;
    if (npairs < 0 || rs[npairs] * M * 4 * 8 != sb.len) {
        PyErr_SetString(PyExc_ValueError, "stats do not fit ref_starts");
        goto done;
    }
    out = PyList_New(npairs);
    if (out == NULL)
        goto done;
    for (p = 0; p < npairs; p++) {
        PyObject *d = PyDict_New();
        Py_ssize_t e0 = (Py_ssize_t)rs[p], e1 = (Py_ssize_t)rs[p + 1];
        if (d == NULL)
            goto done;
        PyList_SET_ITEM(out, p, d);
        for (k = 0; k < M; k++) {
            double hit, rt, ctot, prec, rec, f;
            PyObject *score, *v;
            Py_ssize_t e;
            const double *x = st + (e0 * M + k) * 4;
            if (mode == 0 || e1 - e0 == 1) { /* pooled, or one reference */
                hit = x[0];
                rt = x[1];
                ctot = x[2];
                for (e = e0 + 1; e < e1; e++) {
                    x = st + (e * M + k) * 4;
                    hit += x[0];
                    rt += x[1];
                    ctot += x[2];
                }
                prec_rec(hit, rt, ctot, ws[k], &prec, &rec);
            }
            else if (mode == 1) { /* best: the first reference with the highest key */
                double best = -1.0;
                Py_ssize_t pick = e0;
                for (e = e0; e < e1; e++) {
                    double key;
                    x = st + (e * M + k) * 4;
                    if (best_key(x, kinds[k], ws[k], &key) < 0)
                        goto done;
                    if (key > best) {
                        best = key;
                        pick = e;
                    }
                }
                x = st + (pick * M + k) * 4;
                prec_rec(x[0], x[1], x[2], ws[k], &prec, &rec);
            }
            else { /* max-f: the first reference with the highest F */
                double best_f;
                prec_rec(x[0], x[1], x[2], ws[k], &prec, &rec);
                best_f = fmeasure(prec, rec, alpha);
                for (e = e0 + 1; e < e1; e++) {
                    double pe, re, fe;
                    x = st + (e * M + k) * 4;
                    prec_rec(x[0], x[1], x[2], ws[k], &pe, &re);
                    fe = fmeasure(pe, re, alpha);
                    if (fe > best_f) {
                        best_f = fe;
                        prec = pe;
                        rec = re;
                    }
                }
            }
            if (r155) {
                if (round5(prec, &prec) < 0 || round5(rec, &rec) < 0)
                    goto done;
                if (round5(fmeasure(prec, rec, alpha), &f) < 0)
                    goto done;
            }
            else {
                f = fmeasure(prec, rec, alpha);
            }
            score = stype->tp_alloc(stype, 3);
            if (score == NULL)
                goto done;
            v = PyFloat_FromDouble(prec);
            if (v == NULL) {
                Py_DECREF(score);
                goto done;
            }
            PyTuple_SET_ITEM(score, 0, v);
            v = PyFloat_FromDouble(rec);
            if (v == NULL) {
                Py_DECREF(score);
                goto done;
            }
            PyTuple_SET_ITEM(score, 1, v);
            v = PyFloat_FromDouble(f);
            if (v == NULL) {
                Py_DECREF(score);
                goto done;
            }
            PyTuple_SET_ITEM(score, 2, v);
            /* Three floats: never part of a cycle.  Untracked, it keeps its
               dict untracked too, so the garbage collector skips both. */
            if (PyObject_GC_IsTracked(score))
                PyObject_GC_UnTrack(score);
            if (PyDict_SetItem(d, PyTuple_GET_ITEM(names, k), score) < 0) {
                Py_DECREF(score);
                goto done;
            }
            Py_DECREF(score);
        }
    }
    result = out;
    out = NULL;
done:
    Py_XDECREF(out);
    Py_XDECREF(wseq);
    Py_XDECREF(kseq);
    PyMem_Free(ws);
    PyMem_Free(kinds);
    PyBuffer_Release(&sb);
    PyBuffer_Release(&rb);
    return result;
}
