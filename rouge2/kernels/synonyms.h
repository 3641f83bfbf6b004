/*
 * Synonyms on the batch path (issue 22, target 2): ROUGE-N and ROUGE-L
 * with a synonym relation resolved once per vocabulary into integer ids,
 * counted without the GIL.
 *
 * Included by _speedups.c after batch.h (Packed, scratch_get, lcs_step,
 * trace_step, the A_* codes).  The pure-Python definition is
 * rouge2/kernels/python.py synonym_stats; tests/test_synonyms_batch.py
 * checks both against each other and against the per-pair path.
 *
 *   synonym_stats(packed, remap, cands, ref_starts, refs, stats, width,
 *                 measures, (offsets, targets)) -> bytes of float64
 *
 * stats: what score_pairs gave for ``width`` measures; measures: (k, kind,
 * n) per measure counted with synonyms (column k, kind M_NGRAM, M_LCS or
 * M_LCS_FLAT); offsets (int64, one per raw id plus one) and targets
 * (int32): the raw ids below a related to raw id a are
 * targets[offsets[a]:offsets[a + 1]] (rouge2/synonyms/ids.py).  Returns
 * stats with those measures' hits counted with synonyms.
 *
 * Per pair of texts, their distinct kept words get local ids; two words
 * match when they are the same, have the same final id (a "class": the
 * stem with stemming) or are related.  A pair with no related words of
 * different classes across its two texts keeps its plain statistics (with
 * only class equality, the maximum matching is the clipped count over
 * final ids, and the related LCS is the plain one).  Otherwise ROUGE-N's
 * hit is the maximum b-matching of the n-gram types (n-grams match
 * position by position), and ROUGE-L's the larger of the plain hit and the
 * maximum matching of the candidate's words with the reference words on
 * the related LCS (summary-level: the union over candidate sentences per
 * reference sentence; the script's traceback, as lcs_marks).  Any maximum
 * flow gives the maximum's size, so the numbers are those of
 * rouge2/synonyms/matching.py.  The texts' sentences must be their flat
 * tokens (no word or byte limit: the caller keeps those per pair).
 */

typedef struct {
    const int64_t *off; /* nrel + 1 */
    Py_ssize_t nrel;
    const int32_t *tgt;
    Py_ssize_t ntgt;
} SynRel;

typedef struct {
    Py_ssize_t k, n;
    int kind;
} SynSpec;

/* The scratch buffers, by use (each always holds one item type). */
enum {
    S_RAW, S_WCLS, S_CC, S_RC, S_MC, /* per local word (int32) */
    S_CT, S_RT, S_CSE, S_RSE,        /* tokens in local ids (int32); sentence ends (Py_ssize_t) */
    S_EDGE, S_AOFF, S_ADJ, S_AFILL, S_COFF, S_CMEM, S_CFILL, S_IDX, S_WORDS,
    S_EOFF, S_ETO,                   /* the matching's edges, from candidate types */
    S_REMC, S_REMR, S_EF, S_ESRC, S_ROFF, S_RLIST, S_PARR, S_PARC, S_QUEUE,
    S_CACT, S_CK, S_RK, S_CCL, S_RCL, S_CSTART, S_RSTART, /* per class: active; per token: key, class */
    S_SLOTS, S_TSIDE, S_TPOS, S_TCNT, S_GSLOTS, S_GSIDE, S_GPOS, S_GCNT, /* two tables (SynTable) */
    S_RHEAD, S_RNEXT, S_CAPC, S_CAPR,
    S_PLIST, S_MASKS, S_COLS, S_UN,  /* positions; uint64 */
    S_COUNT
};

typedef struct {
    void *p[S_COUNT];
    Py_ssize_t cap[S_COUNT];
    int32_t *loc; /* per raw id: local id + 1, zero between pairs */
    int32_t *cls; /* per final id: class + 1, zero between pairs */
    Py_ssize_t nw, nclass, nct, nrt, ncs, nrs, ntc, ntr;
} SynScratch;

#define SBUF(s, which, n, type) ((type *)scratch_get(&(s)->p[which], &(s)->cap[which], (n) + 1, sizeof(type)))
#define SP(s, which, type) ((type *)(s)->p[which])

static void
syn_scratch_free(SynScratch *s)
{
    int k;
    for (k = 0; k < S_COUNT; k++)
        PyMem_RawFree(s->p[k]);
    PyMem_RawFree(s->loc);
    PyMem_RawFree(s->cls);
}

/* An upper bound on text t's tokens (A_INDEX as -1 for bad spans). */
static Py_ssize_t
syn_text_size(const Packed *pk, Py_ssize_t t)
{
    const int64_t *sp;
    int64_t s0, s1, k, total = 0;
    if (t < 0 || t >= pk->ntexts)
        return -1;
    sp = pk->spans + 4 * t;
    s0 = sp[0], s1 = sp[1];
    if (s0 < 0 || s1 < s0 || s1 > pk->nsent)
        return -1;
    for (k = s0; k < s1; k++) {
        int64_t a = pk->bounds[2 * k], b = pk->bounds[2 * k + 1];
        if (a < 0 || b < a || b > pk->nids)
            return -1;
        total += b - a;
    }
    return (Py_ssize_t)total;
}

/* Text t's kept words, in local ids, into the candidate's (side 0) or the
   reference's (side 1) tokens and sentence ends, counting them; the local
   arrays have room for every token already. */
