/*
 * The batch path's counting (issue 12): every pair and measure of a chunk
 * scored in one call, from the packed ids analyze.h produces, with the GIL
 * released.
 *
 * Included by _speedups.c (uses lcs_step, KeySlot, mix64, HIGHBIT64) after
 * analyze.h (raw_reserve, the A_* codes).  The pure-Python definition is
 * rouge2/kernels/python.py score_pairs; tests/test_batch.py checks both
 * against each other and against the per-pair Scorer path.
 *
 *   score_pairs(packed, remap, cands, ref_starts, refs, measures)
 *       -> bytes of float64
 *   packed = (ids, bounds, spans) from analyze_pairs; remap: int32 raw id
 *   -> final id (-1 drops the word) or None; measures: (kind, n, unigrams,
 *   weight) per measure.  Per reference entry e (pair p's references are
 *   entries ref_starts[p] .. ref_starts[p+1]-1, texts refs[e], candidate
 *   text cands[p]) and measure k: (hit, ref_total, cand_total, key_base) at
 *   [(e * M + k) * 4]; key_base is ROUGE-W's sum of f(sentence length)
 *   (what -f B ranks by) and ref_total for every other measure.
 *
 * Everything here is C memory (PyMem_Raw*) and plain numbers: no Python
 * object is touched between the argument parsing and the result.
 */

enum { M_NGRAM = 0, M_LCS = 1, M_LCS_FLAT = 2, M_WLCS = 3, M_SKIP = 4 };

typedef struct {
    int kind;
    Py_ssize_t n;  /* n-gram size; skip distance (-1: any) */
    int unigrams;  /* skip: SU */
    double weight; /* ROUGE-W */
} MSpec;

/* Token ids inside the kernels: raw ids or final ids, both below 2**31. */
typedef uint32_t tok_t;

typedef struct {
    const int32_t *ids;
    Py_ssize_t nids;
    const int64_t *bounds;
    Py_ssize_t nsent;
    const int64_t *spans;
    Py_ssize_t ntexts;
    const int32_t *remap;
    Py_ssize_t nremap;
    tok_t maxid; /* every token id the texts load is at most this */
} Packed;

/* One text in final ids: the flat tokens, and the sentences (their own
   tokens under a byte limit, else the flat tokens cut at sentence ends).
   Without a remap the tokens are the packed ids themselves (no copy). */
typedef struct {
    const tok_t *tok;
    Py_ssize_t ntok;
    const tok_t *stok;
    Py_ssize_t nstok;
    tok_t *own, *sown; /* buffers for remapped tokens */
    Py_ssize_t cap, scap;
    Py_ssize_t *send; /* end of each non-empty sentence in the sentence tokens */
    Py_ssize_t nsent, sendcap;
    tok_t maxid;
    int alias;
} Text;

#define STOK(t) ((t)->alias ? (t)->tok : (t)->stok)
#define NSTOK(t) ((t)->alias ? (t)->ntok : (t)->nstok)

static void
text_free(Text *t)
{
    PyMem_RawFree(t->own);
    PyMem_RawFree(t->sown);
    PyMem_RawFree(t->send);
}

/* The largest id the packed texts hold after the remap (A_INDEX for an
   id outside the remap or negative): sizes the id-indexed arrays once. */
static int
packed_bound(Packed *pk)
{
    Py_ssize_t k;
    int32_t top = 0, low = 0;
    for (k = 0; k < pk->nids; k++) { /* no branch: vectorized */
        int32_t id = pk->ids[k];
        top = id > top ? id : top;
        low = id < low ? id : low;
    }
    if (low < 0 || (pk->remap != NULL && top >= pk->nremap))
        return A_INDEX;
    if (pk->remap != NULL)
        top = 0;
    for (k = 0; pk->remap != NULL && k < pk->nremap; k++)
        if (pk->remap[k] > top)
            top = pk->remap[k];
    pk->maxid = (tok_t)top;
    return A_OK;
}

/* Append ids[a:b], remapped (dropped words left out), to *buf. */
static int
load_remapped(const Packed *pk, int64_t a, int64_t b, tok_t **buf, Py_ssize_t *n, Py_ssize_t *cap)
{
    int64_t k;
    if (raw_reserve((void **)buf, cap, *n + (Py_ssize_t)(b - a), sizeof(tok_t), 256) < 0)
        return A_NOMEM;
    for (k = a; k < b; k++) {
        int32_t id = pk->remap[pk->ids[k]];
        if (id >= 0)
            (*buf)[(*n)++] = (tok_t)id;
    }
    return A_OK;
}

static int
push_send(Text *t, Py_ssize_t end)
{
    if (raw_reserve((void **)&t->send, &t->sendcap, t->nsent + 1, sizeof(Py_ssize_t), 16) < 0)
        return A_NOMEM;
    t->send[t->nsent++] = end;
    return A_OK;
}

/* Text t's sentences [s0, s1): their ends, relative to ``base`` (no
   remap: straight from the bounds) or loaded through the remap into
   *buf. */
static int
load_sentences(const Packed *pk, Text *out, int64_t s0, int64_t s1, int64_t base, tok_t **buf,
               Py_ssize_t *n, Py_ssize_t *cap)
{
    int64_t s;
    int rc = A_OK;
    for (s = s0; s < s1 && rc == A_OK; s++) {
        int64_t a = pk->bounds[2 * s], b = pk->bounds[2 * s + 1];
        Py_ssize_t before;
        if (a < 0 || b < a || b > pk->nids)
            return A_INDEX;
        if (pk->remap == NULL) {
            rc = push_send(out, (Py_ssize_t)(b - base));
            continue;
        }
        before = *n;
        rc = load_remapped(pk, a, b, buf, n, cap);
        if (rc == A_OK && *n > before)
            rc = push_send(out, *n);
    }
    return rc;
}

static int
text_load(const Packed *pk, Py_ssize_t t, Text *out)
{
    const int64_t *sp;
    int64_t f0, f1, s0, s1;
    int rc;
    if (t < 0 || t >= pk->ntexts)
        return A_INDEX;
    sp = pk->spans + 4 * t;
    s0 = sp[0], s1 = sp[1], f0 = sp[2], f1 = sp[3];
    if (s0 < 0 || s1 < s0 || s1 > pk->nsent || f0 < 0 || f1 < f0 || f1 > pk->nids)
        return A_INDEX;
    out->nsent = 0;
    out->maxid = pk->maxid;
    /* aliased: the sentences lie inside the flat range */
    out->alias = s0 == s1 || (pk->bounds[2 * s0] >= f0 && pk->bounds[2 * (s1 - 1) + 1] <= f1);
    if (pk->remap == NULL) {
        out->tok = (const tok_t *)pk->ids + f0;
        out->ntok = (Py_ssize_t)(f1 - f0);
        if (out->alias)
            return load_sentences(pk, out, s0, s1, f0, NULL, NULL, NULL);
        out->stok = (const tok_t *)pk->ids + pk->bounds[2 * s0];
        out->nstok = (Py_ssize_t)(pk->bounds[2 * (s1 - 1) + 1] - pk->bounds[2 * s0]);
        return load_sentences(pk, out, s0, s1, pk->bounds[2 * s0], NULL, NULL, NULL);
    }
    out->ntok = out->nstok = 0;
    if (out->alias) {
        rc = load_sentences(pk, out, s0, s1, 0, &out->own, &out->ntok, &out->cap);
        out->tok = out->own;
        return rc;
    }
    rc = load_remapped(pk, f0, f1, &out->own, &out->ntok, &out->cap);
    out->tok = out->own;
    if (rc == A_OK)
        rc = load_sentences(pk, out, s0, s1, 0, &out->sown, &out->nstok, &out->scap);
    out->stok = out->sown;
    return rc;
}

/* ------------------------------------------------------------------ */
/* Scratch space reused across pairs.                                   */

/* At most this many distinct ids in a pair for pair_dense. */
#define DENSE_MAX 256
#define DENSE_STRIDE (DENSE_MAX + 2)
enum { DENSE_UNIGRAMS = 1, DENSE_BIGRAMS = 2 };

typedef struct CountSlot {
    uint64_t key;
    int32_t count;
    uint32_t stamp;
} CountSlot;

