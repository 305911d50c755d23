/*
 * Full TLS 1.3 handshakes per second through libssl with the vgcrypto
 * provider's key-exchange groups against OpenSSL's built-in X25519 (issue 18,
 * "Performance"). Not part of the library: a benchmark program built when the
 * provider is (CMake target vg_tls_handshake; docs/provider.md says how to
 * run it).
 *
 * Each handshake is a new connection, without session resumption (no
 * session cache, no tickets), with an Ed25519 server certificate made in
 * memory (so that the key exchange is a visible share of the handshake) which
 * the client verifies against itself as the trust anchor. After the
 * handshake the client sends one byte and the server answers with one, so
 * that both sides have finished; the handshake ends there.
 *
 * Two modes:
 *   tcp: the server on its own thread (pinned to CPU 0) accepts loopback TCP
 *        connections from the client thread (pinned to CPU 1), one at a time;
 *        a sample is the client's time from socket() to the answer byte,
 *        kernel and scheduling included.
 *   mem: client and server in one thread over an in-memory BIO pair: the CPU
 *        cost of both sides of a handshake on one core, no kernel.
 * The groups alternate in chunks of a few handshakes (TOOLING.md "Timing"), so
 * that a change of machine load shows in every group alike. Per group: the
 * median TSC ticks per handshake, handshakes per second (samples / their
 * summed wall-clock time) and the ratio of medians to X25519.
 *
 * Usage: vg_tls_handshake [--module PATH] [--mode tcp|mem|both] [-n N]
 *                         [--chunk C] [--smoke] [GROUP...]
 *   default groups: X25519 X25519MLKEM768 MLKEM768 SecP256r1MLKEM768
 *   SecP384r1MLKEM1024 P-256 P-384 MLKEM512 MLKEM1024 (those that neither
 *   OpenSSL nor the provider knows are left out with a note); N handshakes
 *   per group and mode (default 1000). --smoke: 3 handshakes per group and
 *   mode, exit status 1 unless every group negotiated as expected.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "tsc.h"

#ifndef VG_PROVIDER_MODULE
#define VG_PROVIDER_MODULE ""
#endif

#define MAX_GROUPS 16

/* TLS group code points (IANA TLS Supported Groups). libssl 3.0 reports a
 * provider group it has no NID for as TLSEXT_nid_unknown | code point from
 * SSL_get_negotiated_group; its built-in groups as their NID. */
#ifndef TLSEXT_nid_unknown
#define TLSEXT_nid_unknown 0x1000000
#endif
struct group_info {
    const char *name;
    int nid;       /* NID for OpenSSL's built-in groups, else NID_undef */
    int codepoint; /* for the provider's groups */
};
static const struct group_info known_groups[] = {
    { "X25519", NID_X25519, 0x001D },
    { "P-256", NID_X9_62_prime256v1, 0x0017 },
    { "P-384", NID_secp384r1, 0x0018 },
    { "X25519MLKEM768", NID_undef, 0x11EC },
    { "SecP256r1MLKEM768", NID_undef, 0x11EB },
    { "SecP384r1MLKEM1024", NID_undef, 0x11ED },
    { "MLKEM512", NID_undef, 0x0200 },
    { "MLKEM768", NID_undef, 0x0201 },
    { "MLKEM1024", NID_undef, 0x0202 },
};
static const char *const default_groups[] = {
    "X25519", "X25519MLKEM768", "MLKEM768", "SecP256r1MLKEM768", "SecP384r1MLKEM1024",
    "P-256", "P-384", "MLKEM512", "MLKEM1024",
};

struct group_run {
    const char *name;
    int expect;        /* SSL_get_negotiated_group's value, 0 when unknown */
    SSL_CTX *client;   /* offers this group only */
    uint64_t *ticks;   /* per handshake */
    size_t count;
    double seconds;    /* summed wall-clock time of the samples */
    int bad;           /* handshakes that failed or negotiated another group */
    int got;           /* SSL_get_negotiated_group of the last handshake */
};

static SSL_CTX *server_ctx;
static X509 *cert;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
    fprintf(stderr, "vg_tls_handshake: %s\n", what);
    ERR_print_errors_fp(stderr);
    exit(2);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* An Ed25519 key and a self-signed certificate for it (CN=localhost). */
static EVP_PKEY *make_cert(void)
{
    EVP_PKEY *pkey = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
    X509_NAME *name;

    cert = X509_new();
    if (pkey == NULL || cert == NULL)
        die("cannot make the Ed25519 key");
    name = X509_get_subject_name(cert);
    if (!X509_set_version(cert, 2) || !ASN1_INTEGER_set(X509_get_serialNumber(cert), 1) ||
        X509_gmtime_adj(X509_getm_notBefore(cert), -3600) == NULL ||
        X509_gmtime_adj(X509_getm_notAfter(cert), 86400) == NULL ||
        !X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)"localhost",
                                    -1, -1, 0) ||
        !X509_set_issuer_name(cert, name) || !X509_set_pubkey(cert, pkey) ||
        X509_sign(cert, pkey, NULL) <= 0)
        die("cannot make the certificate");
    return pkey;
}

