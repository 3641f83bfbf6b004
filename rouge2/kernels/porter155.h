/* ROUGE-1.5.5's Porter variant in C: the same rules as porter_stem in
 * rouge2/analysis/stem.py, which stays the definition (tests compare the two
 * on every exception-list word, the SummEval vocabulary and generated words).
 *
 * The Python version is written with regular expressions; each one is used
 * only for whether it matches, so here each is an exact test of the same
 * language.  The "measure" patterns (^(C)?VC..., with C = [^aeiou][^aeiouy]*
 * and V = [aeiouy][aeiou]*) are run as a set-of-positions simulation of the
 * pattern, which is what a backtracking search decides, so no hand-derived
 * shortcut stands between the two versions.
 *
 * Input: bytes of one word, already ASCII-lowercased by the caller, none of
 * them '\n' (a regex '$' in Python also matches before a final newline; the
 * caller leaves such words to Python).  Any other byte is a consonant, as
 * in the Python patterns.  The stem is never longer than the word.
 *
 * Self-contained: include it and call porter155_stem.
 */

#ifndef ROUGE2_PORTER155_H
#define ROUGE2_PORTER155_H

#include <stddef.h>
#include <string.h>

/* [aeiou] */
static inline int
p155_is_V(unsigned char ch)
{
    return ch == 'a' || ch == 'e' || ch == 'i' || ch == 'o' || ch == 'u';
}

/* [aeiouy] */
static inline int
p155_is_v(unsigned char ch)
{
    return p155_is_V(ch) || ch == 'y';
}

/* Positions reachable after a C group (= [^aeiou][^aeiouy]*) started at any
 * position in `in`: out[k+1] is set when some start i <= k is in `in`, s[i]
 * is not in [aeiou] and s[i+1..k] are all outside [aeiouy].  out[0] = 0. */
static void
p155_step_C(const unsigned char *s, size_t n, const unsigned char *in, unsigned char *out)
{
    int active = 0;
    out[0] = 0;
    for (size_t k = 0; k < n; k++) {
        unsigned char ch = s[k];
        active = (in[k] && !p155_is_V(ch)) || (active && !p155_is_v(ch));
        out[k + 1] = (unsigned char)active;
    }
}

/* Positions reachable after a V group (= [aeiouy][aeiou]*). */
static void
p155_step_V(const unsigned char *s, size_t n, const unsigned char *in, unsigned char *out)
{
    int active = 0;
    out[0] = 0;
    for (size_t k = 0; k < n; k++) {
        unsigned char ch = s[k];
        active = (in[k] && p155_is_v(ch)) || (active && p155_is_V(ch));
        out[k + 1] = (unsigned char)active;
    }
}

/* Start set of ^(C)?: position 0, and every end of a C group from 0.
 * `tmp` and `out` are n + 1 bytes each. */
static void
p155_start_optC(const unsigned char *s, size_t n, unsigned char *tmp, unsigned char *out)
{
    memset(tmp, 0, n + 1);
    tmp[0] = 1;
    p155_step_C(s, n, tmp, out);
    out[0] = 1;
}

static inline int
p155_any(const unsigned char *set, size_t n)
{
    for (size_t k = 0; k <= n; k++)
        if (set[k])
            return 1;
    return 0;
}

/* The measure tests on s[0:n].  `scratch` has at least 2 * (n + 1) bytes.
 *   kind 0: ^(C)?VC          (measure > 0)
 *   kind 1: ^(C)?VC(V)?$     (measure == 1)
 *   kind 2: ^(C)?VCVC        (measure > 1)                              */
static int
p155_measure(const unsigned char *s, size_t n, int kind, unsigned char *scratch)
{
    unsigned char *a = scratch, *b = scratch + (n + 1);
    p155_start_optC(s, n, a, b); /* b: after (C)? */
    p155_step_V(s, n, b, a);     /* a: after V */
    p155_step_C(s, n, a, b);     /* b: after VC */
    if (kind == 0)
        return p155_any(b, n);
    if (kind == 1) {
        if (b[n])
            return 1;            /* (V)? empty */
        p155_step_V(s, n, b, a); /* a: after VCV */
        return a[n];
    }
    p155_step_V(s, n, b, a);
    p155_step_C(s, n, a, b);
    return p155_any(b, n);
}

