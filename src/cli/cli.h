/*
 * Shared declarations of the vgcrypto command (DESIGN.md section 4).
 *
 * Every subcommand is `int vg_cli_cmd_<name>(int argc, char **argv)` where
 * argv[0] is the subcommand's own name; it returns the process exit code:
 * VG_CLI_EXIT_OK, VG_CLI_EXIT_REJECT (verification failure or rejected input)
 * or VG_CLI_EXIT_USAGE (usage error, unreadable file, I/O failure), having
 * printed exactly one line on stderr for the two failures.
 */
#ifndef VG_CLI_H
#define VG_CLI_H

#include <stdio.h>

#define VG_CLI_EXIT_OK 0
#define VG_CLI_EXIT_REJECT 1
#define VG_CLI_EXIT_USAGE 2

/* Print "vgcrypto: <message>\n" on stderr and return VG_CLI_EXIT_USAGE.
 * The message must be one line (no '\n'). */
int vg_cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Print "vgcrypto: <message>\n" on stderr (one line), nothing else. */
void vg_cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* The full usage text. */
void vg_cli_print_usage(FILE *f);

/* Parse a decimal size in [min, max] (no sign, no junk). 0 on success. */
int vg_cli_parse_size(const char *s, size_t min, size_t max, size_t *out);

/* The whole command: argv[0] is the program, argv[1] the command. Returns
 * the exit code instead of exiting, so that the fuzz target can call it. */
int vg_cli_main(int argc, char **argv);

int vg_cli_cmd_cpu(int argc, char **argv);
int vg_cli_cmd_hash(int argc, char **argv);
int vg_cli_cmd_mac(int argc, char **argv);    /* cmd_hash.c */
int vg_cli_cmd_kdf(int argc, char **argv);
int vg_cli_cmd_keygen(int argc, char **argv);
int vg_cli_cmd_encaps(int argc, char **argv); /* cmd_keygen.c */
int vg_cli_cmd_decaps(int argc, char **argv); /* cmd_keygen.c */
int vg_cli_cmd_x25519(int argc, char **argv);
int vg_cli_cmd_sign(int argc, char **argv);   /* cmd_sign.c */
int vg_cli_cmd_verify(int argc, char **argv); /* cmd_sign.c */
int vg_cli_cmd_seal(int argc, char **argv);   /* cmd_aead.c */
int vg_cli_cmd_open(int argc, char **argv);   /* cmd_aead.c */
int vg_cli_cmd_speed(int argc, char **argv); /* bench/speed.c */

#endif /* VG_CLI_H */
