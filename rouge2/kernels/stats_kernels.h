/*
 * stats_kernels.h: meta-evaluation's bootstrap and permutation loops in C.
 *
 * Included by _speedups.c; exports (STATS_KERNEL_METHODS):
 *
 *   corr_resample(level, mask, tables, layout, rows, cols, resamples)
 *   corr_permute(level, mask, a, b, z, layout, scheme, flags, resamples)
 *   accuracy_resample(level, tie, x, z, layout, rows, cols, resamples)
 *   spa_resample(ns, nt, x, h, ok, rows, cols, resamples, flags, permutations)
 *   stats_fsum(values)                      (math.fsum, for the tests)
 *
 * The definition is the pure-Python code of rouge2.stats.correlation
 * (coefficients.py, levels.py, resampling.py, accuracy.py, soft.py); every
 * number here is the same double: each sum is either exactly rounded (the
 * fsum below: Shewchuk's partials, rounded half-even as math.fsum) or a
 * left-to-right double sum from 0.0 in the same order as there, every
 * product and quotient the same IEEE operation, and counts are integers.
 * Contraction of a*b+c into one fused operation would change roundings, so
 * it is switched off for this file.
 *
 * A layout is (ns, nt, cell_row, cell_col): the aligned table's cells,
 * row-major, as int32 buffers.  rows / cols: None or int32 buffers of
 * resamples x ns (x nt) drawn indices.  level: 0 system, 1 summary,
 * 2 global; mask: 1 pearson, 2 spearman, 4 kendall.
 */

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif

#define SK_NAN (Py_NAN)

/* ------------------------------------------------------------------ */
/* Memory: every buffer of a call in one arena, freed at once.          */

typedef struct {
    void **ptrs;
    Py_ssize_t n, cap;
} SkArena;

