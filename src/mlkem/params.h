/*
 * The ML-KEM parameter set of this compilation (FIPS 203 section 8,
 * Table 2), given on the command line: CMake compiles indcpa.c and kem.c
 * once per set with VG_MLKEM_K = 2, 3 or 4 (vg_param_set in
 * CMakeLists.txt). Everything depending on k is derived here.
 */
#ifndef VG_MLKEM_PARAMS_H
#define VG_MLKEM_PARAMS_H

#include "vgcrypto.h"

#include "poly.h"

#if !defined(VG_MLKEM_K)
#error "VG_MLKEM_K (2, 3 or 4) comes from the command line (vg_param_set in CMakeLists.txt)"
#elif VG_MLKEM_K == 2
#define VG_MLKEM_ETA1 3
#define VG_MLKEM_DU 10
#define VG_MLKEM_DV 4
#elif VG_MLKEM_K == 3
#define VG_MLKEM_ETA1 2
#define VG_MLKEM_DU 10
#define VG_MLKEM_DV 4
#elif VG_MLKEM_K == 4
#define VG_MLKEM_ETA1 2
#define VG_MLKEM_DU 11
#define VG_MLKEM_DV 5
#else
#error "VG_MLKEM_K must be 2, 3 or 4"
#endif

/* The stages of each operation stay separate functions, so that their
 * stack frames do not add up when a compiler inlines them into one caller
 * (clang 14 did: ML-KEM-1024 encaps reached 18.8 KiB, issue 5 allows 16). */
#define VG_MLKEM_NOINLINE __attribute__((noinline))
#define VG_MLKEM_ETA2 2
#define VG_MLKEM_POLYVECBYTES (VG_MLKEM_K * VG_MLKEM_POLYBYTES)
/* FIPS 203 Table 3; dk = dk_pke || ek || H(ek) || z. */
#define VG_MLKEM_EK_BYTES (VG_MLKEM_POLYVECBYTES + VG_MLKEM_SYMBYTES)
#define VG_MLKEM_DK_BYTES (2 * VG_MLKEM_POLYVECBYTES + 3 * VG_MLKEM_SYMBYTES)
#define VG_MLKEM_CT_U_BYTES (VG_MLKEM_K * 32 * VG_MLKEM_DU)
#define VG_MLKEM_CT_BYTES (VG_MLKEM_CT_U_BYTES + 32 * VG_MLKEM_DV)

/* The public sizes must agree with the ones derived from the parameters. */
#if VG_MLKEM_K == 2
_Static_assert(VG_MLKEM_EK_BYTES == VG_MLKEM512_PUBLICKEYBYTES, "ek size");
_Static_assert(VG_MLKEM_DK_BYTES == VG_MLKEM512_SECRETKEYBYTES, "dk size");
_Static_assert(VG_MLKEM_CT_BYTES == VG_MLKEM512_CIPHERTEXTBYTES, "ct size");
#elif VG_MLKEM_K == 3
_Static_assert(VG_MLKEM_EK_BYTES == VG_MLKEM768_PUBLICKEYBYTES, "ek size");
_Static_assert(VG_MLKEM_DK_BYTES == VG_MLKEM768_SECRETKEYBYTES, "dk size");
_Static_assert(VG_MLKEM_CT_BYTES == VG_MLKEM768_CIPHERTEXTBYTES, "ct size");
#else
_Static_assert(VG_MLKEM_EK_BYTES == VG_MLKEM1024_PUBLICKEYBYTES, "ek size");
_Static_assert(VG_MLKEM_DK_BYTES == VG_MLKEM1024_SECRETKEYBYTES, "dk size");
_Static_assert(VG_MLKEM_CT_BYTES == VG_MLKEM1024_CIPHERTEXTBYTES, "ct size");
#endif

/* A-hat row by row (FIPS 203 Algorithm 13 lines 3-7, Algorithm 14 lines
 * 4-8): A-hat[i][j] = SampleNTT(rho || j || i). For k = 4 only the rows
 * being used are kept (issue 5: at most 16 KiB of stack for ML-KEM-1024);
 * for k = 2 and 3 the whole matrix fits the buffer (4 and 9 entries), so it
 * can be generated up front together with other Keccak work on the
 * four-lane scheduler (vg_mlkem_xof_jobs). Entries are generated in
 * row-major order, either planned ahead (vg_mlkem_rowgen_plan: jobs the
 * caller runs) or on demand four at a time on the four-way Keccak (a batch
 * may run ahead into the next row); k^2 mod 4 is 0 or 1 for k = 2, 3, 4, so
 * every on-demand batch is a full four-way one except a final single entry.
 * Buffer (k = 4): two rows, planned ahead beside the long hashes of encaps
 * and decaps (H(ek) and J(z || c) take 12 blocks, in which the other lanes
 * generate 8 entries); rows are whole batches, so no entry is left over
 * when a row is handed out. Two rows cost 2 KiB more than one: ML-KEM-1024
 * stays below issue 5's 16 KiB (test_stack). */
#if (VG_MLKEM_K * VG_MLKEM_K) % 4 > 1
#error "the row generator assumes k^2 mod 4 is 0 or 1"
#endif
#if VG_MLKEM_K * VG_MLKEM_K <= 9
#define VG_MLKEM_KG_ROWS (VG_MLKEM_K * VG_MLKEM_K) /* key generation: the whole matrix */
#define VG_MLKEM_EN_ROWS (VG_MLKEM_K * VG_MLKEM_K) /* encaps: the whole matrix */
#define VG_MLKEM_DE_ROWS (VG_MLKEM_K * VG_MLKEM_K) /* decaps: the whole matrix */
#else
/* k = 4: key generation plans two rows beside the 8 noise jobs (8 four-way
 * permutations); encaps three beside H(ek) (12 blocks in one lane, 12
 * entries in the other three); decaps two beside H(ek) and J(z || c) (two
 * lanes of 12 blocks, 8 entries in the other two). */
#define VG_MLKEM_KG_ROWS (2 * VG_MLKEM_K)
#define VG_MLKEM_EN_ROWS (3 * VG_MLKEM_K)
#define VG_MLKEM_DE_ROWS (2 * VG_MLKEM_K)
#endif

/* k = 3: key generation runs the matrix in two scheduler passes, rows 0-1
 * with the noise but e[2] (24 lane-blocks: six four-way permutations), then
 * row 2 and e[2] beside the first VG_MLKEM_KG_HBLOCKS blocks of H(ek), over
 * the encoded t-hat rows 0-1 (768 bytes >= 4 * 136), in the fourth lane (14
 * lane-blocks: four permutations). Ten four-way permutations instead of
 * nine, and four single ones fewer for H(ek) (five instead of nine). For
 * k = 2 and 4 every split costs more four-way permutations than it saves
 * (the matrix jobs pack the lanes fully), so the hash stays whole. */
#if VG_MLKEM_K == 3
#define VG_MLKEM_KG_HBLOCKS 4
#else
#define VG_MLKEM_KG_HBLOCKS 0
#endif

#endif
