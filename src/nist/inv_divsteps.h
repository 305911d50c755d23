/*
 * Constant-time modular inversion by Bernstein-Yang divsteps ("Fast
 * constant-time gcd computation and modular inversion", CHES 2019), a
 * template: the includer defines
 *   DS_NAME     the function's name: void DS_NAME(uint64_t r[DS_NL], const uint64_t a[DS_NL])
 *   DS_NL       64-bit limbs of an element (4 or 6)
 *   DS_MUL      Montgomery multiplication mod m: DS_MUL(r, a, b) = a b / 2^(64 DS_NL)
 *   DS_ADD, DS_NEG   addition and negation mod m
 *   DS_MOD      the odd modulus m, DS_NL limbs
 *   DS_K        R^(DS_BATCHES + 3) 2^(-62 DS_BATCHES) mod m (params.h)
 *   DS_BATCHES  batches of 62 divsteps: 13 for 256 bits, 19 for 384
 * and includes this file once. Needs unsigned __int128 and __int128.
 *
 * r = 1 / a in Montgomery form (a = x R: r = x^-1 R), 0 for a = 0.
 * Pre: a < m. Constant time: the number of divsteps is fixed, every step
 * is branch-free arithmetic on masks.
 *
 * Method. With delta = 1, f = m, g = a (the integer a's limbs hold), the
 * divstep of the paper, section 8:
 *   delta > 0 and g odd:  (delta, f, g) <- (1 - delta, g, (g - f) / 2)
 *   g odd otherwise:      (delta, f, g) <- (1 + delta, f, (g + f) / 2)
 *   g even:               (delta, f, g) <- (1 + delta, f, g / 2)
 * reaches g = 0, f = +-gcd = +-1, within iter(d) = floor((49 d + 57) / 17)
 * steps for f, g < 2^d, d >= 46 (Theorem 11.2): 741 for d = 256, 1110 for
 * d = 384; we run 13 * 62 = 806 and 19 * 62 = 1178 (more steps leave g = 0
 * and f unchanged). Each batch of 62 steps is worked out on the low 64
 * bits of f and g (the parity of g at step i depends on its low i + 1
 * bits) as a matrix T with 2^62 (f', g') = T (f, g), then applied to the
 * full f, g (signed, radix 2^62). Beside them d, e with f = d a, g = e a
 * (mod m) times a known power of 2^-62: d and e live mod m and are updated
 * with Montgomery products by T's entries, which multiplies them by R^-1 a
 * batch; K undoes the 2^(-62) and R factors of every batch, the final R
 * of the result and the R in a.
 */

#if !defined(DS_NAME) || !defined(DS_NL) || !defined(DS_BATCHES)
#error "define DS_NAME, DS_NL, DS_MUL, DS_ADD, DS_NEG, DS_MOD, DS_K, DS_BATCHES first"
#endif

#ifndef DS_CAT
#define DS_CAT2(a, b) a##b
#define DS_CAT(a, b) DS_CAT2(a, b)
#endif

/* Radix-2^62 limbs of a signed value up to 2^(64 DS_NL + 1) in magnitude. */
#define DS_L ((64 * DS_NL + 2 + 61) / 62)
#define DS_M62 ((uint64_t)0x3fffffffffffffffull)

/* 62 divsteps on the low 64 bits of f and g. Post: t = (u, v, q, r) with
 * 2^62 f' = u f + v g, 2^62 g' = q f + r g, |u| + |v| <= 2^62 and likewise
 * q, r; delta updated. */
static void DS_CAT(DS_NAME, _batch)(int64_t *delta, uint64_t f, uint64_t g, int64_t t[4])
{
    uint64_t u = 1, v = 0, q = 0, r = 1;
    int64_t d = *delta;
    for (int i = 0; i < 62; i++) {
        uint64_t odd = vg_barrier_u64(0 - (g & 1));
        /* delta > 0: -delta < 0, so its sign bit is set. */
        uint64_t swap = odd & (uint64_t)((0 - d) >> 63);
        swap = vg_barrier_u64(swap);
        /* swap: delta = -delta, (f, g) = (g, -f), (u, v, q, r) = (q, r, -u, -v) */
        d = (int64_t)(((uint64_t)d ^ swap) - swap);
        uint64_t x = (f ^ g) & swap;
        f ^= x;
        g ^= x;
        g = (g ^ swap) - swap;
        x = (u ^ q) & swap;
        u ^= x;
        q ^= x;
        q = (q ^ swap) - swap;
        x = (v ^ r) & swap;
        v ^= x;
        r ^= x;
        r = (r ^ swap) - swap;
        /* g odd: g += f (now even), and its row gets the f row */
        g += f & odd;
        q += u & odd;
        r += v & odd;
        /* halve g: doubling the f row instead keeps the matrix integral */
        d += 1;
        g >>= 1;
        u <<= 1;
        v <<= 1;
    }
    *delta = d;
    t[0] = (int64_t)u;
    t[1] = (int64_t)v;
    t[2] = (int64_t)q;
    t[3] = (int64_t)r;
}