static void *
sk_alloc(SkArena *a, Py_ssize_t count, size_t size)
{
    void *p;
    if (a->n == a->cap) {
        Py_ssize_t cap = a->cap ? 2 * a->cap : 64;
        void **q = PyMem_Realloc(a->ptrs, (size_t)cap * sizeof(void *));
        if (q == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        a->ptrs = q;
        a->cap = cap;
    }
    p = PyMem_Calloc((size_t)(count > 0 ? count : 1), size);
    if (p == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    a->ptrs[a->n++] = p;
    return p;
}

static void
sk_free(SkArena *a)
{
    Py_ssize_t i;
    for (i = 0; i < a->n; i++)
        PyMem_Free(a->ptrs[i]);
    PyMem_Free(a->ptrs);
    a->ptrs = NULL;
    a->n = a->cap = 0;
}

/* ------------------------------------------------------------------ */
/* Sums.                                                                */

/* math.fsum: the exactly rounded sum (Shewchuk's non-overlapping partials,
   then round half-even across the partials). */
typedef struct {
    double *p;
    Py_ssize_t n, cap;
    double buf[32];
} SkFsum;

static void
sk_fsum_init(SkFsum *s)
{
    s->p = s->buf;
    s->n = 0;
    s->cap = 32;
}

static void
sk_fsum_done(SkFsum *s)
{
    if (s->p != s->buf)
        PyMem_Free(s->p);
    s->p = s->buf;
}

static int
sk_fsum_add(SkFsum *s, double x)
{
    Py_ssize_t i = 0, j;
    for (j = 0; j < s->n; j++) {
        double y = s->p[j], hi, lo;
        if (fabs(x) < fabs(y)) {
            double t = x;
            x = y;
            y = t;
        }
        hi = x + y;
        lo = y - (hi - x);
        if (lo != 0.0)
            s->p[i++] = lo;
        x = hi;
    }
    s->n = i;
    if (x != 0.0) {
        if (s->n == s->cap) {
            Py_ssize_t cap = 2 * s->cap;
            double *q = PyMem_Malloc((size_t)cap * sizeof(double));
            if (q == NULL) {
                PyErr_NoMemory();
                return -1;
            }
            memcpy(q, s->p, (size_t)s->n * sizeof(double));
            if (s->p != s->buf)
                PyMem_Free(s->p);
            s->p = q;
            s->cap = cap;
        }
        s->p[s->n++] = x;
    }
    return 0;
}

static double
sk_fsum_value(const SkFsum *s)
{
    Py_ssize_t n = s->n;
    double hi = 0.0, lo = 0.0, x, y, yr;
    if (n == 0)
        return 0.0;
    hi = s->p[--n];
    while (n > 0) {
        x = hi;
        y = s->p[--n];
        hi = x + y;
        yr = hi - x;
        lo = y - yr;
        if (lo != 0.0)
            break;
    }
    if (n > 0 && ((lo < 0.0 && s->p[n - 1] < 0.0) || (lo > 0.0 && s->p[n - 1] > 0.0))) {
        y = lo * 2.0;
        x = hi + y;
        yr = x - hi;
        if (y == yr)
            hi = x;
    }
    return hi;
}

/* ------------------------------------------------------------------ */
/* One side of a correlation (coefficients.py: vec).                    */

typedef struct {
    Py_ssize_t m;        /* units */
    const double *v;     /* values */
    const int64_t *w;    /* multiplicities; NULL: each once */
    int64_t n;           /* total multiplicity */
    int is_const;
    double *c, *wc, cn;  /* Pearson: centred values, weighted, root of the sum of squares */
    double *rc, *wrc, rcn; /* Spearman: centred average ranks */
    int64_t ties;        /* pairs tied */
    Py_ssize_t nlive;
    Py_ssize_t *live;    /* live units in increasing value */
    int32_t *grp;        /* dense rank (group number, from 1) of each live unit */
    Py_ssize_t ngroups;
} SkSide;

static int
sk_side_alloc(SkArena *a, SkSide *s, Py_ssize_t cap)
{
    s->c = sk_alloc(a, cap, sizeof(double));
    s->wc = sk_alloc(a, cap, sizeof(double));
    s->rc = sk_alloc(a, cap, sizeof(double));
    s->wrc = sk_alloc(a, cap, sizeof(double));
    s->live = sk_alloc(a, cap, sizeof(Py_ssize_t));
    s->grp = sk_alloc(a, cap, sizeof(int32_t));
    return (s->c && s->wc && s->rc && s->wrc && s->live && s->grp) ? 0 : -1;
}

static const double *sk_sort_values;

static int
sk_cmp_index(const void *pa, const void *pb)
{
    double x = sk_sort_values[*(const Py_ssize_t *)pa], y = sk_sort_values[*(const Py_ssize_t *)pb];
    if (x < y)
        return -1;
    if (x > y)
        return 1;
    return (*(const Py_ssize_t *)pa > *(const Py_ssize_t *)pb) - (*(const Py_ssize_t *)pa < *(const Py_ssize_t *)pb);
}

/* the indices 0..m-1 sorted by v (ties by index, as Python's stable sort) */
static void
sk_argsort(const double *v, Py_ssize_t m, Py_ssize_t *out)
{
    Py_ssize_t i;
    for (i = 0; i < m; i++)
        out[i] = i;
    if (m < 24) {  /* insertion sort: stable */
        Py_ssize_t j;
        for (i = 1; i < m; i++) {
            Py_ssize_t k = out[i];
            double x = v[k];
            for (j = i; j > 0 && v[out[j - 1]] > x; j--)
                out[j] = out[j - 1];
            out[j] = k;
        }
        return;
    }
    sk_sort_values = v;
    qsort(out, (size_t)m, sizeof(Py_ssize_t), sk_cmp_index);
}

#define SK_W(s, k) ((s)->w ? (s)->w[k] : 1)

static int
sk_pearson_side(SkSide *s)
{
    SkFsum f;
    Py_ssize_t k;
    double mean, ss = 0.0;
    sk_fsum_init(&f);
    for (k = 0; k < s->m; k++)
        if (sk_fsum_add(&f, (double)SK_W(s, k) * s->v[k]) < 0) {
            sk_fsum_done(&f);
            return -1;
        }
    mean = sk_fsum_value(&f) / (double)s->n;
    sk_fsum_done(&f);
    for (k = 0; k < s->m; k++) {
        s->c[k] = s->v[k] - mean;
        s->wc[k] = (double)SK_W(s, k) * s->c[k];
        ss += s->wc[k] * s->c[k];
    }
    if (!(1e-290 < ss && ss < 1e290)) {
        double big = 0.0;
        for (k = 0; k < s->m; k++)
            if (fabs(s->c[k]) > big)
                big = fabs(s->c[k]);
        ss = 0.0;
        for (k = 0; k < s->m; k++) {
            s->c[k] = s->c[k] / big;
            s->wc[k] = (double)SK_W(s, k) * s->c[k];
            ss += s->wc[k] * s->c[k];
        }
    }
    s->cn = sqrt(ss);
    return 0;
}

static void
sk_rank_side(SkSide *s, int need_s)
{
    Py_ssize_t a = 0, b, k;
    int64_t cum = 0;
    s->ties = 0;
    s->ngroups = 0;
    if (need_s)
        for (k = 0; k < s->m; k++)
            s->rc[k] = 0.0;
    while (a < s->nlive) {
        int64_t t = 0;
        double x = s->v[s->live[a]];
        for (b = a; b < s->nlive && s->v[s->live[b]] == x; b++)
            t += SK_W(s, s->live[b]);
        s->ngroups++;
        for (k = a; k < b; k++)
            s->grp[k] = (int32_t)s->ngroups;
        s->ties += t * (t - 1) / 2;
        if (need_s) {
            double r = (double)(2 * cum + t - s->n) * 0.5;
            for (k = a; k < b; k++)
                s->rc[s->live[k]] = r;
        }
        cum += t;
        a = b;
    }
    if (need_s) {
        double q = 0.0;
        for (k = 0; k < s->m; k++) {
            s->wrc[k] = (double)SK_W(s, k) * s->rc[k];
            q += s->wrc[k] * s->rc[k];
        }
        s->rcn = q;
    }
}

/* Prepare the side: order (all units sorted by value) may be NULL (then
   sorted here into scratch, which needs m entries). */
static int
sk_side(SkSide *s, const double *v, const int64_t *w, Py_ssize_t m, const Py_ssize_t *order,
        Py_ssize_t *scratch, int mask)
{
    Py_ssize_t k;
    s->v = v;
    s->w = w;
    s->m = m;
    s->n = 0;
    for (k = 0; k < m; k++)
        s->n += SK_W(s, k);
    if (order == NULL) {
        sk_argsort(v, m, scratch);
        order = scratch;
    }
    s->nlive = 0;
    for (k = 0; k < m; k++)
        if (SK_W(s, order[k]))
            s->live[s->nlive++] = order[k];
    s->is_const = s->n < 2 || v[s->live[0]] == v[s->live[s->nlive - 1]];
    if (s->is_const)
        return 0;
    if ((mask & 1) && sk_pearson_side(s) < 0)
        return -1;
    if (mask & 6)
        sk_rank_side(s, mask & 2);
    return 0;
}

/* Kendall's S = C - D with multiplicities: O(m^2) for few units, else a
   Fenwick tree over the human side's groups. */
static int64_t
sk_kendall_s(const SkSide *x, const SkSide *z, int64_t *tree, int32_t *zg)
{
    int64_t s = 0, total = 0;
    Py_ssize_t a, b, k;
    if (x->nlive <= 48) {
        for (a = 0; a < x->nlive; a++) {
            Py_ssize_t i = x->live[a];
            for (b = a + 1; b < x->nlive; b++) {
                Py_ssize_t j = x->live[b];
                double dx = x->v[i] - x->v[j], dz = z->v[i] - z->v[j];
                int sx = (dx > 0) - (dx < 0), sz = (dz > 0) - (dz < 0);
                s += (int64_t)(sx * sz) * SK_W(x, i) * SK_W(x, j);
            }
        }
        return s;
    }
    for (k = 0; k < z->nlive; k++)
        zg[z->live[k]] = z->grp[k];
    for (k = 0; k <= z->ngroups; k++)
        tree[k] = 0;
    a = 0;
    while (a < x->nlive) {
        double xv = x->v[x->live[a]];
        for (b = a; b < x->nlive && x->v[x->live[b]] == xv; b++) {
            Py_ssize_t u = x->live[b];
            int64_t below = 0, upto = 0;
            int32_t g;
            for (g = zg[u] - 1; g > 0; g -= g & -g)
                below += tree[g];
            for (g = zg[u]; g > 0; g -= g & -g)
                upto += tree[g];
            s += SK_W(x, u) * (below - (total - upto));
        }
        for (k = a; k < b; k++) {
            Py_ssize_t u = x->live[k];
            int32_t g;
            for (g = zg[u]; g <= z->ngroups; g += g & -g)
                tree[g] += SK_W(x, u);
            total += SK_W(x, u);
        }
        a = b;
    }
    return s;
}

static double
sk_clip(double r)
{
    return r > 1.0 ? 1.0 : (r < -1.0 ? -1.0 : r);
}

typedef struct {
    int64_t *tree;
    int32_t *zg;
} SkKWork;

/* The coefficients of mask (in pearson, spearman, kendall order) into out. */
static int
sk_corr(const SkSide *x, const SkSide *z, int mask, double *out, SkKWork *kw)
{
    int i = 0;
    Py_ssize_t k;
    if (x->is_const || z->is_const) {
        for (k = 0; k < 3; k++)
            if (mask & (1 << k))
                out[i++] = SK_NAN;
        return i;
    }
    if (mask & 1) {
        double acc = 0.0, r;
        for (k = 0; k < x->m; k++)
            acc += x->wc[k] * z->c[k];
        r = acc / x->cn / z->cn;
        if (x->n == 2)
            r = (double)(long long)nearbyint(r);
        out[i++] = sk_clip(r);
    }
    if (mask & 2) {
        double acc = 0.0;
        for (k = 0; k < x->m; k++)
            acc += x->wrc[k] * z->rc[k];
        out[i++] = sk_clip(acc / sqrt(x->rcn * z->rcn));
    }
    if (mask & 4) {
        int64_t n0 = x->n * (x->n - 1) / 2;
        double s = (double)sk_kendall_s(x, z, kw->tree, kw->zg);
        out[i++] = sk_clip(s / sqrt((double)(n0 - x->ties)) / sqrt((double)(n0 - z->ties)));
    }
    return i;
}

/* ------------------------------------------------------------------ */
/* Arguments.                                                           */

typedef struct {
    Py_ssize_t ns, nt, nc;
    const int32_t *row, *col;
    Py_ssize_t *rstart;   /* ns + 1 */
    Py_ssize_t *cstart;   /* nt + 1 */
    Py_ssize_t *ccell;    /* the cells of each column, in system order */
    Py_ssize_t *cpos;     /* each cell's position in its column */
    Py_ssize_t *idx;      /* ns * nt, -1 missing */
    Py_buffer rb, cb;
} SkLayout;

static double *
sk_doubles(SkArena *a, PyObject *seq, Py_ssize_t want)
{
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of numbers");
    Py_ssize_t i;
    double *out;
    if (fast == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != want) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "a table's length differs from the layout's cell count");
        return NULL;
    }
    out = sk_alloc(a, want, sizeof(double));
    for (i = 0; out != NULL && i < want; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1.0 && PyErr_Occurred())
            out = NULL;
    }
    Py_DECREF(fast);
    return out;
}

