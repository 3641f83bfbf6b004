/*
 * rouge_score.h: the scores of the rouge-score 0.1.2 drop-in
 * (rouge2.compat.rouge_score), one call per pair.  Included by _speedups.c;
 * it uses nothing of the other kernels, so they can change freely.
 *
 *   rouge_score_prf(target, prediction, orders, lcs, lsum, stem, /) -> tuple
 *       rouge-score's (precision, recall, F) for each n in orders, then
 *       rougeL if lcs, then rougeLsum if lsum (each line of a text a
 *       sentence); None for rougeL/rougeLsum when a text has no token
 *   nltk_porter_stem(word, /) -> str
 *       nltk's PorterStemmer().stem of an [a-z0-9] word
 *
 * Tokens are the maximal runs of ASCII letters and digits, A-Z lowercased
 * (rouge155_tokens' rule: the caller passes str.lower() of a text that is
 * not ASCII, which makes the runs rouge-score's).  With ``stem`` (the Python
 * definition, rouge2.analysis.porter_nltk.nltk_porter_stem, not called
 * here) a token longer than 3 characters becomes its nltk Porter stem,
 * computed by rsp_stem below and memoized process-wide (the memo starts
 * afresh at RS_MAX_STEMS words).  Ids are given per call, 0, 1, ... in the
 * order the tokens are first met, target first.
 *
 * The pure-Python definitions are in rouge2/kernels/rouge_score.py;
 * tests/test_compat_rouge_score.py and tests/test_porter_nltk.py check that
 * both agree.  The GIL is held throughout (no Python code runs here).
 */

/* ------------------------------------------------------------------ */
/* nltk's Porter stemmer (NLTK_EXTENSIONS), on lowercase ASCII words.    */
/* The steps mirror rouge2/analysis/porter_nltk.py, the definition.     */