/* (f, g) = T (f, g) / 2^62, radix 2^62 signed (top limb signed, the others
 * in [0, 2^62)). The division is exact by construction of T. */
static void DS_CAT(DS_NAME, _apply_fg)(int64_t f[DS_L], int64_t g[DS_L], const int64_t t[4])
{
    __int128 cf = (__int128)t[0] * f[0] + (__int128)t[1] * g[0];
    __int128 cg = (__int128)t[2] * f[0] + (__int128)t[3] * g[0];
    cf >>= 62; /* the low 62 bits are zero */
    cg >>= 62;
    for (size_t i = 1; i < DS_L; i++) {
        /* |t| <= 2^62, |limb| < 2^62 (the top one smaller still): each sum
         * of two products and a carry stays below 2^125. */
        cf += (__int128)t[0] * f[i] + (__int128)t[1] * g[i];
        cg += (__int128)t[2] * f[i] + (__int128)t[3] * g[i];
        f[i - 1] = (int64_t)((uint64_t)cf & DS_M62);
        g[i - 1] = (int64_t)((uint64_t)cg & DS_M62);
        cf >>= 62;
        cg >>= 62;
    }
    f[DS_L - 1] = (int64_t)cf;
    g[DS_L - 1] = (int64_t)cg;
}

/* An entry of T (|x| <= 2^62 < m) as a residue mod m: x or m - |x|. */
static void DS_CAT(DS_NAME, _entry)(uint64_t r[DS_NL], int64_t x)
{
    uint64_t neg = vg_barrier_u64(0 - ((uint64_t)x >> 63));
    uint64_t mag = ((uint64_t)x ^ neg) - neg;
    uint64_t t[DS_NL] = {0};
    t[0] = mag;
    /* t = |x| < m; negate mod m when x < 0 (|x| != 0 then) */
    uint64_t n[DS_NL];
    DS_NEG(n, t);
    for (size_t i = 0; i < DS_NL; i++)
        r[i] = (t[i] & ~neg) | (n[i] & neg);
}

static void DS_NAME(uint64_t r[DS_NL], const uint64_t a[DS_NL])
{
    int64_t f[DS_L], g[DS_L], t[4], delta = 1;
    uint64_t d[DS_NL] = {0}, e[DS_NL] = {0}, tu[DS_NL], tv[DS_NL], x[DS_NL], y[DS_NL];
    /* f = m, g = a, in radix 2^62 (both nonnegative, below 2^(64 DS_NL)). */
    for (size_t i = 0; i < DS_L; i++) {
        size_t bit = 62 * i, w = bit / 64, s = bit % 64;
        uint64_t fm = 0, ga = 0;
        if (w < DS_NL) {
            fm = DS_MOD[w] >> s;
            ga = a[w] >> s;
            if (s > 2 && w + 1 < DS_NL) {
                fm |= DS_MOD[w + 1] << (64 - s);
                ga |= a[w + 1] << (64 - s);
            }
        }
        f[i] = (int64_t)(fm & DS_M62);
        g[i] = (int64_t)(ga & DS_M62);
    }
    e[0] = 1;
    for (int b = 0; b < DS_BATCHES; b++) {
        uint64_t f0 = (uint64_t)f[0] | ((uint64_t)f[1] << 62);
        uint64_t g0 = (uint64_t)g[0] | ((uint64_t)g[1] << 62);
        DS_CAT(DS_NAME, _batch)(&delta, f0, g0, t);
        DS_CAT(DS_NAME, _apply_fg)(f, g, t);
        /* (d, e) = T (d, e) / R, mod m */
        DS_CAT(DS_NAME, _entry)(tu, t[0]);
        DS_CAT(DS_NAME, _entry)(tv, t[1]);
        DS_MUL(x, d, tu);
        DS_MUL(y, e, tv);
        DS_CAT(DS_NAME, _entry)(tu, t[2]);
        DS_CAT(DS_NAME, _entry)(tv, t[3]);
        DS_ADD(x, x, y); /* the new d, kept in x until e is done */
        DS_MUL(y, d, tu);
        DS_MUL(e, e, tv);
        DS_ADD(e, e, y);
        memcpy(d, x, sizeof d);
    }
    /* f = +-1 now (or +-m when a = 0, with d = 0): 1 / a = sign(f) d K / R. */
    DS_MUL(x, d, DS_K);
    DS_NEG(y, x);
    uint64_t neg = vg_barrier_u64(0 - ((uint64_t)f[DS_L - 1] >> 63));
    for (size_t i = 0; i < DS_NL; i++)
        r[i] = (x[i] & ~neg) | (y[i] & neg);
    vg_wipe(f, sizeof f);
    vg_wipe(g, sizeof g);
    vg_wipe(d, sizeof d);
    vg_wipe(e, sizeof e);
    vg_wipe(x, sizeof x);
}

#undef DS_L
#undef DS_M62