typedef struct {
    /* per final id, all zero between uses */
    int32_t *cnt_ref, *cnt_cand, *rowmap, *cidx;
    Py_ssize_t ncnt;
    uint64_t *u64;
    Py_ssize_t u64cap;
    double *dbl;
    Py_ssize_t dblcap;
    unsigned char *bytes;
    Py_ssize_t bytecap;
    CountSlot *cslots; /* key counts, valid where stamp == cstamp */
    Py_ssize_t ncslots;
    uint32_t cstamp;
    struct SeqSlot *seq; /* n-gram counts (n >= 3), valid where stamp == seqstamp */
    Py_ssize_t nseq;
    uint32_t seqstamp;
    /* the summary-level LCS */
    Py_ssize_t *pos, *dstart, *ilist;
    Py_ssize_t poscap, dcap, icap;
    int32_t *sent_of, *mrow;
    Py_ssize_t socap, mrcap;
    uint64_t *pbits, *masks, *cols, *un;
    Py_ssize_t pbcap, mcap, colcap, uncap;
    unsigned char *gap;
    Py_ssize_t gapcap;
    tok_t *dids;
    Py_ssize_t didcap;
    /* the current text pair in dense ids (pair_dense): valid while dgen == gen */
    uint16_t *dc, *dr;
    Py_ssize_t dccap, drcap, dk;
    tok_t *dtc, *dtr; /* the same dense ids as tok_t, for the summary-level LCS */
    Py_ssize_t dtccap, dtrcap;
    tok_t dseen[DENSE_MAX + 2]; /* the raw ids numbered 1..dk */
    uint64_t gen, dgen;
    int want;                     /* DENSE_UNIGRAMS | DENSE_BIGRAMS: what score_loop counts */
    Py_ssize_t uni_hits, bi_hits; /* the pair's, when wanted */
    int32_t hc[DENSE_MAX + 2], hr[DENSE_MAX + 2]; /* counts of each dense id: zero between uses */
    int32_t *btab; /* candidate bigram counts at a * DENSE_STRIDE + b: zero between uses */
} Scratch;

static void
scratch_free(Scratch *sc)
{
    void *all[] = {sc->cnt_ref, sc->cnt_cand, sc->rowmap, sc->cidx, sc->u64, sc->dbl, sc->bytes,
                   sc->cslots, sc->pos, sc->dstart, sc->ilist, sc->sent_of, sc->mrow, sc->pbits,
                   sc->masks, sc->cols, sc->un, sc->gap, sc->dids, sc->seq, sc->btab,
                   sc->dc, sc->dr, sc->dtc, sc->dtr};
    size_t k;
    for (k = 0; k < sizeof(all) / sizeof(all[0]); k++)
        PyMem_RawFree(all[k]);
}

static inline void *
scratch_get(void **p, Py_ssize_t *cap, Py_ssize_t n, size_t item)
{
    if (raw_reserve(p, cap, n, item, 256) < 0)
        return NULL;
    return *p;
}

/* The id-indexed arrays, covering ids up to maxid (zeroed when grown). */
static int
scratch_counts(Scratch *sc, tok_t maxid)
{
    Py_ssize_t need = (Py_ssize_t)maxid + 1;
    if (need > sc->ncnt) {
        Py_ssize_t c = sc->ncnt ? sc->ncnt : 4096;
        int32_t **arrays[] = {&sc->cnt_ref, &sc->cnt_cand, &sc->rowmap, &sc->cidx};
        size_t k;
        while (c < need)
            c *= 2;
        for (k = 0; k < 4; k++) {
            int32_t *fresh = (int32_t *)PyMem_RawCalloc((size_t)c, sizeof(int32_t));
            if (fresh == NULL)
                return A_NOMEM;
            PyMem_RawFree(*arrays[k]);
            *arrays[k] = fresh;
        }
        sc->ncnt = c;
    }
    return A_OK;
}

#define PAIR_MAXID(c, r) ((c)->maxid > (r)->maxid ? (c)->maxid : (r)->maxid)

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
        CountSlot *fresh = (CountSlot *)PyMem_RawCalloc((size_t)size, sizeof(CountSlot));
        if (fresh == NULL)
            return A_NOMEM;
        PyMem_RawFree(sc->cslots);
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
    return A_OK;
}

/* Clipped unigram hits through per-id counts (no hashing). */
static int
unigram_hits(Scratch *sc, const Text *c, const Text *r, double *hit)
{
    Py_ssize_t i, h = 0;
    int32_t *cnt;
    int rc = scratch_counts(sc, PAIR_MAXID(c, r));
    if (rc)
        return rc;
    cnt = sc->cnt_cand;
    for (i = 0; i < c->ntok; i++)
        cnt[c->tok[i]]++;
    for (i = 0; i < r->ntok; i++) {
        tok_t t = r->tok[i];
        if (cnt[t] > 0) {
            cnt[t]--;
            h++;
        }
    }
    for (i = 0; i < c->ntok; i++)
        cnt[c->tok[i]] = 0;
    *hit = (double)h;
    return A_OK;
}

/* Clipped bigram hits: each bigram packed into one 64-bit key (ids < 2**31). */
static int
bigram_hits(Scratch *sc, const Text *c, const Text *r, double *hit)
{
    Py_ssize_t nc = c->ntok - 1, nr = r->ntok - 1, i;
    uint64_t *k = (uint64_t *)scratch_get((void **)&sc->u64, &sc->u64cap, nc + nr, sizeof(uint64_t));
    if (k == NULL)
        return A_NOMEM;
    for (i = 0; i < nc; i++)
        k[i] = ((uint64_t)c->tok[i] << 32) | c->tok[i + 1];
    for (i = 0; i < nr; i++)
        k[nc + i] = ((uint64_t)r->tok[i] << 32) | r->tok[i + 1];
    return key_hits(sc, k, nc, k + nc, nr, hit);
}

/* Clipped hits of the n-grams (n >= 3) starting at c[0 .. nc-1] and
   r[0 .. nr-1]: the candidate's n-grams counted by hash in the stamped key
   table (the key is the n-gram's hash; its first position is kept to
   compare the n-gram itself), the reference's looked up. */
typedef struct SeqSlot {
    uint64_t h;
    Py_ssize_t start;
    int32_t count;
    uint32_t stamp;
} SeqSlot;

static inline uint64_t
seq_hash32(const tok_t *p, Py_ssize_t n)
{
    uint64_t h = 0x243F6A8885A308D3ULL;
    Py_ssize_t k;
    for (k = 0; k < n; k++)
        h = (h ^ p[k]) * 0x9E3779B97F4A7C15ULL + (h >> 32);
    return mix64(h);
}

