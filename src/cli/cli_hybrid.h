/*
 * The key-encoding and hybrid-KEM extensions of keygen, encaps and decaps
 * (cmd_hybrid.c), and the pkey command (cmd_pkey.c). Each _ext function
 * returns -1, having done nothing, when the arguments are not its own
 * (cmd_keygen.c then carries on), else the exit code.
 */
#ifndef VG_CLI_HYBRID_H
#define VG_CLI_HYBRID_H

#include <stdint.h>

int vg_cli_keygen_ext(int argc, char **argv);
int vg_cli_encaps_ext(int argc, char **argv);
int vg_cli_decaps_ext(int argc, char **argv);
int vg_cli_cmd_pkey(int argc, char **argv);
/* For the other commands (issue 17): when the file at path is PEM, or DER
 * of another length than the raw key, decode it as a PKCS#8 (want_secret)
 * or SPKI key of the algorithm named alg ("p-256", "ed25519", ...) into out
 * in the raw library form and return the exit code (one stderr line on
 * failure); return -1, touching nothing, for any other file (the caller
 * reads it raw), with --hex (hex), or standard input ("-"). */
int vg_cli_load_encoded_key(const char *cmd, const char *what, const char *path,
                            const char *alg, int want_secret, uint8_t *out, int hex);

#endif
