/*
 * gen_base_table: prints src/curve25519/ge25519_base_table.h, the
 * precomputed multiples of the edwards25519 base point used by the
 * fixed-base scalar multiplication (src/curve25519/ge25519_base*.c).
 *
 *   cc -O2 -o gen_base_table tools/gen_base_table.c -lgmp
 *   ./gen_base_table > src/curve25519/ge25519_base_table.h
 *
 * Entry [i][j] is the affine point (j + 1) 16^(2 i) B for i in 0..31 and
 * j in 0..7, in the form (y + x, y - x, 2 d x y) mod p, each coordinate
 * reduced below p; written three times: as five 51-bit limbs (portable
 * field, vg_fe51), as four 64-bit words (BMI2/ADX field), and as five
 * lane vectors (y - x, y + x, 2 d x y, 0) of 51-bit limbs (AVX-512 IFMA).
 *
 * Specification: RFC 8032 section 5.1 (p = 2^255 - 19,
 * d = -121665 / 121666, B = (x, 4/5) with x even, "positive"), the affine
 * addition law of section 5.1.4 in its affine form
 *   x3 = (x1 y2 + x2 y1) / (1 + d x1 x2 y1 y2),
 *   y3 = (y1 y2 + x1 x2) / (1 - d x1 x2 y1 y2)   (a = -1).
 * Simple and slow: the table is public data, made once.
 */
#include <gmp.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static mpz_t g_p, g_d;

struct pt {
    mpz_t x, y;
};

static void pt_init(struct pt *a)
{
    mpz_init(a->x);
    mpz_init(a->y);
}

static void pt_clear(struct pt *a)
{
    mpz_clear(a->x);
    mpz_clear(a->y);
}

/* r = a + b (affine, complete for edwards25519 since d is a non-square). */
static void pt_add(struct pt *r, const struct pt *a, const struct pt *b)
{
    mpz_t t, num, den, x3, y3;
    mpz_inits(t, num, den, x3, y3, NULL);
    /* t = d x1 x2 y1 y2 */
    mpz_mul(t, a->x, b->x);
    mpz_mul(t, t, a->y);
    mpz_mul(t, t, b->y);
    mpz_mul(t, t, g_d);
    mpz_mod(t, t, g_p);
    /* x3 */
    mpz_mul(num, a->x, b->y);
    mpz_addmul(num, b->x, a->y);
    mpz_add_ui(den, t, 1);
    if (!mpz_invert(den, den, g_p)) {
        fprintf(stderr, "addition: no inverse\n");
        exit(1);
    }
    mpz_mul(x3, num, den);
    mpz_mod(x3, x3, g_p);
    /* y3 */
    mpz_mul(num, a->y, b->y);
    mpz_addmul(num, a->x, b->x);
    mpz_ui_sub(den, 1, t);
    mpz_mod(den, den, g_p);
    if (!mpz_invert(den, den, g_p)) {
        fprintf(stderr, "addition: no inverse\n");
        exit(1);
    }
    mpz_mul(y3, num, den);
    mpz_mod(y3, y3, g_p);
    mpz_set(r->x, x3);
    mpz_set(r->y, y3);
    mpz_clears(t, num, den, x3, y3, NULL);
}

