/*
 * paired.h: the paired bootstrap's per-resample sums in C.
 *
 * Included by _speedups.c after its Mersenne Twister (MTState, mt_refill,
 * mt_load, with_state); exports (PAIRED_KERNEL_METHODS):
 *
 *   mt_paired_sums(state, columns, rows, limit, simd) -> (sums, state)
 *
 * The definition is rouge2.kernels.python.mt_paired_sums (and the reference
 * loop of docs/statistics.md): from a random.Random state, each of `rows`
 * resamples draws n = len(column) task indices with randrange(n) (the top
 * n.bit_length() bits of the next 32-bit word, drawn again while >= n),
 * counts c_i how often task i was drawn, and gives every column the sum
 * over i = 0..n-1 of c_i * x_i, left to right from 0.0 (one IEEE multiply
 * and one add per task, zero counts included).
 *
 * How it is fast with the same doubles: resamples are taken PB_GROUP at a
 * time.  Each resample's draws are counted into its own row of bytes (n
 * bytes: the row stays in the caches while it is counted), then the tasks
 * are walked in blocks of PB_BLOCK, the block's counts turned into doubles
 * task-major (PB_GROUP lanes a task) and every column's block multiplied
 * into PB_GROUP running sums at once: lane g does exactly resample g's
 * sequence of operations, so vectors change nothing but the speed, and the
 * columns are read once per group instead of once per resample.  A count
 * reaching `limit` (256 in use: a byte would wrap) sends the whole group to
 * an exact slower path (32-bit counts, one resample at a time) from the
 * state the group began with; tests pass a small limit to exercise it.
 * Contraction of c*x+s into one fused operation would change roundings, so
 * it is switched off (as in the whole module: -ffp-contract=off).
 */

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif

#define PB_GROUP 16
#define PB_BLOCK 256
#define PB_AHEAD 24
#if defined(__GNUC__)
#define PB_RESTRICT __restrict__
#else
#define PB_RESTRICT
#endif

/* the Mersenne Twister's state with its untempered words tempered ahead:
   t[i] is the output of mt[i] for i >= st.pos */
typedef struct {
    MTState st;
    uint32_t t[MT_N];
    int avx2;            /* the CPU has AVX2 */
} PBReader;

/* MT19937's refill of all 624 words (mt_refill's operations, the table
   lookup written as a mask) and their tempering into t */
#define PB_REFILL_BODY(mt, t)                                                   \
    do {                                                                        \
        int kk;                                                                 \
        uint32_t y;                                                             \
        for (kk = 0; kk < MT_N - MT_M; kk++) {                                  \
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);            \
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu); \
        }                                                                       \
        for (; kk < MT_N - 1; kk++) {                                           \
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);            \
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu); \
        }                                                                       \
        y = (mt[MT_N - 1] & 0x80000000u) | (mt[0] & 0x7fffffffu);               \
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu); \
        for (kk = 0; kk < MT_N; kk++) {                                         \
            y = mt[kk];                                                         \
            y ^= (y >> 11);                                                     \
            y ^= (y << 7) & 0x9d2c5680u;                                        \
            y ^= (y << 15) & 0xefc60000u;                                       \
            t[kk] = y ^ (y >> 18);                                              \
        }                                                                       \
    } while (0)

