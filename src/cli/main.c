/*
 * vgcrypto: the command-line tool (DESIGN.md section 4).
 *
 * Exit codes: 0 success, 1 verification failure or rejected input, 2 usage
 * error (and unreadable input files), each failure with one line on stderr.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_hybrid.h"
#include "cli_io.h"
#include "cmd_nist.h"
#include "vgcrypto.h"

void vg_cli_print_usage(FILE *f)
{
    fprintf(f,
            "usage: vgcrypto <command> [options]\n"
            "\n"
            "commands:\n"
            "  hash ALG [--length N] [-o OUT [--hex]] [FILE...]\n"
            "        ALG: sha256 sha384 sha512 sha3-256 sha3-512 shake128 shake256\n"
            "        prints \"<hex>  <name>\" per FILE (standard input when none or \"-\");\n"
            "        files of any size, streamed;\n"
            "        --length N: output bytes for shake128 (default 32), shake256 (default 64);\n"
            "        -o OUT: write the raw digests to OUT atomically (--hex: the printed lines)\n"
            "  mac ALG -k KEY [-o OUT] [--hex] [FILE...]\n"
            "        ALG: hmac-sha256 hmac-sha384 hmac-sha512 (RFC 2104); KEY: a file of any\n"
            "        length up to 1 MiB (--hex: in hex); prints and -o as for hash\n"
            "  kdf ALG --ikm FILE [--salt FILE] [--info STR] --length N -o OUT [--hex]\n"
            "        ALG: hkdf-sha256 hkdf-sha384 hkdf-sha512 (RFC 5869); N bytes, 1 to\n"
            "        255 * the hash length (8160, 12240, 16320); no --salt: HashLen zero\n"
            "        bytes; --info: the bytes of STR (default empty); --hex: IKM, salt and\n"
            "        OUT in hex\n"
            "  keygen ALG -s SECRET -p PUBLIC [--hex]\n"
            "        ALG: x25519 ed25519 ml-kem-512 ml-kem-768 ml-kem-1024 ml-dsa-44\n"
            "        ml-dsa-65 ml-dsa-87; writes a fresh secret key to SECRET and its public\n"
            "        key to PUBLIC (both atomically, mode 0600). Sizes in bytes:\n"
            "          x25519   secret 32, public 32 (RFC 7748)\n"
            "          ed25519  secret 64 = seed (32) || public key (32), as in libsodium;\n"
            "                   public 32 (RFC 8032)\n"
            "          ml-kem-512 / ml-kem-768 / ml-kem-1024 (FIPS 203 encodings):\n"
            "                   secret (dk) 1632 / 2400 / 3168, public (ek) 800 / 1184 / 1568,\n"
            "                   ciphertext 768 / 1088 / 1568, shared secret 32\n"
            "          ml-dsa-44 / ml-dsa-65 / ml-dsa-87 (FIPS 204 encodings):\n"
            "                   secret 2560 / 4032 / 4896, public 1312 / 1952 / 2592,\n"
            "                   signature 2420 / 3309 / 4627\n"
            "  encaps ALG -p PUBLIC -c CIPHERTEXT -k SHARED [--hex]\n"
            "        ALG: ml-kem-512 ml-kem-768 ml-kem-1024; encapsulates to PUBLIC with fresh\n"
            "        randomness, writes the ciphertext and the 32-byte shared secret; a\n"
            "        public key with a coefficient >= q is rejected (exit 1, FIPS 203 7.2)\n"
            "  decaps ALG -s SECRET -c CIPHERTEXT -k SHARED [--hex]\n"
            "        the shared secret of CIPHERTEXT under SECRET; a secret key whose stored\n"
            "        H(ek) is not the hash of its ek is rejected (exit 1, FIPS 203 7.3); a\n"
            "        wrong ciphertext of the right length gives the implicit-rejection\n"
            "        secret (exit 0), as the standard requires\n"
            "  x25519 -s SECRET -p PEER_PUBLIC -o SHARED [--hex]\n"
            "        RFC 7748 shared secret of SECRET and the peer's public key; an all-zero\n"
            "        result (peer key of small order) is rejected and nothing is written\n"
            "  sign ALG -s SECRET -i MESSAGE -o SIG [--hex] [options]\n"
            "        ALG: ed25519 ml-dsa-44 ml-dsa-65 ml-dsa-87; signs the file MESSAGE (of\n"
            "        any size, read in 1 MiB chunks) and writes the signature to SIG; an\n"
            "        Ed25519 secret key whose second half is not the public key of its seed\n"
            "        is rejected (exit 1), as is an ML-DSA secret key whose s1 or s2 is out\n"
            "        of range. ML-DSA: --context STR signs with the context string STR\n"
            "        (its bytes as given, 0 to 255 of them; longer is a usage error, exit\n"
            "        2; default: empty); --prehash H signs HashML-DSA (FIPS 204 5.4) with\n"
            "        H = sha256 sha384 sha512 sha3-256 sha3-512 shake128 shake256;\n"
            "        signing is hedged (fresh randomness, FIPS 204 Algorithm 2) unless\n"
            "        --deterministic (rnd = 32 zero bytes: the same key, message and\n"
            "        context always give the same signature). Ed25519: --ph [--context STR]\n"
            "        signs Ed25519ph (context 0 to 255 bytes), --ctx STR Ed25519ctx (1 to\n"
            "        255 bytes; RFC 8032 5.1); plain Ed25519 and Ed25519ctx read MESSAGE\n"
            "        twice (a pipe is held in memory instead, at most 1 GiB; a message\n"
            "        that changes between the two reads is refused, exit 2)\n"
            "  verify ALG -p PUBLIC -i MESSAGE -S SIG [--hex] [options]\n"
            "        ALG: ed25519 ml-dsa-44 ml-dsa-65 ml-dsa-87; prints \"OK\" and exits 0\n"
            "        for a valid signature, exits 1 with one line on stderr for an invalid\n"
            "        one (a signature file of the wrong length too); MESSAGE of any size;\n"
            "        --context, --prehash, --ph, --ctx as for sign (they must be the\n"
            "        signer's); Ed25519: --cofactored checks [8][S]B = [8]R + [8][k]A\n"
            "        instead of [S]B = R + [k]A (RFC 8032 5.1.7)\n"
            "  seal ALG -k KEY -i IN -o OUT [--ad FILE] [--hex]\n"
            "        ALG: chacha20-poly1305 (RFC 8439) xchacha20-poly1305\n"
            "        (draft-irtf-cfrg-xchacha); KEY: 32 bytes (--hex: 64 hex digits);\n"
            "        writes nonce || ciphertext || tag: a fresh random nonce (12 or 24\n"
            "        bytes), the 16-byte tag; FILE: associated data (at most 16 MiB),\n"
            "        authenticated, not encrypted; IN of any size, streamed.\n"
            "        chacha20-poly1305's random 12-byte nonce: seal at most 2^32 files\n"
            "        with one key (xchacha20-poly1305 has no such limit in practice)\n"
            "  open ALG -k KEY -i IN -o OUT [--ad FILE] [--hex]\n"
            "        the reverse of seal; a wrong tag (wrong key or AD, a modified or\n"
            "        truncated file) exits 1 and writes nothing: OUT is renamed into\n"
            "        place only after the tag verified; to standard output, a FIFO or a\n"
            "        device the plaintext is held in memory (at most 64 MiB) until then\n"
            "  keygen p-256|p-384 -s SECRET -p PUBLIC [--hex]\n"
            "        NIST P-256 / P-384 (FIPS 186-5): secret 32 / 48 = the big-endian\n"
            "        scalar in [1, n-1], public 65 / 97 = SEC 1 uncompressed point\n"
            "  ecdh p-256|p-384 -s SECRET -p PEER -o SHARED [--hex]\n"
            "        SEC 1 3.3.1 shared x-coordinate (32 / 48 bytes); PEER uncompressed\n"
            "        or compressed, rejected (exit 1) if not a point of the curve or if\n"
            "        the result is all zero\n"
            "  sign p-256|p-384 -s SECRET -i MESSAGE -o SIG [--der] [--deterministic] [--hex]\n"
            "        ECDSA of SHA-256 / SHA-384 of MESSAGE (any size, streamed); SIG is\n"
            "        r || s (64 / 96 bytes) or with --der the DER SEQUENCE; nonces by\n"
            "        RFC 6979, hedged with fresh randomness unless --deterministic\n"
            "  verify p-256|p-384 -p PUBLIC -i MESSAGE -S SIG [--der] [--hex]\n"
            "        prints \"OK\" and exits 0 for a valid signature, else exits 1\n"
            "  keygen x-wing|x25519-mlkem768 -s SECRET -p PUBLIC [--hex]\n"
            "        hybrid KEMs: x-wing (draft-connolly-cfrg-xwing-kem: secret = the\n"
            "        32-byte seed, public 1216, ciphertext 1120, shared secret 32);\n"
            "        x25519-mlkem768 (draft-ietf-tls-ecdhe-mlkem, group 0x11EC: secret\n"
            "        2432 = ML-KEM-768 dk || X25519 secret, public 1216, ciphertext 1120,\n"
            "        shared secret 64); encaps and decaps take them as for ml-kem\n"
            "  keygen p256-mlkem768|p384-mlkem1024 -s SECRET -p PUBLIC [--hex]\n"
            "        0x11EB / 0x11ED: secret 2432 / 3216 = EC scalar || ML-KEM dk,\n"
            "        public 1249 / 1665 = point || ek, ciphertext 1153 / 1665, shared\n"
            "        secret 64 / 80 = ECDH x || ML-KEM ss (EC first)\n"
            "  keygen ALG -s SECRET -p PUBLIC --pem|--der\n"
            "        PKCS#8 secret key (ML-KEM, ML-DSA: the seed form) and SPKI public\n"
            "        key, PEM (RFC 7468) or DER, for every ALG but the TLS hybrids\n"
            "        (p-256 and p-384 included); encaps, decaps, sign, verify, ecdh\n"
            "        and x25519 read raw, PEM or DER key files (by content; P-256 /\n"
            "        P-384 also the SEC 1 EC PRIVATE KEY of openssl ec, and\n"
            "        compressed points)\n"
            "  pkey [ALG] -i IN -o OUT [--pubin] [--pubout] [--pem|--der|--raw]\n"
            "       [--form seed|expanded|both] [--hex]\n"
            "        converts keys: IN is PKCS#8, SPKI (PEM or DER) or a raw key of ALG\n"
            "        (a secret key unless --pubin); writes PEM (default), DER or the raw\n"
            "        library form; --pubout the public key (docs/encodings.md)\n"
            "  speed [NAME...] [--json] [--samples N]\n"
            "        median TSC ticks of our code beside OpenSSL (libcrypto.so.3) and\n"
            "        libsodium (libsodium.so.23), loaded with dlopen when present;\n"
            "        NAME selects rows by prefix (e.g. x25519); VG_SPEED_NO_PEERS=1 skips\n"
            "        the peers\n"
            "  cpu   version, detected and active CPU features, variant per primitive\n"
            "  help  this text\n"
            "\n"
            "keys and outputs are files, raw bytes by default; --hex reads and writes\n"
            "lowercase hex (input: either case, optionally one trailing newline);\n"
            "--hex does not apply to messages, which are always read byte for byte;\n"
            "\"-\" is standard input (for one input) or output; a command's output\n"
            "files are replaced together or not at all (a failure leaves every old\n"
            "file as it was); a FIFO or character device is written directly; a\n"
            "symbolic link is followed and its target replaced; an output naming\n"
            "another output or an input is a usage error (docs/cli.md)\n"
            "exit status: 0 success;\n"
            "             1 verification failure or rejected input (a key or signature\n"
            "               of the wrong length or with bad hex, an all-zero X25519 result,\n"
            "               an inconsistent Ed25519 secret key, an ML-KEM key failing\n"
            "               the FIPS 203 checks, an ML-DSA secret key out of range,\n"
            "               a sealed file that fails authentication or is truncated);\n"
            "             2 usage error (a context of a length the algorithm does not\n"
            "               allow, a kdf --length over 255 * the hash length too),\n"
            "               unreadable input or unwritable output file, a message that\n"
            "               changed while Ed25519 read it twice, a piped Ed25519 message\n"
            "               over 1 GiB, a file to seal over 2^38 - 64 bytes, random\n"
            "               source failure\n"
            "environment: VG_CPU_FEATURES=none|bmi2,adx,avx2,avx512ifma,sha,... restricts the\n"
            "             CPU features the library may use\n");
}

static void verror(const char *fmt, va_list ap)
{
    vg_cli_verror(NULL, fmt, ap);
}

void vg_cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(fmt, ap);
    va_end(ap);
}

int vg_cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(fmt, ap);
    va_end(ap);
    return VG_CLI_EXIT_USAGE;
}

int vg_cli_parse_size(const char *s, size_t min, size_t max, size_t *out)
{
    char *end;
    if (!s || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end != '\0' || v < min || v > max)
        return -1;
    *out = (size_t)v;
    return 0;
}

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
};

static const struct command g_commands[] = {
    {"hash", vg_cli_cmd_hash},
    {"mac", vg_cli_cmd_mac},
    {"kdf", vg_cli_cmd_kdf},
    {"keygen", vg_cli_cmd_nist_keygen}, /* p-256, p-384; else vg_cli_cmd_keygen */
    {"ecdh", vg_cli_cmd_nist_ecdh},
    {"sign", vg_cli_cmd_nist_sign},     /* p-256, p-384; else vg_cli_cmd_sign */
    {"verify", vg_cli_cmd_nist_verify}, /* p-256, p-384; else vg_cli_cmd_verify */
    {"keygen", vg_cli_cmd_keygen},
    {"x25519", vg_cli_cmd_x25519},
    {"sign", vg_cli_cmd_sign},
    {"verify", vg_cli_cmd_verify},
    {"encaps", vg_cli_cmd_encaps},
    {"decaps", vg_cli_cmd_decaps},
    {"seal", vg_cli_cmd_seal},
    {"open", vg_cli_cmd_open},
    {"speed", vg_cli_cmd_speed},
    {"cpu", vg_cli_cmd_cpu},
    {"pkey", vg_cli_cmd_pkey}, /* cmd_pkey.c (issue 17) */
};

