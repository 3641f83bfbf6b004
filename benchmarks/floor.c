/*
 * The floor: a minimal C program that tokenizes, interns and counts
 * ROUGE-1, ROUGE-2 and ROUGE-L (flat LCS) of (candidate, reference) pairs
 * with ROUGE-1.5.5's tokens, and computes their P, R and F.  No Python, no
 * result objects, nothing but the work itself: what rouge2's batch path is
 * measured against (benchmarks/bench_floor.py builds and runs it; it is not
 * part of the package).
 *
 *   floor PAIRS_FILE REPS [F_OUT]
 *
 * PAIRS_FILE: per pair, the candidate and the reference, each as a 4-byte
 * little-endian length and that many UTF-8 bytes.  Each of REPS timed runs
 * scores every pair (each pair's texts tokenized and interned afresh into
 * one process-wide vocabulary, as a straightforward program would; with
 * REPS 0 only the file is read).  Prints "pairs=N reps=R cpu=S checksum=C"
 * (S: CPU seconds of the timed runs, CLOCK_PROCESS_CPUTIME_ID).  F_OUT
 * gets the F values (float64, R1 R2 L per pair) of the last run.
 *
 * Tokens: maximal runs of ASCII letters and digits, lowercased (every
 * other byte separates them, so non-ASCII text vanishes as in ROUGE-1.5.5).
 * Counting: clipped unigram hits through per-id counts, clipped bigram hits
 * through a hash table of packed id pairs, the LCS bit-parallel over 64-bit
 * words with per-id position masks (Hyyrö).  F = P R / (0.5 P + 0.5 R).
 */

#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    uint64_t hash;
    int32_t id;
} Slot;

static Slot *slots;
static size_t nslots, nwords;
static char **words;
static uint32_t *wlen;

static void *
xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

static void
grow(void)
{
    size_t n = nslots ? 2 * nslots : 1 << 16, i;
    Slot *fresh = xrealloc(NULL, n * sizeof(Slot));
    for (i = 0; i < n; i++)
        fresh[i].id = -1;
    for (i = 0; i < nslots; i++)
        if (slots[i].id >= 0) {
            size_t s = slots[i].hash & (n - 1);
            while (fresh[s].id >= 0)
                s = (s + 1) & (n - 1);
            fresh[s] = slots[i];
        }
    free(slots);
    slots = fresh;
    nslots = n;
    words = xrealloc(words, n / 2 * sizeof(char *));
    wlen = xrealloc(wlen, n / 2 * sizeof(uint32_t));
}

static int32_t
intern(const char *p, uint32_t n, uint64_t h)
{
    size_t s;
    if (2 * (nwords + 1) > nslots)
        grow();
    s = h & (nslots - 1);
    while (slots[s].id >= 0) {
        if (slots[s].hash == h && wlen[slots[s].id] == n && memcmp(words[slots[s].id], p, n) == 0)
            return slots[s].id;
        s = (s + 1) & (nslots - 1);
    }
    words[nwords] = xrealloc(NULL, n);
    memcpy(words[nwords], p, n);
    wlen[nwords] = n;
    slots[s].hash = h;
    slots[s].id = (int32_t)nwords;
    return (int32_t)nwords++;
}

static inline uint64_t
mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9E3779B97F4A7C15ULL;
    x ^= x >> 29;
    return x;
}

static unsigned char table[256];

/* Tokens of p[0:n] as ids into out; returns the count. */
static size_t
tokenize(const unsigned char *p, size_t n, int32_t *out, char *buf)
{
    size_t i = 0, k = 0;
    while (i < n) {
        size_t len = 0;
        uint64_t h = 0xCBF29CE484222325ULL;
        while (i < n && !table[p[i]])
            i++;
        while (i < n && table[p[i]]) {
            unsigned char c = table[p[i++]];
            buf[len++] = (char)c;
            h = (h ^ c) * 0x100000001B3ULL;
        }
        if (len)
            out[k++] = intern(buf, (uint32_t)len, mix(h));
    }
    return k;
}

static int32_t *cnt;      /* per id, zero between uses */
static int32_t *rowmap;   /* per id: LCS mask row + 1 */
static size_t ncnt;