/* RFC 8032 section 5.1.3, step 3: the square root of u / v, with x even. */
static void base_point(struct pt *b)
{
    mpz_t u, v, e, t;
    mpz_inits(u, v, e, t, NULL);
    /* y = 4/5 */
    mpz_set_ui(t, 5);
    mpz_invert(t, t, g_p);
    mpz_mul_ui(b->y, t, 4);
    mpz_mod(b->y, b->y, g_p);
    /* x^2 = (y^2 - 1) / (d y^2 + 1) */
    mpz_mul(t, b->y, b->y);
    mpz_sub_ui(u, t, 1);
    mpz_mul(v, t, g_d);
    mpz_add_ui(v, v, 1);
    mpz_invert(v, v, g_p);
    mpz_mul(u, u, v);
    mpz_mod(u, u, g_p); /* u = x^2 */
    /* p = 5 mod 8: candidate x = u^((p+3)/8); times sqrt(-1) = 2^((p-1)/4) if needed */
    mpz_add_ui(e, g_p, 3);
    mpz_fdiv_q_2exp(e, e, 3);
    mpz_powm(b->x, u, e, g_p);
    mpz_mul(t, b->x, b->x);
    mpz_mod(t, t, g_p);
    if (mpz_cmp(t, u) != 0) {
        mpz_sub_ui(e, g_p, 1);
        mpz_fdiv_q_2exp(e, e, 2);
        mpz_set_ui(t, 2);
        mpz_powm(t, t, e, g_p);
        mpz_mul(b->x, b->x, t);
        mpz_mod(b->x, b->x, g_p);
        mpz_mul(t, b->x, b->x);
        mpz_mod(t, t, g_p);
        if (mpz_cmp(t, u) != 0) {
            fprintf(stderr, "no square root\n");
            exit(1);
        }
    }
    if (mpz_odd_p(b->x))
        mpz_sub(b->x, g_p, b->x);
    mpz_clears(u, v, e, t, NULL);
}

/* The five 51-bit limbs of v (0 <= v < p). */
static void limbs51(uint64_t out[5], const mpz_t v)
{
    mpz_t t, m;
    mpz_inits(t, m, NULL);
    mpz_set(t, v);
    for (int k = 0; k < 5; k++) {
        mpz_fdiv_r_2exp(m, t, 51);
        mpz_fdiv_q_2exp(t, t, 51);
        out[k] = (uint64_t)mpz_get_ui(m);
    }
    mpz_clears(t, m, NULL);
}

/* Limbs of v (0 <= v < p): n limbs of `bits` bits each. */
static void print_limbs(const mpz_t v, int n, int bits)
{
    mpz_t t, m;
    mpz_inits(t, m, NULL);
    mpz_set(t, v);
    printf("{");
    for (int k = 0; k < n; k++) {
        mpz_fdiv_r_2exp(m, t, (mp_bitcnt_t)bits);
        mpz_fdiv_q_2exp(t, t, (mp_bitcnt_t)bits);
        gmp_printf("0x%016Zxu%s", m, k + 1 < n ? ", " : "");
    }
    printf("}");
    mpz_clears(t, m, NULL);
}