/* Standard output must have reached its file: a full disk or a closed pipe
 * is a failure of every command, `help` and `version` included. */
static int finish_stdout(int rc)
{
    int failed = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    clearerr(stdout); /* vg_cli_main may be called again (the fuzz target) */
    if (failed && rc == VG_CLI_EXIT_OK)
        rc = vg_cli_usage_error("cannot write standard output: %s",
                                strerror(e ? e : EIO));
    return rc;
}

int vg_cli_main(int argc, char **argv)
{
    if (argc < 2)
        return vg_cli_usage_error("missing command (try 'vgcrypto help')");
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        if (argc > 2)
            return vg_cli_usage_error("%s: unexpected argument '%s'", cmd, argv[2]);
        errno = 0;
        vg_cli_print_usage(stdout);
        return finish_stdout(VG_CLI_EXIT_OK);
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        if (argc > 2)
            return vg_cli_usage_error("%s: unexpected argument '%s'", cmd, argv[2]);
        errno = 0;
        printf("vgcrypto %s\n", vg_version());
        return finish_stdout(VG_CLI_EXIT_OK);
    }
    for (size_t i = 0; i < sizeof g_commands / sizeof g_commands[0]; i++) {
        if (strcmp(cmd, g_commands[i].name) == 0) {
            int rc = g_commands[i].run(argc - 1, argv + 1);
            errno = 0;
            return finish_stdout(rc);
        }
    }
    return vg_cli_usage_error("unknown command '%s' (try 'vgcrypto help')", cmd);
}

/* The fuzz target (fuzz/fuzz_cli.c) compiles this file with VG_CLI_NO_MAIN
 * and calls vg_cli_main itself. */
#ifndef VG_CLI_NO_MAIN
int main(int argc, char **argv)
{
    return vg_cli_main(argc, argv);
}
#endif