static int
syn_text(SynScratch *s, const Packed *pk, Py_ssize_t t, int side)
{
    const int64_t *sp = pk->spans + 4 * t, *bounds = pk->bounds;
    const int32_t *ids = pk->ids, *remap = pk->remap;
    int32_t *tok = SP(s, side ? S_RT : S_CT, int32_t), *cnt = SP(s, side ? S_RC : S_CC, int32_t);
    int32_t *raws = SP(s, S_RAW, int32_t), *cc = SP(s, S_CC, int32_t), *rc = SP(s, S_RC, int32_t);
    int32_t *mc = SP(s, S_MC, int32_t), *loc = s->loc, nw = (int32_t)s->nw;
    Py_ssize_t *ends = SP(s, side ? S_RSE : S_CSE, Py_ssize_t), n = 0, ns = 0;
    int64_t q, k;
    for (q = sp[0]; q < sp[1]; q++) {
        Py_ssize_t before = n;
        for (k = bounds[2 * q]; k < bounds[2 * q + 1]; k++) {
            int32_t raw = ids[k], x; /* checked by syn_check */
            if (remap != NULL && remap[raw] < 0)
                continue;
            x = loc[raw];
            if (x == 0) {
                x = loc[raw] = ++nw;
                raws[x - 1] = raw;
                cc[x - 1] = rc[x - 1] = mc[x - 1] = 0;
            }
            tok[n++] = x - 1;
            cnt[x - 1]++;
        }
        if (n > before)
            ends[ns++] = n;
    }
    s->nw = nw;
    if (side)
        s->nrt = n, s->nrs = ns;
    else
        s->nct = n, s->ncs = ns;
    return A_OK;
}

/* Each local word's class: its final id (without a remap, its word). */
static void
syn_classes(SynScratch *s, const Packed *pk)
{
    Py_ssize_t x, nw = s->nw;
    const int32_t *raw = SP(s, S_RAW, int32_t);
    int32_t *wcls = SP(s, S_WCLS, int32_t), *cls = s->cls;
    if (pk->remap == NULL) {
        for (x = 0; x < nw; x++)
            wcls[x] = (int32_t)x;
        s->nclass = nw;
        return;
    }
    s->nclass = 0;
    for (x = 0; x < nw; x++) {
        int32_t f = pk->remap[raw[x]];
        if (cls[f] == 0)
            cls[f] = (int32_t)++s->nclass;
        wcls[x] = cls[f] - 1;
    }
}

/* The classes' members (S_COFF, S_CMEM). */
static int
syn_members(SynScratch *s)
{
    Py_ssize_t x, nw = s->nw, nc = s->nclass;
    const int32_t *wcls = SP(s, S_WCLS, int32_t);
    int32_t *coff, *cmem, *fill;
    if (!(coff = SBUF(s, S_COFF, nc + 1, int32_t)) || !(cmem = SBUF(s, S_CMEM, nw, int32_t)) ||
        !(fill = SBUF(s, S_CFILL, nc, int32_t)))
        return A_NOMEM;
    if (nc == nw) { /* one word a class (no remap: wcls[x] == x) */
        for (x = 0; x <= nw; x++)
            coff[x] = (int32_t)x;
        for (x = 0; x < nw; x++)
            cmem[wcls[x]] = (int32_t)x;
        return A_OK;
    }
    memset(coff, 0, (size_t)(nc + 1) * sizeof(int32_t));
    for (x = 0; x < nw; x++)
        coff[wcls[x] + 1]++;
    for (x = 0; x < nc; x++) {
        coff[x + 1] += coff[x];
        fill[x] = coff[x];
    }
    for (x = 0; x < nw; x++)
        cmem[fill[wcls[x]]++] = (int32_t)x;
    return A_OK;
}

/* The related pairs of local words of different classes that join a
   candidate word to a reference word (adjacency both ways: the matchings
   only ever ask about such pairs); *cross: whether there is one. */
static int
syn_edges(SynScratch *s, const SynRel *rel, int *cross)
{
    Py_ssize_t x, k, ne = 0, nw = s->nw;
    const int32_t *raw = SP(s, S_RAW, int32_t), *wcls = SP(s, S_WCLS, int32_t), *loc = s->loc;
    const int32_t *cc = SP(s, S_CC, int32_t), *rc = SP(s, S_RC, int32_t), *tgt = rel->tgt;
    const int64_t *off = rel->off;
    int32_t *edge, *aoff, *adj, *fill;
    for (x = 0; x < nw; x++) {
        Py_ssize_t k0 = (Py_ssize_t)off[raw[x]], k1 = (Py_ssize_t)off[raw[x] + 1];
        int32_t cx = cc[x], rx = rc[x], kx = wcls[x];
        if (k0 == k1)
            continue;
        if (!(edge = SBUF(s, S_EDGE, 2 * (ne + k1 - k0), int32_t)))
            return A_NOMEM;
        for (k = k0; k < k1; k++) { /* targets checked by syn_check */
            int32_t y = loc[tgt[k]] - 1;
            if (y >= 0 && wcls[y] != kx && ((cx && rc[y]) || (rx && cc[y])))
                edge[2 * ne] = (int32_t)x, edge[2 * ne + 1] = y, ne++;
        }
    }
    if (!(*cross = ne > 0))
        return A_OK;
    if (!(aoff = SBUF(s, S_AOFF, nw + 1, int32_t)) || !(adj = SBUF(s, S_ADJ, 2 * ne, int32_t)) ||
        !(fill = SBUF(s, S_AFILL, nw, int32_t)))
        return A_NOMEM;
    edge = SP(s, S_EDGE, int32_t);
    memset(aoff, 0, (size_t)(nw + 1) * sizeof(int32_t));
    for (k = 0; k < ne; k++)
        aoff[edge[2 * k] + 1]++, aoff[edge[2 * k + 1] + 1]++;
    for (x = 0; x < nw; x++) {
        aoff[x + 1] += aoff[x];
        fill[x] = aoff[x];
    }
    for (k = 0; k < ne; k++) {
        adj[fill[edge[2 * k]]++] = edge[2 * k + 1];
        adj[fill[edge[2 * k + 1]]++] = edge[2 * k];
    }
    return A_OK;
}

/* Whether local words x and y match: the same class, or related. */
static inline int
syn_match(const SynScratch *s, int32_t x, int32_t y)
{
    const int32_t *wcls = SP(s, S_WCLS, int32_t), *aoff = SP(s, S_AOFF, int32_t), *adj = SP(s, S_ADJ, int32_t);
    int32_t k;
    if (wcls[x] == wcls[y])
        return 1;
    for (k = aoff[x]; k < aoff[x + 1]; k++)
        if (adj[k] == y)
            return 1;
    return 0;
}