static void tls13_only(SSL_CTX *ctx)
{
    if (!SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION) ||
        !SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION))
        die("cannot restrict to TLS 1.3");
    /* No resumption: no session cache, no tickets. */
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
}

static int negotiated_ok(SSL *ssl, struct group_run *g)
{
    g->got = (int)SSL_get_negotiated_group(ssl);
    return g->expect == 0 || g->got == g->expect;
}

/* --- mem mode: both ends in this thread over a BIO pair ----------------- */

/* One handshake and the byte each way; 1 on success. */
static int handshake_mem(struct group_run *g)
{
    SSL *c = SSL_new(g->client), *s = SSL_new(server_ctx);
    BIO *bc = NULL, *bs = NULL;
    int cdone = 0, sdone = 0, ok = 0, i, r;
    unsigned char byte = 'x';

    if (c == NULL || s == NULL || !BIO_new_bio_pair(&bc, 0, &bs, 0))
        goto out;
    SSL_set_bio(c, bc, bc);
    SSL_set_bio(s, bs, bs);
    SSL_set_connect_state(c);
    SSL_set_accept_state(s);
    for (i = 0; i < 64 && !(cdone && sdone); i++) {
        if (!cdone) {
            r = SSL_do_handshake(c);
            if (r == 1)
                cdone = 1;
            else if (SSL_get_error(c, r) != SSL_ERROR_WANT_READ)
                goto out;
        }
        if (!sdone) {
            r = SSL_do_handshake(s);
            if (r == 1)
                sdone = 1;
            else if (SSL_get_error(s, r) != SSL_ERROR_WANT_READ)
                goto out;
        }
    }
    if (!(cdone && sdone) || SSL_write(c, &byte, 1) != 1 || SSL_read(s, &byte, 1) != 1 ||
        SSL_write(s, &byte, 1) != 1 || SSL_read(c, &byte, 1) != 1)
        goto out;
    ok = negotiated_ok(c, g);
out:
    SSL_free(c);
    SSL_free(s);
    return ok;
}

/* --- tcp mode: a server thread and a client thread on loopback ---------- */

static int listen_fd = -1;
static struct sockaddr_in server_addr;
static volatile int server_stop;

static void pin(unsigned cpu)
{
    cpu_set_t set;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 2)
        return;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *server_main(void *arg)
{
    int one = 1;
    (void)arg;
    pin(0);
    for (;;) {
        int fd = accept(listen_fd, NULL, NULL);
        SSL *s;
        unsigned char byte;
        if (fd < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (server_stop) {
            close(fd);
            break;
        }
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        s = SSL_new(server_ctx);
        if (s != NULL && SSL_set_fd(s, fd) && SSL_accept(s) == 1 && SSL_read(s, &byte, 1) == 1)
            (void)SSL_write(s, &byte, 1);
        SSL_free(s);
        ERR_clear_error();
        close(fd);
    }
    return NULL;
}

static int handshake_tcp(struct group_run *g)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1, ok = 0;
    struct linger lin = { 1, 0 };
    unsigned char byte = 'x';
    SSL *c = NULL;

    if (fd < 0)
        return 0;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (const struct sockaddr *)&server_addr, sizeof server_addr) != 0)
        goto out;
    c = SSL_new(g->client);
    if (c == NULL || !SSL_set_fd(c, fd) || SSL_connect(c) != 1 || SSL_write(c, &byte, 1) != 1 ||
        SSL_read(c, &byte, 1) != 1)
        goto out;
    ok = negotiated_ok(c, g);
out:
    SSL_free(c);
    ERR_clear_error();
    /* Reset rather than TIME_WAIT: thousands of connections would otherwise
     * use up the ephemeral ports. */
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &lin, sizeof lin);
    close(fd);
    return ok;
}

static void start_server(pthread_t *th)
{
    socklen_t len = sizeof server_addr;
    int one = 1;
    listen_fd = socket(AF_INET, SOCK_STREAM, 0);
    memset(&server_addr, 0, sizeof server_addr);
    server_addr.sin_family = AF_INET;
    server_addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    server_addr.sin_port = 0;
    setsockopt(listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&server_addr, sizeof server_addr) ||
        listen(listen_fd, 16) || getsockname(listen_fd, (struct sockaddr *)&server_addr, &len))
        die("cannot listen on 127.0.0.1");
    server_stop = 0;
    if (pthread_create(th, NULL, server_main, NULL) != 0)
        die("cannot start the server thread");
}