static int
sk_layout(SkArena *a, PyObject *obj, SkLayout *L)
{
    PyObject *rows, *cols;
    Py_ssize_t k, i, j;
    Py_ssize_t *fill;
    L->rb.obj = L->cb.obj = NULL;
    if (!PyArg_ParseTuple(obj, "nnOO:layout", &L->ns, &L->nt, &rows, &cols))
        return -1;
    if (PyObject_GetBuffer(rows, &L->rb, PyBUF_SIMPLE) < 0)
        return -1;
    if (PyObject_GetBuffer(cols, &L->cb, PyBUF_SIMPLE) < 0)
        return -1;
    L->nc = L->rb.len / 4;
    if (L->cb.len != L->rb.len || L->ns < 1 || L->nt < 1 || L->ns > INT32_MAX / L->nt) {
        PyErr_SetString(PyExc_ValueError, "bad layout");
        return -1;
    }
    L->row = L->rb.buf;
    L->col = L->cb.buf;
    L->rstart = sk_alloc(a, L->ns + 1, sizeof(Py_ssize_t));
    L->cstart = sk_alloc(a, L->nt + 1, sizeof(Py_ssize_t));
    L->ccell = sk_alloc(a, L->nc, sizeof(Py_ssize_t));
    L->cpos = sk_alloc(a, L->nc, sizeof(Py_ssize_t));
    L->idx = sk_alloc(a, L->ns * L->nt, sizeof(Py_ssize_t));
    fill = sk_alloc(a, L->nt, sizeof(Py_ssize_t));
    if (!L->rstart || !L->cstart || !L->ccell || !L->cpos || !L->idx || !fill)
        return -1;
    for (k = 0; k < L->ns * L->nt; k++)
        L->idx[k] = -1;
    for (k = 0; k < L->nc; k++) {
        i = L->row[k];
        j = L->col[k];
        if (i < 0 || i >= L->ns || j < 0 || j >= L->nt || (k > 0 && L->row[k - 1] > i)) {
            PyErr_SetString(PyExc_ValueError, "bad layout cell");
            return -1;
        }
        L->idx[i * L->nt + j] = k;
        L->rstart[i + 1] = k + 1;
        L->cstart[j + 1]++;
    }
    for (i = 1; i <= L->ns; i++)
        if (L->rstart[i] < L->rstart[i - 1])
            L->rstart[i] = L->rstart[i - 1];
    for (j = 0; j < L->nt; j++)
        L->cstart[j + 1] += L->cstart[j];
    for (k = 0; k < L->nc; k++) {   /* row-major cells: each column filled in system order */
        j = L->col[k];
        L->cpos[k] = fill[j];
        L->ccell[L->cstart[j] + fill[j]++] = k;
    }
    return 0;
}

static void
sk_layout_release(SkLayout *L)
{
    if (L->rb.obj)
        PyBuffer_Release(&L->rb);
    if (L->cb.obj)
        PyBuffer_Release(&L->cb);
}

/* rows / cols: None or an int32 buffer of resamples x n indices below n. */
static int
sk_draws(PyObject *obj, Py_buffer *buf, Py_ssize_t n, Py_ssize_t resamples, const int32_t **out)
{
    Py_ssize_t k;
    *out = NULL;
    buf->obj = NULL;
    if (obj == Py_None)
        return 0;
    if (PyObject_GetBuffer(obj, buf, PyBUF_SIMPLE) < 0)
        return -1;
    if (buf->len != resamples * n * 4) {
        PyErr_SetString(PyExc_ValueError, "draws: wrong size");
        return -1;
    }
    *out = buf->buf;
    for (k = 0; k < resamples * n; k++)
        if ((*out)[k] < 0 || (*out)[k] >= n) {
            PyErr_SetString(PyExc_ValueError, "draws: index out of range");
            return -1;
        }
    return 0;
}

static void
sk_release(Py_buffer *b)
{
    if (b->obj)
        PyBuffer_Release(b);
}

static int
sk_popcount(int mask)
{
    return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1);
}

static void
sk_counts(const int32_t *draw, Py_ssize_t n, int64_t *out)
{
    Py_ssize_t k;
    for (k = 0; k < n; k++)
        out[k] = 0;
    for (k = 0; k < n; k++)
        out[draw[k]]++;
}

/* ------------------------------------------------------------------ */
/* The levels on one resample (levels.py).                              */

typedef struct {
    SkArena *a;
    SkLayout *L;
    int level, mask, k;        /* k: coefficients per value */
    Py_ssize_t q;              /* tables, the human one last */
    double **t;                /* the tables */
    double **means;            /* system level: per table, ns means */
    Py_ssize_t **corder;       /* summary level: per table, column orders (positions), nc in column layout */
    Py_ssize_t **gorder;       /* global level: per table, argsort of the cells */
    double *colv, *colz;       /* summary scratch: one column's values */
    int64_t *wbuf, *wr, *wt;   /* weights */
    double *pervals;           /* summary: nt x k values per table */
    unsigned char *seen;
    Py_ssize_t *scratch;
    SkSide sx, sz;
    SkKWork kw;
} SkLevel;

static int
sk_level_init(SkLevel *S, SkArena *a, SkLayout *L, int level, int mask, Py_ssize_t q)
{
    Py_ssize_t cap = L->nc > L->ns ? L->nc : L->ns, i;
    S->a = a;
    S->L = L;
    S->level = level;
    S->mask = mask;
    S->k = sk_popcount(mask);
    S->q = q;
    S->t = sk_alloc(a, q, sizeof(double *));
    S->means = sk_alloc(a, q, sizeof(double *));
    S->corder = sk_alloc(a, q, sizeof(Py_ssize_t *));
    S->gorder = sk_alloc(a, q, sizeof(Py_ssize_t *));
    S->colv = sk_alloc(a, L->ns, sizeof(double));
    S->colz = sk_alloc(a, L->ns, sizeof(double));
    S->wbuf = sk_alloc(a, cap, sizeof(int64_t));
    S->wr = sk_alloc(a, L->ns, sizeof(int64_t));
    S->wt = sk_alloc(a, L->nt, sizeof(int64_t));
    S->pervals = sk_alloc(a, L->nt * 3 * q, sizeof(double));
    S->seen = sk_alloc(a, L->nt, 1);
    S->scratch = sk_alloc(a, cap, sizeof(Py_ssize_t));
    S->kw.tree = sk_alloc(a, cap + 1, sizeof(int64_t));
    S->kw.zg = sk_alloc(a, cap, sizeof(int32_t));
    if (!S->t || !S->means || !S->corder || !S->gorder || !S->colv || !S->colz || !S->wbuf || !S->wr
        || !S->wt || !S->pervals || !S->seen || !S->scratch || !S->kw.tree || !S->kw.zg)
        return -1;
    for (i = 0; i < q; i++)
        S->means[i] = sk_alloc(a, L->ns, sizeof(double));
    if (sk_side_alloc(a, &S->sx, cap) < 0 || sk_side_alloc(a, &S->sz, cap) < 0)
        return -1;
    return 0;
}

/* fixed per-table data: sorted orders (values that do not change between resamples) */
static int
sk_level_orders(SkLevel *S, Py_ssize_t i)
{
    SkLayout *L = S->L;
    Py_ssize_t j, p;
    if (S->level == 1) {
        Py_ssize_t *o = S->corder[i];
        if (o == NULL && (o = S->corder[i] = sk_alloc(S->a, L->nc, sizeof(Py_ssize_t))) == NULL)
            return -1;
        for (j = 0; j < L->nt; j++) {
            Py_ssize_t s0 = L->cstart[j], m = L->cstart[j + 1] - s0;
            for (p = 0; p < m; p++)
                S->colv[p] = S->t[i][L->ccell[s0 + p]];
            sk_argsort(S->colv, m, o + s0);
        }
    }
    else if (S->level == 2) {
        if (S->gorder[i] == NULL && (S->gorder[i] = sk_alloc(S->a, L->nc, sizeof(Py_ssize_t))) == NULL)
            return -1;
        sk_argsort(S->t[i], L->nc, S->gorder[i]);
    }
    return 0;
}