/* The words matching local word x: its class's members, then its related words. */
#define SYN_FOR_MATCHES(s, x, y, BODY)                                                      \
    do {                                                                                    \
        const int32_t *co_ = SP(s, S_COFF, int32_t), *cm_ = SP(s, S_CMEM, int32_t);         \
        const int32_t *ao_ = SP(s, S_AOFF, int32_t), *ad_ = SP(s, S_ADJ, int32_t);          \
        int32_t c_ = SP(s, S_WCLS, int32_t)[x], k_;                                         \
        for (k_ = co_[c_]; k_ < co_[c_ + 1]; k_++) {                                        \
            int32_t y = cm_[k_];                                                            \
            BODY                                                                            \
        }                                                                                   \
        for (k_ = ao_[x]; k_ < ao_[x + 1]; k_++) {                                          \
            int32_t y = ad_[k_];                                                            \
            BODY                                                                            \
        }                                                                                   \
    } while (0)

/* One shortest augmenting path (BFS) of the flow; the reference type it
   ends at, or -1.  Forward edges are unbounded, a backward step needs flow. */
static Py_ssize_t
syn_bfs(SynScratch *s, Py_ssize_t nC, Py_ssize_t nR, const int32_t *eoff, const int32_t *eto)
{
    int32_t *remc = SP(s, S_REMC, int32_t), *remr = SP(s, S_REMR, int32_t), *ef = SP(s, S_EF, int32_t);
    int32_t *esrc = SP(s, S_ESRC, int32_t), *roff = SP(s, S_ROFF, int32_t), *rlist = SP(s, S_RLIST, int32_t);
    int32_t *parr = SP(s, S_PARR, int32_t), *parc = SP(s, S_PARC, int32_t), *queue = SP(s, S_QUEUE, int32_t);
    Py_ssize_t i, j, head = 0, tail = 0;
    for (j = 0; j < nR; j++)
        parr[j] = -1;
    for (i = 0; i < nC; i++) {
        parc[i] = remc[i] > 0 ? -1 : -2;
        if (remc[i] > 0)
            queue[tail++] = (int32_t)i;
    }
    while (head < tail) {
        int32_t e, r;
        i = queue[head++];
        for (e = eoff[i]; e < eoff[i + 1]; e++) {
            j = eto[e];
            if (parr[j] >= 0)
                continue;
            parr[j] = e;
            if (remr[j] > 0)
                return j;
            for (r = roff[j]; r < roff[j + 1]; r++) {
                int32_t e2 = rlist[r], i2 = esrc[e2];
                if (ef[e2] > 0 && parc[i2] == -2) {
                    parc[i2] = e2;
                    queue[tail++] = i2;
                }
            }
        }
    }
    return -1;
}

/* Pushes the most the path ending at reference type ``end`` takes. */
static int32_t
syn_augment(SynScratch *s, Py_ssize_t end, const int32_t *eto)
{
    int32_t *remc = SP(s, S_REMC, int32_t), *remr = SP(s, S_REMR, int32_t), *ef = SP(s, S_EF, int32_t);
    int32_t *esrc = SP(s, S_ESRC, int32_t), *parr = SP(s, S_PARR, int32_t), *parc = SP(s, S_PARC, int32_t);
    int32_t delta = remr[end], j = (int32_t)end, i;
    for (;;) {
        i = esrc[parr[j]];
        if (parc[i] == -1) {
            delta = remc[i] < delta ? remc[i] : delta;
            break;
        }
        delta = ef[parc[i]] < delta ? ef[parc[i]] : delta;
        j = eto[parc[i]];
    }
    remr[end] -= delta;
    for (j = (int32_t)end;;) {
        ef[parr[j]] += delta;
        i = esrc[parr[j]];
        if (parc[i] == -1) {
            remc[i] -= delta;
            return delta;
        }
        ef[parc[i]] -= delta;
        j = eto[parc[i]];
    }
}

/* The maximum b-matching: nC candidate types of capacities capc, nR
   reference types of capacities capr, edges eto[eoff[i]:eoff[i + 1]] from
   candidate type i.  A greedy start, then shortest augmenting paths. */
static int
syn_flow(SynScratch *s, Py_ssize_t nC, const int32_t *capc, Py_ssize_t nR, const int32_t *capr,
         const int32_t *eoff, const int32_t *eto, double *out)
{
    Py_ssize_t ne = eoff[nC], i, j, e, total = 0;
    int32_t *remc, *remr, *ef, *esrc, *roff, *rlist;
    if (!SBUF(s, S_REMC, nC, int32_t) || !SBUF(s, S_REMR, nR, int32_t) || !SBUF(s, S_EF, ne, int32_t) ||
        !SBUF(s, S_ESRC, ne, int32_t) || !SBUF(s, S_ROFF, nR + 1, int32_t) || !SBUF(s, S_RLIST, ne, int32_t) ||
        !SBUF(s, S_PARR, nR, int32_t) || !SBUF(s, S_PARC, nC, int32_t) || !SBUF(s, S_QUEUE, nC, int32_t))
        return A_NOMEM;
    remc = SP(s, S_REMC, int32_t), remr = SP(s, S_REMR, int32_t), ef = SP(s, S_EF, int32_t);
    esrc = SP(s, S_ESRC, int32_t), roff = SP(s, S_ROFF, int32_t), rlist = SP(s, S_RLIST, int32_t);
    memcpy(remc, capc, (size_t)nC * sizeof(int32_t));
    memcpy(remr, capr, (size_t)nR * sizeof(int32_t));
    memset(roff, 0, (size_t)(nR + 1) * sizeof(int32_t));
    for (i = 0; i < nC; i++)
        for (e = eoff[i]; e < eoff[i + 1]; e++) {
            int32_t m = remc[i] < remr[eto[e]] ? remc[i] : remr[eto[e]];
            esrc[e] = (int32_t)i;
            ef[e] = m;
            remc[i] -= m, remr[eto[e]] -= m, total += m;
            roff[eto[e] + 1]++;
        }
    for (j = 0; j < nR; j++)
        roff[j + 1] += roff[j];
    for (e = 0; e < ne; e++) /* roff[j] runs up to the next start while filling */
        rlist[roff[eto[e]]++] = (int32_t)e;
    for (j = nR; j > 0; j--)
        roff[j] = roff[j - 1];
    roff[0] = 0;
    for (;;) {
        Py_ssize_t end = syn_bfs(s, nC, nR, eoff, eto);
        if (end < 0)
            break;
        total += syn_augment(s, end, eto);
    }
    *out = (double)total;
    return A_OK;
}

