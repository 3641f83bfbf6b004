/*
 * Bulk P/R/F (issue 17.7): numbers in, numbers out.  Called only by
 * rouge2/stats/prf.py (prf_many), which holds the definitions this is a
 * fast path of: finish / fmeasure / round5 there, and the multi-reference
 * modes of rouge2/stats/combine.py, passed here as codes.
 *
 *   prf_many(stats, ref_starts, weights, key_kinds, mode, alpha, round155)
 *       -> bytes of float64 (P, R, F) at [(p * M + k) * 3]
 *   stats / ref_starts as score_pairs lays them out; weights[k] 0.0 for
 *   plain ratios (hit / total), ROUGE-W's weight otherwise (f^-1 of the
 *   ratios); key_kinds[k] how mode 1 ranks references (0 recall, 1 recall
 *   as "%.5f", 2 ROUGE-W's f^-1(hit / key_base)); mode 0 sums the
 *   references' statistics, 1 takes the first reference with the highest
 *   key, 2 the first with the highest F, 3 averages P and R as Python's
 *   sum() adds them; round155: R and P to 5 decimals, F from them, rounded.
 *
 *   records(values, names, factory) -> list[dict]
 *       [{names[k]: factory(values[(p*M+k)*3 : ... + 3])} per pair]: three
 *       floats packed into instances of a tuple subclass the caller gives
 *       (rouge2.stats.prf.Score), untracked by the garbage collector (the
 *       records and their dicts); the
 *       kernel knows nothing of what they mean.
 */

/* float("%.5f" % x) without strings, for 0 <= x < 2**20 (P, R, F and the
   recall keys): "%.5f" rounds the exact binary value half to even, so the
   5-decimal integer d is computed exactly (x = m 2**e, d = m 100000 / 2**-e
   rounded, in 128 bits), and d / 100000 (both exact doubles) rounds to the
   double nearest d / 10**5, as reading the digits back does.  0 when done,
   -1 to use the string route (tests/test_batch.py compares both). */