/* the mean of row i of table t over the drawn columns (fsum / count); count 0: returns 0 */
static int
sk_row_mean(SkLevel *S, const double *t, Py_ssize_t i, const int32_t *cols, double *out, int64_t *got)
{
    SkLayout *L = S->L;
    SkFsum f;
    Py_ssize_t p;
    int64_t cnt = 0;
    sk_fsum_init(&f);
    if (cols == NULL) {
        for (p = L->rstart[i]; p < L->rstart[i + 1]; p++, cnt++)
            if (sk_fsum_add(&f, t[p]) < 0)
                goto fail;
    }
    else {
        for (p = 0; p < L->nt; p++) {
            Py_ssize_t k = L->idx[i * L->nt + cols[p]];
            if (k < 0)
                continue;
            cnt++;
            if (sk_fsum_add(&f, t[k]) < 0)
                goto fail;
        }
    }
    *out = cnt ? sk_fsum_value(&f) / (double)cnt : 0.0;
    *got = cnt;
    sk_fsum_done(&f);
    return 0;
fail:
    sk_fsum_done(&f);
    return -1;
}

/* system level: out receives q-1 blocks of k values */
static int
sk_system(SkLevel *S, const int64_t *wr, const int32_t *cols, double *out)
{
    SkLayout *L = S->L;
    Py_ssize_t i, t;
    int64_t *w = S->wbuf;
    for (i = 0; i < L->ns; i++) {
        /* a system not drawn keeps its mean over all tasks (weight 0), or
           0.0 when tasks are drawn too, as levels.py has them */
        int64_t k = wr ? wr[i] : 1, got = 0;
        w[i] = 0;
        for (t = 0; t < S->q; t++) {
            S->means[t][i] = 0.0;
            if ((k || cols == NULL) && sk_row_mean(S, S->t[t], i, cols, &S->means[t][i], &got) < 0)
                return -1;
        }
        if (k && got)
            w[i] = k;
    }
    if (sk_side(&S->sz, S->means[S->q - 1], w, L->ns, NULL, S->scratch, S->mask) < 0)
        return -1;
    for (t = 0; t + 1 < S->q; t++) {
        if (sk_side(&S->sx, S->means[t], w, L->ns, NULL, S->scratch, S->mask) < 0)
            return -1;
        sk_corr(&S->sx, &S->sz, S->mask, out + t * S->k, &S->kw);
    }
    return 0;
}

/* summary level: per drawn column the correlations, then their mean over the draw */
static int
sk_summary(SkLevel *S, const int64_t *wr, const int32_t *cols, double *out)
{
    SkLayout *L = S->L;
    Py_ssize_t j, p, t, r;
    int k = S->k, i;
    Py_ssize_t nseq = L->nt;
    memset(S->seen, 0, (size_t)L->nt);
    for (r = 0; r < nseq; r++) {
        Py_ssize_t s0, m;
        j = cols ? cols[r] : r;
        if (S->seen[j])
            continue;
        S->seen[j] = 1;
        s0 = L->cstart[j];
        m = L->cstart[j + 1] - s0;
        for (p = 0; p < m; p++) {
            S->wbuf[p] = wr ? wr[L->row[L->ccell[s0 + p]]] : 1;
            S->colz[p] = S->t[S->q - 1][L->ccell[s0 + p]];
        }
        if (sk_side(&S->sz, S->colz, wr ? S->wbuf : NULL, m, S->corder[S->q - 1] + s0, S->scratch, S->mask) < 0)
            return -1;
        for (t = 0; t + 1 < S->q; t++) {
            for (p = 0; p < m; p++)
                S->colv[p] = S->t[t][L->ccell[s0 + p]];
            if (sk_side(&S->sx, S->colv, wr ? S->wbuf : NULL, m, S->corder[t] + s0, S->scratch, S->mask) < 0)
                return -1;
            sk_corr(&S->sx, &S->sz, S->mask, S->pervals + (t * L->nt + j) * 3, &S->kw);
        }
    }
    for (t = 0; t + 1 < S->q; t++) {
        double tot[3] = {0.0, 0.0, 0.0};
        int64_t cnt[3] = {0, 0, 0};
        for (r = 0; r < nseq; r++) {
            const double *v = S->pervals + (t * L->nt + (cols ? cols[r] : r)) * 3;
            for (i = 0; i < k; i++)
                if (v[i] == v[i]) {
                    tot[i] += v[i];
                    cnt[i]++;
                }
        }
        for (i = 0; i < k; i++)
            out[t * k + i] = cnt[i] ? tot[i] / (double)cnt[i] : SK_NAN;
    }
    return 0;
}

/* global level: all cells, weights wr[row] * wt[col] */
static int
sk_global(SkLevel *S, const int64_t *wr, const int64_t *wt, double *out)
{
    SkLayout *L = S->L;
    Py_ssize_t c, t;
    int64_t *w = NULL;
    if (wr || wt) {
        w = S->wbuf;
        for (c = 0; c < L->nc; c++)
            w[c] = (wr ? wr[L->row[c]] : 1) * (wt ? wt[L->col[c]] : 1);
    }
    if (sk_side(&S->sz, S->t[S->q - 1], w, L->nc, S->gorder[S->q - 1], S->scratch, S->mask) < 0)
        return -1;
    for (t = 0; t + 1 < S->q; t++) {
        if (sk_side(&S->sx, S->t[t], w, L->nc, S->gorder[t], S->scratch, S->mask) < 0)
            return -1;
        sk_corr(&S->sx, &S->sz, S->mask, out + t * S->k, &S->kw);
    }
    return 0;
}

static int
sk_level_values(SkLevel *S, const int32_t *rows, const int32_t *cols, double *out)
{
    SkLayout *L = S->L;
    const int64_t *wr = NULL;
    if (rows) {
        sk_counts(rows, L->ns, S->wr);
        wr = S->wr;
    }
    if (S->level == 0)
        return sk_system(S, wr, cols, out);
    if (S->level == 1)
        return sk_summary(S, wr, cols, out);
    if (cols)
        sk_counts(cols, L->nt, S->wt);
    return sk_global(S, wr, cols ? S->wt : NULL, out);
}

static PyObject *
sk_blob(const double *v, Py_ssize_t n)
{
    return PyBytes_FromStringAndSize((const char *)v, n * (Py_ssize_t)sizeof(double));
}

/* every resample's values, table by table into res */
static int
sk_resample_all(SkLevel *S, const int32_t *rows, const int32_t *cols, Py_ssize_t resamples, double **res)
{
    Py_ssize_t r, i;
    double *vals = sk_alloc(S->a, S->q * S->k, sizeof(double));
    if (vals == NULL)
        return -1;
    for (r = 0; r < resamples; r++) {
        if (sk_level_values(S, rows ? rows + r * S->L->ns : NULL, cols ? cols + r * S->L->nt : NULL, vals) < 0)
            return -1;
        for (i = 0; i + 1 < S->q; i++)
            memcpy(res[i] + r * S->k, vals + i * S->k, (size_t)S->k * sizeof(double));
    }
    return 0;
}

static PyObject *
sk_blob_list(double **res, Py_ssize_t count, Py_ssize_t n)
{
    Py_ssize_t i;
    PyObject *out = PyList_New(count);
    for (i = 0; out != NULL && i < count; i++) {
        PyObject *b = sk_blob(res[i], n);
        if (b == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, b);
    }
    return out;
}

PyDoc_STRVAR(corr_resample_doc,
"corr_resample(level, mask, tables, layout, rows, cols, resamples) -> list[bytes]\n\n"
"For each table but the last (the human scores), the coefficients of mask at\n"
"level on each bootstrap resample, as native doubles (resample-major).");

