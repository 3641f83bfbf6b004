/*
 * The unicode (version 2) and character (version 1) tokenizers of
 * rouge2.analysis.tokenize, in C, for the batch path's texts with a
 * non-ASCII character (ASCII texts take analyze.h's byte loops).
 *
 * Included by analyze.h, which hands each token to its vocabulary through
 * a UniSink (below): this file calls nothing of its includer.  The Python
 * functions are the definitions, and
 * this file borrows their own parts rather than copying Unicode data:
 *
 *   defs = (word_label, grapheme_class, category, normalize)
 *
 * word_label(cp) -> "cjk" | "attach" | "word" | None and
 * grapheme_class(cp) -> "CR" | "LF" | "Control" | "Prepend" | "Extend" |
 * "Linker" | "ZWJ" | "RI" | "SpacingMark" | "L" | "V" | "T" | "LV" | "LVT" |
 * "Consonant" | "Other" are the tokenize module's classifiers, category is
 * unicodedata.category and normalize unicodedata.normalize.  Each code
 * point is classified once per process, when first met (the tables below,
 * filled with the GIL held), so a text costs the Python calls for the code
 * points it adds, not its length.  What is written in C is the token rules,
 * the same as the definitions' regular expressions:
 *
 *   unicode:   NFC, casefold; tokens: [cjk][attach]* | [word attach]+,
 *              joiners stripped at both ends, empty tokens dropped
 *   character: NFKC, casefold, NFKC; extended grapheme clusters
 *              (\r\n | control | Prepend* core (Extend|ZWJ|SpacingMark|Linker)*,
 *              core: a Hangul syllable sequence, a pair of regional
 *              indicators, an Indic conjunct, or any other character); a
 *              cluster is a token when it starts with a mark or holds a
 *              letter or number; joiners stripped at its end
 *
 * tests/test_batch.py compares both with the Python functions on random
 * Unicode text.
 */

/* Where the tokens go: push(ctx, utf8, n) takes one token's UTF-8 bytes
   (utf8 is *buf, which this file grows with raw_reserve, or one ASCII
   character's byte elsewhere when n is 1) and returns 0, or
   -1 after recording why; error(ctx, python_error) records a failure (1: a
   Python exception is set, 0: no memory) and returns -1. */
typedef struct {
    void *ctx;
    char **buf;
    Py_ssize_t *cap;
    int (*push)(void *ctx, const char *utf8, Py_ssize_t n);
    int (*error)(void *ctx, int python_error);
} UniSink;

#define UNI_PYERR(sk) ((sk)->error((sk)->ctx, 1))

enum { UL_NONE = 0, UL_WORD = 1, UL_CJK = 2, UL_ATTACH = 3 };
enum {
    GB_OTHER = 0, GB_CR, GB_LF, GB_CONTROL, GB_PREPEND, GB_EXTEND, GB_LINKER, GB_ZWJ, GB_RI,
    GB_SPACINGMARK, GB_L, GB_V, GB_T, GB_LV, GB_LVT, GB_CONSONANT
};
/* the general category's first letter, for the character token rule */
enum { CAT_OTHER = 0, CAT_L = 1, CAT_N = 2, CAT_M = 3 };

#define CODE_POINTS 0x110000
#define UNKNOWN_CLASS 0xFF

/* per code point: unicode's label; the grapheme class | category << 4 */
static unsigned char *word_classes = NULL, *cluster_classes = NULL;

static unsigned char *
class_table(unsigned char **table)
{
    if (*table == NULL) {
        *table = (unsigned char *)PyMem_RawMalloc(CODE_POINTS);
        if (*table != NULL)
            memset(*table, UNKNOWN_CLASS, CODE_POINTS);
    }
    return *table;
}

/* Index of ``s`` among ``names`` (n of them), -1 when absent. */
static int
name_index(PyObject *s, const char *const *names, int n)
{
    int k;
    const char *u;
    if (!PyUnicode_Check(s))
        return -1;
    u = PyUnicode_AsUTF8(s);
    if (u == NULL)
        return -1;
    for (k = 0; k < n; k++)
        if (strcmp(u, names[k]) == 0)
            return k;
    return -1;
}