/* ^(C)?[aeiouy]: the stem contains a vowel after an optional C group. */
static int
p155_has_vowel(const unsigned char *s, size_t n, unsigned char *scratch)
{
    unsigned char *a = scratch, *b = scratch + (n + 1);
    p155_start_optC(s, n, a, b);
    for (size_t k = 0; k < n; k++)
        if (b[k] && p155_is_v(s[k]))
            return 1;
    return 0;
}

/* ^C[aeiouy][^aeiouwxy]$ with C = [^aeiou][^aeiouy]*. */
static int
p155_cvc(const unsigned char *s, size_t n)
{
    if (n < 3)
        return 0;
    unsigned char last = s[n - 1];
    if (p155_is_v(last) || last == 'w' || last == 'x')
        return 0;
    if (!p155_is_v(s[n - 2]))
        return 0;
    /* s[0:n-2] must be one C group */
    if (p155_is_V(s[0]))
        return 0;
    for (size_t k = 1; k < n - 2; k++)
        if (p155_is_v(s[k]))
            return 0;
    return 1;
}

static inline int
p155_ends(const unsigned char *w, size_t n, const char *suf)
{
    size_t m = strlen(suf);
    return m <= n && memcmp(w + n - m, suf, m) == 0;
}

/* One suffix rule: the suffix, its replacement, and their lengths. */
typedef struct {
    const char *suf;
    const char *rep;
    unsigned char len, rlen;
} P155Rule;

#define P155_RULE(s, r) {s, r, (unsigned char)(sizeof(s) - 1), (unsigned char)(sizeof(r) - 1)}

static const P155Rule p155_step2[] = {
    P155_RULE("ational", "ate"), P155_RULE("tional", "tion"), P155_RULE("enci", "ence"),
    P155_RULE("anci", "ance"), P155_RULE("izer", "ize"), P155_RULE("bli", "ble"),
    P155_RULE("alli", "al"), P155_RULE("entli", "ent"), P155_RULE("eli", "e"),
    P155_RULE("ousli", "ous"), P155_RULE("ization", "ize"), P155_RULE("ation", "ate"),
    P155_RULE("ator", "ate"), P155_RULE("alism", "al"), P155_RULE("iveness", "ive"),
    P155_RULE("fulness", "ful"), P155_RULE("ousness", "ous"), P155_RULE("aliti", "al"),
    P155_RULE("iviti", "ive"), P155_RULE("biliti", "ble"), P155_RULE("logi", "log"),
};
static const P155Rule p155_step3[] = {
    P155_RULE("icate", "ic"), P155_RULE("ative", ""), P155_RULE("alize", "al"),
    P155_RULE("iciti", "ic"), P155_RULE("ical", "ic"), P155_RULE("ful", ""),
    P155_RULE("ness", ""),
};
static const P155Rule p155_step4[] = {
    P155_RULE("al", ""), P155_RULE("ance", ""), P155_RULE("ence", ""), P155_RULE("er", ""),
    P155_RULE("ic", ""), P155_RULE("able", ""), P155_RULE("ible", ""), P155_RULE("ant", ""),
    P155_RULE("ement", ""), P155_RULE("ou", ""), P155_RULE("ism", ""), P155_RULE("ate", ""),
    P155_RULE("iti", ""), P155_RULE("ous", ""), P155_RULE("ive", ""), P155_RULE("ize", ""),
};

#define P155_COUNT(t) ((int)(sizeof(t) / sizeof((t)[0])))

/* The longest rule whose suffix ends w[0:n], or NULL.  A regex search for
 * (a|b|...)$ finds the leftmost start, i.e. the longest listed suffix. */
static const P155Rule *
p155_longest(const unsigned char *w, size_t n, const P155Rule *rules, int count)
{
    const P155Rule *best = NULL;
    if (n == 0)
        return NULL;
    for (int i = 0; i < count; i++) {
        const P155Rule *r = &rules[i];
        if (r->len <= n && (unsigned char)r->suf[r->len - 1] == w[n - 1]
            && (best == NULL || r->len > best->len)
            && memcmp(w + n - r->len, r->suf, r->len) == 0)
            best = r;
    }
    return best;
}