static PyObject *
corr_resample(PyObject *self, PyObject *args)
{
    int level, mask;
    PyObject *tables, *layout, *rows_o, *cols_o, *out = NULL, *fast = NULL;
    Py_ssize_t resamples, i;
    SkArena a = {NULL, 0, 0};
    SkLayout L;
    SkLevel S;
    Py_buffer rb = {0}, cb = {0};
    const int32_t *rows, *cols;
    double **res;
    L.rb.obj = L.cb.obj = NULL;
    if (!PyArg_ParseTuple(args, "iiOOOOn:corr_resample", &level, &mask, &tables, &layout, &rows_o, &cols_o,
                          &resamples))
        return NULL;
    if (level < 0 || level > 2 || mask < 1 || mask > 7 || resamples < 1) {
        PyErr_SetString(PyExc_ValueError, "corr_resample: bad level, mask or resamples");
        return NULL;
    }
    fast = PySequence_Fast(tables, "tables must be a sequence");
    if (fast == NULL || sk_layout(&a, layout, &L) < 0
        || sk_draws(rows_o, &rb, L.ns, resamples, &rows) < 0 || sk_draws(cols_o, &cb, L.nt, resamples, &cols) < 0)
        goto done;
    if (PySequence_Fast_GET_SIZE(fast) < 2) {
        PyErr_SetString(PyExc_ValueError, "corr_resample: give a metric table and the human table");
        goto done;
    }
    if (sk_level_init(&S, &a, &L, level, mask, PySequence_Fast_GET_SIZE(fast)) < 0)
        goto done;
    res = sk_alloc(&a, S.q, sizeof(double *));
    if (res == NULL)
        goto done;
    for (i = 0; i < S.q; i++) {
        S.t[i] = sk_doubles(&a, PySequence_Fast_GET_ITEM(fast, i), L.nc);
        res[i] = sk_alloc(&a, resamples * S.k, sizeof(double));
        if (S.t[i] == NULL || res[i] == NULL || sk_level_orders(&S, i) < 0)
            goto done;
    }
    if (sk_resample_all(&S, rows, cols, resamples, res) == 0)
        out = sk_blob_list(res, S.q - 1, resamples * S.k);
done:
    Py_XDECREF(fast);
    sk_release(&rb);
    sk_release(&cb);
    sk_layout_release(&L);
    sk_free(&a);
    return out;
}

/* A* and B* (tables 0 and 1) from A and B and one permutation's flags m, then their values */
static int
sk_permuted_values(SkLevel *S, const double *A, const double *B, const unsigned char *m, int scheme, double *vals)
{
    const SkLayout *L = S->L;
    Py_ssize_t c;
    for (c = 0; c < L->nc; c++) {
        Py_ssize_t at = scheme == 0 ? L->row[c] : (scheme == 1 ? L->col[c] : L->row[c] * L->nt + L->col[c]);
        S->t[0][c] = m[at] ? B[c] : A[c];
        S->t[1][c] = m[at] ? A[c] : B[c];
    }
    if (S->level != 0 && (sk_level_orders(S, 0) < 0 || sk_level_orders(S, 1) < 0))
        return -1;
    return sk_level_values(S, NULL, NULL, vals);
}

PyDoc_STRVAR(corr_permute_doc,
"corr_permute(level, mask, a, b, z, layout, scheme, flags, resamples) -> (bytes, bytes)\n\n"
"The coefficients of A* and B* against z for each permutation: flags holds\n"
"resamples x size swap flags (scheme 0: one per system, 1: per task,\n"
"2: per cell of the full grid, row-major); A* takes B's score where set.");

static PyObject *
corr_permute(PyObject *self, PyObject *args)
{
    int level, mask, scheme;
    PyObject *ao, *bo, *zo, *layout, *out = NULL;
    Py_ssize_t resamples, size, r;
    Py_buffer fb = {0};
    SkArena a = {NULL, 0, 0};
    SkLayout L;
    SkLevel S;
    double *A, *B, *ra, *rb, vals[6];
    const unsigned char *flags;
    L.rb.obj = L.cb.obj = NULL;
    if (!PyArg_ParseTuple(args, "iiOOOOiy*n:corr_permute", &level, &mask, &ao, &bo, &zo, &layout, &scheme, &fb,
                          &resamples))
        return NULL;
    if (level < 0 || level > 2 || mask < 1 || mask > 7 || scheme < 0 || scheme > 2 || resamples < 1) {
        PyErr_SetString(PyExc_ValueError, "corr_permute: bad level, mask, scheme or resamples");
        goto done;
    }
    if (sk_layout(&a, layout, &L) < 0 || sk_level_init(&S, &a, &L, level, mask, 3) < 0)
        goto done;
    size = scheme == 0 ? L.ns : (scheme == 1 ? L.nt : L.ns * L.nt);
    if (fb.len != size * resamples) {
        PyErr_SetString(PyExc_ValueError, "corr_permute: flags of the wrong size");
        goto done;
    }
    flags = fb.buf;
    A = sk_doubles(&a, ao, L.nc);
    B = sk_doubles(&a, bo, L.nc);
    S.t[2] = sk_doubles(&a, zo, L.nc);
    S.t[0] = sk_alloc(&a, L.nc, sizeof(double));
    S.t[1] = sk_alloc(&a, L.nc, sizeof(double));
    ra = sk_alloc(&a, resamples * S.k, sizeof(double));
    rb = sk_alloc(&a, resamples * S.k, sizeof(double));
    if (!A || !B || !S.t[2] || !S.t[0] || !S.t[1] || !ra || !rb || sk_level_orders(&S, 2) < 0)
        goto done;
    for (r = 0; r < resamples; r++) {
        if (sk_permuted_values(&S, A, B, flags + r * size, scheme, vals) < 0)
            goto done;
        memcpy(ra + r * S.k, vals, (size_t)S.k * sizeof(double));
        memcpy(rb + r * S.k, vals + S.k, (size_t)S.k * sizeof(double));
    }
    out = Py_BuildValue("(NN)", sk_blob(ra, resamples * S.k), sk_blob(rb, resamples * S.k));
done:
    PyBuffer_Release(&fb);
    sk_layout_release(&L);
    sk_free(&a);
    return out;
}

/* ------------------------------------------------------------------ */
/* Pairwise accuracy and tie calibration (accuracy.py).                 */

#define SK_SMALL_GROUP 64

typedef struct {
    int defined;
    int64_t agree, pairs;
} SkPairs;

static int
sk_sign(double d)
{
    return (d > 0) - (d < 0);
}

/* pairs tied on both sides, given the metric side's live units sorted by
   metric value: within each metric group, the units sorted by human value */
static int64_t
sk_joint_ties(Py_ssize_t *live, Py_ssize_t nlive, const double *mv, const double *hv, const int64_t *w)
{
    Py_ssize_t a = 0, b, g;
    int64_t tmh = 0;
    while (a < nlive) {
        for (b = a; b < nlive && mv[live[b]] == mv[live[a]]; b++)
            ;
        if (b - a > 1) {
            sk_sort_values = hv;
            qsort(live + a, (size_t)(b - a), sizeof(Py_ssize_t), sk_cmp_index);
        }
        for (g = a; g < b;) {
            Py_ssize_t e = g;
            int64_t t = 0;
            while (e < b && hv[live[e]] == hv[live[g]]) {
                t += w ? w[live[e]] : 1;
                e++;
            }
            tmh += t * (t - 1) / 2;
            g = e;
        }
        a = b;
    }
    return tmh;
}

/* agreeing pairs of a few units, pair by pair */
static int64_t
sk_agree_small(const double *mv, const double *hv, const int64_t *w, Py_ssize_t m)
{
    Py_ssize_t a, b;
    int64_t agree = 0;
    for (a = 0; a < m; a++) {
        int64_t wa = w ? w[a] : 1;
        if (!wa)
            continue;
        agree += wa * (wa - 1) / 2;
        for (b = a + 1; b < m; b++) {
            int64_t wb = w ? w[b] : 1;
            if (wb && sk_sign(mv[a] - mv[b]) == sk_sign(hv[a] - hv[b]))
                agree += wa * wb;
        }
    }
    return agree;
}

/* (agree, pairs) of units 0..m-1 with values mv, hv and weights w (NULL: 1);
   morder / horder: the units sorted by mv / hv, or NULL */
