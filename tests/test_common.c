/*
 * CPU-feature table, VG_CPU_FEATURES, version and vg_implementation.
 * ctest runs this program under several VG_CPU_FEATURES settings (see
 * tests/common.cmake); each run checks active == detected & parse(env).
 */
#include <pthread.h>

#include "common.h"
#include "vg_config.h"
#include "vgtest.h"

#define NTHREADS 8
static uint32_t g_seen[NTHREADS];

static void *first_use(void *arg)
{
    size_t i = (size_t)arg;
    g_seen[i] = vg_cpu_active();
    return NULL;
}

static void test_parse(void)
{
    CHECK(vg_cpu_parse("none") == 0);
    CHECK(vg_cpu_parse("") == 0);
    CHECK(vg_cpu_parse(NULL) == 0);
    CHECK(vg_cpu_parse("bmi2,adx") == (VG_CPU_BMI2 | VG_CPU_ADX));
    CHECK(vg_cpu_parse("avx2") == VG_CPU_AVX2);
    CHECK(vg_cpu_parse("sha") == VG_CPU_SHA);
    /* Unknown names are ignored, separators may repeat. */
    CHECK(vg_cpu_parse("bogus,,avx2, ,frobnicate") == VG_CPU_AVX2);
    CHECK(vg_cpu_parse("avx2x") == 0);
    CHECK(vg_cpu_parse("AVX2") == 0); /* names are lower case */
    /* IFMA brings the AVX-512 foundation and VL along. */
    CHECK(vg_cpu_parse("avx512ifma") == (VG_CPU_AVX512IFMA | VG_CPU_AVX512F | VG_CPU_AVX512VL));
    CHECK(vg_cpu_parse("all") == VG_CPU_ALL);
    /* Every mask survives format and parse (the IFMA name adding F and VL). */
    int roundtrip_ok = 1;
    for (uint32_t m = 0; m <= VG_CPU_ALL; m++) {
        char buf[128];
        uint32_t want = m;
        if (m & VG_CPU_AVX512IFMA)
            want |= VG_CPU_AVX512F | VG_CPU_AVX512VL;
        vg_cpu_format(m, buf, sizeof buf);
        if (vg_cpu_parse(buf) != want)
            roundtrip_ok = 0;
    }
    CHECK(roundtrip_ok);
    /* A short buffer truncates at a name boundary and stays terminated. */
    char small[8];
    vg_cpu_format(VG_CPU_ALL, small, sizeof small);
    CHECK(strcmp(small, "bmi2") == 0);
    vg_cpu_format(VG_CPU_ALL, small, 1);
    CHECK(small[0] == '\0');
}

static void test_active(void)
{
    /* First use from many threads at once: every thread sees one value. */
    pthread_t th[NTHREADS];
    for (size_t i = 0; i < NTHREADS; i++)
        CHECK(pthread_create(&th[i], NULL, first_use, (void *)i) == 0);
    for (size_t i = 0; i < NTHREADS; i++)
        pthread_join(th[i], NULL);
    for (size_t i = 1; i < NTHREADS; i++)
        CHECK(g_seen[i] == g_seen[0]);

    const char *env = getenv("VG_CPU_FEATURES");
    uint32_t expect = vg_cpu_detected();
    if (env)
        expect &= vg_cpu_parse(env);
    CHECK_MSG(vg_cpu_active() == expect, "active %#x expected %#x", vg_cpu_active(), expect);
    if (env && strcmp(env, "none") == 0)
        CHECK(strcmp(vg_cpu_features(), "") == 0);

    char buf[128];
    vg_cpu_format(expect, buf, sizeof buf);
    CHECK(strcmp(vg_cpu_features(), buf) == 0);

#if !defined(VG_X86_64)
    CHECK(vg_cpu_detected() == 0); /* portable build: nothing x86 is used */
#endif
    /* The forcing hook replaces the set; restore it afterwards. */
    uint32_t saved = vg_cpu_active();
    vg_cpu_force(0);
    CHECK(vg_cpu_active() == 0);
    CHECK(strcmp(vg_implementation("sha256"), "portable") == 0);
    CHECK(strcmp(vg_implementation("sha512"), "portable") == 0);
    CHECK(strcmp(vg_implementation("keccak"), "portable") == 0);
    vg_cpu_force(saved);
    CHECK(vg_cpu_active() == saved);
}

static void test_info(void)
{
    unsigned a, b, c;
    char tail;
    CHECK(sscanf(vg_version(), "%u.%u.%u%c", &a, &b, &c, &tail) == 3);
    CHECK(strcmp(vg_version(), VG_VERSION_STRING) == 0);
    CHECK(vg_implementation(NULL) == NULL);
    CHECK(vg_implementation("no-such-primitive") == NULL);
    CHECK(vg_implementation("sha256") != NULL);
    CHECK(vg_implementation("sha512") != NULL);
    CHECK(vg_implementation("keccak") != NULL);
}

static void test_ct_helpers(void)
{
    uint8_t a[64], b[64];
    uint64_t seed = 1;
    vgtest_randbytes(&seed, a, sizeof a);
    memcpy(b, a, sizeof b);
    CHECK(vg_ct_memcmp(a, b, sizeof a) == 0);
    CHECK(vg_ct_memcmp(a, b, 0) == 0);
    for (size_t i = 0; i < sizeof a; i++)
        for (int bit = 0; bit < 8; bit++) {
            b[i] ^= (uint8_t)(1u << bit);
            if (vg_ct_memcmp(a, b, sizeof a) != -1)
                CHECK_MSG(0, "byte %zu bit %d", i, bit);
            b[i] ^= (uint8_t)(1u << bit);
        }
    CHECK(vg_ct_mask_nonzero_u64(0) == 0);
    CHECK(vg_ct_mask_nonzero_u64(1) == UINT64_MAX);
    CHECK(vg_ct_mask_nonzero_u64(UINT64_C(1) << 63) == UINT64_MAX);
    CHECK(vg_ct_mask_eq_u64(5, 5) == UINT64_MAX);
    CHECK(vg_ct_mask_eq_u64(5, 4) == 0);
    memset(a, 0xaa, sizeof a);
    vg_wipe(a, sizeof a);
    for (size_t i = 0; i < sizeof a; i++)
        CHECK(a[i] == 0);
}

int main(void)
{
    test_parse();
    test_active();
    test_info();
    test_ct_helpers();
    return vgtest_done("test_common");
}
