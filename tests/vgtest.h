/*
 * A tiny test framework: CHECK records a failure and goes on; main ends with
 * vgtest_done(), which prints "N passed, N failed" and returns the exit code.
 */
#ifndef VGTEST_H
#define VGTEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long vgtest_passed, vgtest_failed;

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (cond) {                                                                    \
            vgtest_passed++;                                                           \
        } else {                                                                       \
            vgtest_failed++;                                                           \
            if (vgtest_failed <= 50)                                                   \
                fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                              \
    } while (0)

#define CHECK_MSG(cond, ...)                                                           \
    do {                                                                               \
        if (cond) {                                                                    \
            vgtest_passed++;                                                           \
        } else {                                                                       \
            vgtest_failed++;                                                           \
            if (vgtest_failed <= 50) {                                                 \
                fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
                fprintf(stderr, __VA_ARGS__);                                          \
                fputc('\n', stderr);                                                   \
            }                                                                          \
        }                                                                              \
    } while (0)

static inline int vgtest_done(const char *name)
{
    printf("%s: %lu passed, %lu failed\n", name, vgtest_passed, vgtest_failed);
    return vgtest_failed ? 1 : 0;
}

/* Decode hex (no separators) into out; returns the byte count or -1. */
static inline long vgtest_unhex(uint8_t *out, size_t cap, const char *hex)
{
    size_t n = strlen(hex);
    if (n % 2 || n / 2 > cap)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return -1;
        out[i] = (uint8_t)v;
    }
    return (long)(n / 2);
}

static inline void vgtest_hex(char *out, const uint8_t *in, size_t len)
{
    for (size_t i = 0; i < len; i++)
        sprintf(out + 2 * i, "%02x", in[i]);
    out[2 * len] = '\0';
}

/* Deterministic test randomness (xorshift64*), so failures reproduce. */
static inline uint64_t vgtest_rand64(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}
static inline void vgtest_randbytes(uint64_t *s, uint8_t *out, size_t len)
{
    for (size_t i = 0; i < len; i++)
        out[i] = (uint8_t)(vgtest_rand64(s) >> 56);
}

#endif