static int
sk_pair_counts(const double *mv, const double *hv, const int64_t *w, Py_ssize_t m, const Py_ssize_t *morder,
               const Py_ssize_t *horder, SkLevel *S, SkPairs *out)
{
    Py_ssize_t k, first = -1;
    int64_t n = 0, tm, tmh, s;
    int varies = 0;
    out->defined = 0;
    for (k = 0; k < m; k++) {
        if (w && !w[k])
            continue;
        n += w ? w[k] : 1;
        if (first < 0)
            first = k;
        else if (hv[k] != hv[first])
            varies = 1;
    }
    if (n < 2 || !varies)
        return 0;
    out->defined = 1;
    out->pairs = n * (n - 1) / 2;
    if (m <= SK_SMALL_GROUP) {
        out->agree = sk_agree_small(mv, hv, w, m);
        return 0;
    }
    /* many units: agree = C + T_mh with C - D = S and C + D = P - T_m - T_h + T_mh */
    if (sk_side(&S->sx, mv, w, m, morder, S->scratch, 4) < 0 || sk_side(&S->sz, hv, w, m, horder, S->scratch, 4) < 0)
        return -1;
    if (S->sx.is_const) {
        s = 0;
        tm = out->pairs;
        tmh = S->sz.ties;
    }
    else {
        s = sk_kendall_s(&S->sx, &S->sz, S->kw.tree, S->kw.zg);
        tm = S->sx.ties;
        tmh = sk_joint_ties(S->sx.live, S->sx.nlive, mv, hv, w);
    }
    out->agree = (s + out->pairs - tm - S->sz.ties + tmh) / 2 + tmh;
    return 0;
}

typedef struct {
    double d;
    int32_t g;
    int32_t a, b;
    int32_t s;
} SkEvent;

static int
sk_cmp_event(const void *pa, const void *pb)
{
    double x = ((const SkEvent *)pa)->d, y = ((const SkEvent *)pb)->d;
    return (x > y) - (x < y);
}

/* tie events of one group (positions a < b of values m, h) appended at ev */
static Py_ssize_t
sk_tie_events(const double *mv, const double *hv, Py_ssize_t m, int32_t g, SkEvent *ev)
{
    Py_ssize_t a, b, n = 0;
    for (a = 0; a < m; a++)
        for (b = a + 1; b < m; b++) {
            if (mv[a] == mv[b])
                continue;
            if (hv[a] == hv[b] || (mv[a] < mv[b]) == (hv[a] < hv[b])) {
                ev[n].d = fabs(mv[a] - mv[b]);
                ev[n].g = g;
                ev[n].a = (int32_t)a;
                ev[n].b = (int32_t)b;
                ev[n].s = hv[a] == hv[b] ? 1 : -1;
                n++;
            }
        }
    return n;
}

#define SK_LIMIT ((int64_t)1 << 62)