static void stop_server(pthread_t th)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    server_stop = 1;
    if (fd >= 0) {
        (void)connect(fd, (const struct sockaddr *)&server_addr, sizeof server_addr);
        close(fd);
    }
    pthread_join(th, NULL);
    close(listen_fd);
}

struct client_args {
    struct group_run *groups;
    size_t ngroups, n, chunk;
    int tcp;
};

static void *client_main(void *arg)
{
    struct client_args *a = arg;
    size_t done, i, k;
    if (a->tcp)
        pin(1);
    /* Warm-up: one handshake per group (first use loads and caches). */
    for (i = 0; i < a->ngroups; i++)
        if (!(a->tcp ? handshake_tcp(&a->groups[i]) : handshake_mem(&a->groups[i])))
            a->groups[i].bad++;
    for (done = 0; done < a->n; done += a->chunk) {
        size_t m = a->n - done < a->chunk ? a->n - done : a->chunk;
        for (i = 0; i < a->ngroups; i++) {
            struct group_run *g = &a->groups[i];
            double t0 = now_seconds();
            for (k = 0; k < m; k++) {
                uint64_t s = vg_tsc_now();
                int ok = a->tcp ? handshake_tcp(g) : handshake_mem(g);
                uint64_t e = vg_tsc_now();
                if (!ok)
                    g->bad++;
                else
                    g->ticks[g->count++] = e - s;
            }
            g->seconds += now_seconds() - t0;
        }
    }
    return NULL;
}

static int run_mode(struct group_run *groups, size_t ngroups, size_t n, size_t chunk, int tcp,
                    int quiet)
{
    struct client_args a = { groups, ngroups, n, chunk, tcp };
    pthread_t server_th, client_th;
    size_t i;
    uint64_t base = 0;
    int bad = 0;

    for (i = 0; i < ngroups; i++) {
        groups[i].count = 0;
        groups[i].seconds = 0;
        groups[i].bad = 0;
    }
    if (tcp) {
        start_server(&server_th);
        if (pthread_create(&client_th, NULL, client_main, &a) != 0)
            die("cannot start the client thread");
        pthread_join(client_th, NULL);
        stop_server(server_th);
    } else {
        client_main(&a);
    }
    if (!quiet)
        printf("# mode %s: %s\n", tcp ? "tcp" : "mem",
               tcp ? "server thread on CPU 0, client thread on CPU 1, loopback TCP, a new "
                     "connection per handshake"
                   : "client and server in one thread over a BIO pair");
    for (i = 0; i < ngroups; i++) {
        struct group_run *g = &groups[i];
        uint64_t med = 0;
        if (g->count > 0) {
            qsort(g->ticks, g->count, sizeof g->ticks[0], cmp_u64);
            med = g->ticks[g->count / 2];
        }
        if (i == 0)
            base = med;
        if (g->bad)
            bad = 1;
        if (quiet) {
            printf("%-4s %-20s %s (%zu handshakes, %d failed; negotiated 0x%x, expected 0x%x)\n",
                   tcp ? "tcp" : "mem", g->name, g->bad || g->count == 0 ? "FAILED" : "ok",
                   g->count, g->bad, (unsigned)g->got, (unsigned)g->expect);
            continue;
        }
        printf("%-4s %-20s %9.0f handshakes/s  median %9llu %s  %6.3fx %s  (%zu, %d failed)\n",
               tcp ? "tcp" : "mem", g->name, g->seconds > 0 ? (double)g->count / g->seconds : 0.0,
               (unsigned long long)med, vg_tsc_unit(), base ? (double)med / (double)base : 0.0,
               groups[0].name, g->count, g->bad);
    }
    return bad;
}

