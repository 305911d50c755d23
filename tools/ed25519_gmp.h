/*
 * Affine edwards25519 arithmetic with GMP for the table generators in tools/
 * (gen_base_table.c, gen_ed25519_vartime_table.c). Header-only, static.
 *
 * Specification: RFC 8032 section 5.1 (p = 2^255 - 19,
 * d = -121665 / 121666, B = (x, 4/5) with x even) and the affine addition
 * law of section 5.1.4 (a = -1):
 *   x3 = (x1 y2 + x2 y1) / (1 + d x1 x2 y1 y2),
 *   y3 = (y1 y2 + x1 x2) / (1 - d x1 x2 y1 y2).
 * The denominators never vanish on edwards25519 (d is not a square).
 */
#ifndef VG_TOOLS_ED25519_GMP_H
#define VG_TOOLS_ED25519_GMP_H

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>

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

#endif