/* Replace the suffix of length `cut` by rep[0:rlen] when the remaining stem
 * passes the measure test `kind`. */
static void
p155_replace_if(unsigned char *w, size_t *n, size_t cut, const char *rep, size_t rlen, int kind,
                unsigned char *scratch)
{
    size_t stem = *n - cut;
    if (p155_measure(w, stem, kind, scratch)) {
        memcpy(w + stem, rep, rlen);
        *n = stem + rlen;
    }
}

/* Stem word[0:n] into out (room for n bytes); returns the stem's length.
 * `scratch` has at least 2 * (n + 1) bytes. */
static size_t
porter155_stem(const char *word, size_t n, char *out_, unsigned char *scratch)
{
    unsigned char *w = (unsigned char *)out_;
    memcpy(w, word, n);
    if (n < 3)
        return n;
    int initial_y = w[0] == 'y';
    if (initial_y)
        w[0] = 'Y';

    /* step 1a: (ss|i)es$ -> drop "es"; else ([^s])s$ -> drop "s" */
    if (p155_ends(w, n, "sses") || p155_ends(w, n, "ies"))
        n -= 2;
    else if (n >= 2 && w[n - 1] == 's' && w[n - 2] != 's')
        n -= 1;

    /* step 1b */
    if (p155_ends(w, n, "eed")) {
        if (p155_measure(w, n - 3, 0, scratch))
            n -= 1;
    }
    else {
        size_t cut = p155_ends(w, n, "ed") ? 2 : p155_ends(w, n, "ing") ? 3 : 0;
        if (cut && p155_has_vowel(w, n - cut, scratch)) {
            n -= cut;
            if (p155_ends(w, n, "at") || p155_ends(w, n, "bl") || p155_ends(w, n, "iz"))
                w[n++] = 'e';
            else if (n >= 2 && w[n - 1] == w[n - 2] && !p155_is_v(w[n - 1]) && w[n - 1] != 'l'
                     && w[n - 1] != 's' && w[n - 1] != 'z')
                n -= 1;
            else if (p155_cvc(w, n))
                w[n++] = 'e';
        }
    }

    /* step 1c: y$ -> i when the stem has a vowel */
    if (n >= 1 && w[n - 1] == 'y' && p155_has_vowel(w, n - 1, scratch))
        w[n - 1] = 'i';

    /* step 2 */
    const P155Rule *r = p155_longest(w, n, p155_step2, P155_COUNT(p155_step2));
    if (r != NULL)
        p155_replace_if(w, &n, r->len, r->rep, r->rlen, 0, scratch);

    /* step 3 */
    r = p155_longest(w, n, p155_step3, P155_COUNT(p155_step3));
    if (r != NULL)
        p155_replace_if(w, &n, r->len, r->rep, r->rlen, 0, scratch);

    /* step 4, modified: the list (with -ement), then -ment, then -ent or else -(s|t)ion */
    r = p155_longest(w, n, p155_step4, P155_COUNT(p155_step4));
    if (r != NULL)
        p155_replace_if(w, &n, r->len, "", 0, 2, scratch);
    if (p155_ends(w, n, "ment"))
        p155_replace_if(w, &n, 4, "", 0, 2, scratch);
    if (p155_ends(w, n, "ent"))
        p155_replace_if(w, &n, 3, "", 0, 2, scratch);
    else if (p155_ends(w, n, "sion") || p155_ends(w, n, "tion"))
        p155_replace_if(w, &n, 3, "", 0, 2, scratch);

    /* step 5 */
    if (n >= 1 && w[n - 1] == 'e') {
        size_t stem = n - 1;
        if (p155_measure(w, stem, 2, scratch)
            || (p155_measure(w, stem, 1, scratch) && !p155_cvc(w, stem)))
            n = stem;
    }
    if (p155_ends(w, n, "ll") && p155_measure(w, n, 2, scratch))
        n -= 1;

    if (initial_y && n >= 1 && w[0] >= 'A' && w[0] <= 'Z')
        w[0] = (unsigned char)(w[0] - 'A' + 'a');
    return n;
}

#endif /* ROUGE2_PORTER155_H */