/* ``fn(cp)`` (or ``fn(chr(cp))``), a new reference. */
static PyObject *
call_on(PyObject *fn, Py_UCS4 cp, int as_char)
{
    PyObject *arg = as_char ? PyUnicode_FromOrdinal((int)cp) : PyLong_FromUnsignedLong(cp), *res;
    if (arg == NULL)
        return NULL;
    res = PyObject_CallOneArg(fn, arg);
    Py_DECREF(arg);
    return res;
}

/* unicode's label of cp (GIL held); -1 with an exception. */
static int
word_class(PyObject *defs, Py_UCS4 cp)
{
    static const char *const names[] = {"word", "cjk", "attach"};
    unsigned char *t = class_table(&word_classes);
    PyObject *res;
    int k;
    if (t == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (t[cp] != UNKNOWN_CLASS)
        return t[cp];
    res = call_on(PyTuple_GET_ITEM(defs, 0), cp, 0);
    if (res == NULL)
        return -1;
    k = res == Py_None ? UL_NONE : name_index(res, names, 3) + 1;
    Py_DECREF(res);
    if (k < 0) {
        PyErr_Format(PyExc_ValueError, "unexpected word label of U+%04X", (unsigned)cp);
        return -1;
    }
    return t[cp] = (unsigned char)k;
}

/* The grapheme class | category << 4 of cp (GIL held); -1 with an exception. */
static int
cluster_class(PyObject *defs, Py_UCS4 cp)
{
    static const char *const names[] = {"Other", "CR", "LF", "Control", "Prepend", "Extend",
                                        "Linker", "ZWJ", "RI", "SpacingMark", "L", "V", "T",
                                        "LV", "LVT", "Consonant"};
    unsigned char *t = class_table(&cluster_classes);
    PyObject *res, *cat;
    int k, c = CAT_OTHER;
    if (t == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (t[cp] != UNKNOWN_CLASS)
        return t[cp];
    res = call_on(PyTuple_GET_ITEM(defs, 1), cp, 0);
    if (res == NULL)
        return -1;
    k = name_index(res, names, 16);
    Py_DECREF(res);
    if (k < 0) {
        PyErr_Format(PyExc_ValueError, "unexpected grapheme class of U+%04X", (unsigned)cp);
        return -1;
    }
    cat = call_on(PyTuple_GET_ITEM(defs, 2), cp, 1);
    if (cat == NULL)
        return -1;
    if (PyUnicode_Check(cat) && PyUnicode_GET_LENGTH(cat) > 0) {
        Py_UCS4 first = PyUnicode_READ_CHAR(cat, 0);
        c = first == 'L' ? CAT_L : first == 'N' ? CAT_N : first == 'M' ? CAT_M : CAT_OTHER;
    }
    Py_DECREF(cat);
    return t[cp] = (unsigned char)(k | (c << 4));
}

/* normalize(form, s), or casefold: new references (GIL held). */
static PyObject *
normalized(PyObject *defs, const char *form, PyObject *s)
{
    return PyObject_CallFunction(PyTuple_GET_ITEM(defs, 3), "sO", form, s);
}

/* Push the token s[a:b] (code points) as UTF-8. */
static int
push_chars(const UniSink *sk, PyObject *s, Py_ssize_t a, Py_ssize_t b)
{
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    Py_ssize_t i, n = 0;
    if (raw_reserve((void **)sk->buf, sk->cap, 4 * (b - a) + 1, 1, 64) < 0)
        return sk->error(sk->ctx, 0);
    for (i = a; i < b; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        char *w = *sk->buf + n;
        if (c < 0x80) {
            w[0] = (char)c;
            n += 1;
        }
        else if (c < 0x800) {
            w[0] = (char)(0xC0 | (c >> 6));
            w[1] = (char)(0x80 | (c & 0x3F));
            n += 2;
        }
        else if (c < 0x10000) {
            w[0] = (char)(0xE0 | (c >> 12));
            w[1] = (char)(0x80 | ((c >> 6) & 0x3F));
            w[2] = (char)(0x80 | (c & 0x3F));
            n += 3;
        }
        else {
            w[0] = (char)(0xF0 | (c >> 18));
            w[1] = (char)(0x80 | ((c >> 12) & 0x3F));
            w[2] = (char)(0x80 | ((c >> 6) & 0x3F));
            w[3] = (char)(0x80 | (c & 0x3F));
            n += 4;
        }
    }
    return sk->push(sk->ctx, *sk->buf, n);
}

static inline int
is_joiner(Py_UCS4 c)
{
    return c == 0x200C || c == 0x200D;
}

/* ``unicode_tokens(s)`` interned (GIL held). */
static int
unicode_tokens_c(const UniSink *sk, PyObject *defs, PyObject *text)
{
    PyObject *nfc = normalized(defs, "NFC", text), *s;
    Py_ssize_t i = 0, n;
    int kind, rc = 0;
    const void *data;
    if (nfc == NULL)
        return UNI_PYERR(sk);
    s = PyObject_CallMethod(nfc, "casefold", NULL);
    Py_DECREF(nfc);
    if (s == NULL)
        return UNI_PYERR(sk);
    n = PyUnicode_GET_LENGTH(s);
    kind = PyUnicode_KIND(s);
    data = PyUnicode_DATA(s);
    while (i < n && rc == 0) {
        int c = word_class(defs, PyUnicode_READ(kind, data, i));
        Py_ssize_t j = i + 1, a = i, b;
        if (c < 0) {
            rc = UNI_PYERR(sk);
            break;
        }
        if (c == UL_NONE) {
            i = j;
            continue;
        }
        for (; j < n; j++) { /* a CJK character takes the attached ones; a run, word or attached */
            int d = word_class(defs, PyUnicode_READ(kind, data, j));
            if (d < 0) {
                rc = UNI_PYERR(sk);
                break;
            }
            if (c == UL_CJK ? d != UL_ATTACH : (d != UL_WORD && d != UL_ATTACH))
                break;
        }
        b = j;
        while (a < b && is_joiner(PyUnicode_READ(kind, data, a)))
            a++;
        while (b > a && is_joiner(PyUnicode_READ(kind, data, b - 1)))
            b--;
        if (rc == 0 && b > a)
            rc = push_chars(sk, s, a, b);
        i = j;
    }
    Py_DECREF(s);
    return rc;
}

/* The end of the extended grapheme cluster starting at i (i < n) of s,
   whose classes cls() gives; -1 with an exception. */
#define GB(c) ((c) & 0x0F)

static Py_ssize_t
cluster_end(PyObject *defs, int kind, const void *data, Py_ssize_t i, Py_ssize_t n)
{
#define CLS(k) cluster_class(defs, PyUnicode_READ(kind, data, (k)))
    Py_ssize_t j = i;
    int c = CLS(j), g;
    if (c < 0)
        return -1;
    g = GB(c);
    if (g == GB_CR && j + 1 < n && PyUnicode_READ(kind, data, j + 1) == '\n')
        return j + 2;
    if (g == GB_CR || g == GB_LF || g == GB_CONTROL)
        return j + 1;
    while (g == GB_PREPEND && j + 1 < n) { /* Prepend* (its last one is the core when nothing else is) */
        int d = CLS(j + 1);
        if (d < 0)
            return -1;
        if (GB(d) == GB_CR || GB(d) == GB_LF || GB(d) == GB_CONTROL)
            break;
        j++;
        g = GB(d);
    }
    /* the core at j */
    if (g == GB_L || g == GB_V || g == GB_LV || g == GB_LVT || g == GB_T) {
        Py_ssize_t k = j;
        int h = g;
        while (h == GB_L && k + 1 < n) { /* L* */
            int d = CLS(k + 1);
            if (d < 0)
                return -1;
            if (GB(d) != GB_L)
                break;
            k++;
        }
        {
            int next = GB_OTHER, d;
            Py_ssize_t v = h == GB_L ? k + 1 : j; /* where V+ | LV V* | LVT must start */
            if (v < n) {
                d = CLS(v);
                if (d < 0)
                    return -1;
                next = GB(d);
            }
            if (next == GB_V || next == GB_LV || next == GB_LVT) {
                j = v;
                if (next != GB_LVT) {
                    while (j + 1 < n && ((d = CLS(j + 1)) >= 0) && GB(d) == GB_V)
                        j++;
                }
                while (j + 1 < n && ((d = CLS(j + 1)) >= 0) && GB(d) == GB_T)
                    j++;
            }
            else if (h == GB_L) {
                j = k; /* L+ */
            }
            else if (h == GB_T) {
                while (j + 1 < n && ((d = CLS(j + 1)) >= 0) && GB(d) == GB_T)
                    j++;
            }
            if (PyErr_Occurred())
                return -1;
        }
    }
    else if (g == GB_RI && j + 1 < n) {
        int d = CLS(j + 1);
        if (d < 0)
            return -1;
        if (GB(d) == GB_RI)
            j++;
    }
    else if (g == GB_CONSONANT) { /* Consonant (in* Linker in* Consonant)+, in = Extend|ZWJ|Linker */
        for (;;) {
            Py_ssize_t k = j + 1;
            int linker = 0, d = GB_OTHER;
            while (k < n) {
                d = CLS(k);
                if (d < 0)
                    return -1;
                d = GB(d);
                if (d != GB_EXTEND && d != GB_ZWJ && d != GB_LINKER)
                    break;
                linker |= d == GB_LINKER;
                k++;
            }
            if (k < n && d == GB_CONSONANT && linker)
                j = k;
            else
                break;
        }
    }
    for (j = j + 1; j < n; j++) { /* (Extend | ZWJ | SpacingMark | Linker)* */
        int d = CLS(j);
        if (d < 0)
            return -1;
        d = GB(d);
        if (d != GB_EXTEND && d != GB_ZWJ && d != GB_SPACINGMARK && d != GB_LINKER)
            break;
    }
    return j;
#undef CLS
}

/* ``character_tokens(s)`` interned (GIL held). */
static int
character_tokens_c(const UniSink *sk, PyObject *defs, PyObject *text)
{
    PyObject *a = normalized(defs, "NFKC", text), *b, *s;
    Py_ssize_t i = 0, n;
    int kind, rc = 0;
    const void *data;
    if (a == NULL)
        return UNI_PYERR(sk);
    b = PyObject_CallMethod(a, "casefold", NULL);
    Py_DECREF(a);
    if (b == NULL)
        return UNI_PYERR(sk);
    s = normalized(defs, "NFKC", b);
    Py_DECREF(b);
    if (s == NULL)
        return UNI_PYERR(sk);
    n = PyUnicode_GET_LENGTH(s);
    kind = PyUnicode_KIND(s);
    data = PyUnicode_DATA(s);
    while (i < n && rc == 0) {
        Py_ssize_t j, k, e;
        int token = 0;
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (ch < 0x80 && ch != '\r' && (i + 1 == n || PyUnicode_READ(kind, data, i + 1) < 0x80)) {
            /* an ASCII character before another (or the end) is a cluster of
               its own (no ASCII character extends or prepends one): a token
               when a letter or digit, as it is (tests/test_batch.py
               test_character_ascii_facts) */
            if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')) {
                char c = (char)ch;
                rc = sk->push(sk->ctx, &c, 1);
            }
            i++;
            continue;
        }
        j = cluster_end(defs, kind, data, i, n);
        if (j < 0) {
            rc = UNI_PYERR(sk);
            break;
        }
        for (k = i; k < j && !token; k++) { /* starts with a mark, or holds a letter or number */
            int c = cluster_class(defs, PyUnicode_READ(kind, data, k)) >> 4;
            token = (k == i && c == CAT_M) || c == CAT_L || c == CAT_N;
        }
        e = j;
        while (e > i && is_joiner(PyUnicode_READ(kind, data, e - 1)))
            e--;
        if (token && e > i)
            rc = push_chars(sk, s, i, e);
        i = j;
    }
    Py_DECREF(s);
    return rc;
}
