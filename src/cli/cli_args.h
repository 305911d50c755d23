/*
 * Option parsing shared by the key commands (keygen, x25519, and later sign,
 * verify, encaps, decaps): each command describes its options in a table
 * and gets one uniform behaviour and one uniform error line.
 *
 * Accepted forms: "-s FILE", "--secret FILE", "--secret=FILE" for options
 * with a value; "--hex" for flags; "--" ends the options. Anything else
 * starting with '-' (except "-" itself) is an unknown option.
 */
#ifndef VG_CLI_ARGS_H
#define VG_CLI_ARGS_H

#include <stddef.h>

struct vg_cli_opt {
    char short_name;        /* 's' for "-s", or 0 for none */
    const char *long_name;  /* "secret" for "--secret" */
    const char **value;     /* option with a value: where it goes; NULL for a flag */
    int *flag;              /* flag: set to 1 when present; NULL for a value option */
    int required;           /* bit set: 1 = a value option that must be given;
                               VG_CLI_OPT_EMPTY_OK = its value may be "" */
    const char *what;       /* for the error line, e.g. "secret key file" */
};

/* In `required`: the option's value may be the empty string (a file name
 * may not, so this is off by default; an ML-DSA context string may). */
#define VG_CLI_OPT_EMPTY_OK 2

/* Parse argv[first..argc) against opts[0..n_opts). Positional arguments are
 * stored in order into pos[0..max_pos) and counted in *n_pos (pos may be
 * NULL when max_pos is 0). cmd names the command in error lines.
 * Pre: every *value is NULL and every *flag is 0 on entry.
 * Post: 0 (VG_CLI_EXIT_OK), or VG_CLI_EXIT_USAGE after one stderr line:
 * unknown option, missing value, an empty value (unless
 * VG_CLI_OPT_EMPTY_OK), an option given twice (a flag too), too many positional
 * arguments, or a required option absent. */
int vg_cli_parse_opts(const char *cmd, int argc, char **argv, int first,
                      const struct vg_cli_opt *opts, size_t n_opts, const char **pos,
                      size_t max_pos, size_t *n_pos);

/* At most one of the n paths may be "-": standard input can be read once.
 * NULL entries are skipped. 0, or VG_CLI_EXIT_USAGE after one stderr line
 * naming cmd. */
int vg_cli_one_stdin(const char *cmd, const char *const *paths, size_t n);

#endif /* VG_CLI_ARGS_H */