int main(int argc, char **argv)
{
    const char *module = VG_PROVIDER_MODULE, *mode = "both";
    const char *names[MAX_GROUPS];
    size_t nnames = 0, n = 1000, chunk = 10, ngroups = 0, i, j;
    int smoke = 0, bad = 0;
    struct group_run groups[MAX_GROUPS];
    OSSL_PROVIDER *prov, *deflt;
    EVP_PKEY *pkey;
    X509_STORE *store;

    for (i = 1; i < (size_t)argc; i++) {
        if (!strcmp(argv[i], "--module") && i + 1 < (size_t)argc)
            module = argv[++i];
        else if (!strcmp(argv[i], "--mode") && i + 1 < (size_t)argc)
            mode = argv[++i];
        else if (!strcmp(argv[i], "-n") && i + 1 < (size_t)argc)
            n = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--chunk") && i + 1 < (size_t)argc)
            chunk = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--smoke"))
            smoke = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: %s [--module PATH] [--mode tcp|mem|both] [-n N] "
                            "[--chunk C] [--smoke] [GROUP...]\n", argv[0]);
            return 2;
        } else if (nnames < MAX_GROUPS)
            names[nnames++] = argv[i];
    }
    if (smoke) {
        n = 3;
        chunk = 3;
    }
    if (n == 0 || chunk == 0 || (strcmp(mode, "tcp") && strcmp(mode, "mem") && strcmp(mode, "both")))
        die("bad -n, --chunk or --mode");
    if (nnames == 0)
        for (i = 0; i < sizeof default_groups / sizeof default_groups[0]; i++)
            names[nnames++] = default_groups[i];

    /* The provider by path, and OpenSSL's default provider beside it (which
     * an explicit load would otherwise keep from loading). */
    deflt = OSSL_PROVIDER_load(NULL, "default");
    prov = module[0] ? OSSL_PROVIDER_load(NULL, module) : NULL;
    if (deflt == NULL || prov == NULL)
        die("cannot load the default provider or the vgcrypto provider (--module PATH)");

    pkey = make_cert();
    server_ctx = SSL_CTX_new(TLS_server_method());
    if (server_ctx == NULL)
        die("SSL_CTX_new");
    tls13_only(server_ctx);
    SSL_CTX_set_num_tickets(server_ctx, 0);
    if (SSL_CTX_use_certificate(server_ctx, cert) != 1 || SSL_CTX_use_PrivateKey(server_ctx, pkey) != 1)
        die("cannot set the server certificate");

    for (i = 0; i < nnames; i++) {
        struct group_run *g = &groups[ngroups];
        SSL_CTX *c = SSL_CTX_new(TLS_client_method());
        if (c == NULL)
            die("SSL_CTX_new");
        if (SSL_CTX_set1_groups_list(c, names[i]) != 1) {
            ERR_clear_error();
            SSL_CTX_free(c);
            printf("# %s: no such group in OpenSSL or the provider: left out\n", names[i]);
            continue;
        }
        tls13_only(c);
        store = SSL_CTX_get_cert_store(c);
        if (!X509_STORE_add_cert(store, cert))
            die("X509_STORE_add_cert");
        SSL_CTX_set_verify(c, SSL_VERIFY_PEER, NULL);
        memset(g, 0, sizeof *g);
        g->name = names[i];
        g->client = c;
        for (j = 0; j < sizeof known_groups / sizeof known_groups[0]; j++)
            if (!strcmp(known_groups[j].name, names[i]))
                g->expect = known_groups[j].nid != NID_undef
                                ? known_groups[j].nid
                                : TLSEXT_nid_unknown | known_groups[j].codepoint;
        g->ticks = malloc((n + 1) * sizeof *g->ticks);
        if (g->ticks == NULL)
            die("out of memory");
        ngroups++;
    }
    if (ngroups == 0)
        die("no group to measure");
    /* The server takes every group measured; each client offers one. */
    {
        char list[512] = "";
        for (i = 0; i < ngroups; i++) {
            if (strlen(list) + strlen(groups[i].name) + 2 > sizeof list)
                die("group list too long");
            if (i)
                strcat(list, ":");
            strcat(list, groups[i].name);
        }
        if (SSL_CTX_set1_groups_list(server_ctx, list) != 1)
            die("cannot set the server's groups");
    }

    if (!smoke) {
        printf("# vg_tls_handshake: full TLS 1.3 handshakes (new connection, no resumption, "
               "Ed25519 server certificate verified by the client, one byte each way after)\n");
        printf("# %s; provider %s\n", OpenSSL_version(OPENSSL_VERSION), module);
        printf("# %zu handshakes per group and mode, groups alternating in chunks of %zu; "
               "median per handshake in %s; ratio = median / median of %s\n",
               n, chunk, vg_tsc_unit(), groups[0].name);
    }
    if (strcmp(mode, "tcp"))
        bad |= run_mode(groups, ngroups, n, chunk, 0, smoke);
    if (strcmp(mode, "mem"))
        bad |= run_mode(groups, ngroups, n, chunk, 1, smoke);

    for (i = 0; i < ngroups; i++) {
        SSL_CTX_free(groups[i].client);
        free(groups[i].ticks);
    }
    SSL_CTX_free(server_ctx);
    X509_free(cert);
    EVP_PKEY_free(pkey);
    OSSL_PROVIDER_unload(prov);
    OSSL_PROVIDER_unload(deflt);
    if (smoke)
        printf("vg_tls_handshake --smoke: %s\n", bad ? "FAILED" : "all groups negotiated");
    return bad ? 1 : 0;
}