/* ------------------------------------------------------------------ */
/* ROUGE-N: the n-gram types of both texts, and the b-matching.

   A class none of whose words is related to a word of another class in
   the other text ("quiet") matches only itself: an n-gram of quiet classes
   matches only the n-grams of the same classes, a component of the
   matching of its own whose size is the smaller count, as without
   synonyms.  So the hit is the plain hit (the clipped count over final
   ids) less what the plain count gave the n-grams with a word of an
   "active" class, plus their maximum matching.  There, tokens are keyed by
   their class when it is quiet and by their word otherwise: an n-gram type
   is a sequence of keys (its n-grams match alike). */

/* Per class: whether a word of it is related to a word of another class
   in the other text ("active"; else "quiet"). */
static int
syn_active(SynScratch *s)
{
    Py_ssize_t x;
    const int32_t *aoff = SP(s, S_AOFF, int32_t), *wcls = SP(s, S_WCLS, int32_t);
    int32_t *act = SBUF(s, S_CACT, s->nclass, int32_t);
    if (act == NULL)
        return A_NOMEM;
    memset(act, 0, (size_t)s->nclass * sizeof(int32_t));
    for (x = 0; x < s->nw; x++)
        if (aoff[x + 1] > aoff[x])
            act[wcls[x]] = 1;
    return A_OK;
}

/* Tokens tok[0:len] as keys (key[]: the class, nw + class, for a quiet
   class, else the word) and classes (cls[]); the starts of the n-grams
   with a word of an active class into starts[], their number returned. */
static Py_ssize_t
syn_windows(const SynScratch *s, const int32_t *tok, Py_ssize_t len, Py_ssize_t n, int32_t *key,
            int32_t *cls, int32_t *starts)
{
    const int32_t *wcls = SP(s, S_WCLS, int32_t), *act = SP(s, S_CACT, int32_t);
    Py_ssize_t k, ns = 0, next = 0; /* next: the first start not taken yet */
    for (k = 0; k < len; k++) {
        cls[k] = wcls[tok[k]];
        key[k] = act[cls[k]] ? tok[k] : (int32_t)s->nw + cls[k];
        if (act[cls[k]]) {
            Py_ssize_t a = k - n + 1 > next ? k - n + 1 : next, b = k < len - n ? k : len - n;
            for (; a <= b; a++)
                starts[ns++] = (int32_t)a;
            if (b + 1 > next)
                next = b + 1;
        }
    }
    return ns;
}

static inline uint64_t
syn_hash(const int32_t *p, Py_ssize_t n)
{
    uint64_t h = UINT64_C(0x9E3779B97F4A7C15);
    Py_ssize_t k;
    for (k = 0; k < n; k++)
        h = (h ^ (uint32_t)p[k]) * UINT64_C(0x100000001B3) + (h >> 29);
    return h ^ (h >> 31);
}

static inline int
syn_same(const int32_t *a, const int32_t *b, Py_ssize_t n)
{
    Py_ssize_t k;
    for (k = 0; k < n; k++)
        if (a[k] != b[k])
            return 0;
    return 1;
}

/* A joint table of n-gram types of both texts: slots (size a power of
   two), where each type first occurs (side, pos) and its counts in the
   candidate and the reference (cnt, two per type). */
typedef struct {
    const int32_t *keys[2];
    int32_t *slots, *side, *pos, *cnt;
    Py_ssize_t size, n, count;
} SynTable;

/* The n-grams of ``side`` starting at starts[0:ns] counted into t. */
static void
syn_count(SynTable *t, int side, const int32_t *starts, Py_ssize_t ns)
{
    Py_ssize_t k, n = t->n;
    for (k = 0; k < ns; k++) {
        const int32_t *g = t->keys[side] + starts[k];
        size_t h = (size_t)syn_hash(g, n) & (size_t)(t->size - 1);
        for (;; h = (h + 1) & (size_t)(t->size - 1)) {
            int32_t u = t->slots[h] - 1;
            if (u < 0) {
                u = (int32_t)t->count++;
                t->slots[h] = u + 1;
                t->pos[u] = starts[k], t->side[u] = side;
                t->cnt[2 * u] = t->cnt[2 * u + 1] = 0;
            }
            else if (!syn_same(t->keys[t->side[u]] + t->pos[u], g, n)) {
                continue;
            }
            t->cnt[2 * u + side]++;
            break;
        }
    }
}

/* Room for a table of up to ``count`` types in buffers base .. base + 3. */
static int
syn_table(SynScratch *s, SynTable *t, int base, const int32_t *k0, const int32_t *k1, Py_ssize_t n,
          Py_ssize_t count)
{
    t->size = 16;
    while (t->size < 2 * count)
        t->size *= 2;
    t->keys[0] = k0, t->keys[1] = k1, t->n = n, t->count = 0;
    if (!(t->slots = SBUF(s, base, t->size, int32_t)) || !(t->side = SBUF(s, base + 1, count, int32_t)) ||
        !(t->pos = SBUF(s, base + 2, count, int32_t)) || !(t->cnt = SBUF(s, base + 3, 2 * count, int32_t)))
        return A_NOMEM;
    memset(t->slots, 0, (size_t)t->size * sizeof(int32_t));
    return A_OK;
}

/* Whether candidate n-gram at c and reference n-gram at r match from position 1 on. */
static inline int
syn_tail_match(const SynScratch *s, const int32_t *c, const int32_t *r, Py_ssize_t n)
{
    Py_ssize_t k;
    for (k = 1; k < n; k++)
        if (!syn_match(s, c[k], r[k]))
            return 0;
    return 1;
}