static int64_t
sk_gcd(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* a * b, or -1 when it would reach SK_LIMIT */
static int64_t
sk_mul(int64_t a, int64_t b)
{
    if (a < 0 || b < 0 || (a != 0 && b >= SK_LIMIT / a))
        return -1;
    return a * b;
}

PyDoc_STRVAR(accuracy_resample_doc,
"accuracy_resample(level, tie, x, z, layout, rows, cols, resamples)\n"
"    -> (pairwise_nums, calibrated_nums or None, dens, epsilons or None) or None\n\n"
"Pairwise accuracy (and, with tie, tie-calibrated accuracy and its threshold)\n"
"as exact fractions num / den per resample (den 0: undefined); None when a\n"
"count would overflow 62 bits (the caller then computes in Python).");

typedef struct {
    SkLevel *S;
    SkLayout *L;
    int level, tie;
    Py_ssize_t ngroups;
    Py_ssize_t *gstart;         /* units of group g: gstart[g] .. gstart[g+1] */
    double *gm, *gh;            /* their values */
    int64_t *gw;                /* their weights (this resample) */
    int64_t *gwt, *coef;
    SkPairs *pc;
    SkEvent *ev;
    Py_ssize_t nev, evcap;
    int events_fixed;
} SkAcc;

/* the groups of a resample (accuracy.py: Units.groups) */
static int
sk_acc_groups(SkAcc *A, const int64_t *wr, const int32_t *cols)
{
    SkLevel *S = A->S;
    SkLayout *L = A->L;
    Py_ssize_t i, j, p, c;
    if (A->level == 0) {
        for (i = 0; i < L->ns; i++) {
            int64_t k = wr ? wr[i] : 1, got = 0;
            A->gw[i] = 0;
            A->gm[i] = A->gh[i] = 0.0;
            if ((k || cols == NULL) && (sk_row_mean(S, S->t[0], i, cols, &A->gm[i], &got) < 0
                                        || sk_row_mean(S, S->t[1], i, cols, &A->gh[i], &got) < 0))
                return -1;
            if (k && got)
                A->gw[i] = k;
        }
        A->gwt[0] = 1;
        return 0;
    }
    if (A->level == 1) {
        for (j = 0; j < L->nt; j++)
            A->gwt[j] = cols ? 0 : 1;
        if (cols)
            for (p = 0; p < L->nt; p++)
                A->gwt[cols[p]]++;
        for (c = 0; c < L->nc; c++)
            A->gw[c] = wr ? wr[L->row[L->ccell[c]]] : 1;
        return 0;
    }
    for (c = 0; c < L->nc; c++)
        A->gw[c] = (wr ? wr[L->row[c]] : 1) * (cols ? S->wt[L->col[c]] : 1);
    A->gwt[0] = 1;
    return 0;
}

/* the mean accuracy over the defined groups as num / den (common
   denominator: the lcm of the pair counts); 1 when a count would overflow,
   den 0 when no group is defined */
static int
sk_acc_mean(SkAcc *A, int64_t *num_out, int64_t *den)
{
    Py_ssize_t g;
    int64_t lcm = 1, wsum = 0, num = 0;
    int any = 0;
    for (g = 0; g < A->ngroups; g++) {
        Py_ssize_t s0 = A->gstart[g], m = A->gstart[g + 1] - s0;
        A->pc[g].defined = 0;
        if (!A->gwt[g])
            continue;
        if (sk_pair_counts(A->gm + s0, A->gh + s0, A->gw + s0, m, A->level == 2 ? A->S->gorder[0] : NULL,
                           A->level == 2 ? A->S->gorder[1] : NULL, A->S, &A->pc[g]) < 0)
            return -1;
        if (!A->pc[g].defined)
            continue;
        any = 1;
        lcm = sk_mul(lcm / sk_gcd(lcm, A->pc[g].pairs), A->pc[g].pairs);
        wsum += A->gwt[g];
        if (lcm < 0)
            return 1;
    }
    if (!any)
        return 0;
    for (g = 0; g < A->ngroups; g++) {
        int64_t t;
        A->coef[g] = A->pc[g].defined ? sk_mul(A->gwt[g], lcm / A->pc[g].pairs) : 0;
        t = sk_mul(A->coef[g], A->pc[g].agree);
        if (A->coef[g] < 0 || t < 0 || num >= SK_LIMIT - t)
            return 1;
        num += t;
    }
    *den = sk_mul(lcm, wsum);
    *num_out = num;
    return *den < 0 ? 1 : 0;
}

/* the tie threshold sweep: the best numerator and the smallest threshold giving it */
static void
sk_acc_sweep(SkAcc *A, int64_t num, int64_t *best, double *eps)
{
    Py_ssize_t g, e = 0;
    if (!A->events_fixed) {
        A->nev = 0;
        for (g = 0; g < A->ngroups; g++)
            A->nev += sk_tie_events(A->gm + A->gstart[g], A->gh + A->gstart[g], A->gstart[g + 1] - A->gstart[g],
                                    (int32_t)g, A->ev + A->nev);
        qsort(A->ev, (size_t)A->nev, sizeof(SkEvent), sk_cmp_event);
        A->events_fixed = A->level == 1;  /* a task's units keep their values across resamples */
    }
    *best = num;
    *eps = 0.0;
    while (e < A->nev) {
        double d = A->ev[e].d;
        while (e < A->nev && A->ev[e].d == d) {
            const SkEvent *x = A->ev + e++;
            const int64_t *w = A->gw + A->gstart[x->g];
            num += A->coef[x->g] * x->s * w[x->a] * w[x->b];
        }
        if (num > *best) {
            *best = num;
            *eps = d;
        }
    }
}

static int
sk_acc_one(SkAcc *A, const int64_t *wr, const int32_t *cols, int64_t *pnum, int64_t *cnum, int64_t *den,
           double *eps)
{
    int rc;
    *pnum = *cnum = *den = 0;
    *eps = SK_NAN;
    if (A->level == 2 && cols)
        sk_counts(cols, A->L->nt, A->S->wt);
    if (sk_acc_groups(A, wr, cols) < 0)
        return -1;
    rc = sk_acc_mean(A, pnum, den);
    if (rc != 0 || *den == 0) {
        if (rc == 0)
            *pnum = 0;
        return rc;
    }
    *cnum = *pnum;
    if (A->tie)
        sk_acc_sweep(A, *pnum, cnum, eps);
    return 0;
}

static PyObject *
sk_int_list(const int64_t *v, Py_ssize_t n)
{
    PyObject *out = PyList_New(n);
    Py_ssize_t i;
    for (i = 0; out != NULL && i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (x == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, x);
    }
    return out;
}

static PyObject *
sk_float_list(const double *v, Py_ssize_t n)
{
    PyObject *out = PyList_New(n);
    Py_ssize_t i;
    for (i = 0; out != NULL && i < n; i++) {
        PyObject *x = PyFloat_FromDouble(v[i]);
        if (x == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, x);
    }
    return out;
}

static int
sk_acc_init(SkAcc *A, SkArena *a, SkLevel *S, SkLayout *L, int level, int tie)
{
    Py_ssize_t g, c, cap = L->nc > L->ns ? L->nc : L->ns;
    A->S = S;
    A->L = L;
    A->level = level;
    A->tie = tie;
    A->ngroups = level == 1 ? L->nt : 1;
    A->gstart = sk_alloc(a, A->ngroups + 1, sizeof(Py_ssize_t));
    A->gm = sk_alloc(a, cap, sizeof(double));
    A->gh = sk_alloc(a, cap, sizeof(double));
    A->gw = sk_alloc(a, cap, sizeof(int64_t));
    A->gwt = sk_alloc(a, A->ngroups, sizeof(int64_t));
    A->coef = sk_alloc(a, A->ngroups, sizeof(int64_t));
    A->pc = sk_alloc(a, A->ngroups, sizeof(SkPairs));
    if (!A->gstart || !A->gm || !A->gh || !A->gw || !A->gwt || !A->coef || !A->pc)
        return -1;
    if (level == 1) {
        Py_ssize_t most = 0;
        for (g = 0; g <= L->nt; g++)
            A->gstart[g] = L->cstart[g];
        for (c = 0; c < L->nc; c++) {
            A->gm[c] = S->t[0][L->ccell[c]];
            A->gh[c] = S->t[1][L->ccell[c]];
        }
        for (g = 0; g < L->nt; g++) {
            Py_ssize_t m = L->cstart[g + 1] - L->cstart[g];
            most += m * (m - 1) / 2;
        }
        A->evcap = most;
    }
    else if (level == 0) {
        A->gstart[1] = L->ns;
        A->evcap = L->ns * (L->ns - 1) / 2;
    }
    else {
        A->gstart[1] = L->nc;
        memcpy(A->gm, S->t[0], (size_t)L->nc * sizeof(double));
        memcpy(A->gh, S->t[1], (size_t)L->nc * sizeof(double));
        A->evcap = 0;
        A->tie = 0;
    }
    A->ev = tie ? sk_alloc(a, A->evcap, sizeof(SkEvent)) : NULL;
    A->events_fixed = 0;
    return (tie && A->ev == NULL) ? -1 : 0;
}

static PyObject *
accuracy_resample(PyObject *self, PyObject *args)
{
    int level, tie, rc = 0;
    PyObject *xo, *zo, *layout, *rows_o, *cols_o, *out = NULL;
    Py_ssize_t resamples, r;
    SkArena a = {NULL, 0, 0};
    SkLayout L;
    SkLevel S;
    SkAcc A;
    Py_buffer rb = {0}, cb = {0};
    const int32_t *rows, *cols;
    int64_t *pn, *cn, *dn;
    double *ep;
    L.rb.obj = L.cb.obj = NULL;
    if (!PyArg_ParseTuple(args, "iiOOOOOn:accuracy_resample", &level, &tie, &xo, &zo, &layout, &rows_o, &cols_o,
                          &resamples))
        return NULL;
    if (level < 0 || level > 2 || resamples < 1) {
        PyErr_SetString(PyExc_ValueError, "accuracy_resample: bad level or resamples");
        return NULL;
    }
    if (sk_layout(&a, layout, &L) < 0 || sk_draws(rows_o, &rb, L.ns, resamples, &rows) < 0
        || sk_draws(cols_o, &cb, L.nt, resamples, &cols) < 0 || sk_level_init(&S, &a, &L, level == 2 ? 2 : 0, 4, 2) < 0)
        goto done;
    S.t[0] = sk_doubles(&a, xo, L.nc);
    S.t[1] = sk_doubles(&a, zo, L.nc);
    pn = sk_alloc(&a, resamples, sizeof(int64_t));
    cn = sk_alloc(&a, resamples, sizeof(int64_t));
    dn = sk_alloc(&a, resamples, sizeof(int64_t));
    ep = sk_alloc(&a, resamples, sizeof(double));
    if (!S.t[0] || !S.t[1] || !pn || !cn || !dn || !ep)
        goto done;
    if (level == 2 && (sk_level_orders(&S, 0) < 0 || sk_level_orders(&S, 1) < 0))
        goto done;
    if (sk_acc_init(&A, &a, &S, &L, level, tie) < 0)
        goto done;
    for (r = 0; r < resamples && rc == 0; r++) {
        const int64_t *wr = NULL;
        if (rows) {
            sk_counts(rows + r * L.ns, L.ns, S.wr);
            wr = S.wr;
        }
        rc = sk_acc_one(&A, wr, cols ? cols + r * L.nt : NULL, pn + r, cn + r, dn + r, ep + r);
    }
    if (rc < 0)
        goto done;
    if (rc > 0) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    out = Py_BuildValue("(NNNN)", sk_int_list(pn, resamples), A.tie ? sk_int_list(cn, resamples) : Py_NewRef(Py_None),
                        sk_int_list(dn, resamples), A.tie ? sk_float_list(ep, resamples) : Py_NewRef(Py_None));
done:
    sk_release(&rb);
    sk_release(&cb);
    sk_layout_release(&L);
    sk_free(&a);
    return out;
}

/* ------------------------------------------------------------------ */
/* Soft pairwise accuracy (soft.py).                                    */

#define SK_SUM_TOLERANCE 1e-9

PyDoc_STRVAR(spa_resample_doc,
"spa_resample(ns, nt, x, h, ok, rows, cols, resamples, flags, permutations) -> (nums, dens)\n\n"
"Soft pairwise accuracy as exact fractions per resample (den 0: undefined).\n"
"x, h: ns x nt native doubles (row-major); ok: one byte per task, 1 when\n"
"every system has it; flags: permutations x nt swap flags.");

typedef struct {
    Py_ssize_t ns, nt, K, npos;
    const double *x, *h;
    const unsigned char *ok;
    double *sign;              /* K x nt: -1.0 where permutation k swaps position t, else 1.0 */
    Py_ssize_t *pos, *item;    /* kept positions and their items */
    double *vals;              /* one system's scores at the kept positions */
    double *tot, *mag, *part;  /* per system: sum, sum of |.|, per permutation sums */
    int64_t *cnt;              /* per pair a < b of live systems: count, human then metric */
    Py_ssize_t *live;
} SkSpa;

/* the sums of one system under permutations k0..k0+3: four independent
   left-to-right chains (the same additions as one at a time) */
static void
sk_spa_sums4(const SkSpa *P, Py_ssize_t k0, double *out)
{
    const double *s0 = P->sign + k0 * P->nt, *s1 = s0 + P->nt, *s2 = s1 + P->nt, *s3 = s2 + P->nt;
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
    Py_ssize_t t;
    for (t = 0; t < P->npos; t++) {
        double v = P->vals[t];
        Py_ssize_t q = P->pos[t];
        a0 += s0[q] * v;
        a1 += s1[q] * v;
        a2 += s2[q] * v;
        a3 += s3[q] * v;
    }
    out[0] = a0;
    out[1] = a1;
    out[2] = a2;
    out[3] = a3;
}

static void
sk_spa_side(SkSpa *P, const double *v, Py_ssize_t nlive, int which)
{
    Py_ssize_t a, b, k, t;
    for (a = 0; a < nlive; a++) {
        const double *row = v + P->live[a] * P->nt;
        double tot = 0.0, mag = 0.0, *part = P->part + a * P->K;
        for (t = 0; t < P->npos; t++) {
            P->vals[t] = row[P->item[t]];
            tot += P->vals[t];
            mag += fabs(P->vals[t]);
        }
        P->tot[a] = tot;
        P->mag[a] = mag;
        for (k = 0; k + 4 <= P->K; k += 4)
            sk_spa_sums4(P, k, part + k);
        for (; k < P->K; k++) {
            const double *sg = P->sign + k * P->nt;
            double acc = 0.0;
            for (t = 0; t < P->npos; t++)
                acc += sg[P->pos[t]] * P->vals[t];
            part[k] = acc;
        }
    }
    for (a = 0; a < nlive; a++)
        for (b = a + 1; b < nlive; b++) {
            double thr = (P->tot[a] - P->tot[b]) - SK_SUM_TOLERANCE * (P->mag[a] + P->mag[b]);
            int64_t c = 0;
            const double *pa = P->part + a * P->K, *pb = P->part + b * P->K;
            for (k = 0; k < P->K; k++)
                c += pa[k] - pb[k] >= thr;
            P->cnt[(a * nlive + b) * 2 + which] = c;
        }
}

static int
sk_spa_init(SkSpa *P, SkArena *ar, const unsigned char *flags)
{
    Py_ssize_t t, ns = P->ns;
    P->sign = sk_alloc(ar, P->K * P->nt, sizeof(double));
    P->vals = sk_alloc(ar, P->nt, sizeof(double));
    P->pos = sk_alloc(ar, P->nt, sizeof(Py_ssize_t));
    P->item = sk_alloc(ar, P->nt, sizeof(Py_ssize_t));
    P->tot = sk_alloc(ar, ns, sizeof(double));
    P->mag = sk_alloc(ar, ns, sizeof(double));
    P->part = sk_alloc(ar, ns * P->K, sizeof(double));
    P->cnt = sk_alloc(ar, ns * ns * 2, sizeof(int64_t));
    P->live = sk_alloc(ar, ns, sizeof(Py_ssize_t));
    if (!P->sign || !P->vals || !P->pos || !P->item || !P->tot || !P->mag || !P->part || !P->cnt || !P->live)
        return -1;
    for (t = 0; t < P->K * P->nt; t++)
        P->sign[t] = flags[t] ? -1.0 : 1.0;
    return 0;
}

/* one resample: w the systems' multiplicities, cols the drawn items (NULL: each once) */
static void
sk_spa_one(SkSpa *P, const int64_t *w, const int32_t *cols, int64_t *num, int64_t *den)
{
    Py_ssize_t t, a, b, nlive = 0;
    int64_t n = 0, err = 0;
    int varies = 0;
    P->npos = 0;
    for (t = 0; t < P->nt; t++) {
        Py_ssize_t it = cols ? cols[t] : t;
        if (P->ok[it]) {
            P->pos[P->npos] = t;
            P->item[P->npos++] = it;
        }
    }
    for (a = 0; a < P->ns; a++)
        if (w[a]) {
            P->live[nlive++] = a;
            n += w[a];
        }
    *num = *den = 0;
    if (n < 2)
        return;
    sk_spa_side(P, P->h, nlive, 0);
    for (a = 1; a < nlive; a++)
        varies |= P->tot[a] != P->tot[0];
    if (!varies)
        return;
    sk_spa_side(P, P->x, nlive, 1);
    for (a = 0; a < nlive; a++)
        for (b = a + 1; b < nlive; b++) {
            int64_t d = P->cnt[(a * nlive + b) * 2] - P->cnt[(a * nlive + b) * 2 + 1];
            err += w[P->live[a]] * w[P->live[b]] * (d < 0 ? -d : d);
        }
    *den = P->K * (n * (n - 1) / 2);
    *num = *den - err;
}

static PyObject *
spa_resample(PyObject *self, PyObject *args)
{
    Py_ssize_t ns, nt, resamples, K, r, a;
    Py_buffer xb = {0}, hb = {0}, okb = {0}, fb = {0}, rb = {0}, cb = {0};
    PyObject *rows_o, *cols_o, *out = NULL;
    const int32_t *rows, *cols;
    SkArena ar = {NULL, 0, 0};
    SkSpa P;
    int64_t *w, *nums, *dens;
    if (!PyArg_ParseTuple(args, "nny*y*y*OOny*n:spa_resample", &ns, &nt, &xb, &hb, &okb, &rows_o, &cols_o,
                          &resamples, &fb, &K))
        return NULL;
    if (ns < 2 || nt < 1 || resamples < 1 || K < 1 || xb.len != ns * nt * 8 || hb.len != ns * nt * 8
        || okb.len != nt || fb.len != K * nt) {
        PyErr_SetString(PyExc_ValueError, "spa_resample: bad sizes");
        goto done;
    }
    P.ns = ns;
    P.nt = nt;
    P.K = K;
    P.x = xb.buf;
    P.h = hb.buf;
    P.ok = okb.buf;
    w = sk_alloc(&ar, ns, sizeof(int64_t));
    nums = sk_alloc(&ar, resamples, sizeof(int64_t));
    dens = sk_alloc(&ar, resamples, sizeof(int64_t));
    if (sk_draws(rows_o, &rb, ns, resamples, &rows) < 0 || sk_draws(cols_o, &cb, nt, resamples, &cols) < 0
        || !w || !nums || !dens || sk_spa_init(&P, &ar, fb.buf) < 0)
        goto done;
    for (r = 0; r < resamples; r++) {
        if (rows)
            sk_counts(rows + r * ns, ns, w);
        else
            for (a = 0; a < ns; a++)
                w[a] = 1;
        sk_spa_one(&P, w, cols ? cols + r * nt : NULL, nums + r, dens + r);
    }
    out = Py_BuildValue("(NN)", sk_int_list(nums, resamples), sk_int_list(dens, resamples));
done:
    PyBuffer_Release(&xb);
    PyBuffer_Release(&hb);
    PyBuffer_Release(&okb);
    PyBuffer_Release(&fb);
    sk_release(&rb);
    sk_release(&cb);
    sk_free(&ar);
    return out;
}

/* ------------------------------------------------------------------ */

PyDoc_STRVAR(stats_fsum_doc, "stats_fsum(values) -> float\n\nmath.fsum as the kernels compute it (for tests).");

static PyObject *
stats_fsum(PyObject *self, PyObject *seq)
{
    SkArena a = {NULL, 0, 0};
    SkFsum f;
    Py_ssize_t i, n = PySequence_Size(seq);
    double *v, res = 0.0;
    if (n < 0)
        return NULL;
    v = sk_doubles(&a, seq, n);
    if (v == NULL) {
        sk_free(&a);
        return NULL;
    }
    sk_fsum_init(&f);
    for (i = 0; i < n; i++)
        if (sk_fsum_add(&f, v[i]) < 0) {
            sk_fsum_done(&f);
            sk_free(&a);
            return NULL;
        }
    res = sk_fsum_value(&f);
    sk_fsum_done(&f);
    sk_free(&a);
    return PyFloat_FromDouble(res);
}

#define STATS_KERNEL_METHODS \
    {"corr_resample", corr_resample, METH_VARARGS, corr_resample_doc}, \
    {"corr_permute", corr_permute, METH_VARARGS, corr_permute_doc}, \
    {"accuracy_resample", accuracy_resample, METH_VARARGS, accuracy_resample_doc}, \
    {"spa_resample", spa_resample, METH_VARARGS, spa_resample_doc}, \
    {"stats_fsum", stats_fsum, METH_O, stats_fsum_doc},

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif
