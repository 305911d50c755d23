/*
 * ML-DSA (FIPS 204): the constants of one parameter set, chosen on the
 * compiler's command line (-DVG_MLDSA_MODE=44, 65 or 87: the vg_param_set
 * lines of CMakeLists.txt compile keygen.c, sign.c and verify.c once per
 * set). FIPS 204 Table 1 names, with the VG_MLDSA_ prefix: K and L the
 * matrix dimensions (k, l), ETA, TAU, BETA, GAMMA1, GAMMA2, OMEGA, and
 * CTILDEBYTES = lambda / 4; the sizes of Table 2 follow.
 *
 * Naming follows FIPS 204: xi the key-generation seed, (rho, rho', K) the
 * expanded seeds, tr = H(pk), mu the message representative, M' the
 * formatted message of Algorithms 2-3.
 */
#ifndef VG_MLDSA_PARAMS_H
#define VG_MLDSA_PARAMS_H

#include "poly.h"
#include "vgcrypto.h"

#if !defined(VG_MLDSA_MODE)
#error "compile with -DVG_MLDSA_MODE=44, 65 or 87 (vg_param_set in CMakeLists.txt)"
#elif VG_MLDSA_MODE == 44
#define VG_MLDSA_K 4
#define VG_MLDSA_L 4
#define VG_MLDSA_ETA 2
#define VG_MLDSA_TAU 39
#define VG_MLDSA_BETA 78
#define VG_MLDSA_GAMMA1 (1 << 17)
#define VG_MLDSA_GAMMA2 VG_MLDSA_GAMMA2_88
#define VG_MLDSA_OMEGA 80
#define VG_MLDSA_CTILDEBYTES 32 /* lambda / 4 */
#elif VG_MLDSA_MODE == 65
#define VG_MLDSA_K 6
#define VG_MLDSA_L 5
#define VG_MLDSA_ETA 4
#define VG_MLDSA_TAU 49
#define VG_MLDSA_BETA 196
#define VG_MLDSA_GAMMA1 (1 << 19)
#define VG_MLDSA_GAMMA2 VG_MLDSA_GAMMA2_32
#define VG_MLDSA_OMEGA 55
#define VG_MLDSA_CTILDEBYTES 48
#elif VG_MLDSA_MODE == 87
#define VG_MLDSA_K 8
#define VG_MLDSA_L 7
#define VG_MLDSA_ETA 2
#define VG_MLDSA_TAU 60
#define VG_MLDSA_BETA 120
#define VG_MLDSA_GAMMA1 (1 << 19)
#define VG_MLDSA_GAMMA2 VG_MLDSA_GAMMA2_32
#define VG_MLDSA_OMEGA 75
#define VG_MLDSA_CTILDEBYTES 64
#else
#error "VG_MLDSA_MODE must be 44, 65 or 87"
#endif

/* FIPS 204 Table 2 sizes, derived from the parameters. */
#define VG_MLDSA_POLYETA_BYTES (VG_MLDSA_ETA == 2 ? 96 : 128)
#define VG_MLDSA_POLYZ_BYTES (VG_MLDSA_GAMMA1 == (1 << 17) ? 576 : 640)
#define VG_MLDSA_POLYW1_BYTES (VG_MLDSA_GAMMA2 == VG_MLDSA_GAMMA2_88 ? 192 : 128)
#define VG_MLDSA_PK_BYTES (VG_MLDSA_SYMBYTES + VG_MLDSA_K * VG_MLDSA_POLYT1_BYTES)
#define VG_MLDSA_SK_BYTES                                                                          \
    (2 * VG_MLDSA_SYMBYTES + VG_MLDSA_CRHBYTES +                                                   \
     (VG_MLDSA_K + VG_MLDSA_L) * VG_MLDSA_POLYETA_BYTES + VG_MLDSA_K * VG_MLDSA_POLYT0_BYTES)
#define VG_MLDSA_SIG_BYTES                                                                         \
    (VG_MLDSA_CTILDEBYTES + VG_MLDSA_L * VG_MLDSA_POLYZ_BYTES + VG_MLDSA_OMEGA + VG_MLDSA_K)
/* Offsets inside sk = rho || K || tr || s1 || s2 || t0 (Algorithm 24). */
#define VG_MLDSA_SK_KEY (VG_MLDSA_SYMBYTES)
#define VG_MLDSA_SK_TR (2 * VG_MLDSA_SYMBYTES)
#define VG_MLDSA_SK_S1 (VG_MLDSA_SK_TR + VG_MLDSA_CRHBYTES)
#define VG_MLDSA_SK_S2 (VG_MLDSA_SK_S1 + VG_MLDSA_L * VG_MLDSA_POLYETA_BYTES)
#define VG_MLDSA_SK_T0 (VG_MLDSA_SK_S2 + VG_MLDSA_K * VG_MLDSA_POLYETA_BYTES)

#if VG_MLDSA_MODE == 44
_Static_assert(VG_MLDSA_PK_BYTES == VG_MLDSA44_PUBLICKEYBYTES, "pk size");
_Static_assert(VG_MLDSA_SK_BYTES == VG_MLDSA44_SECRETKEYBYTES, "sk size");
_Static_assert(VG_MLDSA_SIG_BYTES == VG_MLDSA44_SIGBYTES, "sig size");
#elif VG_MLDSA_MODE == 65
_Static_assert(VG_MLDSA_PK_BYTES == VG_MLDSA65_PUBLICKEYBYTES, "pk size");
_Static_assert(VG_MLDSA_SK_BYTES == VG_MLDSA65_SECRETKEYBYTES, "sk size");
_Static_assert(VG_MLDSA_SIG_BYTES == VG_MLDSA65_SIGBYTES, "sig size");
#else
_Static_assert(VG_MLDSA_PK_BYTES == VG_MLDSA87_PUBLICKEYBYTES, "pk size");
_Static_assert(VG_MLDSA_SK_BYTES == VG_MLDSA87_SECRETKEYBYTES, "sk size");
_Static_assert(VG_MLDSA_SIG_BYTES == VG_MLDSA87_SIGBYTES, "sig size");
#endif

/* ML-DSA-87 signs with the low-stack layout (sign.c, below 64 KiB) unless
 * built with -DVG_MLDSA87_LOWSTACK=OFF (CMake option; the big-stack layout
 * of the other sets: about twice the stack, faster; docs/benchmarks.md). */
#ifndef VG_MLDSA87_LOWSTACK
#define VG_MLDSA87_LOWSTACK 1
#endif
#define VG_MLDSA_SMALL_SIGN (VG_MLDSA_MODE == 87 && VG_MLDSA87_LOWSTACK)

/* FIPS 204 allows a bound on the signing loop (section 6.2 note, at least
 * 814 iterations); kappa must also fit IntegerToBytes(kappa + r, 2). The
 * expected count is 4-5, so this bound is never reached with a real key. */
#define VG_MLDSA_MAX_SIGN_ITERATIONS (0xffff / VG_MLDSA_L)

#endif