/* The flow's edges between the types of t (S_EOFF, S_ETO), from each
   type in the candidate to each matching type in the reference. */
static int
syn_type_edges(SynScratch *s, const SynTable *t)
{
    const int32_t *tok[2] = {SP(s, S_CT, int32_t), SP(s, S_RT, int32_t)};
    int32_t *rhead, *rnext, *eoff, *eto;
    Py_ssize_t u, ne = 0, nt = t->count;
    if (!(rhead = SBUF(s, S_RHEAD, s->nw, int32_t)) || !(rnext = SBUF(s, S_RNEXT, nt, int32_t)) ||
        !(eoff = SBUF(s, S_EOFF, nt + 1, int32_t)))
        return A_NOMEM;
    for (u = 0; u < s->nw; u++)
        rhead[u] = -1;
    for (u = nt - 1; u >= 0; u--) /* the reference's types by first word */
        if (t->cnt[2 * u + 1]) {
            int32_t first = tok[t->side[u]][t->pos[u]];
            rnext[u] = rhead[first];
            rhead[first] = (int32_t)u;
        }
    for (u = 0; u < nt; u++) {
        const int32_t *cu = tok[t->side[u]] + t->pos[u];
        int32_t x = cu[0];
        eoff[u] = (int32_t)ne;
        if (!t->cnt[2 * u])
            continue;
        SYN_FOR_MATCHES(s, x, y, {
            int32_t w;
            for (w = rhead[y]; w >= 0; w = rnext[w]) {
                if (!syn_tail_match(s, cu, tok[t->side[w]] + t->pos[w], t->n))
                    continue;
                if (!(eto = SBUF(s, S_ETO, ne + 1, int32_t)))
                    return A_NOMEM;
                eto[ne++] = w;
            }
        });
    }
    eoff[nt] = (int32_t)ne;
    return SBUF(s, S_ETO, ne + 1, int32_t) ? A_OK : A_NOMEM;
}

/* ROUGE-N's hit with synonyms (both texts have n words or more; plain:
   the hit without them). */
static int
syn_ngram_hit(SynScratch *s, Py_ssize_t n, double plain, double *hit)
{
    Py_ssize_t nct = s->nct, nrt = s->nrt, nsc, nsr, u;
    int32_t *ck, *rk, *ccl, *rcl, *sc, *sr, *capc, *capr;
    SynTable types, classes;
    double flow = 0.0;
    int rc;
    if (!(ck = SBUF(s, S_CK, nct, int32_t)) || !(rk = SBUF(s, S_RK, nrt, int32_t)) ||
        !(ccl = SBUF(s, S_CCL, nct, int32_t)) || !(rcl = SBUF(s, S_RCL, nrt, int32_t)) ||
        !(sc = SBUF(s, S_CSTART, nct, int32_t)) || !(sr = SBUF(s, S_RSTART, nrt, int32_t)))
        return A_NOMEM;
    nsc = syn_windows(s, SP(s, S_CT, int32_t), nct, n, ck, ccl, sc);
    nsr = syn_windows(s, SP(s, S_RT, int32_t), nrt, n, rk, rcl, sr);
    if ((rc = syn_table(s, &classes, S_GSLOTS, ccl, rcl, n, nsc + nsr)) != A_OK ||
        (rc = syn_table(s, &types, S_SLOTS, ck, rk, n, nsc + nsr)) != A_OK)
        return rc;
    syn_count(&classes, 0, sc, nsc);
    syn_count(&classes, 1, sr, nsr);
    syn_count(&types, 0, sc, nsc);
    syn_count(&types, 1, sr, nsr);
    for (u = 0; u < classes.count; u++) /* what the plain count gave them */
        plain -= classes.cnt[2 * u] < classes.cnt[2 * u + 1] ? classes.cnt[2 * u] : classes.cnt[2 * u + 1];
    if ((rc = syn_type_edges(s, &types)) != A_OK)
        return rc;
    if (!(capc = SBUF(s, S_CAPC, types.count, int32_t)) || !(capr = SBUF(s, S_CAPR, types.count, int32_t)))
        return A_NOMEM;
    for (u = 0; u < types.count; u++)
        capc[u] = types.cnt[2 * u], capr[u] = types.cnt[2 * u + 1];
    rc = syn_flow(s, types.count, capc, types.count, capr, SP(s, S_EOFF, int32_t), SP(s, S_ETO, int32_t), &flow);
    *hit = plain + flow;
    return rc;
}

/* ------------------------------------------------------------------ */
/* ROUGE-L: the related LCS marks, then the matching of the words.      */

/* One step of the script's traceback on one-word columns (see trace_step):
   at a candidate word of position mask mk and column col; 0 when it stops. */
static inline int
syn_trace1(uint64_t mk, uint64_t col, uint64_t top, Py_ssize_t *i, uint64_t *un)
{
    uint64_t stop = (mk | (~col & top)) & (*i >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << *i) - 1);
    Py_ssize_t p;
    if (!stop)
        return 0;
    p = HIGHBIT64(stop);
    if ((mk >> p) & 1) {
        *un |= UINT64_C(1) << p;
        *i = p;
    }
    else {
        *i = p + 1;
    }
    return *i > 0;
}

/* syn_sentence_marks for a reference sentence of m <= 64 words.  Only the
   candidate words related to a word of the sentence change a column, and
   a run of the others acts on the traceback as one step (the same column:
   the first step leaves the row where the next would), so the sentence is
   walked through the related words alone. */