static void
ensure_ids(void)
{
    if (nwords > ncnt) {
        size_t n = ncnt ? ncnt : 1 << 16;
        while (n < nwords)
            n *= 2;
        cnt = xrealloc(cnt, n * sizeof(int32_t));
        rowmap = xrealloc(rowmap, n * sizeof(int32_t));
        memset(cnt + ncnt, 0, (n - ncnt) * sizeof(int32_t));
        memset(rowmap + ncnt, 0, (n - ncnt) * sizeof(int32_t));
        ncnt = n;
    }
}

static size_t
unigram_hits(const int32_t *c, size_t nc, const int32_t *r, size_t nr)
{
    size_t i, h = 0;
    for (i = 0; i < nc; i++)
        cnt[c[i]]++;
    for (i = 0; i < nr; i++)
        if (cnt[r[i]] > 0) {
            cnt[r[i]]--;
            h++;
        }
    for (i = 0; i < nc; i++)
        cnt[c[i]] = 0;
    return h;
}

typedef struct {
    uint64_t key;
    int32_t count;
    uint32_t stamp;
} KSlot;

static KSlot *kt;
static size_t nkt;
static uint32_t stamp;

static size_t
bigram_hits(const int32_t *c, size_t nc, const int32_t *r, size_t nr)
{
    size_t size = 16, i, h = 0;
    if (nc < 2 || nr < 2)
        return 0;
    while (size < 2 * (nc - 1))
        size <<= 1;
    if (size > nkt) {
        free(kt);
        kt = calloc(size, sizeof(KSlot));
        nkt = size;
        stamp = 0;
    }
    stamp++;
    for (i = 0; i + 1 < nc; i++) {
        uint64_t key = ((uint64_t)(uint32_t)c[i] << 32) | (uint32_t)c[i + 1];
        size_t s = mix(key) & (size - 1);
        for (;;) {
            KSlot *e = &kt[s];
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
            s = (s + 1) & (size - 1);
        }
    }
    for (i = 0; i + 1 < nr; i++) {
        uint64_t key = ((uint64_t)(uint32_t)r[i] << 32) | (uint32_t)r[i + 1];
        size_t s = mix(key) & (size - 1);
        for (;;) {
            KSlot *e = &kt[s];
            if (e->stamp != stamp)
                break;
            if (e->key == key) {
                if (e->count > 0) {
                    e->count--;
                    h++;
                }
                break;
            }
            s = (s + 1) & (size - 1);
        }
    }
    return h;
}

static uint64_t *masks;
static size_t nmasks;

/* LCS length of a (m ids) and b, bit-parallel over a. */
static size_t
lcs(const int32_t *a, size_t m, const int32_t *b, size_t nb)
{
    size_t words_ = (m + 63) / 64, i, j, w, rows = 0, result;
    uint64_t top = (m % 64) ? ((UINT64_C(1) << (m % 64)) - 1) : ~UINT64_C(0), *v;
    if (m == 0 || nb == 0)
        return 0;
    if ((m + 1) * words_ > nmasks) {
        nmasks = 2 * (m + 1) * words_;
        masks = xrealloc(masks, nmasks * sizeof(uint64_t));
    }
    for (i = 0; i < m; i++) {
        int32_t r = rowmap[a[i]];
        if (r == 0) {
            r = rowmap[a[i]] = (int32_t)++rows;
            memset(masks + (r - 1) * words_, 0, words_ * sizeof(uint64_t));
        }
        masks[(r - 1) * words_ + i / 64] |= UINT64_C(1) << (i % 64);
    }
    v = masks + rows * words_;
    for (w = 0; w < words_; w++)
        v[w] = ~UINT64_C(0);
    v[words_ - 1] = top;
    for (j = 0; j < nb; j++) {
        int32_t r = rowmap[b[j]];
        if (r) {
            const uint64_t *mk = masks + (r - 1) * words_;
            uint64_t carry = 0;
            for (w = 0; w < words_; w++) {
                uint64_t x = v[w], u = x & mk[w], t = x + u, c1 = t < x, s = t + carry;
                carry = c1 | (s < t);
                v[w] = s | (x & ~mk[w]);
            }
            v[words_ - 1] &= top;
        }
    }
    result = m;
    for (w = 0; w < words_; w++)
        result -= (size_t)__builtin_popcountll(v[w]);
    for (i = 0; i < m; i++)
        rowmap[a[i]] = 0;
    return result;
}