static int
round5_exact(double x, double *out)
{
#if defined(__SIZEOF_INT128__)
    int ex;
    double f;
    unsigned __int128 n, rem, half;
    uint64_t m, q;
    Py_ssize_t sh;
    if (!(x >= 0.0 && x < 1048576.0) || signbit(x))
        return -1;
    if (x < 1e-10) { /* below half a unit of the fifth decimal: 0.00000 */
        *out = 0.0;
        return 0;
    }
    f = frexp(x, &ex);
    m = (uint64_t)ldexp(f, 53);
    sh = 53 - ex; /* x = m / 2**sh, 33 <= sh <= 87 */
    n = (unsigned __int128)m * 100000u;
    q = (uint64_t)(n >> sh);
    rem = n & ((((unsigned __int128)1) << sh) - 1);
    half = ((unsigned __int128)1) << (sh - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    *out = (double)q / 100000.0;
    return 0;
#else
    (void)x;
    (void)out;
    return -1;
#endif
}

static int
round5(double x, double *out)
{
    char *s;
    if (round5_exact(x, out) == 0)
        return 0;
    s = PyOS_double_to_string(x, 'f', 5, 0, NULL);
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
prec_rec(double hit, double rt, double ctot, double w, double *prec, double *rec)
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

/* round5, or in strict mode (no GIL) its exact arithmetic alone. */
static int
round5_mode(int strict, double x, double *out)
{
    return strict ? round5_exact(x, out) : round5(x, out);
}

/* The -f B ranking key of an entry (hit, ref_total, cand_total, key_base). */
static int
best_key(const double *x, int kind, double w, int strict, double *key)
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
    return kind == 1 ? round5_mode(strict, *key, key) : 0;
}

/* Python's sum() of floats from its int start 0: plain left-to-right
   additions before 3.12, Neumaier's compensated sum since. */
typedef struct {
    double hi, lo;
    Py_ssize_t n;
} PySum;

static inline void
pysum_add(PySum *s, double x)
{
    if (s->n++ == 0) {
        s->hi = 0.0 + x;
        s->lo = 0.0;
        return;
    }
#if PY_VERSION_HEX >= 0x030C0000
    {
        double t = s->hi + x;
        if (fabs(s->hi) >= fabs(x))
            s->lo += (s->hi - t) + x;
        else
            s->lo += (x - t) + s->hi;
        s->hi = t;
    }
#else
    s->hi += x;
#endif
}

static inline double
pysum_value(const PySum *s)
{
#if PY_VERSION_HEX >= 0x030C0000
    if (s->lo && isfinite(s->lo))
        return s->hi + s->lo;
#endif
    return s->hi;
}

typedef struct {
    const double *st;
    Py_ssize_t M;
    const double *ws;
    const int *kinds;
    int mode;
    double alpha;
    int strict; /* no Python: a rounding exact arithmetic cannot do fails (-1, nothing set) */
} PrfArgs;

/* P and R of measure k over entries e0 .. e1-1 under the mode; -1 only
   from the "%.5f" key of mode 1 (kind 1): with an exception, or in strict
   mode when exact arithmetic cannot round it. */
static int
combine_entries(const PrfArgs *a, Py_ssize_t k, Py_ssize_t e0, Py_ssize_t e1, double *prec,
                double *rec)
{
    Py_ssize_t e, M = a->M;
    double w = a->ws[k];
    const double *x = a->st + (e0 * M + k) * 4;
    if (a->mode == 0 || e1 - e0 == 1) { /* pooled, or one reference */
        double hit = x[0], rt = x[1], ct = x[2];
        for (e = e0 + 1; e < e1; e++) {
            x = a->st + (e * M + k) * 4;
            hit += x[0];
            rt += x[1];
            ct += x[2];
        }
        prec_rec(hit, rt, ct, w, prec, rec);
    }
    else if (a->mode == 1) { /* the first reference with the highest key */
        double best = -1.0;
        Py_ssize_t pick = e0;
        for (e = e0; e < e1; e++) {
            double key;
            if (best_key(a->st + (e * M + k) * 4, a->kinds[k], w, a->strict, &key) < 0)
                return -1;
            if (key > best) {
                best = key;
                pick = e;
            }
        }
        x = a->st + (pick * M + k) * 4;
        prec_rec(x[0], x[1], x[2], w, prec, rec);
    }
    else if (a->mode == 2) { /* the first reference with the highest F */
        double best_f;
        prec_rec(x[0], x[1], x[2], w, prec, rec);
        best_f = fmeasure(*prec, *rec, a->alpha);
        for (e = e0 + 1; e < e1; e++) {
            double pe, re, fe;
            x = a->st + (e * M + k) * 4;
            prec_rec(x[0], x[1], x[2], w, &pe, &re);
            fe = fmeasure(pe, re, a->alpha);
            if (fe > best_f) {
                best_f = fe;
                *prec = pe;
                *rec = re;
            }
        }
    }
    else { /* average: sum(ps) / len(ps), sum(rs) / len(rs) */
        PySum sp = {0.0, 0.0, 0}, sr = {0.0, 0.0, 0};
        for (e = e0; e < e1; e++) {
            double pe, re;
            x = a->st + (e * M + k) * 4;
            prec_rec(x[0], x[1], x[2], w, &pe, &re);
            pysum_add(&sp, pe);
            pysum_add(&sr, re);
        }
        *prec = pysum_value(&sp) / (double)(e1 - e0);
        *rec = pysum_value(&sr) / (double)(e1 - e0);
    }
    return 0;
}

/* (P, R, F) of every pair and measure into o; -1 as combine_entries. */
static int
prf_fill(const PrfArgs *a, const int64_t *rs, Py_ssize_t npairs, int r155, double *o)
{
    Py_ssize_t p, k;
    for (p = 0; p < npairs; p++) {
        for (k = 0; k < a->M; k++) {
            double *d = o + (p * a->M + k) * 3, prec, rec;
            if (combine_entries(a, k, (Py_ssize_t)rs[p], (Py_ssize_t)rs[p + 1], &prec, &rec) < 0)
                return -1;
            if (!r155) {
                d[0] = prec;
                d[1] = rec;
                d[2] = fmeasure(prec, rec, a->alpha);
            }
            else if (round5_mode(a->strict, prec, &d[0]) < 0 || round5_mode(a->strict, rec, &d[1]) < 0 ||
                     round5_mode(a->strict, fmeasure(d[0], d[1], a->alpha), &d[2]) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* A sequence of M numbers into a C array (floats or ints). */
static int
numbers_load(PyObject *obj, Py_ssize_t M, double *fl, int *in)
{
    PyObject *seq = PySequence_Fast(obj, "expected a sequence of numbers");
    Py_ssize_t k;
    int rc = 0;
    if (seq == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != M) {
        PyErr_SetString(PyExc_ValueError, "one weight and one key kind per measure");
        rc = -1;
    }
    for (k = 0; k < M && rc == 0; k++) {
        PyObject *item = PySequence_Fast_ITEMS(seq)[k];
        if (fl != NULL) {
            fl[k] = PyFloat_AsDouble(item);
            rc = (fl[k] == -1.0 && PyErr_Occurred()) ? -1 : 0;
        }
        else {
            in[k] = (int)PyLong_AsLong(item);
            rc = (in[k] == -1 && PyErr_Occurred()) ? -1 : 0;
        }
    }
    Py_DECREF(seq);
    return rc;
}

PyDoc_STRVAR(prf_many_doc,
"prf_many(stats, ref_starts, weights, key_kinds, mode, alpha, round155, /) -> bytes\n\n"
"float64 (P, R, F) per pair and measure from batch statistics (see prf.h);\n"
"the fast path of rouge2.stats.prf.prf_many.");

static PyObject *
prf_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer sb, rb;
    PyObject *out = NULL;
    PrfArgs a;
    double *ws = NULL, *o;
    int r155, rc, *kinds = NULL;
    Py_ssize_t M, npairs, p;
    const int64_t *rs;

    if (nargs != 7) {
        PyErr_Format(PyExc_TypeError, "prf_many expected 7 arguments, got %zd", nargs);
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &sb, PyBUF_SIMPLE) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[1], &rb, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&sb);
        return NULL;
    }
    M = PyObject_Length(args[2]);
    a.mode = (int)PyLong_AsLong(args[4]);
    a.alpha = PyFloat_AsDouble(args[5]);
    r155 = PyObject_IsTrue(args[6]);
    if (M < 0 || PyErr_Occurred() || r155 < 0)
        goto done;
    if (a.mode < 0 || a.mode > 3) {
        PyErr_SetString(PyExc_ValueError, "mode must be 0 (pooled), 1 (best), 2 (max-f) or 3 (average)");
        goto done;
    }
    ws = (double *)PyMem_Malloc((size_t)(M ? M : 1) * sizeof(double));
    kinds = (int *)PyMem_Malloc((size_t)(M ? M : 1) * sizeof(int));
    if (ws == NULL || kinds == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (numbers_load(args[2], M, ws, NULL) < 0 || numbers_load(args[3], M, NULL, kinds) < 0)
        goto done;
    rs = (const int64_t *)rb.buf;
    npairs = rb.len / 8 - 1;
    if (npairs < 0 || rs[npairs] * M * 4 * 8 != sb.len) {
        PyErr_SetString(PyExc_ValueError, "stats do not fit ref_starts");
        goto done;
    }
    a.st = (const double *)sb.buf;
    a.M = M;
    a.ws = ws;
    a.kinds = kinds;
    out = PyBytes_FromStringAndSize(NULL, npairs * M * 3 * (Py_ssize_t)sizeof(double));
    if (out == NULL)
        goto done;
    o = (double *)PyBytes_AS_STRING(out);
    for (p = 0; p < npairs; p++) {
        if (rs[p + 1] <= rs[p]) {
            PyErr_SetString(PyExc_ValueError, "a pair without references");
            Py_CLEAR(out);
            goto done;
        }
    }
    /* without the GIL, as long as every rounding is exact arithmetic;
       otherwise again with it, through Python's formatting */
    a.strict = 1;
    Py_BEGIN_ALLOW_THREADS
    rc = prf_fill(&a, rs, npairs, r155, o);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        a.strict = 0;
        if (prf_fill(&a, rs, npairs, r155, o) < 0)
            goto fail;
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    PyMem_Free(ws);
    PyMem_Free(kinds);
    PyBuffer_Release(&sb);
    PyBuffer_Release(&rb);
    return out;
}

PyDoc_STRVAR(records_doc,
"records(values, names, factory, /) -> list[dict]\n\n"
"Per pair {names[k]: factory(three floats)} from float64 values laid out\n"
"as prf_many returns them; factory is a tuple subclass (see prf.h).");

static PyObject *
records(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer vb;
    PyObject *names, *out = NULL;
    PyTypeObject *type;
    Py_ssize_t M, npairs, p, k;
    const double *v;
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "records expected 3 arguments, got %zd", nargs);
        return NULL;
    }
    names = args[1];
    if (!PyTuple_Check(names) || !PyType_Check(args[2]) ||
        !PyType_FastSubclass((PyTypeObject *)args[2], Py_TPFLAGS_TUPLE_SUBCLASS) ||
        ((PyTypeObject *)args[2])->tp_basicsize != PyTuple_Type.tp_basicsize) {
        PyErr_SetString(PyExc_TypeError, "records(values, names: tuple, factory: a plain tuple subclass)");
        return NULL;
    }
    type = (PyTypeObject *)args[2];
    M = PyTuple_GET_SIZE(names);
    if (PyObject_GetBuffer(args[0], &vb, PyBUF_SIMPLE) < 0)
        return NULL;
    if (M == 0 || vb.len % (M * 24) != 0) {
        PyErr_SetString(PyExc_ValueError, "values do not fit the names");
        goto done;
    }
    npairs = vb.len / (M * 24);
    v = (const double *)vb.buf;
    out = PyList_New(npairs);
    for (p = 0; out != NULL && p < npairs; p++) {
        PyObject *d = PyDict_New();
        if (d == NULL)
            goto fail;
        PyList_SET_ITEM(out, p, d);
        for (k = 0; k < M; k++) {
            const double *x = v + (p * M + k) * 3;
            PyObject *rec = type->tp_alloc(type, 3);
            int j, rc;
            if (rec == NULL)
                goto fail;
            for (j = 0; j < 3; j++) {
                PyObject *f = PyFloat_FromDouble(x[j]);
                if (f == NULL) {
                    Py_DECREF(rec);
                    goto fail;
                }
                PyTuple_SET_ITEM(rec, j, f);
            }
            /* three floats: never part of a cycle; untracked, the record
               keeps its dict untracked too, and the collector skips both */
            if (PyObject_GC_IsTracked(rec))
                PyObject_GC_UnTrack(rec);
            rc = PyDict_SetItem(d, PyTuple_GET_ITEM(names, k), rec);
            Py_DECREF(rec);
            if (rc < 0)
                goto fail;
        }
        /* the dict tracked itself for its first record (a tuple subclass
           may be tracked); str keys and untracked records cannot make a
           cycle, and a value added later tracks it again */
        if (PyObject_GC_IsTracked(d))
            PyObject_GC_UnTrack(d);
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    PyBuffer_Release(&vb);
    return out;
}

PyDoc_STRVAR(int_column_doc,
"int_column(values, start, step, /) -> bytes | None\n\n"
"values[start::step] of a float64 buffer as int32 bytes (array('i')),\n"
"or None when one of them is not a whole number within 32 bits (the\n"
"caller then keeps the floats).");

static PyObject *
int_column(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer vb;
    Py_ssize_t start, step, n, i, count;
    const double *v;
    int32_t *o;
    int ok = 1;
    PyObject *out = NULL;
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "int_column expected 3 arguments, got %zd", nargs);
        return NULL;
    }
    start = PyLong_AsSsize_t(args[1]);
    step = PyLong_AsSsize_t(args[2]);
    if ((start == -1 || step == -1) && PyErr_Occurred())
        return NULL;
    if (start < 0 || step < 1) {
        PyErr_SetString(PyExc_ValueError, "int_column: start >= 0 and step >= 1");
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &vb, PyBUF_SIMPLE) < 0)
        return NULL;
    if (vb.len % 8 != 0) {
        PyErr_SetString(PyExc_ValueError, "int_column: values must be float64");
        goto done;
    }
    n = vb.len / 8;
    count = start < n ? (n - start + step - 1) / step : 0;
    out = PyBytes_FromStringAndSize(NULL, count * (Py_ssize_t)sizeof(int32_t));
    if (out == NULL)
        goto done;
    v = (const double *)vb.buf;
    o = (int32_t *)PyBytes_AS_STRING(out);
    Py_BEGIN_ALLOW_THREADS
    for (i = 0; i < count; i++) {
        double x = v[start + i * step];
        /* a whole number in int32's range (NaN fails both tests) */
        if (!(x >= -2147483648.0 && x <= 2147483647.0) || x != (double)(int32_t)x) {
            ok = 0;
            break;
        }
        o[i] = (int32_t)x;
    }
    Py_END_ALLOW_THREADS
    if (!ok) {
        Py_CLEAR(out);
        out = Py_None;
        Py_INCREF(out);
    }
done:
    PyBuffer_Release(&vb);
    return out;
}