static int
seq_hits(Scratch *sc, const tok_t *c, Py_ssize_t nc, const tok_t *r, Py_ssize_t nr, Py_ssize_t n,
         double *hit)
{
    Py_ssize_t size = 16, i, h = 0, mask;
    SeqSlot *t;
    while (size < 2 * nc)
        size <<= 1;
    if (size > sc->nseq) {
        SeqSlot *fresh = (SeqSlot *)PyMem_RawCalloc((size_t)size, sizeof(SeqSlot));
        if (fresh == NULL)
            return A_NOMEM;
        PyMem_RawFree(sc->seq);
        sc->seq = fresh;
        sc->nseq = size;
        sc->seqstamp = 0;
    }
    if (++sc->seqstamp == 0) {
        memset(sc->seq, 0, (size_t)sc->nseq * sizeof(SeqSlot));
        sc->seqstamp = 1;
    }
    t = sc->seq;
    mask = size - 1;
    for (i = 0; i < nc; i++) {
        uint64_t hv = seq_hash32(c + i, n);
        Py_ssize_t s = (Py_ssize_t)(hv & (uint64_t)mask);
        for (;;) {
            SeqSlot *e = &t[s];
            if (e->stamp != sc->seqstamp) {
                e->stamp = sc->seqstamp;
                e->h = hv;
                e->start = i;
                e->count = 1;
                break;
            }
            if (e->h == hv && memcmp(c + e->start, c + i, (size_t)n * sizeof(tok_t)) == 0) {
                e->count++;
                break;
            }
            s = (s + 1) & mask;
        }
    }
    for (i = 0; i < nr; i++) {
        uint64_t hv = seq_hash32(r + i, n);
        Py_ssize_t s = (Py_ssize_t)(hv & (uint64_t)mask);
        for (;;) {
            SeqSlot *e = &t[s];
            if (e->stamp != sc->seqstamp)
                break;
            if (e->h == hv && memcmp(c + e->start, r + i, (size_t)n * sizeof(tok_t)) == 0) {
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
    return A_OK;
}

/* Undo pair_dense's counts after its passes: the ids' counts, the
   candidate's bigram cells (its first nc tokens numbered) and the map. */
static void
dense_clear(Scratch *sc, Py_ssize_t nc, Py_ssize_t k)
{
    Py_ssize_t i;
    const uint16_t *dc = sc->dc;
    if ((sc->want & DENSE_BIGRAMS) && nc > 0) {
        sc->btab[(DENSE_STRIDE - 1) * DENSE_STRIDE + dc[0]] = 0;
        if (k * k <= 2 * nc) { /* a small alphabet: its rows whole */
            for (i = 1; i <= k; i++)
                memset(sc->btab + i * DENSE_STRIDE + 1, 0, (size_t)k * sizeof(int32_t));
        }
        else {
            for (i = 1; i < nc; i++)
                sc->btab[dc[i - 1] * DENSE_STRIDE + dc[i]] = 0;
        }
    }
    for (i = 0; i < k; i++) {
        sc->rowmap[sc->dseen[i]] = 0;
        sc->hc[i + 1] = sc->hr[i + 1] = 0;
    }
}

/* The current pair's flat tokens in dense ids (issue 22): the candidate's
   ids, then the reference's other ones, numbered 1..k in order of first
   appearance (through the id-indexed rowmap, zero between uses), in sc->dc
   and sc->dr; 1 when there are at most DENSE_MAX of them (the usual case,
   and every pair of the character tokenizer's small alphabets), else 0
   (the id-indexed kernels count that pair).  On the way, as score_loop
   wants them, the clipped unigram hits (sum over ids of the smaller count)
   and bigram hits (the candidate's bigrams counted in a direct table, each
   reference bigram taking one from its cell while one is left).  Computed
   once per pair and shared by every measure: score_loop bumps sc->gen for
   each new pair. */
static int
pair_dense(Scratch *sc, const Text *c, const Text *r, int *rc)
{
    Py_ssize_t i, k = 0, nr = r->ntok, nc = c->ntok, bh = 0, uh = 0, prev;
    int32_t *map, *hc = sc->hc, *hr = sc->hr, *tab;
    uint16_t *dc, *dr;
    int uni = (sc->want & DENSE_UNIGRAMS) != 0, bi = (sc->want & DENSE_BIGRAMS) != 0;
    *rc = A_OK;
    if (sc->dgen == sc->gen)
        return sc->dk > 0;
    sc->dgen = sc->gen;
    sc->dk = 0;
    if ((*rc = scratch_counts(sc, PAIR_MAXID(c, r))) != A_OK ||
        !scratch_get((void **)&sc->dr, &sc->drcap, nr + 1, sizeof(uint16_t)) ||
        !scratch_get((void **)&sc->dc, &sc->dccap, nc + 1, sizeof(uint16_t)) ||
        (bi && sc->btab == NULL &&
         !(sc->btab = (int32_t *)PyMem_RawCalloc(DENSE_STRIDE * DENSE_STRIDE, sizeof(int32_t))))) {
        if (*rc == A_OK)
            *rc = A_NOMEM;
        sc->dgen = sc->gen - 1;
        return 0;
    }
    map = sc->rowmap;
    dc = sc->dc;
    dr = sc->dr;
    tab = sc->btab;
    for (i = 0, prev = DENSE_STRIDE - 1; i < nc && k <= DENSE_MAX; i++) {
        tok_t t = c->tok[i];
        int32_t d = map[t];
        if (d == 0) {
            d = map[t] = (int32_t)++k;
            sc->dseen[k - 1] = t;
        }
        dc[i] = (uint16_t)d;
        hc[d] += uni;
        if (bi) /* the first token's bigram goes to the spare last row */
            tab[prev * DENSE_STRIDE + d]++;
        prev = d;
    }
    if (k > DENSE_MAX) {
        dense_clear(sc, i, k);
        return 0;
    }
    for (i = 0, prev = 0; i < nr && k <= DENSE_MAX; i++) {
        tok_t t = r->tok[i];
        int32_t d = map[t];
        if (d == 0) {
            d = map[t] = (int32_t)++k;
            sc->dseen[k - 1] = t;
        }
        dr[i] = (uint16_t)d;
        hr[d] += uni;
        if (bi) { /* no branch on the count; the first token reads row 0, all zero */
            int32_t *e = &tab[prev * DENSE_STRIDE + d];
            int32_t v = *e, take = v > 0;
            *e = v - take;
            bh += take;
        }
        prev = d;
    }
    for (i = 1; uni && i <= k; i++)
        uh += hc[i] < hr[i] ? hc[i] : hr[i];
    dense_clear(sc, nc, k);
    if (k > DENSE_MAX)
        return 0;
    sc->uni_hits = uh;
    sc->bi_hits = bh;
    sc->dk = k;
    return 1;
}

static int
ngram_stats(Scratch *sc, const Text *ct, const Text *rt, Py_ssize_t n, double *d)
{
    Py_ssize_t c_total = ct->ntok - n + 1, r_total = rt->ntok - n + 1;
    int rc = A_OK;
    d[0] = 0.0;
    if (c_total > 0 && r_total > 0) {
        int dense = n <= 2 && pair_dense(sc, ct, rt, &rc);
        if (rc != A_OK)
            return rc;
        if (dense && n == 1 && (sc->want & DENSE_UNIGRAMS)) {
            d[0] = (double)sc->uni_hits;
        }
        else if (dense && n == 2 && (sc->want & DENSE_BIGRAMS)) {
            d[0] = (double)sc->bi_hits;
        }
        else if (n == 1) {
            rc = unigram_hits(sc, ct, rt, &d[0]);
        }
        else if (n == 2) {
            rc = bigram_hits(sc, ct, rt, &d[0]);
        }
        else {
            rc = seq_hits(sc, ct->tok, c_total, rt->tok, r_total, n, &d[0]);
        }
    }
    d[1] = (double)(r_total > 0 ? r_total : 0);
    d[2] = (double)(c_total > 0 ? c_total : 0);
    d[3] = d[1];
    return rc;
}

/* ------------------------------------------------------------------ */
/* LCS                                                                  */

#if defined(__GNUC__)
#define LCS_INLINE static inline __attribute__((always_inline))
#else
#define LCS_INLINE static inline
#endif

/* The bit-parallel LCS state (W words, in v) after the ids of b (nb of
   them), the position masks of each id found through rowmap: each step
   v = (v + (v & mk)) | (v & ~mk) as one W-word number (Hyyro).  Inlined
   with a constant W the state stays in registers.  Bits past the end of
   the masked sequence fill with carries, which run upwards only: they
   never reach the bits below, and are masked off when counting. */
LCS_INLINE void
lcs_run(const uint64_t *masks, const int32_t *rowmap, const tok_t *b, Py_ssize_t nb, uint64_t *v,
        const Py_ssize_t W)
{
    uint64_t x[8];
    Py_ssize_t j, w;
    for (w = 0; w < W; w++)
        x[w] = v[w];
    for (j = 0; j < nb; j++) {
        int32_t r = rowmap[b[j]];
        if (r) {
            const uint64_t *mk = masks + (r - 1) * W;
            uint64_t carry = 0;
            for (w = 0; w < W; w++) {
                uint64_t y = x[w], u = y & mk[w], t = y + u, s = t + carry;
                carry = (t < y) | (s < t);
                x[w] = s | (y ^ u); /* y & ~mk */
            }
        }
    }
    for (w = 0; w < W; w++)
        v[w] = x[w];
}

/* CALL(W) with a constant W = words for 1 to 8 words (up to 512 ids, so
   the state stays in registers): 1 when called, 0 for longer sequences. */
#define LCS_SWITCH(words, CALL)                                                          \
    switch (words) {                                                                     \
    case 1: CALL(1); return 1;                                                           \
    case 2: CALL(2); return 1;                                                           \
    case 3: CALL(3); return 1;                                                           \
    case 4: CALL(4); return 1;                                                           \
    case 5: CALL(5); return 1;                                                           \
    case 6: CALL(6); return 1;                                                           \
    case 7: CALL(7); return 1;                                                           \
    case 8: CALL(8); return 1;                                                           \
    default: return 0;                                                                   \
    }

static int
lcs_unrolled(const uint64_t *masks, const int32_t *rowmap, const tok_t *b, Py_ssize_t nb, uint64_t *v,
             Py_ssize_t words)
{
#define LCS_IDS(W) lcs_run(masks, rowmap, b, nb, v, W)
    LCS_SWITCH(words, LCS_IDS)
#undef LCS_IDS
}

/* The same state from the dense pair (pair_dense): masks has a row of W
   words per dense id, row 0 (an id absent from the masked sequence) and
   every row of an id it lacks zero, so a step needs no lookup or branch:
   a zero mask leaves the state as it is. */
LCS_INLINE void
lcs_run_dense(const uint64_t *masks, const uint16_t *b, Py_ssize_t nb, uint64_t *v, const Py_ssize_t W)
{
    uint64_t x[8];
    Py_ssize_t j, w;
    for (w = 0; w < W; w++)
        x[w] = v[w];
    for (j = 0; j < nb; j++) {
        const uint64_t *mk = masks + (Py_ssize_t)b[j] * W;
        uint64_t carry = 0;
        for (w = 0; w < W; w++) {
            uint64_t y = x[w], u = y & mk[w], t = y + u, s = t + carry;
            carry = (t < y) | (s < t);
            x[w] = s | (y ^ u); /* y & ~mk */
        }
    }
    for (w = 0; w < W; w++)
        v[w] = x[w];
}

static int
lcs_unrolled_dense(const uint64_t *masks, const uint16_t *b, Py_ssize_t nb, uint64_t *v, Py_ssize_t words)
{
#define LCS_DENSE(W) lcs_run_dense(masks, b, nb, v, W)
    LCS_SWITCH(words, LCS_DENSE)
#undef LCS_DENSE
}

/* The flat LCS length of the dense pair (pair_dense; the reference's nr
   ids masked, the candidate's nc ids stepped through). */
static int
dense_lcs(Scratch *sc, Py_ssize_t nr, Py_ssize_t nc, double *out)
{
    Py_ssize_t W = (nr + 63) / 64, i, w, result = nr, nmask = (sc->dk + 1) * W;
    uint64_t top = (nr % 64) ? ((UINT64_C(1) << (nr % 64)) - 1) : ~UINT64_C(0), *masks, *v;
    *out = 0.0;
    if (nr == 0 || nc == 0)
        return A_OK;
    masks = (uint64_t *)scratch_get((void **)&sc->u64, &sc->u64cap, nmask + W, sizeof(uint64_t));
    if (masks == NULL)
        return A_NOMEM;
    memset(masks, 0, (size_t)nmask * sizeof(uint64_t));
    for (i = 0; i < nr; i++)
        masks[sc->dr[i] * W + i / 64] |= UINT64_C(1) << (i % 64);
    v = masks + nmask;
    for (w = 0; w < W; w++)
        v[w] = ~UINT64_C(0);
    if (!lcs_unrolled_dense(masks, sc->dc, nc, v, W)) {
        v[W - 1] = top;
        for (i = 0; i < nc; i++)
            lcs_step(v, masks + sc->dc[i] * W, W, top);
    }
    v[W - 1] &= top;
    for (w = 0; w < W; w++)
        result -= POPCOUNT64(v[w]);
    *out = (double)result;
    return A_OK;
}

/* LCS length of a (m ids) and b (nb ids), bit-parallel over a, with each
   id's position mask found through the id-indexed rowmap (zero between
   uses: row + 1 per id of a) instead of a hash table. */
static int
lcs_len_ids(Scratch *sc, const tok_t *a, Py_ssize_t m, const tok_t *b, Py_ssize_t nb,
            tok_t maxid, double *out)
{
    Py_ssize_t words = (m + 63) / 64, i, j, w, rows = 0, result;
    uint64_t top = (m % 64) ? ((UINT64_C(1) << (m % 64)) - 1) : ~UINT64_C(0);
    uint64_t *masks, *v;
    int32_t *rowmap;
    int rc;
    *out = 0.0;
    if (m == 0 || nb == 0)
        return A_OK;
    if ((rc = scratch_counts(sc, maxid)) != A_OK)
        return rc;
    rowmap = sc->rowmap;
    masks = (uint64_t *)scratch_get((void **)&sc->u64, &sc->u64cap, (m + 1) * words, sizeof(uint64_t));
    if (masks == NULL)
        return A_NOMEM;
    for (i = 0; i < m; i++) {
        int32_t r = rowmap[a[i]];
        if (r == 0) {
            r = rowmap[a[i]] = (int32_t)++rows;
            if (words == 1)
                masks[r - 1] = 0;
            else
                memset(masks + (r - 1) * words, 0, (size_t)words * sizeof(uint64_t));
        }
        masks[(r - 1) * words + i / 64] |= UINT64_C(1) << (i % 64);
    }
    v = masks + rows * words;
    for (w = 0; w < words; w++)
        v[w] = ~UINT64_C(0);
    if (!lcs_unrolled(masks, rowmap, b, nb, v, words)) {
        v[words - 1] = top;
        for (j = 0; j < nb; j++) {
            int32_t r = rowmap[b[j]];
            if (r)
                lcs_step(v, masks + (r - 1) * words, words, top);
        }
    }
    v[words - 1] &= top;
    result = m;
    for (w = 0; w < words; w++)
        result -= POPCOUNT64(v[w]);
    for (i = 0; i < m; i++)
        rowmap[a[i]] = 0;
    *out = (double)result;
    return A_OK;
}

/* The unigram counts of the flat tokens of r and c in cnt_ref / cnt_cand
   (which clip the union-LCS and WLCS hits); clear_pair_counts zeroes them
   again, touching only the ids the texts hold. */
static void
count_pair(Scratch *sc, const Text *c, const Text *r)
{
    Py_ssize_t i;
    for (i = 0; i < r->ntok; i++)
        sc->cnt_ref[r->tok[i]]++;
    for (i = 0; i < c->ntok; i++)
        sc->cnt_cand[c->tok[i]]++;
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

/* The summary-level LCS (ROUGE-1.5.5's union LCS) works per reference
   sentence on the candidate positions whose word occurs in it: the
   candidate's sentence tokens are indexed by word once per pair. */
typedef struct {
    const tok_t *tok; /* the candidate's sentence tokens */
    Py_ssize_t n;
    Py_ssize_t ndense; /* distinct words; their ids in sc->dids */
} CandIndex;

static int
cand_index(Scratch *sc, const Text *c, CandIndex *ci)
{
    const tok_t *tok = STOK(c);
    Py_ssize_t n = NSTOK(c), j, q, nd = 0;
    Py_ssize_t *cur;
    ci->tok = tok;
    ci->n = n;
    if (!scratch_get((void **)&sc->dids, &sc->didcap, n + 1, sizeof(tok_t)) ||
        !scratch_get((void **)&sc->dstart, &sc->dcap, 2 * (n + 1), sizeof(Py_ssize_t)) ||
        !scratch_get((void **)&sc->pos, &sc->poscap, n + 1, sizeof(Py_ssize_t)) ||
        !scratch_get((void **)&sc->sent_of, &sc->socap, n + 1, sizeof(int32_t)) ||
        !scratch_get((void **)&sc->pbits, &sc->pbcap, n / 64 + 2, sizeof(uint64_t)))
        return A_NOMEM;
    cur = sc->dstart + n + 1;
    for (j = 0; j < n; j++) {
        int32_t d = sc->cidx[tok[j]];
        if (d == 0) {
            d = sc->cidx[tok[j]] = (int32_t)++nd;
            sc->dids[nd - 1] = tok[j];
            sc->dstart[nd] = 0;
        }
        sc->dstart[d]++;
    }
    sc->dstart[0] = 0;
    for (j = 1; j <= nd; j++) {
        sc->dstart[j] += sc->dstart[j - 1];
        cur[j - 1] = sc->dstart[j - 1];
    }
    for (j = 0; j < n; j++)
        sc->pos[cur[sc->cidx[tok[j]] - 1]++] = j;
    for (q = 0, j = 0; q < c->nsent; q++)
        for (; j < c->send[q]; j++)
            sc->sent_of[j] = (int32_t)q;
    memset(sc->pbits, 0, (size_t)(n / 64 + 2) * sizeof(uint64_t));
    ci->ndense = nd;
    return A_OK;
}

static void
cand_index_clear(Scratch *sc, const CandIndex *ci)
{
    Py_ssize_t k;
    for (k = 0; k < ci->ndense; k++)
        sc->cidx[sc->dids[k]] = 0;
}

/* The highest row p < i where (mk | ~col) has a bit (the script's
   traceback stops there), -1 if none; ``words`` words, ``top`` the last
   word's valid bits. */
static inline Py_ssize_t
stop_row(const uint64_t *mk, const uint64_t *col, Py_ssize_t i, Py_ssize_t words, uint64_t top)
{
    Py_ssize_t w;
    for (w = (i - 1) / 64; w >= 0; w--) {
        uint64_t fullw = (w == words - 1) ? top : ~UINT64_C(0);
        uint64_t stop = ((mk ? mk[w] : 0) | (~col[w] & fullw));
        Py_ssize_t lim = i - w * 64;
        if (lim < 64)
            stop &= (UINT64_C(1) << lim) - 1;
        if (stop)
            return w * 64 + HIGHBIT64(stop);
    }
    return -1;
}

/* One step of the script's traceback (rouge2.kernels.python.lcs_marks):
   at a candidate token with position mask mk (NULL: the word is not in the
   reference sentence) and column col; updates the row *i and the marks.
   0 when the traceback stops. */
static inline int
trace_step(const uint64_t *mk, const uint64_t *col, Py_ssize_t *i, Py_ssize_t words, uint64_t top,
           uint64_t *un)
{
    Py_ssize_t p = stop_row(mk, col, *i, words, top);
    if (p < 0)
        return 0;
    if (mk != NULL && ((mk[p / 64] >> (p % 64)) & 1)) {
        un[p / 64] |= UINT64_C(1) << (p % 64);
        *i = p;
    }
    else {
        *i = p + 1;
    }
    return *i > 0;
}

/* The union LCS marks of reference sentence ``sent`` (m ids, position
   masks in sc->masks by row through sc->rowmap) against candidate
   sentence q, from its K matched positions P (the positions whose word is
   in the sentence, in order).  Only matched positions change a column,
   and a run of unmatched ones acts on the traceback as one step, so the
   sentence is walked through P alone. */
static int
union_sentence(Scratch *sc, const CandIndex *ci, const Text *c, Py_ssize_t q, const Py_ssize_t *P,
               Py_ssize_t K, Py_ssize_t m, uint64_t *un)
{
    Py_ssize_t words = (m + 63) / 64, k, w, i;
    Py_ssize_t qa = q ? c->send[q - 1] : 0, qb = c->send[q];
    uint64_t top = (m % 64) ? ((UINT64_C(1) << (m % 64)) - 1) : ~UINT64_C(0);
    uint64_t *cols, *fullcol;
    if (!scratch_get((void **)&sc->cols, &sc->colcap, (K + 1) * words, sizeof(uint64_t)) ||
        !scratch_get((void **)&sc->mrow, &sc->mrcap, K, sizeof(int32_t)))
        return A_NOMEM;
    cols = sc->cols;
    fullcol = cols + K * words;
    /* the traceback marks only positions of the words it meets: when they
       are all marked already, the sentence adds nothing */
    for (w = 0; w < words; w++)
        fullcol[w] = 0;
    for (k = 0; k < K; k++) {
        const uint64_t *mk = sc->masks + (sc->rowmap[ci->tok[P[k]]] - 1) * words;
        for (w = 0; w < words; w++)
            fullcol[w] |= mk[w];
    }
    for (w = 0; w < words && !(fullcol[w] & ~un[w]); w++)
        ;
    if (w == words)
        return A_OK;
    for (w = 0; w < words; w++)
        fullcol[w] = ~UINT64_C(0);
    fullcol[words - 1] = top;
    for (k = 0; k < K; k++) {
        int32_t row = sc->rowmap[ci->tok[P[k]]] - 1;
        const uint64_t *prev = k ? cols + (k - 1) * words : fullcol;
        uint64_t *v = cols + k * words;
        sc->mrow[k] = row;
        memcpy(v, prev, (size_t)words * sizeof(uint64_t));
        lcs_step(v, sc->masks + row * words, words, top);
    }
    /* the traceback, from the sentence's end */
    i = m;
    if (P[K - 1] != qb - 1 && !trace_step(NULL, cols + (K - 1) * words, &i, words, top, un))
        return A_OK;
    for (k = K - 1; k >= 0; k--) {
        if (!trace_step(sc->masks + sc->mrow[k] * words, cols + k * words, &i, words, top, un))
            return A_OK;
        if ((k ? P[k] != P[k - 1] + 1 : P[0] != qa) &&
            !trace_step(NULL, k ? cols + (k - 1) * words : fullcol, &i, words, top, un))
            return A_OK;
    }
    return A_OK;
}

/* The script's traceback of one reference sentence of m <= 64 words
   against one candidate sentence [qa, qb), from its K matched positions P
   (in order) and their position masks mks: the marks it adds to *marks.
   Only matched positions change a column, and a run of unmatched ones acts
   on the traceback as one step, so the sentence is walked through P alone. */
static void
trace_one_word(const Py_ssize_t *P, const uint64_t *mks, uint64_t *cols, Py_ssize_t K, Py_ssize_t qa,
               Py_ssize_t qb, Py_ssize_t m, uint64_t *marks)
{
    uint64_t top = (m % 64) ? ((UINT64_C(1) << (m % 64)) - 1) : ~UINT64_C(0), v = top;
    Py_ssize_t k, r = m;
    for (k = 0; k < K; k++) {
        uint64_t mk = mks[k];
        v = ((v + (v & mk)) | (v & ~mk)) & top;
        cols[k] = v;
    }
#define TRACE(MK, COL)                                                                  \
    do {                                                                                \
        uint64_t mk_ = (MK), below_ = r >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << r) - 1;  \
        uint64_t stop_ = (mk_ | (~(COL) & top)) & below_;                               \
        int p_;                                                                         \
        if (!stop_)                                                                     \
            return;                                                                     \
        p_ = HIGHBIT64(stop_);                                                          \
        if ((mk_ >> p_) & 1) {                                                          \
            *marks |= UINT64_C(1) << p_;                                                \
            r = p_;                                                                     \
        }                                                                               \
        else {                                                                          \
            r = p_ + 1;                                                                 \
        }                                                                               \
        if (r == 0)                                                                     \
            return;                                                                     \
    } while (0)
    if (P[K - 1] != qb - 1)
        TRACE(0, cols[K - 1]);
    for (k = K - 1; k >= 0; k--) {
        TRACE(mks[k], cols[k]);
        if (k ? P[k] != P[k - 1] + 1 : P[0] != qa)
            TRACE(0, k ? cols[k - 1] : top);
    }
#undef TRACE
}

/* union_sentence for every candidate sentence at once when the reference
   sentence fits one word (m <= 64, the common case): the matched positions
   read from the bitmap sc->pbits (words wlo..whi, cleared here) in order,
   grouped by candidate sentence.  The traceback marks only positions of the
   words it meets, so a sentence whose words are all marked already adds
   nothing and is skipped. */
static int
union_one_word(Scratch *sc, const CandIndex *ci, const Text *c, Py_ssize_t wlo, Py_ssize_t whi,
               Py_ssize_t m, uint64_t *un)
{
    const int32_t *sent_of = sc->sent_of;
    const uint64_t *masks = sc->masks;
    uint64_t marks = un[0], cover = 0, *mks, *cols;
    Py_ssize_t *P, K = 0, q = -1, qa = 0, qb = 0, w;
    if (!scratch_get((void **)&sc->cols, &sc->colcap, 2 * ci->n + 2, sizeof(uint64_t)) ||
        !scratch_get((void **)&sc->ilist, &sc->icap, ci->n + 1, sizeof(Py_ssize_t)))
        return A_NOMEM;
    cols = sc->cols;
    mks = cols + ci->n + 1;
    P = sc->ilist;
    for (w = wlo; w >= 0 && w <= whi; w++) {
        uint64_t x = sc->pbits[w];
        sc->pbits[w] = 0;
        while (x) {
            Py_ssize_t pos = w * 64 + LOWBIT64(x);
            uint64_t mk = masks[sc->rowmap[ci->tok[pos]] - 1];
            x &= x - 1;
            if (pos >= qb) { /* a new candidate sentence */
                if (K && (cover & ~marks))
                    trace_one_word(P, mks, cols, K, qa, qb, m, &marks);
                q = sent_of[pos];
                qa = q ? c->send[q - 1] : 0;
                qb = c->send[q];
                K = 0;
                cover = 0;
            }
            P[K] = pos;
            mks[K++] = mk;
            cover |= mk;
        }
    }
    if (K && (cover & ~marks))
        trace_one_word(P, mks, cols, K, qa, qb, m, &marks);
    un[0] = marks;
    return A_OK;
}

/* The union-LCS marks of one reference sentence against every candidate
   sentence, into un (zeroed here). */
static int
union_marks(Scratch *sc, const CandIndex *ci, const Text *c, const tok_t *sent, Py_ssize_t m,
            uint64_t *un)
{
    Py_ssize_t words = (m + 63) / 64, i, rows = 0, wlo = -1, whi = -1, w, nP = 0;
    int rc = A_OK;
    if (!scratch_get((void **)&sc->masks, &sc->mcap, m * words + 1, sizeof(uint64_t)) ||
        !scratch_get((void **)&sc->ilist, &sc->icap, ci->n + 1, sizeof(Py_ssize_t)))
        return A_NOMEM;
    if (words == 1)
        un[0] = 0;
    else
        memset(un, 0, (size_t)words * sizeof(uint64_t));
    for (i = 0; i < m; i++) {
        int32_t r = sc->rowmap[sent[i]];
        if (r == 0) {
            int32_t d = sc->cidx[sent[i]];
            Py_ssize_t k;
            r = sc->rowmap[sent[i]] = (int32_t)++rows;
            if (words == 1)
                sc->masks[r - 1] = 0;
            else
                memset(sc->masks + (r - 1) * words, 0, (size_t)words * sizeof(uint64_t));
            if (d) { /* the word's candidate positions (sorted) into the bitmap */
                Py_ssize_t k0 = sc->dstart[d - 1], k1 = sc->dstart[d];
                if (wlo < 0 || sc->pos[k0] / 64 < wlo)
                    wlo = sc->pos[k0] / 64;
                if (sc->pos[k1 - 1] / 64 > whi)
                    whi = sc->pos[k1 - 1] / 64;
                for (k = k0; k < k1; k++)
                    sc->pbits[sc->pos[k] / 64] |= UINT64_C(1) << (sc->pos[k] % 64);
            }
        }
        sc->masks[(r - 1) * words + i / 64] |= UINT64_C(1) << (i % 64);
    }
    if (words == 1) {
        rc = union_one_word(sc, ci, c, wlo, whi, m, un);
    }
    else {
        /* the matched candidate positions, in order */
        for (w = wlo; w >= 0 && w <= whi; w++) {
            uint64_t x = sc->pbits[w];
            sc->pbits[w] = 0;
            while (x) {
                sc->ilist[nP++] = w * 64 + LOWBIT64(x);
                x &= x - 1;
            }
        }
        for (i = 0; i < nP && rc == A_OK;) {
            Py_ssize_t q = sc->sent_of[sc->ilist[i]], j = i;
            while (j < nP && sc->sent_of[sc->ilist[j]] == q)
                j++;
            rc = union_sentence(sc, ci, c, q, sc->ilist + i, j - i, m, un);
            i = j;
        }
    }
    for (i = 0; i < m; i++)
        sc->rowmap[sent[i]] = 0;
    return rc;
}

/* The LCS length of r's and c's flat tokens: through the dense pair when
   it has few ids. */
static int
flat_lcs(Scratch *sc, const Text *c, const Text *r, double *hit)
{
    int rc;
    if (pair_dense(sc, c, r, &rc))
        return dense_lcs(sc, r->ntok, c->ntok, hit);
    return rc != A_OK ? rc : lcs_len_ids(sc, r->tok, r->ntok, c->tok, c->ntok, PAIR_MAXID(c, r), hit);
}

/* ROUGE-1.5.5's summary-level union-LCS hit of c and r in the ids they
   hold (both texts non-empty). */
static int
lcs_hit_ids(Scratch *sc, const Text *c, const Text *r, double *hit)
{
    Py_ssize_t k, i, h = 0, rs0 = 0;
    const tok_t *rtok = STOK(r);
    CandIndex ci;
    int rc;
    *hit = 0.0;
    if ((rc = scratch_counts(sc, PAIR_MAXID(c, r))) != A_OK)
        return rc;
    if ((rc = cand_index(sc, c, &ci)) != A_OK)
        return rc;
    count_pair(sc, c, r);
    for (k = 0; k < r->nsent && rc == A_OK; k++) {
        Py_ssize_t re = r->send[k], m = re - rs0;
        const tok_t *sent = rtok + rs0;
        if (!scratch_get((void **)&sc->un, &sc->uncap, m / 64 + 1, sizeof(uint64_t))) {
            rc = A_NOMEM;
            break;
        }
        if (ci.n && (rc = union_marks(sc, &ci, c, sent, m, sc->un)) != A_OK)
            break;
        for (i = 0; i < m && ci.n; i++) {
            if ((sc->un[i / 64] >> (i % 64)) & 1) {
                tok_t tok = sent[i];
                if (sc->cnt_ref[tok] > 0 && sc->cnt_cand[tok] > 0) {
                    h++;
                    sc->cnt_ref[tok]--;
                    sc->cnt_cand[tok]--;
                }
            }
        }
        rs0 = re;
    }
    clear_pair_counts(sc, c, r);
    cand_index_clear(sc, &ci);
    *hit = (double)h;
    return rc;
}

/* A text whose sentences are its flat tokens, in the pair's dense ids
   (pair_dense) held in buf: the same sentences, ids 1..k. */
static void
dense_text(const Text *t, const uint16_t *d, tok_t *buf, Py_ssize_t k, Text *out)
{
    Py_ssize_t i;
    for (i = 0; i < t->ntok; i++)
        buf[i] = d[i];
    *out = *t;
    out->tok = buf;
    out->maxid = (tok_t)k;
}

/* ROUGE-1.5.5's summary-level union-LCS hit (both texts non-empty).  Only
   equality of ids matters, so a pair whose sentences are its flat tokens
   and which has few distinct ids is counted in its dense ids (pair_dense):
   the id-indexed tables then stay small and in the caches. */
static int
lcs_hit(Scratch *sc, const Text *c, const Text *r, double *hit)
{
    int rc = A_OK;
    *hit = 0.0;
    if (r->alias && c->alias && c->nsent == 1 && r->nsent == 1)
        return flat_lcs(sc, c, r, hit);
    if (r->alias && c->alias && pair_dense(sc, c, r, &rc)) {
        Text dc, dr;
        if (!scratch_get((void **)&sc->dtc, &sc->dtccap, c->ntok + 1, sizeof(tok_t)) ||
            !scratch_get((void **)&sc->dtr, &sc->dtrcap, r->ntok + 1, sizeof(tok_t)))
            return A_NOMEM;
        dense_text(c, sc->dc, sc->dtc, sc->dk, &dc);
        dense_text(r, sc->dr, sc->dtr, sc->dk, &dr);
        return lcs_hit_ids(sc, &dc, &dr, hit);
    }
    return rc != A_OK ? rc : lcs_hit_ids(sc, c, r, hit);
}

/* The script's weighted-LCS table and traceback for one sentence pair
   (rouge2.kernels.python.wlcs_marks). */
static int
wlcs_marks(Scratch *sc, const tok_t *model, Py_ssize_t m, const tok_t *peer, Py_ssize_t n,
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
        return A_NOMEM;
    prev_c = d;
    cur_c = d + (n + 1);
    prev_l = (Py_ssize_t *)(d + 2 * (n + 1));
    cur_l = prev_l + (n + 1);
    for (j = 0; j <= n; j++) {
        prev_c[j] = 0.0;
        prev_l[j] = 0;
    }
    for (i = 1; i <= m; i++) {
        tok_t tok = model[i - 1];
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
    return A_OK;
}

/* (weighted hit, sum of f(reference sentence length)) as the script counts
   them: sentences aligned, hits clipped by the flat tokens' counts. */
static int
wlcs_raw(Scratch *sc, const Text *c, const Text *r, double w, double *hit_out, double *base_out)
{
    Py_ssize_t k, rs0 = 0;
    double hit = 0.0, base = 0.0;
    const tok_t *rtok = STOK(r), *ctok = STOK(c);
    unsigned char *mask;
    int rc = scratch_counts(sc, PAIR_MAXID(c, r));
    if (rc)
        return rc;
    mask = (unsigned char *)PyMem_RawMalloc((size_t)(NSTOK(r) + 1));
    if (mask == NULL)
        return A_NOMEM;
    count_pair(sc, c, r);
    for (k = 0; k < r->nsent && rc == A_OK; k++) {
        Py_ssize_t re = r->send[k], m = re - rs0, cs0 = 0, q, j, run = 0;
        const tok_t *sent = rtok + rs0;
        base += pow((double)m, w);
        memset(mask, 0, (size_t)m);
        for (q = 0; q < c->nsent && rc == A_OK; q++) {
            Py_ssize_t ce = c->send[q];
            rc = wlcs_marks(sc, sent, m, ctok + cs0, ce - cs0, w, mask);
            cs0 = ce;
        }
        for (j = 0; j < m; j++) {
            if (mask[j]) {
                tok_t tok = sent[j];
                if (sc->cnt_ref[tok] > 0 && sc->cnt_cand[tok] > 0) {
                    run++;
                    if (j + 1 == m || !mask[j + 1]) {
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
    PyMem_RawFree(mask);
    clear_pair_counts(sc, c, r);
    *hit_out = hit;
    *base_out = base;
    return rc;
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
skip_stats(Scratch *sc, const Text *c, const Text *r, const MSpec *ms, double *d)
{
    Py_ssize_t ct = skip_total(c->ntok, ms->n, ms->unigrams);
    Py_ssize_t rt = skip_total(r->ntok, ms->n, ms->unigrams);
    int rc = A_OK;
    d[0] = 0.0;
    if (ct && rt) {
        uint64_t *ck = (uint64_t *)scratch_get((void **)&sc->u64, &sc->u64cap, ct + rt + 2,
                                               sizeof(uint64_t));
        if (ck == NULL)
            return A_NOMEM;
        skip_keys(c, ms->n, ms->unigrams, ck);
        skip_keys(r, ms->n, ms->unigrams, ck + ct + 1);
        rc = key_hits(sc, ck, ct, ck + ct + 1, rt, &d[0]);
    }
    d[1] = d[3] = (double)rt;
    d[2] = (double)ct;
    return rc;
}

/* (hit, ref_total, cand_total, key_base) of one measure for one text pair. */
static int
measure_stats(Scratch *sc, const MSpec *ms, const Text *ct, const Text *rt, double *d)
{
    int rc = A_OK;
    switch (ms->kind) {
    case M_NGRAM:
        return ngram_stats(sc, ct, rt, ms->n, d);
    case M_LCS: /* R: the reference's sentence tokens, P: the candidate's flat tokens */
        d[0] = 0.0;
        d[1] = d[3] = (double)NSTOK(rt);
        d[2] = (double)ct->ntok;
        if (d[1] && d[2])
            rc = lcs_hit(sc, ct, rt, &d[0]);
        return rc;
    case M_LCS_FLAT:
        d[1] = d[3] = (double)rt->ntok;
        d[2] = (double)ct->ntok;
        return flat_lcs(sc, ct, rt, &d[0]);
    case M_WLCS: {
        double base = 0.0;
        rc = wlcs_raw(sc, ct, rt, ms->weight, &d[0], &base);
        d[1] = pow(base, ms->weight);
        d[2] = pow((double)ct->ntok, ms->weight);
        d[3] = base;
        return rc;
    }
    default:
        return skip_stats(sc, ct, rt, ms, d);
    }
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
    specs = (MSpec *)PyMem_RawCalloc((size_t)(n ? n : 1), sizeof(MSpec));
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
    PyMem_RawFree(specs);
    return -1;
}

/* The counting loop, without the GIL. */
static int
score_loop(Packed *pk, const MSpec *specs, Py_ssize_t M, const int32_t *cands,
           Py_ssize_t npairs, const int64_t *rstarts, const int32_t *refs, Py_ssize_t nrefs,
           double *o)
{
    Text ct, rt;
    Scratch sc;
    Py_ssize_t p;
    int rc = A_OK;
    memset(&ct, 0, sizeof(ct));
    memset(&rt, 0, sizeof(rt));
    memset(&sc, 0, sizeof(sc));
    for (p = 0; p < M; p++) /* what pair_dense counts on the way */
        if (specs[p].kind == M_NGRAM && (specs[p].n == 1 || specs[p].n == 2))
            sc.want |= specs[p].n == 1 ? DENSE_UNIGRAMS : DENSE_BIGRAMS;
    rc = packed_bound(pk);
    if (rc == A_OK)
        rc = scratch_counts(&sc, pk->maxid);
    for (p = 0; p < npairs && rc == A_OK; p++) {
        Py_ssize_t e;
        rc = text_load(pk, cands[p], &ct);
        for (e = (Py_ssize_t)rstarts[p]; e < (Py_ssize_t)rstarts[p + 1] && rc == A_OK; e++) {
            Py_ssize_t k;
            if (e < 0 || e >= nrefs) {
                rc = A_INDEX;
                break;
            }
            rc = text_load(pk, refs[e], &rt);
            sc.gen++; /* a new pair: pair_dense's ids are stale */
            for (k = 0; k < M && rc == A_OK; k++)
                rc = measure_stats(&sc, &specs[k], &ct, &rt, o + (e * M + k) * 4);
        }
    }
    text_free(&ct);
    text_free(&rt);
    scratch_free(&sc);
    return rc;
}

PyDoc_STRVAR(score_pairs_doc,
"score_pairs(packed, remap, cands, ref_starts, refs, measures, /) -> bytes\n\n"
"float64 (hit, ref_total, cand_total, key_base) per reference entry and\n"
"measure (see batch.h).");

/* The buffers of the arguments score_pairs and synonym_stats share:
   packed = args[0] (ids, bounds, spans; a checked 3-tuple), remap =
   args[1] (None: no buffer), cands, ref_starts and refs = args[2..4], into
   bufs[0..6]; have[i] is set for each buffer taken (the caller releases
   them, also after a failure). */
static int
pairs_buffers(PyObject *const *args, Py_buffer *bufs, int *have)
{
    PyObject *srcs[7];
    Py_ssize_t i;
    for (i = 0; i < 3; i++)
        srcs[i] = PyTuple_GET_ITEM(args[0], i);
    for (i = 3; i < 7; i++)
        srcs[i] = args[i - 2];
    for (i = 0; i < 7; i++) {
        if (i == 3 && srcs[i] == Py_None)
            continue;
        if (PyObject_GetBuffer(srcs[i], &bufs[i], PyBUF_SIMPLE) < 0)
            return -1;
        have[i] = 1;
    }
    return 0;
}

/* The packed texts of pairs_buffers' buffers, and the numbers of pairs and
   of reference entries; -1 (no exception set) when ref_starts does not fit
   cands and refs. */
static int
pairs_view(const Py_buffer *bufs, const int *have, Packed *pk, Py_ssize_t *npairs, Py_ssize_t *nentries)
{
    const int64_t *starts = (const int64_t *)bufs[5].buf;
    memset(pk, 0, sizeof(*pk));
    pk->ids = (const int32_t *)bufs[0].buf, pk->nids = bufs[0].len / 4;
    pk->bounds = (const int64_t *)bufs[1].buf, pk->nsent = bufs[1].len / 16;
    pk->spans = (const int64_t *)bufs[2].buf, pk->ntexts = bufs[2].len / 32;
    pk->remap = have[3] ? (const int32_t *)bufs[3].buf : NULL;
    pk->nremap = have[3] ? bufs[3].len / 4 : 0;
    *npairs = bufs[4].len / 4;
    if (bufs[5].len / 8 != *npairs + 1 || starts[*npairs] * 4 != bufs[6].len)
        return -1;
    *nentries = (Py_ssize_t)starts[*npairs];
    return 0;
}

static PyObject *
score_pairs(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer bufs[7]; /* ids, bounds, spans, remap, cands, ref_starts, refs */
    int have[7] = {0};
    Packed pk;
    MSpec *specs = NULL;
    Py_ssize_t M = 0, npairs, nentries, i;
    PyObject *out = NULL;
    int rc;

    if (nargs != 6) {
        PyErr_Format(PyExc_TypeError, "score_pairs expected 6 arguments, got %zd", nargs);
        return NULL;
    }
    if (!PyTuple_Check(args[0]) || PyTuple_GET_SIZE(args[0]) != 3) {
        PyErr_SetString(PyExc_TypeError, "packed must be (ids, bounds, spans)");
        return NULL;
    }
    if (pairs_buffers(args, bufs, have) < 0 || mspecs_load(args[5], &specs, &M) < 0)
        goto done;
    if (pairs_view(bufs, have, &pk, &npairs, &nentries) < 0) {
        PyErr_SetString(PyExc_ValueError, "ref_starts does not fit cands and refs");
        goto done;
    }
    out = PyBytes_FromStringAndSize(NULL, nentries * M * 4 * (Py_ssize_t)sizeof(double));
    if (out == NULL)
        goto done;
    {
        double *o = (double *)PyBytes_AS_STRING(out);
        Py_BEGIN_ALLOW_THREADS
        rc = score_loop(&pk, specs, M, (const int32_t *)bufs[4].buf, npairs,
                        (const int64_t *)bufs[5].buf, (const int32_t *)bufs[6].buf, nentries, o);
        Py_END_ALLOW_THREADS
    }
    if (rc != A_OK) {
        Py_CLEAR(out);
        raise_code(rc);
    }
done:
    for (i = 0; i < 7; i++)
        if (have[i])
            PyBuffer_Release(&bufs[i]);
    PyMem_RawFree(specs);
    return out;
}

/* ------------------------------------------------------------------ */
/* The same counting for one pair given as Python id lists (the per-    */
/* pair path and the rouge-score drop-in):                              */
/*   union_lcs_hit(cand, cand_sents, ref, ref_sents) -> int             */
/*   wlcs_raw(cand, cand_sents, ref, ref_sents, weight) -> (hit, base)  */
/* cand / ref: flat token ids (ints below 2**64), the *_sents: lists of */
/* the sentences' ids; rouge2.kernels.python has the definitions.  Ids  */
/* are first renumbered densely (the counting arrays are id-indexed).   */

typedef struct {
    KeySlot *slots;
    Py_ssize_t size, count;
} DenseMap;

static int
dense_id(DenseMap *dm, uint64_t key, tok_t *out)
{
    Py_ssize_t s;
    if (2 * (dm->count + 1) > dm->size) {
        Py_ssize_t size = dm->size ? dm->size * 2 : 256, i;
        KeySlot *fresh = (KeySlot *)PyMem_RawMalloc((size_t)size * sizeof(KeySlot));
        if (fresh == NULL)
            return A_NOMEM;
        for (i = 0; i < size; i++)
            fresh[i].index = -1;
        for (i = 0; i < dm->size; i++) {
            if (dm->slots[i].index >= 0) {
                Py_ssize_t t = (Py_ssize_t)(mix64(dm->slots[i].key) & (uint64_t)(size - 1));
                while (fresh[t].index >= 0)
                    t = (t + 1) & (size - 1);
                fresh[t] = dm->slots[i];
            }
        }
        PyMem_RawFree(dm->slots);
        dm->slots = fresh;
        dm->size = size;
    }
    s = (Py_ssize_t)(mix64(key) & (uint64_t)(dm->size - 1));
    while (dm->slots[s].index >= 0 && dm->slots[s].key != key)
        s = (s + 1) & (dm->size - 1);
    if (dm->slots[s].index < 0) {
        dm->slots[s].key = key;
        dm->slots[s].index = dm->count++;
    }
    *out = (tok_t)dm->slots[s].index;
    return A_OK;
}

/* Append the ids of a Python sequence, renumbered; -1 with an exception. */
static int
pyids_append(PyObject *obj, DenseMap *dm, tok_t **buf, Py_ssize_t *n, Py_ssize_t *cap, tok_t *maxid)
{
    PyObject *seq = PySequence_Fast(obj, "token ids must be a sequence of ints");
    Py_ssize_t i, len;
    if (seq == NULL)
        return -1;
    len = PySequence_Fast_GET_SIZE(seq);
    if (raw_reserve((void **)buf, cap, *n + len, sizeof(tok_t), 64) < 0) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (i = 0; i < len; i++) {
        PyObject *item = PySequence_Fast_ITEMS(seq)[i];
        unsigned long long v;
        tok_t d;
        if (!PyLong_Check(item)) {
            PyErr_Format(PyExc_TypeError, "token ids must be ints, not %.100s", Py_TYPE(item)->tp_name);
            break;
        }
        v = PyLong_AsUnsignedLongLong(item);
        if (v == (unsigned long long)-1 && PyErr_Occurred())
            break;
        if (dense_id(dm, (uint64_t)v, &d) != A_OK) {
            PyErr_NoMemory();
            break;
        }
        if (d > *maxid)
            *maxid = d;
        (*buf)[(*n)++] = d;
    }
    Py_DECREF(seq);
    return i == len ? 0 : -1;
}

/* A Text from flat ids and a sequence of sentences (empty ones left out);
   aliased when the sentences are the flat tokens. */
static int
pytext_load(PyObject *flat, PyObject *sents, DenseMap *dm, Text *t)
{
    PyObject *seq;
    Py_ssize_t k;
    if (pyids_append(flat, dm, &t->own, &t->ntok, &t->cap, &t->maxid) < 0)
        return -1;
    t->tok = t->own;
    seq = PySequence_Fast(sents, "sentences must be a sequence of id sequences");
    if (seq == NULL)
        return -1;
    for (k = 0; k < PySequence_Fast_GET_SIZE(seq); k++) {
        Py_ssize_t before = t->nstok;
        if (pyids_append(PySequence_Fast_ITEMS(seq)[k], dm, &t->sown, &t->nstok, &t->scap, &t->maxid) < 0 ||
            (t->nstok > before && push_send(t, t->nstok) != A_OK)) {
            Py_DECREF(seq);
            if (!PyErr_Occurred())
                PyErr_NoMemory();
            return -1;
        }
    }
    Py_DECREF(seq);
    t->stok = t->sown;
    t->alias = t->nstok == t->ntok &&
               (t->ntok == 0 || memcmp(t->stok, t->tok, (size_t)t->ntok * sizeof(tok_t)) == 0);
    return 0;
}

static int
pair_load(PyObject *const *args, Text *c, Text *r)
{
    DenseMap dm = {NULL, 0, 0};
    int rc = pytext_load(args[0], args[1], &dm, c);
    if (rc == 0)
        rc = pytext_load(args[2], args[3], &dm, r);
    PyMem_RawFree(dm.slots);
    return rc;
}

PyDoc_STRVAR(union_lcs_hit_doc,
"union_lcs_hit(cand, cand_sents, ref, ref_sents, /) -> int\n\n"
"ROUGE-1.5.5's summary-level union-LCS hit of one pair (see batch.h;\n"
"rouge2.kernels.python.union_lcs_hit is the definition).");

static PyObject *
union_lcs_hit(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Text c, r;
    Scratch sc;
    double hit = 0.0;
    int rc = A_OK;
    PyObject *out = NULL;
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "union_lcs_hit expected 4 arguments, got %zd", nargs);
        return NULL;
    }
    memset(&c, 0, sizeof(c));
    memset(&r, 0, sizeof(r));
    memset(&sc, 0, sizeof(sc));
    if (pair_load(args, &c, &r) == 0) {
        if (c.ntok && r.ntok)
            rc = lcs_hit(&sc, &c, &r, &hit);
        out = rc == A_OK ? PyLong_FromDouble(hit) : raise_code(rc);
    }
    text_free(&c);
    text_free(&r);
    scratch_free(&sc);
    return out;
}

PyDoc_STRVAR(wlcs_raw_doc,
"wlcs_raw(cand, cand_sents, ref, ref_sents, weight, /) -> (float, float)\n\n"
"ROUGE-W's (weighted hit, sum of f(reference sentence length)) of one pair\n"
"(rouge2.kernels.python.wlcs_raw is the definition).");

static PyObject *
wlcs_raw_py(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Text c, r;
    Scratch sc;
    double hit = 0.0, base = 0.0, w;
    int rc;
    PyObject *out = NULL;
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "wlcs_raw expected 5 arguments, got %zd", nargs);
        return NULL;
    }
    w = PyFloat_AsDouble(args[4]);
    if (w == -1.0 && PyErr_Occurred())
        return NULL;
    memset(&c, 0, sizeof(c));
    memset(&r, 0, sizeof(r));
    memset(&sc, 0, sizeof(sc));
    if (pair_load(args, &c, &r) == 0) {
        rc = wlcs_raw(&sc, &c, &r, w, &hit, &base);
        out = rc == A_OK ? Py_BuildValue("(dd)", hit, base) : raise_code(rc);
    }
    text_free(&c);
    text_free(&r);
    scratch_free(&sc);
    return out;
}