static void
pb_refill(uint32_t *PB_RESTRICT mt, uint32_t *PB_RESTRICT t)
{
    PB_REFILL_BODY(mt, t);
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define PB_AVX2 1
/* the same integer operations, vectorized where the CPU has AVX2 */
__attribute__((target("avx2"))) static void
pb_refill_avx2(uint32_t *PB_RESTRICT mt, uint32_t *PB_RESTRICT t)
{
    PB_REFILL_BODY(mt, t);
}
#endif

/* the tempered words of the current state from position `from` on */
static void
pb_temper(PBReader *r, Py_ssize_t from)
{
    Py_ssize_t i;
    for (i = from; i < MT_N; i++) {
        uint32_t y = r->st.mt[i];
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680u;
        y ^= (y << 15) & 0xefc60000u;
        y ^= (y >> 18);
        r->t[i] = y;
    }
}

/* the next `need` (<= MT_N) values of randrange(n) into out */
static void
pb_draw(PBReader *r, uint32_t *out, Py_ssize_t need, uint32_t n, int shift)
{
    Py_ssize_t kept = 0;
    while (kept < need) {
        Py_ssize_t j = (Py_ssize_t)r->st.pos;
        if (j >= MT_N) {
#ifdef PB_AVX2
            if (r->avx2)
                pb_refill_avx2(r->st.mt, r->t);
            else
#endif
                pb_refill(r->st.mt, r->t);
            j = 0;
        }
        if (need - kept >= MT_N - j) {  /* every word left is needed: no stop test */
            for (; j < MT_N; j++) {
                uint32_t v = r->t[j] >> shift;
                out[kept] = v;
                kept += (v < n);
            }
        }
        else {
            for (; j < MT_N && kept < need; j++) {
                uint32_t v = r->t[j] >> shift;
                out[kept] = v;
                kept += (v < n);
            }
        }
        r->st.pos = (unsigned long)j;
    }
}

/* one resample's counts into row (zeroed here); nonzero when a count reached limit */
static int
pb_count(PBReader *r, uint8_t *row, Py_ssize_t n, int shift, unsigned limit)
{
    uint32_t buf[MT_N];
    Py_ssize_t left = n, j;
    unsigned full = 0;
    memset(row, 0, (size_t)n);
    while (left > 0) {
        Py_ssize_t m = left < MT_N ? left : MT_N;
        pb_draw(r, buf, m, (uint32_t)n, shift);
        for (j = 0; j < m; j++) {
            unsigned c;
#if defined(__GNUC__)
            if (j + PB_AHEAD < m)
                __builtin_prefetch(row + buf[j + PB_AHEAD], 1);
#endif
            c = (unsigned)row[buf[j]] + 1u;
            full |= (c >= limit);
            row[buf[j]] = (uint8_t)c;
        }
        left -= m;
    }
    return full != 0;
}

/* acc[g] += cd[i][g] * x[i] for i < m, lane by lane (PB_GROUP == 16 lanes);
   the vector types load from any double's address */
#if defined(__GNUC__)
typedef double pb_v2 __attribute__((vector_size(16), aligned(8), may_alias));

static void
pb_block_dot(const double *cd, const double *x, Py_ssize_t m, double *acc)
{
    pb_v2 *out = (pb_v2 *)acc;
    pb_v2 a0 = out[0], a1 = out[1], a2 = out[2], a3 = out[3];
    pb_v2 a4 = out[4], a5 = out[5], a6 = out[6], a7 = out[7];
    Py_ssize_t i;
    for (i = 0; i < m; i++) {
        const pb_v2 *c = (const pb_v2 *)(cd + i * PB_GROUP);
        pb_v2 xi = {x[i], x[i]};
        a0 = a0 + c[0] * xi;
        a1 = a1 + c[1] * xi;
        a2 = a2 + c[2] * xi;
        a3 = a3 + c[3] * xi;
        a4 = a4 + c[4] * xi;
        a5 = a5 + c[5] * xi;
        a6 = a6 + c[6] * xi;
        a7 = a7 + c[7] * xi;
    }
    out[0] = a0; out[1] = a1; out[2] = a2; out[3] = a3;
    out[4] = a4; out[5] = a5; out[6] = a6; out[7] = a7;
}

#ifdef PB_AVX2
typedef double pb_v4 __attribute__((vector_size(32), aligned(8), may_alias));

/* the same operations, four lanes a vector where the CPU has AVX2 */
__attribute__((target("avx2"))) static void
pb_block_dot_avx2(const double *cd, const double *x, Py_ssize_t m, double *acc)
{
    pb_v4 *out = (pb_v4 *)acc;
    pb_v4 a0 = out[0], a1 = out[1], a2 = out[2], a3 = out[3];
    Py_ssize_t i;
    for (i = 0; i < m; i++) {
        const pb_v4 *c = (const pb_v4 *)(cd + i * PB_GROUP);
        pb_v4 xi = {x[i], x[i], x[i], x[i]};
        a0 = a0 + c[0] * xi;
        a1 = a1 + c[1] * xi;
        a2 = a2 + c[2] * xi;
        a3 = a3 + c[3] * xi;
    }
    out[0] = a0; out[1] = a1; out[2] = a2; out[3] = a3;
}
#endif
#else
static void
pb_block_dot(const double *cd, const double *x, Py_ssize_t m, double *acc)
{
    Py_ssize_t i;
    int g;
    for (i = 0; i < m; i++)
        for (g = 0; g < PB_GROUP; g++)
            acc[g] = acc[g] + cd[i * PB_GROUP + g] * x[i];
}
#endif

typedef struct {
    Py_ssize_t n;          /* tasks */
    int shift;             /* 32 - n.bit_length() */
    unsigned limit;        /* a count reaching it takes the exact slower path */
    Py_ssize_t ncols;
    const double **cols;   /* ncols columns of n doubles */
    uint8_t *counts;       /* PB_GROUP rows of n counts */
    double *cd;            /* PB_BLOCK x PB_GROUP counts as doubles */
    double *acc;           /* ncols x PB_GROUP running sums */
    int avx2;              /* the CPU has AVX2 */
} PBWork;

/* the sums of the group's `rows` resamples (counted in w->counts) into acc */
static void
pb_group_sums(PBWork *w, int rows)
{
    Py_ssize_t a, i, c;
    int g;
    memset(w->acc, 0, (size_t)w->ncols * PB_GROUP * sizeof(double));
    memset(w->cd, 0, (size_t)PB_BLOCK * PB_GROUP * sizeof(double));  /* lanes >= rows stay 0 */
    for (a = 0; a < w->n; a += PB_BLOCK) {
        Py_ssize_t m = w->n - a < PB_BLOCK ? w->n - a : PB_BLOCK;
        for (g = 0; g < rows; g++) {
            const uint8_t *row = w->counts + (size_t)g * (size_t)w->n + (size_t)a;
            for (i = 0; i < m; i++)
                w->cd[i * PB_GROUP + g] = (double)row[i];
        }
        for (c = 0; c < w->ncols; c++) {
#ifdef PB_AVX2
            if (w->avx2) {
                pb_block_dot_avx2(w->cd, w->cols[c] + a, m, w->acc + c * PB_GROUP);
                continue;
            }
#endif
            pb_block_dot(w->cd, w->cols[c] + a, m, w->acc + c * PB_GROUP);
        }
    }
}

/* the exact slower path: the group's resamples one at a time with 32-bit
   counts (wide: n of them), from the state the group began with */
static void
pb_group_wide(PBWork *w, PBReader *r, int rows, uint32_t *wide)
{
    uint32_t buf[MT_N];
    Py_ssize_t left, j, i, c;
    int g;
    for (g = 0; g < rows; g++) {
        memset(wide, 0, (size_t)w->n * sizeof(uint32_t));
        for (left = w->n; left > 0; left -= MT_N) {
            Py_ssize_t m = left < MT_N ? left : MT_N;
            pb_draw(r, buf, m, (uint32_t)w->n, w->shift);
            for (j = 0; j < m; j++)
                wide[buf[j]]++;
        }
        for (c = 0; c < w->ncols; c++) {
            const double *x = w->cols[c];
            double s = 0.0;
            for (i = 0; i < w->n; i++)
                s = s + (double)wide[i] * x[i];
            w->acc[c * PB_GROUP + g] = s;
        }
    }
}

/* every resample's sums into out (ncols x rows, column-major by resample);
   wide: n 32-bit counts for the slower path; runs without the GIL */
static void
pb_run(PBWork *w, PBReader *r, Py_ssize_t rows, double *out, uint32_t *wide)
{
    Py_ssize_t r0, c;
    int g;
    for (r0 = 0; r0 < rows; r0 += PB_GROUP) {
        int take = rows - r0 < PB_GROUP ? (int)(rows - r0) : PB_GROUP, full = 0;
        PBReader start = *r;
        for (g = 0; g < take; g++)
            full |= pb_count(r, w->counts + (size_t)g * (size_t)w->n, w->n, w->shift, w->limit);
        if (full) {
            *r = start;
            pb_group_wide(w, r, take, wide);
        }
        else
            pb_group_sums(w, take);
        for (c = 0; c < w->ncols; c++)
            for (g = 0; g < take; g++)
                out[c * rows + r0 + g] = w->acc[c * PB_GROUP + g];
    }
}

/* the columns as contiguous buffers of doubles, all of one length n >= 1 */
static int
pb_columns(PyObject *columns, Py_buffer *views, Py_ssize_t ncols, Py_ssize_t *n)
{
    Py_ssize_t c;
    for (c = 0; c < ncols; c++) {
        PyObject *col = PySequence_Fast_GET_ITEM(columns, c);
        if (PyObject_GetBuffer(col, &views[c], PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
            return (int)c;
        if (views[c].itemsize != 8 || views[c].format == NULL || strcmp(views[c].format, "d") != 0
            || (c > 0 && views[c].len != views[0].len)) {
            PyErr_SetString(PyExc_ValueError, "mt_paired_sums: columns must be array('d') of one length");
            PyBuffer_Release(&views[c]);
            return (int)c;
        }
    }
    *n = ncols > 0 ? views[0].len / 8 : 0;
    if (*n < 1 || *n > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "mt_paired_sums: need 1 <= len(column) < 2**31");
        return (int)ncols;
    }
    return -1;
}

static PyObject *
pb_lists(const double *out, Py_ssize_t ncols, Py_ssize_t rows)
{
    Py_ssize_t c, i;
    PyObject *all = PyList_New(ncols);
    for (c = 0; all != NULL && c < ncols; c++) {
        PyObject *col = PyList_New(rows);
        if (col == NULL) {
            Py_CLEAR(all);
            break;
        }
        PyList_SET_ITEM(all, c, col);
        for (i = 0; i < rows; i++) {
            PyObject *f = PyFloat_FromDouble(out[c * rows + i]);
            if (f == NULL) {
                Py_CLEAR(all);
                break;
            }
            PyList_SET_ITEM(col, i, f);
        }
    }
    return all;
}

/* the sums of every resample over the n-task columns set in w->cols, and
   the advanced state: (list of ncols lists, state); the work runs without the GIL */
static PyObject *
pb_compute(PBWork *w, PBReader *reader, Py_ssize_t n, Py_ssize_t ncols, Py_ssize_t rows,
           unsigned limit, int simd)
{
    PyObject *res = NULL;
    double *out;
    uint32_t *wide;
    int k = 0;
    while (((Py_ssize_t)1 << k) <= n)
        k++;
    w->n = n;
    w->shift = 32 - k;
    w->limit = limit;
    w->ncols = ncols;
#ifdef PB_AVX2
    __builtin_cpu_init();
    w->avx2 = reader->avx2 = simd && __builtin_cpu_supports("avx2");
#else
    w->avx2 = reader->avx2 = 0;
    (void)simd;
#endif
    w->counts = PyMem_RawMalloc((size_t)n * PB_GROUP);
    w->cd = PyMem_RawMalloc((size_t)PB_BLOCK * PB_GROUP * sizeof(double));
    w->acc = PyMem_RawMalloc((size_t)ncols * PB_GROUP * sizeof(double) + 1);
    out = PyMem_RawMalloc((size_t)ncols * (size_t)rows * sizeof(double) + 1);
    wide = PyMem_RawMalloc((size_t)n * sizeof(uint32_t));  /* untouched unless a count is full */
    if (w->counts == NULL || w->cd == NULL || w->acc == NULL || out == NULL || wide == NULL) {
        PyErr_NoMemory();
    }
    else {
        if (reader->st.pos < MT_N)
            pb_temper(reader, (Py_ssize_t)reader->st.pos);
        Py_BEGIN_ALLOW_THREADS
        pb_run(w, reader, rows, out, wide);
        Py_END_ALLOW_THREADS
        res = with_state(pb_lists(out, ncols, rows), &reader->st);
    }
    PyMem_RawFree(w->counts);
    PyMem_RawFree(w->cd);
    PyMem_RawFree(w->acc);
    PyMem_RawFree(out);
    PyMem_RawFree(wide);
    return res;
}

PyDoc_STRVAR(mt_paired_sums_doc,
"mt_paired_sums(state, columns, rows, limit=256, simd=True) -> (list[list[float]], state)\n\n"
"From random.Random state getstate()[1]: for each of rows resamples, n =\n"
"len(column) draws of randrange(n) counted per task (c_i), and for every\n"
"column (array('d'), all of length n) the sum over i of c_i * x_i, left to\n"
"right from 0.0; one list of rows sums per column, and the advanced state.\n"
"limit (2..256): a count reaching it takes the exact 32-bit path (256 in\n"
"use; smaller only to test that path); simd: whether AVX2 may be used where\n"
"the CPU has it (the numbers are the same).  Releases the GIL.");

static PyObject *
mt_paired_sums(PyObject *self, PyObject *args)
{
    PyObject *state, *columns, *fast, *res = NULL;
    Py_ssize_t rows, ncols, n = 0, c, failed;
    unsigned limit = 256;
    int simd = 1;
    PBReader reader;
    PBWork w;
    Py_buffer *views = NULL;
    if (!PyArg_ParseTuple(args, "OOn|Ip:mt_paired_sums", &state, &columns, &rows, &limit, &simd))
        return NULL;
    if (rows < 0 || limit < 2 || limit > 256) {
        PyErr_SetString(PyExc_ValueError, "mt_paired_sums: need rows >= 0 and 2 <= limit <= 256");
        return NULL;
    }
    if (mt_load(&reader.st, state) < 0)
        return NULL;
    fast = PySequence_Fast(columns, "mt_paired_sums: columns must be a sequence");
    if (fast == NULL)
        return NULL;
    ncols = PySequence_Fast_GET_SIZE(fast);
    views = PyMem_Calloc((size_t)(ncols > 0 ? ncols : 1), sizeof(Py_buffer));
    w.cols = PyMem_Calloc((size_t)(ncols > 0 ? ncols : 1), sizeof(double *));
    if (views == NULL || w.cols == NULL) {
        PyErr_NoMemory();
        failed = 0;
        goto done;
    }
    failed = pb_columns(fast, views, ncols, &n);
    if (failed >= 0)
        goto done;
    failed = ncols;
    for (c = 0; c < ncols; c++)
        w.cols[c] = (const double *)views[c].buf;
    res = pb_compute(&w, &reader, n, ncols, rows, limit, simd);
done:
    for (c = 0; c < failed; c++)
        PyBuffer_Release(&views[c]);
    PyMem_Free(views);
    PyMem_Free((void *)w.cols);
    Py_DECREF(fast);
    return res;
}

#define PAIRED_KERNEL_METHODS \
    {"mt_paired_sums", mt_paired_sums, METH_VARARGS, mt_paired_sums_doc},

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif
