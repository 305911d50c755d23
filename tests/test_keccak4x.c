/*
 * Four-way Keccak (src/hash/keccak4x.h): every implementation against four
 * runs of the single-state portable permutation on random states, and the
 * SHAKE128/SHAKE256 four-way helpers against vg_shake128/vg_shake256 (the
 * one-shot public API, itself checked against FIPS 202 vectors in
 * test_sha3) for message lengths around the rate boundaries and several
 * squeeze splits, and each implementation's squeeze-output (extract) hook
 * byte by byte. The helpers are run with the detected CPU features, with
 * AVX-512 masked off (the AVX2 variant), with BMI2 only (the "bmi2"
 * variant) and with none (portable), via the vg_cpu_force hook.
 */
#include "vgtest.h"

#include "common/common.h"
#include "hash/keccak.h"
#include "hash/keccak4x.h"

static void test_permute(const struct vg_keccak4x_impl *impl, unsigned reps)
{
    uint64_t rs = 0x4b4b4b4b12345ull;
    const struct vg_keccak_impl *one = vg_keccak_portable_get();
    for (unsigned rep = 0; rep < reps; rep++) {
        uint64_t st[100], want[4][25];
        for (unsigned i = 0; i < 100; i++)
            st[i] = vgtest_rand64(&rs);
        /* Iterate a few times so that errors in any round compound. */
        for (unsigned j = 0; j < 4; j++)
            for (unsigned i = 0; i < 25; i++)
                want[j][i] = st[4 * i + j];
        unsigned iters = 1 + rep % 3;
        for (unsigned it = 0; it < iters; it++) {
            impl->permute(st);
            for (unsigned j = 0; j < 4; j++)
                one->permute(want[j]);
        }
        int ok = 1;
        for (unsigned j = 0; j < 4; j++)
            for (unsigned i = 0; i < 25; i++)
                ok &= st[4 * i + j] == want[j][i];
        CHECK_MSG(ok, "%s permute rep %u", impl->name, rep);
        /* A serial variant's permute_one (run by ML-KEM on busy lanes only)
         * is the single-state permutation. */
        if (impl->permute_one) {
            uint64_t a[25], b[25];
            for (unsigned i = 0; i < 25; i++)
                a[i] = b[i] = vgtest_rand64(&rs);
            impl->permute_one(a);
            one->permute(b);
            CHECK_MSG(memcmp(a, b, sizeof a) == 0, "%s permute_one rep %u", impl->name, rep);
        }
    }
}

/* The extract hook (squeeze output) for every word count 0..25, at output
 * offsets 0..3 (unaligned stores): bytes 8 i .. 8 i + 7 of out[j] are lane i
 * of instance j, least significant byte first (FIPS 202 B.1), and the byte
 * after the last word is left alone. */
static void test_extract(const struct vg_keccak4x_impl *impl)
{
    uint64_t rs = 0x5eed5eedull;
    for (size_t words = 0; words <= 25; words++) {
        uint64_t st[100];
        uint8_t buf[4][8 * 25 + 8];
        size_t off = words % 4;
        for (unsigned i = 0; i < 100; i++)
            st[i] = vgtest_rand64(&rs);
        memset(buf, 0xa5, sizeof buf);
        uint8_t *const out[4] = {buf[0] + off, buf[1] + off, buf[2] + off, buf[3] + off};
        impl->extract(out, st, words);
        int ok = 1;
        for (unsigned j = 0; j < 4; j++) {
            for (size_t i = 0; i < words; i++)
                for (unsigned k = 0; k < 8; k++)
                    ok &= out[j][8 * i + k] == (uint8_t)(st[4 * i + j] >> (8 * k));
            ok &= out[j][8 * words] == 0xa5;
            for (size_t k = 0; k < off; k++)
                ok &= buf[j][k] == 0xa5;
        }
        CHECK_MSG(ok, "%s extract words %zu", impl->name, words);
    }
}

/* Four different messages of length len; squeeze `total` blocks in two
 * calls (first `split` blocks, then the rest); compare with the one-shot
 * SHAKE of each message. */
static void check_shake(int which, size_t len, size_t split, size_t total, uint64_t *rs)
{
    static uint8_t msg[4][600], out[4][6 * 168], want[6 * 168];
    size_t rate = which == 128 ? VG_SHAKE128_RATE : VG_SHAKE256_RATE;
    vg_keccak4x_ctx ctx;
    for (unsigned j = 0; j < 4; j++)
        vgtest_randbytes(rs, msg[j], len);
    if (which == 128) {
        vg_shake128x4_absorb_once(&ctx, msg[0], msg[1], msg[2], msg[3], len);
        vg_shake128x4_squeezeblocks(out[0], out[1], out[2], out[3], split, &ctx);
        vg_shake128x4_squeezeblocks(out[0] + split * rate, out[1] + split * rate,
                                    out[2] + split * rate, out[3] + split * rate, total - split,
                                    &ctx);
    } else {
        vg_shake256x4_absorb_once(&ctx, msg[0], msg[1], msg[2], msg[3], len);
        vg_shake256x4_squeezeblocks(out[0], out[1], out[2], out[3], split, &ctx);
        vg_shake256x4_squeezeblocks(out[0] + split * rate, out[1] + split * rate,
                                    out[2] + split * rate, out[3] + split * rate, total - split,
                                    &ctx);
    }
    for (unsigned j = 0; j < 4; j++) {
        if (which == 128)
            vg_shake128(want, total * rate, msg[j], len);
        else
            vg_shake256(want, total * rate, msg[j], len);
        CHECK_MSG(memcmp(want, out[j], total * rate) == 0, "shake%d x4 (%s) len %zu split %zu/%zu lane %u",
                  which, ctx.impl->name, len, split, total, j);
    }
}

static void test_shake(void)
{
    uint64_t rs = 777;
    const size_t lens[] = {0, 1, 7, 8, 32, 33, 34, 135, 136, 137, 167, 168, 169, 335, 336, 337, 599};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        for (size_t total = 1; total <= 6; total += 2) {
            check_shake(128, lens[li], total / 2, total, &rs);
            check_shake(256, lens[li], total / 2, total, &rs);
        }
    }
    /* Identical inputs (aliasing pointers) give identical outputs. */
    uint8_t seed[33] = {1, 2, 3}, o[4][168];
    vg_keccak4x_ctx ctx;
    vg_shake128x4_absorb_once(&ctx, seed, seed, seed, seed, sizeof seed);
    vg_shake128x4_squeezeblocks(o[0], o[1], o[2], o[3], 1, &ctx);
    CHECK(memcmp(o[0], o[1], 168) == 0 && memcmp(o[0], o[3], 168) == 0);
}

/* The SHAKE helpers with the dispatch forced to `mask` (a subset of the
 * features this CPU really has), expecting implementation `want`. */
static void test_shake_with(uint32_t mask, const struct vg_keccak4x_impl *want)
{
    vg_cpu_force(mask);
    CHECK_MSG(vg_keccak4x_active() == want, "dispatch under mask %#x picks %s, not %s",
              (unsigned)mask, vg_keccak4x_active()->name, want->name);
    test_shake();
}

int main(void)
{
    /* Only subsets of the active set are forced: under valgrind, whose
     * CPUID hides AVX-512, the AVX-512 variant is then never run (valgrind
     * 3.19 cannot execute EVEX instructions). */
    uint32_t saved = vg_cpu_active();
    test_permute(vg_keccak4x_portable_get(), 200);
    test_extract(vg_keccak4x_portable_get());
    const struct vg_keccak4x_impl *bmi2 = vg_keccak4x_bmi2_get();
    const struct vg_keccak4x_impl *avx2 = vg_keccak4x_avx2_get();
    const struct vg_keccak4x_impl *avx512 = vg_keccak4x_avx512_get();
    if (bmi2) {
        test_permute(bmi2, 200);
        test_extract(bmi2);
    } else
        printf("test_keccak4x: no BMI2 implementation active here\n");
    if (avx2) {
        test_permute(avx2, 2000);
        test_extract(avx2);
    } else
        printf("test_keccak4x: no AVX2 implementation active here\n");
    if (avx512) {
        test_permute(avx512, 2000);
        test_extract(avx512);
    } else
        printf("test_keccak4x: no AVX-512VL implementation active here\n");
    test_shake();                       /* active implementation */
    if (avx512) {
        CHECK(vg_keccak4x_active() == avx512);
        /* AVX-512 off: the AVX2 variant through the helpers. */
        if (avx2)
            test_shake_with(saved & ~(uint32_t)(VG_CPU_AVX512F | VG_CPU_AVX512VL), avx2);
    } else if (avx2) {
        CHECK(vg_keccak4x_active() == avx2);
    } else if (bmi2) {
        CHECK(vg_keccak4x_active() == bmi2);
    }
    /* BMI2 alone: the four-way form of the BMI2 permutation. */
    if (bmi2)
        test_shake_with(saved & VG_CPU_BMI2, bmi2);
    test_shake_with(0, vg_keccak4x_portable_get());
    CHECK(vg_keccak4x_avx2_get() == NULL && vg_keccak4x_avx512_get() == NULL &&
          vg_keccak4x_bmi2_get() == NULL);
    vg_cpu_force(saved);
    return vgtest_done("test_keccak4x");
}