/* f[i] = 1 when b[i] is a consonant; y after a consonant is a vowel. */
static void
rsp_flags(const char *b, Py_ssize_t k, unsigned char *f)
{
    Py_ssize_t i;
    for (i = 0; i < k; i++) {
        char c = b[i];
        if (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u')
            f[i] = 0;
        else if (c == 'y' && i > 0)
            f[i] = (unsigned char)!f[i - 1];
        else
            f[i] = 1;
    }
}

/* m of the prefix of length len: vowel-to-consonant changes */
static Py_ssize_t
rsp_measure(const unsigned char *f, Py_ssize_t len)
{
    Py_ssize_t i, m = 0;
    for (i = 1; i < len; i++)
        m += f[i] && !f[i - 1];
    return m;
}

static int
rsp_has_vowel(const unsigned char *f, Py_ssize_t len)
{
    Py_ssize_t i;
    for (i = 0; i < len; i++)
        if (!f[i])
            return 1;
    return 0;
}

/* *o: ends consonant-vowel-consonant (last not w, x, y), or is vowel-consonant */
static int
rsp_cvc(const char *b, const unsigned char *f, Py_ssize_t len)
{
    if (len == 2)
        return !f[0] && f[1];
    return len >= 3 && b[len - 1] != 'w' && b[len - 1] != 'x' && b[len - 1] != 'y'
           && f[len - 1] && !f[len - 2] && f[len - 3];
}

static int
rsp_ends(const char *b, Py_ssize_t k, const char *s)
{
    Py_ssize_t n = (Py_ssize_t)strlen(s);
    return k >= n && memcmp(b + k - n, s, (size_t)n) == 0;
}

static Py_ssize_t
rsp_step1a(const char *b, Py_ssize_t k)
{
    if (rsp_ends(b, k, "sses"))
        return k - 2;
    if (rsp_ends(b, k, "ies"))
        return k == 4 ? k - 1 : k - 2;
    if (rsp_ends(b, k, "ss"))
        return k;
    if (rsp_ends(b, k, "s"))
        return k - 1;
    return k;
}

/* step 1b's clean-up once "ed" or "ing" is removed (b has room for one more) */
static Py_ssize_t
rsp_after_1b(char *b, const unsigned char *f, Py_ssize_t k)
{
    char last = b[k - 1];
    if (rsp_ends(b, k, "at") || rsp_ends(b, k, "bl") || rsp_ends(b, k, "iz")) {
        b[k] = 'e';
        return k + 1;
    }
    if (k >= 2 && last == b[k - 2] && f[k - 1] && last != 'l' && last != 's' && last != 'z')
        return k - 1;
    if (rsp_cvc(b, f, k) && rsp_measure(f, k) == 1) {
        b[k] = 'e';
        return k + 1;
    }
    return k;
}

static Py_ssize_t
rsp_step1b(char *b, unsigned char *f, Py_ssize_t k)
{
    Py_ssize_t stem;
    if (rsp_ends(b, k, "ied"))
        return k == 4 ? k - 1 : k - 2;
    rsp_flags(b, k, f);
    if (rsp_ends(b, k, "eed"))
        return rsp_measure(f, k - 3) > 0 ? k - 1 : k;
    if (rsp_ends(b, k, "ed"))
        stem = k - 2;
    else if (rsp_ends(b, k, "ing"))
        stem = k - 3;
    else
        return k;
    if (!rsp_has_vowel(f, stem))
        return k;
    return stem > 0 ? rsp_after_1b(b, f, stem) : stem;
}

static Py_ssize_t
rsp_step1c(char *b, unsigned char *f, Py_ssize_t k)
{
    if (k > 2 && b[k - 1] == 'y') {
        rsp_flags(b, k - 1, f);
        if (f[k - 2])
            b[k - 1] = 'i';
    }
    return k;
}

typedef struct {
    const char *suffix;
    const char *replacement;
} RspRule;

/* longest suffixes first where one ends another */
static const RspRule rsp_step2_rules[] = {
    {"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"},
    {"izer", "ize"}, {"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"},
    {"ousli", "ous"}, {"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"},
    {"alism", "al"}, {"iveness", "ive"}, {"fulness", "ful"}, {"ousness", "ous"},
    {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"}, {"fulli", "ful"},
    {"logi", "log"}, {NULL, NULL},
};
static const RspRule rsp_step3_rules[] = {
    {"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"}, {"ical", "ic"},
    {"ful", ""}, {"ness", ""}, {NULL, NULL},
};
static const char *const rsp_step4_suffixes[] = {
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
    "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize", NULL,
};

/* The first rule whose suffix b ends with decides (m > 0 of the stem;
   "logi" is measured with its "l"). */
static Py_ssize_t
rsp_rules(char *b, const unsigned char *f, Py_ssize_t k, const RspRule *rules)
{
    for (; rules->suffix != NULL; rules++) {
        if (rsp_ends(b, k, rules->suffix)) {
            Py_ssize_t stem = k - (Py_ssize_t)strlen(rules->suffix);
            Py_ssize_t measured = strcmp(rules->suffix, "logi") == 0 ? stem + 1 : stem;
            size_t r = strlen(rules->replacement);
            if (rsp_measure(f, measured) <= 0)
                return k;
            memcpy(b + stem, rules->replacement, r);
            return stem + (Py_ssize_t)r;
        }
    }
    return k;
}

static Py_ssize_t
rsp_step2(char *b, unsigned char *f, Py_ssize_t k)
{
    rsp_flags(b, k, f);
    while (rsp_ends(b, k, "alli") && rsp_measure(f, k - 4) > 0) {
        k -= 2; /* "alli" -> "al", and the step again */
        rsp_flags(b, k, f);
    }
    return rsp_rules(b, f, k, rsp_step2_rules);
}

static Py_ssize_t
rsp_step3(char *b, unsigned char *f, Py_ssize_t k)
{
    rsp_flags(b, k, f);
    return rsp_rules(b, f, k, rsp_step3_rules);
}

static Py_ssize_t
rsp_step4(const char *b, unsigned char *f, Py_ssize_t k)
{
    const char *const *s;
    rsp_flags(b, k, f);
    for (s = rsp_step4_suffixes; *s != NULL; s++) {
        if (rsp_ends(b, k, *s)) {
            Py_ssize_t stem = k - (Py_ssize_t)strlen(*s);
            if (strcmp(*s, "ion") == 0 && !(stem > 0 && (b[stem - 1] == 's' || b[stem - 1] == 't')))
                return k;
            return rsp_measure(f, stem) > 1 ? stem : k;
        }
    }
    return k;
}

static Py_ssize_t
rsp_step5(const char *b, unsigned char *f, Py_ssize_t k)
{
    rsp_flags(b, k, f);
    if (k >= 1 && b[k - 1] == 'e') {
        Py_ssize_t m = rsp_measure(f, k - 1);
        if (m > 1 || (m == 1 && !rsp_cvc(b, f, k - 1)))
            k -= 1;
    }
    if (rsp_ends(b, k, "ll") && rsp_measure(f, k - 1) > 1)
        k -= 1;
    return k;
}

/* nltk's irregular forms: word, then its stem */
static const char *const rsp_irregular[] = {
    "skies", "sky", "sky", "sky", "dying", "die", "lying", "lie", "tying", "tie",
    "news", "news", "howe", "howe", "innings", "inning", "inning", "inning",
    "outings", "outing", "outing", "outing", "cannings", "canning", "canning", "canning",
    "proceed", "proceed", "exceed", "exceed", "succeed", "succeed", NULL,
};

/* Stem the lowercase ASCII word b[0:k] in place (b has room for k + 1
   characters, f for k); the stem's length. */
static Py_ssize_t
rsp_stem(char *b, unsigned char *f, Py_ssize_t k)
{
    const char *const *p;
    for (p = rsp_irregular; *p != NULL; p += 2) {
        size_t n = strlen(p[0]);
        if ((size_t)k == n && memcmp(b, p[0], n) == 0) {
            size_t r = strlen(p[1]);
            memcpy(b, p[1], r);
            return (Py_ssize_t)r;
        }
    }
    if (k <= 2)
        return k;
    k = rsp_step1a(b, k);
    k = rsp_step1b(b, f, k);
    k = rsp_step1c(b, f, k);
    k = rsp_step2(b, f, k);
    k = rsp_step3(b, f, k);
    k = rsp_step4(b, f, k);
    return rsp_step5(b, f, k);
}

/* ------------------------------------------------------------------ */
/* Scratch memory kept from call to call (the GIL is held throughout and */
/* nothing here calls back into Python, so no call can interleave).     */

static int
rs_reserve(void **data, Py_ssize_t *cap, Py_ssize_t need, size_t item)
{
    if (need > *cap) {
        Py_ssize_t c = *cap ? *cap : 64;
        void *bigger;
        while (c < need)
            c *= 2;
        bigger = PyMem_Realloc(*data, (size_t)c * item);
        if (bigger == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        *data = bigger;
        *cap = c;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Stems of words, process-wide: word -> stem, computed once.           */

#define RS_MAX_STEMS ((Py_ssize_t)1 << 20) /* then the memo starts afresh */

typedef struct {
    uint64_t hash;
    Py_ssize_t off; /* word, then its stem, in rs_memo_chars; -1 when empty */
    int32_t len, stem_len;
} RsMemo;

static RsMemo *rs_memo = NULL;
static Py_ssize_t rs_memo_size = 0, rs_memo_count = 0;
static char *rs_memo_chars = NULL;
static Py_ssize_t rs_memo_len = 0, rs_memo_cap = 0;
static char *rs_stem_buf = NULL;           /* a word being stemmed (+1 character) */
static unsigned char *rs_stem_flags = NULL; /* its letter classes */
static Py_ssize_t rs_stem_cap = 0, rs_stem_flags_cap = 0;

static uint64_t
rs_hash(const char *p, Py_ssize_t n)
{
    uint64_t h = 0xCBF29CE484222325ULL;
    Py_ssize_t k;
    for (k = 0; k < n; k++)
        h = (h ^ (unsigned char)p[k]) * 0x100000001B3ULL;
    h ^= h >> 31;
    h *= 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 29);
}

static int
rs_memo_grow(void)
{
    Py_ssize_t size = rs_memo_size ? rs_memo_size * 2 : (Py_ssize_t)1 << 12, i;
    RsMemo *fresh;
    if (rs_memo_count >= RS_MAX_STEMS) { /* start afresh */
        PyMem_Free(rs_memo);
        rs_memo = NULL;
        rs_memo_size = rs_memo_count = rs_memo_len = 0;
        size = (Py_ssize_t)1 << 12;
    }
    fresh = (RsMemo *)PyMem_Malloc((size_t)size * sizeof(RsMemo));
    if (fresh == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (i = 0; i < size; i++)
        fresh[i].off = -1;
    for (i = 0; i < rs_memo_size; i++) {
        if (rs_memo[i].off >= 0) {
            Py_ssize_t s = (Py_ssize_t)(rs_memo[i].hash & (uint64_t)(size - 1));
            while (fresh[s].off >= 0)
                s = (s + 1) & (size - 1);
            fresh[s] = rs_memo[i];
        }
    }
    PyMem_Free(rs_memo);
    rs_memo = fresh;
    rs_memo_size = size;
    return 0;
}

/* The stem of the word p[0:n] (n > 3): *stem points into the memo (valid
   until the next call of this function); its length, or -1 on no memory. */
static Py_ssize_t
rs_stem_of(const char *p, Py_ssize_t n, uint64_t h, const char **stem)
{
    Py_ssize_t s, k;
    if (2 * (rs_memo_count + 1) > rs_memo_size && rs_memo_grow() < 0)
        return -1;
    s = (Py_ssize_t)(h & (uint64_t)(rs_memo_size - 1));
    for (; rs_memo[s].off >= 0; s = (s + 1) & (rs_memo_size - 1)) {
        RsMemo *e = &rs_memo[s];
        if (e->hash == h && e->len == n && memcmp(rs_memo_chars + e->off, p, (size_t)n) == 0) {
            *stem = rs_memo_chars + e->off + n;
            return e->stem_len;
        }
    }
    if (rs_reserve((void **)&rs_stem_buf, &rs_stem_cap, n + 2, 1) < 0
        || rs_reserve((void **)&rs_stem_flags, &rs_stem_flags_cap, n + 2, 1) < 0)
        return -1;
    memcpy(rs_stem_buf, p, (size_t)n);
    k = rsp_stem(rs_stem_buf, rs_stem_flags, n);
    if (rs_reserve((void **)&rs_memo_chars, &rs_memo_cap, rs_memo_len + n + k, 1) < 0)
        return -1;
    memcpy(rs_memo_chars + rs_memo_len, p, (size_t)n);
    memcpy(rs_memo_chars + rs_memo_len + n, rs_stem_buf, (size_t)k);
    rs_memo[s].hash = h;
    rs_memo[s].off = rs_memo_len;
    rs_memo[s].len = (int32_t)n;
    rs_memo[s].stem_len = (int32_t)k;
    rs_memo_count++;
    *stem = rs_memo_chars + rs_memo_len + n;
    rs_memo_len += n + k;
    return k;
}

/* ------------------------------------------------------------------ */
/* The words of one call: string -> dense id 0, 1, ... (first met first). */
/* Entries of earlier calls are told apart by their generation, so the  */
/* table is never cleared.                                               */

typedef struct {
    uint64_t hash;
    Py_ssize_t off;   /* in rs_chars */
    int32_t len;
    uint32_t gen;     /* the call that made the entry */
    int32_t self_id;  /* the id of this string as a token, -1 until given */
    int32_t final_id; /* the id of the token this string makes as a word, -1 until known */
} RsEntry;

static RsEntry *rs_tab = NULL, *rs_tab2 = NULL;
static Py_ssize_t rs_tab_cap = 0, rs_tab2_cap = 0;
static Py_ssize_t rs_size = 0, rs_used = 0; /* this call's table size (a power of two) */
static uint32_t rs_gen = 0;
static char *rs_chars = NULL;
static Py_ssize_t rs_chars_len = 0, rs_chars_cap = 0;
static int32_t rs_nids = 0;

static void
rs_begin(void)
{
    if (++rs_gen == 0) { /* wrapped: forget every generation */
        Py_ssize_t i;
        for (i = 0; i < rs_tab_cap; i++)
            rs_tab[i].gen = 0;
        for (i = 0; i < rs_tab2_cap; i++)
            rs_tab2[i].gen = 0;
        rs_gen = 1;
    }
    rs_size = rs_tab_cap < 256 ? rs_tab_cap : 256;
    rs_used = 0;
    rs_chars_len = 0;
    rs_nids = 0;
}

/* Room for two more entries at a load of at most one half. */
static int
rs_room2(void)
{
    Py_ssize_t size, i;
    RsEntry *swap;
    if (2 * (rs_used + 2) <= rs_size)
        return 0;
    size = rs_size ? rs_size * 2 : 256;
    if (size > rs_tab2_cap) {
        RsEntry *bigger = (RsEntry *)PyMem_Realloc(rs_tab2, (size_t)size * sizeof(RsEntry));
        if (bigger == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        for (i = rs_tab2_cap; i < size; i++)
            bigger[i].gen = 0;
        rs_tab2 = bigger;
        rs_tab2_cap = size;
    }
    for (i = 0; i < size; i++)
        if (rs_tab2[i].gen == rs_gen)
            rs_tab2[i].gen = 0;
    for (i = 0; i < rs_size; i++) {
        if (rs_tab[i].gen == rs_gen) {
            Py_ssize_t s = (Py_ssize_t)(rs_tab[i].hash & (uint64_t)(size - 1));
            while (rs_tab2[s].gen == rs_gen)
                s = (s + 1) & (size - 1);
            rs_tab2[s] = rs_tab[i];
        }
    }
    swap = rs_tab;
    rs_tab = rs_tab2;
    rs_tab2 = swap;
    i = rs_tab_cap;
    rs_tab_cap = rs_tab2_cap;
    rs_tab2_cap = i;
    rs_size = size;
    return 0;
}

/* The entry of the string p[0:n] with hash h, made if new (room is there). */
static Py_ssize_t
rs_entry(const char *p, Py_ssize_t n, uint64_t h)
{
    Py_ssize_t s = (Py_ssize_t)(h & (uint64_t)(rs_size - 1));
    RsEntry *e;
    for (; rs_tab[s].gen == rs_gen; s = (s + 1) & (rs_size - 1)) {
        e = &rs_tab[s];
        if (e->hash == h && e->len == n) {
            const char *q = rs_chars + e->off;
            Py_ssize_t k = 0;
            while (k < n && q[k] == p[k])
                k++;
            if (k == n)
                return s;
        }
    }
    if (rs_reserve((void **)&rs_chars, &rs_chars_cap, rs_chars_len + n, 1) < 0)
        return -1;
    memcpy(rs_chars + rs_chars_len, p, (size_t)n);
    e = &rs_tab[s];
    e->hash = h;
    e->off = rs_chars_len;
    e->len = (int32_t)n;
    e->gen = rs_gen;
    e->self_id = e->final_id = -1;
    rs_chars_len += n;
    rs_used++;
    return s;
}

/* The token id of the word p[0:n] (its stem's with ``stem`` when n > 3). */
static int32_t
rs_word_id(const char *p, Py_ssize_t n, uint64_t h, int stem)
{
    Py_ssize_t e, f;
    if (rs_room2() < 0 || (e = rs_entry(p, n, h)) < 0)
        return -1;
    if (rs_tab[e].final_id >= 0)
        return rs_tab[e].final_id;
    f = e;
    if (stem && n > 3) {
        const char *st;
        Py_ssize_t k = rs_stem_of(p, n, h, &st);
        if (k < 0 || (f = rs_entry(st, k, rs_hash(st, k))) < 0)
            return -1;
    }
    if (rs_tab[f].self_id < 0)
        rs_tab[f].self_id = rs_nids++;
    rs_tab[e].final_id = rs_tab[f].self_id;
    return rs_tab[e].final_id;
}

/* ------------------------------------------------------------------ */
/* Texts to ids.                                                         */

typedef struct {
    int32_t *ids;
    Py_ssize_t len, cap;
    Py_ssize_t *lines; /* with lines: start of each line with a token, then the end */
    Py_ssize_t nlines, lines_cap;
} RsText;

static RsText rs_texts[2];
static char *rs_word = NULL;
static Py_ssize_t rs_word_cap = 0;

/* ASCII letters and digits -> lowercase, every other byte -> 0 */
static unsigned char rs_table[256];

static void
rs_table_init(void)
{
    int c;
    if (rs_table['a'])
        return;
    for (c = 'a'; c <= 'z'; c++)
        rs_table[c] = (unsigned char)c;
    for (c = 'A'; c <= 'Z'; c++)
        rs_table[c] = (unsigned char)(c + 32);
    for (c = '0'; c <= '9'; c++)
        rs_table[c] = (unsigned char)c;
}

static int
rs_add_token(RsText *out, int32_t id, int lines, Py_ssize_t *line_tokens)
{
    if (lines && *line_tokens == 0) {
        if (rs_reserve((void **)&out->lines, &out->lines_cap, out->nlines + 2, sizeof(Py_ssize_t)) < 0)
            return -1;
        out->lines[out->nlines++] = out->len;
    }
    if (rs_reserve((void **)&out->ids, &out->cap, out->len + 1, sizeof(int32_t)) < 0)
        return -1;
    out->ids[out->len++] = id;
    (*line_tokens)++;
    return 0;
}

/* Tokens of ``text`` (a str) as ids into ``out``; with ``lines``, where each line starts. */
static int
rs_analyze(PyObject *text, int stem, int lines, RsText *out)
{
    Py_ssize_t len, i = 0, line_tokens = 0;
    int kind;
    const void *data;

    out->len = out->nlines = 0;
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "texts must be str, not %.100s", Py_TYPE(text)->tp_name);
        return -1;
    }
    len = PyUnicode_GET_LENGTH(text);
    kind = PyUnicode_KIND(text);
    data = PyUnicode_DATA(text);
    if (rs_reserve((void **)&rs_word, &rs_word_cap, len + 1, 1) < 0)
        return -1;
    while (i < len) {
        Py_ssize_t n = 0;
        uint64_t h = 0xCBF29CE484222325ULL;
        int32_t id;
        if (kind == PyUnicode_1BYTE_KIND) { /* the common case: a byte a character */
            const Py_UCS1 *d = (const Py_UCS1 *)data;
            unsigned char c;
            for (; i < len && !rs_table[d[i]]; i++)
                if (d[i] == '\n')
                    line_tokens = 0;
            for (; i < len && (c = rs_table[d[i]]) != 0; i++) {
                rs_word[n++] = (char)c;
                h = (h ^ c) * 0x100000001B3ULL;
            }
        }
        else {
            for (; i < len; i++) { /* to the next word */
                Py_UCS4 ch = PyUnicode_READ(kind, data, i);
                if (ch < 128 && rs_table[ch])
                    break;
                if (ch == '\n')
                    line_tokens = 0;
            }
            for (; i < len; i++) { /* the word, lowercased and hashed */
                Py_UCS4 ch = PyUnicode_READ(kind, data, i);
                unsigned char c = ch < 128 ? rs_table[ch] : 0;
                if (!c)
                    break;
                rs_word[n++] = (char)c;
                h = (h ^ c) * 0x100000001B3ULL;
            }
        }
        if (n == 0)
            break;
        h ^= h >> 31;
        h *= 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
        id = rs_word_id(rs_word, n, h, stem);
        if (id < 0 || rs_add_token(out, id, lines, &line_tokens) < 0)
            return -1;
    }
    if (lines) {
        if (rs_reserve((void **)&out->lines, &out->lines_cap, out->nlines + 1, sizeof(Py_ssize_t)) < 0)
            return -1;
        out->lines[out->nlines++] = out->len;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Counting, on the call's ids 0 .. k-1.                                */

typedef struct {
    Py_ssize_t start; /* first position of the n-gram in t, -1 when empty */
    Py_ssize_t count; /* copies in t not matched yet */
} RsGram;

static Py_ssize_t *rs_left = NULL;
static Py_ssize_t rs_left_cap = 0;
static RsGram *rs_grams = NULL;
static Py_ssize_t rs_grams_cap = 0;
static int32_t *rs_rows = NULL;
static Py_ssize_t rs_rows_cap = 0;
static uint64_t *rs_masks = NULL;
static Py_ssize_t rs_masks_cap = 0;

static uint64_t
rs_gram_hash(const int32_t *x, Py_ssize_t n)
{
    uint64_t h = 0x243F6A8885A308D3ULL;
    Py_ssize_t i;
    for (i = 0; i < n; i++)
        h = (h ^ (uint32_t)x[i]) * 0x9E3779B97F4A7C15ULL + (h >> 29);
    return h ^ (h >> 32);
}

static Py_ssize_t
rs_unigram_hits(const int32_t *t, Py_ssize_t lt, const int32_t *p, Py_ssize_t lp, Py_ssize_t k)
{
    Py_ssize_t i, hits = 0;
    if (rs_reserve((void **)&rs_left, &rs_left_cap, k, sizeof(Py_ssize_t)) < 0)
        return -1;
    memset(rs_left, 0, (size_t)k * sizeof(Py_ssize_t));
    for (i = 0; i < lt; i++)
        rs_left[t[i]]++;
    for (i = 0; i < lp; i++)
        if (rs_left[p[i]] > 0) {
            rs_left[p[i]]--;
            hits++;
        }
    return hits;
}

/* Σ over distinct n-grams of min(count in t, count in p); -1 on no memory. */
static Py_ssize_t
rs_ngram_hits(const int32_t *t, Py_ssize_t lt, const int32_t *p, Py_ssize_t lp, Py_ssize_t n,
              Py_ssize_t k)
{
    Py_ssize_t nt = lt - n + 1, np = lp - n + 1, i, hits = 0, size = 16, mask;
    size_t bytes = (size_t)n * sizeof(int32_t);
    if (n < 1 || nt <= 0 || np <= 0)
        return 0;
    if (n == 1)
        return rs_unigram_hits(t, lt, p, lp, k);
    while (size < 2 * nt)
        size *= 2;
    mask = size - 1;
    if (rs_reserve((void **)&rs_grams, &rs_grams_cap, size, sizeof(RsGram)) < 0)
        return -1;
    for (i = 0; i < size; i++)
        rs_grams[i].start = -1;
    for (i = 0; i < nt; i++) {
        Py_ssize_t s = (Py_ssize_t)(rs_gram_hash(t + i, n) & (uint64_t)mask);
        while (rs_grams[s].start >= 0 && memcmp(t + rs_grams[s].start, t + i, bytes) != 0)
            s = (s + 1) & mask;
        if (rs_grams[s].start < 0) {
            rs_grams[s].start = i;
            rs_grams[s].count = 0;
        }
        rs_grams[s].count++;
    }
    for (i = 0; i < np; i++) {
        Py_ssize_t s = (Py_ssize_t)(rs_gram_hash(p + i, n) & (uint64_t)mask);
        for (; rs_grams[s].start >= 0; s = (s + 1) & mask) {
            if (memcmp(t + rs_grams[s].start, p + i, bytes) == 0) {
                if (rs_grams[s].count > 0) {
                    rs_grams[s].count--;
                    hits++;
                }
                break;
            }
        }
    }
    return hits;
}

/* Length of a longest common subsequence of a and b (ids < k): bit-parallel
   over the shorter one (Allison-Dix, Hyyro); -1 on no memory. */
static Py_ssize_t
rs_lcs(const int32_t *a, Py_ssize_t la, const int32_t *b, Py_ssize_t lb, Py_ssize_t k)
{
    const int32_t *x = la <= lb ? a : b, *y = la <= lb ? b : a;
    Py_ssize_t m = la <= lb ? la : lb, ly = la <= lb ? lb : la, words, rows = 0, i, w, zeros = 0;
    uint64_t *v;
    if (m == 0)
        return 0;
    words = (m + 63) / 64;
    if (rs_reserve((void **)&rs_rows, &rs_rows_cap, k, sizeof(int32_t)) < 0)
        return -1;
    for (i = 0; i < k; i++)
        rs_rows[i] = -1;
    for (i = 0; i < m; i++)
        if (rs_rows[x[i]] < 0)
            rs_rows[x[i]] = (int32_t)rows++;
    if (rs_reserve((void **)&rs_masks, &rs_masks_cap, (rows + 1) * words, sizeof(uint64_t)) < 0)
        return -1;
    memset(rs_masks, 0, (size_t)((rows + 1) * words) * sizeof(uint64_t));
    v = rs_masks + rows * words;
    for (i = 0; i < m; i++)
        rs_masks[rs_rows[x[i]] * words + i / 64] |= (uint64_t)1 << (i % 64);
    if (words == 1) {
        uint64_t v1 = ~(uint64_t)0;
        for (i = 0; i < ly; i++) {
            int32_t r = rs_rows[y[i]];
            if (r >= 0) {
                uint64_t u = v1 & rs_masks[r];
                v1 = (v1 + u) | (v1 & ~rs_masks[r]);
            }
        }
        v[0] = v1;
    }
    else {
        for (w = 0; w < words; w++)
            v[w] = ~(uint64_t)0;
        for (i = 0; i < ly; i++) {
            int32_t r = rs_rows[y[i]];
            const uint64_t *pm;
            uint64_t carry = 0;
            if (r < 0)
                continue;
            pm = rs_masks + (Py_ssize_t)r * words;
            for (w = 0; w < words; w++) {
                uint64_t u = v[w] & pm[w], sum = v[w] + u, out = sum + carry;
                carry = (uint64_t)(sum < u) | (uint64_t)(out < sum);
                v[w] = out | (v[w] & ~pm[w]);
            }
        }
    }
    for (i = 0; i < m; i++)
        zeros += !((v[i / 64] >> (i % 64)) & 1);
    return zeros;
}

/* ------------------------------------------------------------------ */
/* rougeLsum: per target line, the union of its positions on            */
/* rouge-score's LCS traceback against each prediction line; a marked   */
/* token is a hit while both texts have copies of it left.              */

static uint64_t *rs_columns = NULL, *rs_union = NULL;
static Py_ssize_t rs_columns_cap = 0, rs_union_cap = 0;
static Py_ssize_t *rs_left2 = NULL;
static Py_ssize_t rs_left2_cap = 0;

#if defined(__GNUC__) || defined(__clang__)
#define RS_HIGHBIT(x) (63 - __builtin_clzll(x))
#else
static int
RS_HIGHBIT(uint64_t x)
{
    int p = -1;
    while (x) {
        x >>= 1;
        p++;
    }
    return p;
}
#endif

/* OR into rs_union the positions of r (m ids; rows/masks of its position
   masks, ``words`` words each) on the traceback against c[0:n]: a diagonal
   step on equal ids, else towards earlier r positions on ties. */
static int
rs_marks(Py_ssize_t m, Py_ssize_t words, const int32_t *c, Py_ssize_t n)
{
    Py_ssize_t i, j, w, any = 0;
    uint64_t *v;
    if (rs_reserve((void **)&rs_columns, &rs_columns_cap, (n + 1) * words, sizeof(uint64_t)) < 0)
        return -1;
    v = rs_columns + n * words; /* the running column, after the n stored ones */
    for (w = 0; w < words; w++)
        v[w] = ~(uint64_t)0;
    for (j = 0; j < n; j++) {
        int32_t row = rs_rows[c[j]];
        if (row >= 0) {
            const uint64_t *pm = rs_masks + (Py_ssize_t)row * words;
            uint64_t carry = 0;
            any = 1;
            for (w = 0; w < words; w++) {
                uint64_t u = v[w] & pm[w], sum = v[w] + u, out = sum + carry;
                carry = (uint64_t)(sum < u) | (uint64_t)(out < sum);
                v[w] = out | (v[w] & ~pm[w]);
            }
        }
        memcpy(rs_columns + j * words, v, (size_t)words * sizeof(uint64_t));
    }
    if (!any)
        return 0;
    i = m;
    j = n;
    while (i > 0 && j > 0) {
        int32_t row = rs_rows[c[j - 1]];
        const uint64_t *match = row >= 0 ? rs_masks + (Py_ssize_t)row * words : NULL;
        const uint64_t *col = rs_columns + (j - 1) * words;
        Py_ssize_t p = -1;
        for (w = (i - 1) / 64; w >= 0; w--) {
            uint64_t bits = (match != NULL ? match[w] : 0) | ~col[w];
            Py_ssize_t limit = i - w * 64;
            if (limit < 64)
                bits &= ((uint64_t)1 << limit) - 1;
            if (bits) {
                p = w * 64 + RS_HIGHBIT(bits);
                break;
            }
        }
        if (p < 0)
            break;
        if (match != NULL && ((match[p / 64] >> (p % 64)) & 1)) {
            rs_union[p / 64] |= (uint64_t)1 << (p % 64);
            i = p;
        }
        else
            i = p + 1;
        j--;
    }
    return 0;
}

/* rougeLsum's hits of the target lines against the prediction lines (ids < k). */
static Py_ssize_t
rs_lsum_hits(const RsText *t, const RsText *p, Py_ssize_t k)
{
    Py_ssize_t s, q, i, hits = 0;
    Py_ssize_t *left_t, *left_p;
    if (rs_reserve((void **)&rs_left2, &rs_left2_cap, 2 * k, sizeof(Py_ssize_t)) < 0
        || rs_reserve((void **)&rs_rows, &rs_rows_cap, k, sizeof(int32_t)) < 0)
        return -1;
    left_t = rs_left2;
    left_p = rs_left2 + k;
    memset(rs_left2, 0, (size_t)(2 * k) * sizeof(Py_ssize_t));
    for (i = 0; i < k; i++)
        rs_rows[i] = -1;
    for (i = 0; i < t->len; i++)
        left_t[t->ids[i]]++;
    for (i = 0; i < p->len; i++)
        left_p[p->ids[i]]++;
    for (s = 0; s + 1 < t->nlines; s++) {
        const int32_t *r = t->ids + t->lines[s];
        Py_ssize_t m = t->lines[s + 1] - t->lines[s], words = (m + 63) / 64, rows = 0;
        for (i = 0; i < m; i++)
            if (rs_rows[r[i]] < 0)
                rs_rows[r[i]] = (int32_t)rows++;
        if (rs_reserve((void **)&rs_masks, &rs_masks_cap, rows * words, sizeof(uint64_t)) < 0
            || rs_reserve((void **)&rs_union, &rs_union_cap, words, sizeof(uint64_t)) < 0)
            return -1;
        memset(rs_masks, 0, (size_t)(rows * words) * sizeof(uint64_t));
        memset(rs_union, 0, (size_t)words * sizeof(uint64_t));
        for (i = 0; i < m; i++)
            rs_masks[rs_rows[r[i]] * words + i / 64] |= (uint64_t)1 << (i % 64);
        for (q = 0; q + 1 < p->nlines; q++)
            if (rs_marks(m, words, p->ids + p->lines[q], p->lines[q + 1] - p->lines[q]) < 0)
                return -1;
        for (i = 0; i < m; i++) {
            int32_t tok = r[i];
            rs_rows[tok] = -1;
            if (((rs_union[i / 64] >> (i % 64)) & 1) && left_p[tok] > 0 && left_t[tok] > 0) {
                hits++;
                left_p[tok]--;
                left_t[tok]--;
            }
        }
    }
    return hits;
}

/* ------------------------------------------------------------------ */
/* The Python functions.                                                 */

/* rouge-score's (precision, recall, F) of ``hits`` over the given totals,
   as Python evaluates hits / total and 2 * p * r / (p + r): the same floats. */
static PyObject *
rs_prf(Py_ssize_t hits, Py_ssize_t cand_total, Py_ssize_t ref_total)
{
    double precision = (double)hits / (double)cand_total, recall = (double)hits / (double)ref_total;
    double f = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
    return Py_BuildValue("(ddd)", precision, recall, f);
}

PyDoc_STRVAR(rouge_score_prf_doc,
"rouge_score_prf(target, prediction, orders, lcs, lsum, stem, /) -> tuple\n\n"
"rouge-score's (precision, recall, F) of prediction against target for each\n"
"n in orders (rougeN), then rougeL if lcs, then rougeLsum if lsum (the texts'\n"
"lines are its sentences); None for rougeL or rougeLsum when a text has no\n"
"token (rouge-score's int zero score).  Tokens as rouge_score.h says; stem:\n"
"None, or the nltk Porter definition (C uses its own copy of it).");

static PyObject *
rouge_score_prf(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const RsText *t = &rs_texts[0], *p = &rs_texts[1];
    PyObject *orders, *out;
    Py_ssize_t norders, j, size;
    int lcs, lsum, stem;

    if (nargs != 6) {
        PyErr_Format(PyExc_TypeError, "rouge_score_prf expected 6 arguments, got %zd", nargs);
        return NULL;
    }
    orders = args[2];
    if (!PyTuple_Check(orders)) {
        PyErr_SetString(PyExc_TypeError, "rouge_score_prf() orders must be a tuple of ints");
        return NULL;
    }
    if ((lcs = PyObject_IsTrue(args[3])) < 0 || (lsum = PyObject_IsTrue(args[4])) < 0)
        return NULL;
    stem = args[5] != Py_None;
    rs_table_init();
    rs_begin();
    if (rs_analyze(args[0], stem, lsum, &rs_texts[0]) < 0 || rs_analyze(args[1], stem, lsum, &rs_texts[1]) < 0)
        return NULL;
    norders = PyTuple_GET_SIZE(orders);
    size = norders + lcs + lsum;
    out = PyTuple_New(size);
    if (out == NULL)
        return NULL;
    for (j = 0; j < size; j++) {
        Py_ssize_t hits;
        PyObject *item;
        if (j < norders) {
            Py_ssize_t n = PyLong_AsSsize_t(PyTuple_GET_ITEM(orders, j));
            if (n == -1 && PyErr_Occurred())
                goto fail;
            if (n < 1) {
                PyErr_SetString(PyExc_ValueError, "rouge_score_prf() orders must be positive");
                goto fail;
            }
            hits = rs_ngram_hits(t->ids, t->len, p->ids, p->len, n, rs_nids);
            if (hits < 0)
                goto fail;
            /* max(count - n + 1, 1) n-grams on each side */
            item = rs_prf(hits, p->len >= n ? p->len - n + 1 : 1, t->len >= n ? t->len - n + 1 : 1);
        }
        else if (t->len == 0 || p->len == 0)
            item = Py_NewRef(Py_None);
        else {
            hits = lcs && j == norders ? rs_lcs(t->ids, t->len, p->ids, p->len, rs_nids)
                                       : rs_lsum_hits(t, p, rs_nids);
            if (hits < 0)
                goto fail;
            item = rs_prf(hits, p->len, t->len);
        }
        if (item == NULL)
            goto fail;
        PyTuple_SET_ITEM(out, j, item);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

PyDoc_STRVAR(nltk_porter_stem_doc,
"nltk_porter_stem(word, /) -> str\n\n"
"nltk's PorterStemmer().stem(word) (NLTK_EXTENSIONS) of a word of ASCII\n"
"lowercase letters and digits (rouge2.analysis.porter_nltk is the definition).");

static PyObject *
nltk_porter_stem_py(PyObject *self, PyObject *word)
{
    Py_ssize_t n, i, k;
    const char *s;
    if (!PyUnicode_Check(word) || !PyUnicode_IS_ASCII(word)) {
        PyErr_SetString(PyExc_ValueError, "nltk_porter_stem() takes an ASCII str");
        return NULL;
    }
    n = PyUnicode_GET_LENGTH(word);
    s = (const char *)PyUnicode_1BYTE_DATA(word);
    for (i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9'))) {
            PyErr_SetString(PyExc_ValueError, "nltk_porter_stem() takes [a-z0-9] characters only");
            return NULL;
        }
    if (rs_reserve((void **)&rs_stem_buf, &rs_stem_cap, n + 2, 1) < 0
        || rs_reserve((void **)&rs_stem_flags, &rs_stem_flags_cap, n + 2, 1) < 0)
        return NULL;
    memcpy(rs_stem_buf, s, (size_t)n);
    k = rsp_stem(rs_stem_buf, rs_stem_flags, n);
    return PyUnicode_FromStringAndSize(rs_stem_buf, k);
}

static PyMethodDef rs_methods[] = {
    {"rouge_score_prf", (PyCFunction)(void (*)(void))rouge_score_prf, METH_FASTCALL,
     rouge_score_prf_doc},
    {"nltk_porter_stem", (PyCFunction)nltk_porter_stem_py, METH_O, nltk_porter_stem_doc},
    {NULL, NULL, 0, NULL},
};

/* Called from PyInit__speedups: adds the functions above to the module. */
static int
rs_add_functions(PyObject *module)
{
    return PyModule_AddFunctions(module, rs_methods);
}