static int
syn_one_word_marks(SynScratch *s, Py_ssize_t m, Py_ssize_t q0, Py_ssize_t q1, uint64_t *un)
{
    const int32_t *ct = SP(s, S_CT, int32_t);
    const uint64_t *masks = SP(s, S_MASKS, uint64_t);
    uint64_t top = m == 64 ? ~UINT64_C(0) : (UINT64_C(1) << m) - 1, v = top, cover = 0, *cols, *mks;
    Py_ssize_t n = q1 - q0, j, k, K = 0, i = m;
    int32_t *P;
    if (!(cols = SBUF(s, S_COLS, 2 * n, uint64_t)) || !(P = SBUF(s, S_PLIST, n, int32_t)))
        return A_NOMEM;
    mks = cols + n;
    for (j = q0; j < q1; j++) {
        uint64_t mk = masks[ct[j]];
        if (!mk)
            continue;
        cover |= mk;
        v = ((v + (v & mk)) | (v & ~mk)) & top;
        cols[K] = v, mks[K] = mk, P[K++] = (int32_t)j;
    }
    if (!K || !(cover & ~*un)) /* the traceback would only mark marked positions */
        return A_OK;
    if (P[K - 1] != q1 - 1 && !syn_trace1(0, cols[K - 1], top, &i, un))
        return A_OK;
    for (k = K - 1; k >= 0; k--) {
        if (!syn_trace1(mks[k], cols[k], top, &i, un))
            return A_OK;
        if ((k ? P[k] != P[k - 1] + 1 : P[0] != q0) && !syn_trace1(0, k ? cols[k - 1] : top, top, &i, un))
            return A_OK;
    }
    return A_OK;
}

/* The marks of a reference sentence of m words against candidate sentence
   [q0, q1) into un, from the candidate words' position masks (S_MASKS):
   the script's traceback (rouge2.kernels.python.lcs_marks). */
static int
syn_sentence_marks(SynScratch *s, Py_ssize_t m, Py_ssize_t q0, Py_ssize_t q1, uint64_t *un)
{
    Py_ssize_t words = (m + 63) / 64, n = q1 - q0, j, w, i = m;
    uint64_t top = (m % 64) ? ((UINT64_C(1) << (m % 64)) - 1) : ~UINT64_C(0), *cols, *masks;
    const int32_t *ct = SP(s, S_CT, int32_t);
    if (words == 1)
        return syn_one_word_marks(s, m, q0, q1, un);
    if (!(cols = SBUF(s, S_COLS, (n + 1) * words, uint64_t)))
        return A_NOMEM;
    masks = SP(s, S_MASKS, uint64_t);
    for (w = 0; w < words; w++)
        cols[w] = ~UINT64_C(0);
    cols[words - 1] = top;
    for (j = 0; j < n; j++) { /* column j + 1: after candidate word j */
        memcpy(cols + (j + 1) * words, cols + j * words, (size_t)words * sizeof(uint64_t));
        lcs_step(cols + (j + 1) * words, masks + (Py_ssize_t)ct[q0 + j] * words, words, top);
    }
    for (j = n - 1; j >= 0; j--)
        if (!trace_step(masks + (Py_ssize_t)ct[q0 + j] * words, cols + (j + 1) * words, &i, words, top, un))
            break;
    return A_OK;
}

/* The reference words on the related LCS of sentence [r0, r1) against
   every candidate sentence (one each when flat), counted into S_MC. */
static int
syn_marks(SynScratch *s, Py_ssize_t r0, Py_ssize_t r1, int flat)
{
    Py_ssize_t m = r1 - r0, words = (m + 63) / 64, i, q, q0 = 0, nq = flat ? 1 : s->ncs;
    const int32_t *rt = SP(s, S_RT, int32_t), *cc = SP(s, S_CC, int32_t);
    uint64_t *masks, *un;
    int rc = A_OK;
    if (!(masks = SBUF(s, S_MASKS, s->nw * words, uint64_t)) || !(un = SBUF(s, S_UN, words, uint64_t)))
        return A_NOMEM;
    memset(masks, 0, (size_t)(s->nw * words) * sizeof(uint64_t));
    memset(un, 0, (size_t)words * sizeof(uint64_t));
    for (i = 0; i < m; i++) {
        int32_t x = rt[r0 + i];
        SYN_FOR_MATCHES(s, x, y, {
            if (cc[y])
                masks[(Py_ssize_t)y * words + i / 64] |= UINT64_C(1) << (i % 64);
        });
    }
    for (q = 0; q < nq && rc == A_OK; q++) {
        Py_ssize_t q1 = flat ? s->nct : SP(s, S_CSE, Py_ssize_t)[q];
        rc = syn_sentence_marks(s, m, q0, q1, un);
        q0 = q1;
    }
    for (i = 0; i < m; i++)
        if ((un[i / 64] >> (i % 64)) & 1)
            SP(s, S_MC, int32_t)[rt[r0 + i]]++;
    return rc;
}

/* The maximum matching of the candidate's words (S_CC) with the reference
   words counted in ``which`` (S_RC: all of them, ROUGE-1; S_MC: the marked
   ones, ROUGE-L): a quiet class by its smaller count, the words of the
   others through the flow. */
static int
syn_word_matching(SynScratch *s, int which, double *hit)
{
    const int32_t *cc = SP(s, S_CC, int32_t), *mc = SP(s, which, int32_t), *act = SP(s, S_CACT, int32_t);
    const int32_t *coff = SP(s, S_COFF, int32_t), *cmem = SP(s, S_CMEM, int32_t), *wcls = SP(s, S_WCLS, int32_t);
    int32_t *eoff, *eto, *idx, *words, *capc, *capr;
    Py_ssize_t c, k, x, i, na = 0, ne = 0;
    double quiet = 0.0, flow = 0.0;
    for (c = 0; c < s->nclass; c++) {
        int32_t a = 0, b = 0;
        if (act[c])
            continue;
        for (k = coff[c]; k < coff[c + 1]; k++)
            a += cc[cmem[k]], b += mc[cmem[k]];
        quiet += a < b ? a : b;
    }
    if (!(idx = SBUF(s, S_IDX, s->nw, int32_t)) || !(words = SBUF(s, S_WORDS, s->nw, int32_t)) ||
        !(capc = SBUF(s, S_CAPC, s->nw, int32_t)) || !(capr = SBUF(s, S_CAPR, s->nw, int32_t)) ||
        !(eoff = SBUF(s, S_EOFF, s->nw + 1, int32_t)))
        return A_NOMEM;
    for (x = 0; x < s->nw; x++) { /* the words of active classes, numbered from 0 */
        idx[x] = act[wcls[x]] ? (int32_t)na : -1;
        if (idx[x] >= 0)
            words[na] = (int32_t)x, capc[na] = cc[x], capr[na++] = mc[x];
    }
    for (i = 0; i < na; i++) {
        x = words[i];
        eoff[i] = (int32_t)ne;
        if (!capc[i])
            continue;
        SYN_FOR_MATCHES(s, x, y, { /* a word matching an active word is active */
            if (mc[y]) {
                if (!(eto = SBUF(s, S_ETO, ne + 1, int32_t)))
                    return A_NOMEM;
                eto[ne++] = idx[y];
            }
        });
    }
    eoff[na] = (int32_t)ne;
    if (!SBUF(s, S_ETO, ne + 1, int32_t))
        return A_NOMEM;
    k = syn_flow(s, na, capc, na, capr, eoff, SP(s, S_ETO, int32_t), &flow);
    *hit = quiet + flow;
    return (int)k;
}