static double
fmeasure(double hit, double rtot, double ctot)
{
    double r = rtot ? hit / rtot : 0.0, p = ctot ? hit / ctot : 0.0, d = 0.5 * p + 0.5 * r;
    return d > 0 ? p * r / d : 0.0;
}

int
main(int argc, char **argv)
{
    FILE *f;
    unsigned char *data;
    size_t size, npairs = 0, off, *offs = NULL, cap = 0, maxlen = 0, rep, reps, p;
    int32_t *ci, *ri;
    char *buf;
    double checksum = 0.0, *fout = NULL, cpu;
    struct timespec t0, t1;
    int c;

    if (argc < 3) {
        fprintf(stderr, "usage: floor PAIRS_FILE REPS [F_OUT]\n");
        return 2;
    }
    for (c = 'a'; c <= 'z'; c++)
        table[c] = (unsigned char)c;
    for (c = 'A'; c <= 'Z'; c++)
        table[c] = (unsigned char)(c + 32);
    for (c = '0'; c <= '9'; c++)
        table[c] = (unsigned char)c;
    f = fopen(argv[1], "rb");
    if (f == NULL) {
        perror(argv[1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    data = xrealloc(NULL, size + 1);
    if (fread(data, 1, size, f) != size) {
        fprintf(stderr, "short read\n");
        return 2;
    }
    fclose(f);
    for (off = 0; off + 4 <= size;) { /* each text's offset: cand, ref, cand, ref ... */
        uint32_t n;
        memcpy(&n, data + off, 4);
        if (npairs + 1 > cap) {
            cap = cap ? 2 * cap : 1024;
            offs = xrealloc(offs, cap * sizeof(size_t));
        }
        offs[npairs++] = off;
        off += 4 + n;
        if (n > maxlen)
            maxlen = n;
    }
    npairs /= 2; /* two texts a pair */
    ci = xrealloc(NULL, (maxlen + 1) * sizeof(int32_t));
    ri = xrealloc(NULL, (maxlen + 1) * sizeof(int32_t));
    buf = xrealloc(NULL, maxlen + 1);
    reps = (size_t)strtoul(argv[2], NULL, 10);
    if (argc > 3)
        fout = xrealloc(NULL, (3 * npairs + 1) * sizeof(double));
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (rep = 0; rep < reps; rep++) {
        for (p = 0; p < npairs; p++) {
            uint32_t nc, nr;
            size_t tc, tr, h1, h2, hl;
            double f1, f2, fl;
            memcpy(&nc, data + offs[2 * p], 4);
            memcpy(&nr, data + offs[2 * p + 1], 4);
            tc = tokenize(data + offs[2 * p] + 4, nc, ci, buf);
            tr = tokenize(data + offs[2 * p + 1] + 4, nr, ri, buf);
            ensure_ids();
            h1 = unigram_hits(ci, tc, ri, tr);
            h2 = bigram_hits(ci, tc, ri, tr);
            hl = lcs(ri, tr, ci, tc);
            f1 = fmeasure((double)h1, (double)tr, (double)tc);
            f2 = fmeasure((double)h2, tr > 1 ? (double)(tr - 1) : 0.0, tc > 1 ? (double)(tc - 1) : 0.0);
            fl = fmeasure((double)hl, (double)tr, (double)tc);
            checksum += f1 + f2 + fl;
            if (fout != NULL) {
                fout[3 * p] = f1;
                fout[3 * p + 1] = f2;
                fout[3 * p + 2] = fl;
            }
        }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    cpu = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("pairs=%zu reps=%zu cpu=%.6f checksum=%.17g words=%zu\n", npairs, reps, cpu, checksum, nwords);
    if (fout != NULL) {
        f = fopen(argv[3], "wb");
        if (f == NULL || fwrite(fout, sizeof(double), 3 * npairs, f) != 3 * npairs) {
            perror(argv[3]);
            return 2;
        }
        fclose(f);
    }
    return 0;
}