int main(void)
{
    static struct pt tab[32][8];
    struct pt base, step;
    mpz_t ypx, ymx, t2d;

    mpz_init_set_ui(g_p, 1);
    mpz_mul_2exp(g_p, g_p, 255);
    mpz_sub_ui(g_p, g_p, 19);
    /* d = -121665 / 121666 */
    mpz_init_set_ui(g_d, 121666);
    mpz_invert(g_d, g_d, g_p);
    mpz_mul_si(g_d, g_d, -121665);
    mpz_mod(g_d, g_d, g_p);
    mpz_inits(ypx, ymx, t2d, NULL);

    pt_init(&base);
    pt_init(&step);
    base_point(&base);
    /* step = 16^(2 i) B, from 256 * the previous one by eight doublings */
    mpz_set(step.x, base.x);
    mpz_set(step.y, base.y);
    for (int i = 0; i < 32; i++) {
        pt_init(&tab[i][0]);
        mpz_set(tab[i][0].x, step.x);
        mpz_set(tab[i][0].y, step.y);
        for (int j = 1; j < 8; j++) {
            pt_init(&tab[i][j]);
            pt_add(&tab[i][j], &tab[i][j - 1], &step);
        }
        for (int k = 0; k < 8; k++)
            pt_add(&step, &step, &step);
    }

    printf("/*\n"
           " * GENERATED by tools/gen_base_table.c; do not edit (regenerate with\n"
           " * `gen_base_table > src/curve25519/ge25519_base_table.h`; the test\n"
           " * x25519_base_table_fresh checks that this file equals the output).\n"
           " *\n"
           " * Entry [i][j] = (j + 1) 16^(2 i) B for the edwards25519 base point B\n"
           " * (RFC 8032 section 5.1), affine, as (y + x, y - x, 2 d x y) mod p, each\n"
           " * coordinate fully reduced below p. Define VG_GE25519_TABLE_FE51 for\n"
           " * the radix-2^51 form (five limbs < 2^51) and/or VG_GE25519_TABLE_FE64\n"
           " * for the four 64-bit words, and/or VG_GE25519_TABLE_IFMA for the lane\n"
           " * form of the AVX-512 IFMA variant (limb k of an entry as the vector\n"
           " * (y - x, y + x, 2 d x y, 0) of 51-bit limbs), before including it.\n"
           " */\n"
           "#include \"ge25519.h\"\n\n");
    for (int form = 0; form < 2; form++) {
        int n = form == 0 ? 5 : 4, bits = form == 0 ? 51 : 64;
        printf("#if defined(VG_GE25519_TABLE_%s)\n", form == 0 ? "FE51" : "FE64");
        printf("static const %s vg_ge25519_base_table%s[32][8] = {\n",
               form == 0 ? "vg_ge51_niels" : "vg_ge64_niels", form == 0 ? "51" : "64");
        for (int i = 0; i < 32; i++) {
            printf("    { /* 16^%d B */\n", 2 * i);
            for (int j = 0; j < 8; j++) {
                const struct pt *a = &tab[i][j];
                mpz_add(ypx, a->y, a->x);
                mpz_mod(ypx, ypx, g_p);
                mpz_sub(ymx, a->y, a->x);
                mpz_mod(ymx, ymx, g_p);
                mpz_mul(t2d, a->x, a->y);
                mpz_mul(t2d, t2d, g_d);
                mpz_mul_2exp(t2d, t2d, 1);
                mpz_mod(t2d, t2d, g_p);
                printf("        {");
                if (form == 0)
                    printf("{");
                print_limbs(ypx, n, bits);
                printf(form == 0 ? "},\n         {" : ",\n         ");
                print_limbs(ymx, n, bits);
                printf(form == 0 ? "},\n         {" : ",\n         ");
                print_limbs(t2d, n, bits);
                printf(form == 0 ? "}},\n" : "},\n");
            }
            printf("    },\n");
        }
        printf("};\n#endif\n\n");
    }
    /* The lane form for the AVX-512 IFMA variant (ge25519_base_ifma.c):
     * limb k of an entry is one 32-byte vector (y - x, y + x, 2 d x y, 0),
     * the lane order of its mixed addition, so that a lookup is whole-vector
     * loads and masks with no shuffling. */
    printf("#if defined(VG_GE25519_TABLE_IFMA)\n");
    printf("static const _Alignas(64) uint64_t vg_ge25519_base_table_ifma[32][8][5][4] = {\n");
    for (int i = 0; i < 32; i++) {
        printf("    { /* 16^%d B */\n", 2 * i);
        for (int j = 0; j < 8; j++) {
            const struct pt *a = &tab[i][j];
            uint64_t l[3][5];
            mpz_add(ypx, a->y, a->x);
            mpz_mod(ypx, ypx, g_p);
            mpz_sub(ymx, a->y, a->x);
            mpz_mod(ymx, ymx, g_p);
            mpz_mul(t2d, a->x, a->y);
            mpz_mul(t2d, t2d, g_d);
            mpz_mul_2exp(t2d, t2d, 1);
            mpz_mod(t2d, t2d, g_p);
            limbs51(l[0], ymx);
            limbs51(l[1], ypx);
            limbs51(l[2], t2d);
            printf("        {");
            for (int k = 0; k < 5; k++)
                printf("{0x%013" PRIx64 "u, 0x%013" PRIx64 "u, 0x%013" PRIx64 "u, 0}%s", l[0][k],
                       l[1][k], l[2][k], k < 4 ? ",\n         " : "},\n");
        }
        printf("    },\n");
    }
    printf("};\n#endif\n");
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < 8; j++)
            pt_clear(&tab[i][j]);
    pt_clear(&base);
    pt_clear(&step);
    mpz_clears(ypx, ymx, t2d, g_p, g_d, NULL);
    return 0;
}