/* ROUGE-L's synonym-aware hit (both texts non-empty): the marks, then the
   maximum matching of the candidate's words with the marked words. */
static int
syn_lcs_hit(SynScratch *s, int flat, double *hit)
{
    Py_ssize_t k, r0 = 0, nr = flat ? 1 : s->nrs, x;
    int32_t *mc;
    int rc = A_OK;
    for (k = 0; k < nr && rc == A_OK; k++) {
        Py_ssize_t r1 = flat ? s->nrt : SP(s, S_RSE, Py_ssize_t)[k];
        rc = syn_marks(s, r0, r1, flat);
        r0 = r1;
    }
    if (rc == A_OK)
        rc = syn_word_matching(s, S_MC, hit);
    mc = SP(s, S_MC, int32_t);
    for (x = 0; x < s->nw; x++)
        mc[x] = 0;
    return rc;
}

/* ------------------------------------------------------------------ */
/* The loop over pairs, and the Python entry point.                     */

/* Forgets the pair's local words and classes. */
static void
syn_pair_clear(SynScratch *s, const Packed *pk)
{
    Py_ssize_t x;
    const int32_t *raw = SP(s, S_RAW, int32_t);
    for (x = 0; x < s->nw; x++)
        s->loc[raw[x]] = 0;
    for (x = 0; pk->remap != NULL && x < s->nw; x++)
        s->cls[pk->remap[raw[x]]] = 0;
    s->nw = 0;
}

/* One reference entry: candidate text c, reference text r, its statistics d. */
static int
syn_entry(SynScratch *s, const Packed *pk, const SynRel *rel, Py_ssize_t c, Py_ssize_t r,
          const SynSpec *specs, Py_ssize_t nspecs, double *d)
{
    Py_ssize_t nc = syn_text_size(pk, c), nr = syn_text_size(pk, r), k, room;
    int rc, cross = 0;
    if (nc < 0 || nr < 0)
        return A_INDEX;
    room = nc + nr;
    if (!SBUF(s, S_RAW, room, int32_t) || !SBUF(s, S_WCLS, room, int32_t) || !SBUF(s, S_CC, room, int32_t) ||
        !SBUF(s, S_RC, room, int32_t) || !SBUF(s, S_MC, room, int32_t) || !SBUF(s, S_CT, nc, int32_t) ||
        !SBUF(s, S_RT, nr, int32_t) || !SBUF(s, S_CSE, nc, Py_ssize_t) || !SBUF(s, S_RSE, nr, Py_ssize_t))
        return A_NOMEM;
    rc = syn_text(s, pk, c, 0);
    if (rc == A_OK)
        rc = syn_text(s, pk, r, 1);
    if (rc == A_OK) {
        syn_classes(s, pk);
        rc = syn_edges(s, rel, &cross);
    }
    if (rc == A_OK && cross && (rc = syn_members(s)) == A_OK)
        rc = syn_active(s);
    for (k = 0; k < nspecs && rc == A_OK && cross; k++) {
        const SynSpec *sp = &specs[k];
        double hit = 0.0, *o = d + sp->k * 4;
        if (sp->kind == M_NGRAM && sp->n == 1) {
            if ((rc = syn_word_matching(s, S_RC, &hit)) == A_OK)
                o[0] = hit;
        }
        else if (sp->kind == M_NGRAM) {
            if (s->nct >= sp->n && s->nrt >= sp->n && (rc = syn_ngram_hit(s, sp->n, o[0], &hit)) == A_OK)
                o[0] = hit;
        }
        else if (s->nct && s->nrt && (rc = syn_lcs_hit(s, sp->kind == M_LCS_FLAT, &hit)) == A_OK && hit > o[0]) {
            o[0] = hit;
        }
    }
    syn_pair_clear(s, pk);
    return rc;
}

/* The relation's lists must stay inside their arrays, and the texts' raw
   ids inside the relation and the remap (checked once, not per pair). */
static int
syn_check(const SynRel *rel, const Packed *pk)
{
    Py_ssize_t a, limit = rel->nrel;
    if (rel->off[0] < 0 || rel->off[rel->nrel] > rel->ntgt)
        return A_INDEX;
    for (a = 0; a < rel->nrel; a++)
        if (rel->off[a + 1] < rel->off[a])
            return A_INDEX;
    for (a = 0; a < rel->ntgt; a++)
        if (rel->tgt[a] < 0 || rel->tgt[a] >= rel->nrel)
            return A_INDEX;
    if (pk->remap != NULL && pk->nremap < limit)
        limit = pk->nremap;
    for (a = 0; a < pk->nids; a++)
        if ((uint32_t)pk->ids[a] >= (uint32_t)limit) /* a negative id too */
            return A_INDEX;
    return A_OK;
}

