/*
 * gen_ed25519_vartime_table: prints src/curve25519/ge25519_vartime_table.h,
 * the odd multiples of the edwards25519 base point B used by the
 * variable-time double-scalar multiplication of Ed25519 verification
 * (src/curve25519/ge25519_vartime*.c).
 *
 *   cc -O2 -o gen_ed25519_vartime_table tools/gen_ed25519_vartime_table.c -lgmp
 *   ./gen_ed25519_vartime_table > src/curve25519/ge25519_vartime_table.h
 *
 * Entry [j] is the affine point (2 j + 1) B for j in 0..63 (the positive
 * digits of a width-8 non-adjacent form), in the form
 * (y + x, y - x, 2 d x y) mod p, each coordinate reduced below p; written
 * twice: as five 51-bit limbs (portable field, vg_fe51) and as four 64-bit
 * words (BMI2/ADX field).
 *
 * Specification: RFC 8032 section 5.1 (p = 2^255 - 19,
 * d = -121665 / 121666, B = (x, 4/5) with x even), and the affine
 * addition law of section 5.1.4 (a = -1):
 *   x3 = (x1 y2 + x2 y1) / (1 + d x1 x2 y1 y2),
 *   y3 = (y1 y2 + x1 x2) / (1 - d x1 x2 y1 y2).
 * The denominators never vanish on edwards25519 (d is not a square).
 * Slow and simple on purpose: the table is public data, made once.
 */
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N_ENTRIES 64

typedef struct {
    mpz_t x, y;
} point;

/* r = a + b, affine (r may alias a or b). */
static void point_add(point *r, const point *a, const point *b, const mpz_t p, const mpz_t d)
{
    mpz_t dxy, nx, ny, den;
    mpz_inits(dxy, nx, ny, den, NULL);
    mpz_mul(dxy, a->x, b->x);
    mpz_mul(dxy, dxy, a->y);
    mpz_mul(dxy, dxy, b->y);
    mpz_mul(dxy, dxy, d);
    mpz_mod(dxy, dxy, p);
    mpz_mul(nx, a->x, b->y);
    mpz_addmul(nx, b->x, a->y);
    mpz_mul(ny, a->y, b->y);
    mpz_addmul(ny, a->x, b->x);
    mpz_add_ui(den, dxy, 1);
    if (!mpz_invert(den, den, p)) {
        fprintf(stderr, "x denominator not invertible\n");
        exit(1);
    }
    mpz_mul(nx, nx, den);
    mpz_ui_sub(den, 1, dxy);
    mpz_mod(den, den, p);
    if (!mpz_invert(den, den, p)) {
        fprintf(stderr, "y denominator not invertible\n");
        exit(1);
    }
    mpz_mul(ny, ny, den);
    mpz_mod(r->x, nx, p);
    mpz_mod(r->y, ny, p);
    mpz_clears(dxy, nx, ny, den, NULL);
}

/* B: y = 4/5, x the even root of x^2 = (y^2 - 1) / (d y^2 + 1)
 * (RFC 8032 5.1.3 step 3: x = w^((p+3)/8), times 2^((p-1)/4) when the
 * first candidate squares to -w; step 4: the even one). */
static void base_point(point *b, const mpz_t p, const mpz_t d)
{
    mpz_t w, t, e;
    mpz_inits(w, t, e, NULL);
    mpz_set_ui(t, 5);
    mpz_invert(t, t, p);
    mpz_mul_ui(b->y, t, 4);
    mpz_mod(b->y, b->y, p);
    mpz_mul(t, b->y, b->y);
    mpz_mul(w, t, d);
    mpz_add_ui(w, w, 1);
    mpz_invert(w, w, p);
    mpz_sub_ui(t, t, 1);
    mpz_mul(w, w, t);
    mpz_mod(w, w, p);
    mpz_add_ui(e, p, 3);
    mpz_fdiv_q_2exp(e, e, 3);
    mpz_powm(b->x, w, e, p);
    mpz_mul(t, b->x, b->x);
    mpz_mod(t, t, p);
    if (mpz_cmp(t, w) != 0) {
        mpz_sub_ui(e, p, 1);
        mpz_fdiv_q_2exp(e, e, 2);
        mpz_set_ui(t, 2);
        mpz_powm(t, t, e, p);
        mpz_mul(b->x, b->x, t);
        mpz_mod(b->x, b->x, p);
        mpz_mul(t, b->x, b->x);
        mpz_mod(t, t, p);
        if (mpz_cmp(t, w) != 0) {
            fprintf(stderr, "B: no square root\n");
            exit(1);
        }
    }
    if (mpz_odd_p(b->x))
        mpz_sub(b->x, p, b->x);
    mpz_clears(w, t, e, NULL);
}

