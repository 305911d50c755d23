/*
 * JSON helpers for the vector-driven tests (NIST ACVP and Wycheproof files
 * under VG_VECTORS_DIR, which is tests/vectors; origins in its SOURCES.md),
 * on cJSON. Header-only, static functions: include after vgtest.h in a test
 * program linked with cjson.
 */
#ifndef VGJSON_H
#define VGJSON_H

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vgtest.h"

/* 1 when the n bytes at p are all zero (a zeroed output on failure). */
static inline int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

/* ---- JSON helpers -------------------------------------------------------- */

static inline cJSON *load_json(const char *rel)
{
    /* The vectors are in the source tree (tests/vectors), so the path is as
     * long as the clone's own; a truncated one must not look like a missing file. */
    char path[4096];
    int len = snprintf(path, sizeof path, "%s/%s", VG_VECTORS_DIR, rel);
    if (len < 0 || (size_t)len >= sizeof path) {
        fprintf(stderr, "vector path too long: %s/%s\n", VG_VECTORS_DIR, rel);
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    buf[got] = '\0';
    cJSON *j = cJSON_Parse(buf);
    free(buf);
    if (!j)
        fprintf(stderr, "cannot parse %s\n", path);
    return j;
}

static inline const char *jstr(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static inline int jint(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsNumber(v))
        return v->valueint;
    if (cJSON_IsString(v))
        return atoi(v->valuestring);
    return -1;
}

static inline int jbool(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsTrue(v) || (cJSON_IsString(v) && strcasecmp(v->valuestring, "true") == 0);
}

/* Hex field into a fresh buffer (caller frees; never NULL for a present
 * field, even when empty); *len gets its byte length. Missing: NULL. */
static inline uint8_t *jhex(const cJSON *o, const char *key, size_t *len)
{
    const char *h = jstr(o, key);
    if (!h)
        return NULL;
    size_t n = strlen(h) / 2;
    uint8_t *b = malloc(n + 1);
    if (vgtest_unhex(b, n + 1, h) != (long)n) {
        free(b);
        return NULL;
    }
    *len = n;
    return b;
}

static inline const cJSON *find_test(const cJSON *expected, int tg, int tc)
{
    const cJSON *g, *t;
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(expected, "testGroups"))
    {
        if (jint(g, "tgId") != tg)
            continue;
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            if (jint(t, "tcId") == tc)
                return t;
        }
    }
    return NULL;
}

static inline int eq_hex(const uint8_t *got, size_t got_len, const cJSON *o, const char *key)
{
    size_t n = 0;
    uint8_t *want = jhex(o, key, &n);
    int ok = want && n == got_len && memcmp(want, got, n) == 0;
    free(want);
    return ok;
}

#endif