/* The loop, without the GIL: o holds the plain statistics (width measures per entry). */
static int
syn_loop(const Packed *pk, const SynRel *rel, const SynSpec *specs, Py_ssize_t nspecs, Py_ssize_t width,
         const int32_t *cands, Py_ssize_t npairs, const int64_t *rstarts, const int32_t *refs,
         Py_ssize_t nrefs, double *o)
{
    SynScratch s;
    Py_ssize_t p, e, k, nfin = rel->nrel;
    int rc = syn_check(rel, pk);
    memset(&s, 0, sizeof(s));
    for (k = 0; pk->remap != NULL && k < pk->nremap; k++)
        if (pk->remap[k] >= nfin)
            nfin = pk->remap[k] + 1;
    s.loc = (int32_t *)PyMem_RawCalloc((size_t)rel->nrel + 1, sizeof(int32_t));
    s.cls = (int32_t *)PyMem_RawCalloc((size_t)nfin + 1, sizeof(int32_t));
    if (s.loc == NULL || s.cls == NULL)
        rc = A_NOMEM;
    for (p = 0; p < npairs && rc == A_OK; p++)
        for (e = (Py_ssize_t)rstarts[p]; e < (Py_ssize_t)rstarts[p + 1] && rc == A_OK; e++)
            rc = e < 0 || e >= nrefs ? A_INDEX
                                     : syn_entry(&s, pk, rel, cands[p], refs[e], specs, nspecs, o + e * width * 4);
    syn_scratch_free(&s);
    return rc;
}

static int
syn_specs_load(PyObject *measures, Py_ssize_t width, SynSpec **out, Py_ssize_t *count)
{
    PyObject *seq = PySequence_Fast(measures, "measures must be a sequence");
    Py_ssize_t i, n;
    if (seq == NULL)
        return -1;
    n = PySequence_Fast_GET_SIZE(seq);
    *out = (SynSpec *)PyMem_RawCalloc((size_t)(n ? n : 1), sizeof(SynSpec));
    if (*out == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (i = 0; i < n; i++) {
        SynSpec *sp = &(*out)[i];
        if (!PyArg_ParseTuple(PySequence_Fast_ITEMS(seq)[i], "nin", &sp->k, &sp->kind, &sp->n))
            break;
        if (sp->k < 0 || sp->k >= width || sp->n < 0 ||
            (sp->kind != M_NGRAM && sp->kind != M_LCS && sp->kind != M_LCS_FLAT) || (sp->kind == M_NGRAM && sp->n < 1)) {
            PyErr_SetString(PyExc_ValueError, "bad synonym measure spec");
            break;
        }
    }
    Py_DECREF(seq);
    *count = n;
    if (i < n) {
        PyMem_RawFree(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

/* The ten buffers of synonym_stats' arguments: score_pairs' seven
   (pairs_buffers), then stats, offsets and targets (have[i]: bufs[i] is
   held); -1 with an exception set. */
static int
syn_buffers(PyObject *const *args, Py_buffer *bufs, int *have)
{
    PyObject *srcs[3];
    Py_ssize_t i;
    if (pairs_buffers(args, bufs, have) < 0)
        return -1;
    srcs[0] = args[5];
    srcs[1] = PyTuple_GET_ITEM(args[8], 0);
    srcs[2] = PyTuple_GET_ITEM(args[8], 1);
    for (i = 0; i < 3; i++) {
        if (PyObject_GetBuffer(srcs[i], &bufs[7 + i], PyBUF_SIMPLE) < 0)
            return -1;
        have[7 + i] = 1;
    }
    return 0;
}

PyDoc_STRVAR(synonym_stats_doc,
"synonym_stats(packed, remap, cands, ref_starts, refs, stats, width, measures, relation, /) -> bytes\n\n"
"score_pairs' float64 statistics with the hits of the measures (k, kind, n)\n"
"counted with the synonym relation (offsets, targets) (see synonyms.h).");

static PyObject *
synonym_stats(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer bufs[10]; /* ids, bounds, spans, remap, cands, ref_starts, refs, stats, offsets, targets */
    int have[10] = {0};
    PyObject *out = NULL;
    Packed pk;
    SynRel rel;
    SynSpec *specs = NULL;
    Py_ssize_t nspecs = 0, width, npairs, nentries, i;
    int rc;
    if (nargs != 9) {
        PyErr_Format(PyExc_TypeError, "synonym_stats expected 9 arguments, got %zd", nargs);
        return NULL;
    }
    if (!PyTuple_Check(args[0]) || PyTuple_GET_SIZE(args[0]) != 3 || !PyTuple_Check(args[8]) ||
        PyTuple_GET_SIZE(args[8]) != 2) {
        PyErr_SetString(PyExc_TypeError, "packed must be (ids, bounds, spans) and relation (offsets, targets)");
        return NULL;
    }
    width = PyLong_AsSsize_t(args[6]);
    if (width < 0 || PyErr_Occurred()) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "width must be >= 0");
        return NULL;
    }
    if (syn_buffers(args, bufs, have) < 0 || syn_specs_load(args[7], width, &specs, &nspecs) < 0)
        goto done;
    rel.off = (const int64_t *)bufs[8].buf, rel.nrel = bufs[8].len / 8 - 1;
    rel.tgt = (const int32_t *)bufs[9].buf, rel.ntgt = bufs[9].len / 4;
    if (pairs_view(bufs, have, &pk, &npairs, &nentries) < 0 || rel.nrel < 0) {
        PyErr_SetString(PyExc_ValueError, "ref_starts does not fit cands and refs, or no relation offsets");
        goto done;
    }
    if (bufs[7].len != nentries * width * 4 * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "stats does not fit the entries and width");
        goto done;
    }
    out = PyBytes_FromStringAndSize((const char *)bufs[7].buf, bufs[7].len);
    if (out == NULL)
        goto done;
    {
        double *o = (double *)PyBytes_AS_STRING(out);
        Py_BEGIN_ALLOW_THREADS
        rc = syn_loop(&pk, &rel, specs, nspecs, width, (const int32_t *)bufs[4].buf, npairs,
                      (const int64_t *)bufs[5].buf, (const int32_t *)bufs[6].buf, nentries, o);
        Py_END_ALLOW_THREADS
    }
    if (rc != A_OK) {
        Py_CLEAR(out);
        raise_code(rc);
    }
done:
    for (i = 0; i < 10; i++)
        if (have[i])
            PyBuffer_Release(&bufs[i]);
    PyMem_RawFree(specs);
    return out;
}