/* v (0 <= v < p) as n words of `bits` bits, least significant first. */
static void print_words(const mpz_t v, int n, unsigned bits)
{
    mpz_t t, w;
    mpz_inits(t, w, NULL);
    mpz_set(t, v);
    printf("{");
    for (int k = 0; k < n; k++) {
        mpz_fdiv_r_2exp(w, t, bits);
        mpz_fdiv_q_2exp(t, t, bits);
        gmp_printf("0x%016Zxu%s", w, k + 1 < n ? ", " : "");
    }
    printf("}");
    mpz_clears(t, w, NULL);
}

static void print_table(const char *type, const char *name, mpz_t (*c)[3], int n, unsigned bits)
{
    printf("static const %s %s[%d] = {\n", type, name, N_ENTRIES);
    for (int j = 0; j < N_ENTRIES; j++) {
        printf("    { /* %d B */\n", 2 * j + 1);
        for (int k = 0; k < 3; k++) {
            /* vg_fe51 is a struct around its limb array; the fe64 form is a bare array */
            printf("        %s", bits == 51 ? "{" : "");
            print_words(c[j][k], n, bits);
            printf("%s%s\n", bits == 51 ? "}" : "", k < 2 ? "," : "");
        }
        printf("    },\n");
    }
    printf("};\n");
}

int main(void)
{
    static mpz_t coords[N_ENTRIES][3];
    mpz_t p, d;
    point b, b2, acc;

    mpz_init_set_ui(p, 1);
    mpz_mul_2exp(p, p, 255);
    mpz_sub_ui(p, p, 19);
    mpz_init_set_ui(d, 121666);
    mpz_invert(d, d, p);
    mpz_mul_si(d, d, -121665);
    mpz_mod(d, d, p);
    mpz_inits(b.x, b.y, b2.x, b2.y, acc.x, acc.y, NULL);

    base_point(&b, p, d);
    point_add(&b2, &b, &b, p, d);
    mpz_set(acc.x, b.x);
    mpz_set(acc.y, b.y);
    for (int j = 0; j < N_ENTRIES; j++) {
        if (j > 0)
            point_add(&acc, &acc, &b2, p, d); /* (2 j + 1) B */
        mpz_inits(coords[j][0], coords[j][1], coords[j][2], NULL);
        mpz_add(coords[j][0], acc.y, acc.x);
        mpz_mod(coords[j][0], coords[j][0], p);
        mpz_sub(coords[j][1], acc.y, acc.x);
        mpz_mod(coords[j][1], coords[j][1], p);
        mpz_mul(coords[j][2], acc.x, acc.y);
        mpz_mul(coords[j][2], coords[j][2], d);
        mpz_mul_2exp(coords[j][2], coords[j][2], 1);
        mpz_mod(coords[j][2], coords[j][2], p);
    }

    printf("/*\n"
           " * GENERATED by tools/gen_ed25519_vartime_table.c; do not edit (regenerate\n"
           " * with `gen_ed25519_vartime_table > src/curve25519/ge25519_vartime_table.h`;\n"
           " * the test ed25519_vartime_table_fresh checks that this file equals the\n"
           " * output).\n"
           " *\n"
           " * Entry [j] = (2 j + 1) B for the edwards25519 base point B (RFC 8032\n"
           " * section 5.1), j < %d, affine, as (y + x, y - x, 2 d x y) mod p, each\n"
           " * coordinate fully reduced below p. Define VG_GE25519_VARTIME_TABLE_FE51\n"
           " * for the radix-2^51 form (five limbs < 2^51) and/or\n"
           " * VG_GE25519_VARTIME_TABLE_FE64 for the four 64-bit words, before\n"
           " * including it.\n"
           " */\n"
           "#include \"ge25519.h\"\n\n", N_ENTRIES);
    printf("#if defined(VG_GE25519_VARTIME_TABLE_FE51)\n");
    print_table("vg_ge51_niels", "vg_ge25519_vartime_table51", coords, 5, 51);
    printf("#endif\n\n#if defined(VG_GE25519_VARTIME_TABLE_FE64)\n");
    print_table("vg_ge64_niels", "vg_ge25519_vartime_table64", coords, 4, 64);
    printf("#endif\n");

    for (int j = 0; j < N_ENTRIES; j++)
        mpz_clears(coords[j][0], coords[j][1], coords[j][2], NULL);
    mpz_clears(p, d, b.x, b.y, b2.x, b2.y, acc.x, acc.y, NULL);
    return 0;
}
