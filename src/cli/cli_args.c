/*
 * Option parsing for the key commands; see cli_args.h.
 */
#include <string.h>

#include "cli.h"
#include "cli_args.h"

/* The option a word names, and where its inline "=VALUE" starts (or NULL). */
static const struct vg_cli_opt *find_opt(const char *word, const struct vg_cli_opt *opts,
                                         size_t n_opts, const char **inline_value)
{
    *inline_value = NULL;
    if (word[1] != '-') { /* "-s": exactly one letter */
        if (word[2] != '\0')
            return NULL;
        for (size_t i = 0; i < n_opts; i++)
            if (opts[i].short_name && opts[i].short_name == word[1])
                return &opts[i];
        return NULL;
    }
    const char *name = word + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    for (size_t i = 0; i < n_opts; i++) {
        if (strlen(opts[i].long_name) == len && strncmp(opts[i].long_name, name, len) == 0) {
            *inline_value = eq ? eq + 1 : NULL;
            return &opts[i];
        }
    }
    return NULL;
}

/* "-s/--secret" for error lines. */
static const char *opt_label(const struct vg_cli_opt *o, char *buf, size_t n)
{
    if (o->short_name)
        snprintf(buf, n, "-%c/--%s", o->short_name, o->long_name);
    else
        snprintf(buf, n, "--%s", o->long_name);
    return buf;
}

int vg_cli_parse_opts(const char *cmd, int argc, char **argv, int first,
                      const struct vg_cli_opt *opts, size_t n_opts, const char **pos,
                      size_t max_pos, size_t *n_pos)
{
    char label[64];
    int options_done = 0;
    *n_pos = 0;
    for (int i = first; i < argc; i++) {
        const char *w = argv[i];
        if (!options_done && strcmp(w, "--") == 0) {
            options_done = 1;
            continue;
        }
        if (options_done || w[0] != '-' || w[1] == '\0') {
            if (*n_pos >= max_pos)
                return vg_cli_usage_error("%s: unexpected argument '%s'", cmd, w);
            pos[(*n_pos)++] = w;
            continue;
        }
        const char *inl;
        const struct vg_cli_opt *o = find_opt(w, opts, n_opts, &inl);
        if (!o)
            return vg_cli_usage_error("%s: unknown option '%s' (try 'vgcrypto help')", cmd, w);
        opt_label(o, label, sizeof label);
        if (o->flag) {
            if (inl)
                return vg_cli_usage_error("%s: option %s takes no value", cmd, label);
            if (*o->flag)
                return vg_cli_usage_error("%s: option %s given twice", cmd, label);
            *o->flag = 1;
            continue;
        }
        if (*o->value)
            return vg_cli_usage_error("%s: option %s given twice", cmd, label);
        if (!inl) {
            if (i + 1 >= argc)
                return vg_cli_usage_error("%s: option %s needs a %s", cmd, label, o->what);
            inl = argv[++i];
        }
        if (inl[0] == '\0' && !(o->required & VG_CLI_OPT_EMPTY_OK))
            return vg_cli_usage_error("%s: option %s needs a %s, not an empty name", cmd, label,
                                      o->what);
        *o->value = inl;
    }
    for (size_t k = 0; k < n_opts; k++)
        if ((opts[k].required & 1) && opts[k].value && !*opts[k].value)
            return vg_cli_usage_error("%s: missing option %s (the %s)", cmd,
                                      opt_label(&opts[k], label, sizeof label), opts[k].what);
    return VG_CLI_EXIT_OK;
}

int vg_cli_one_stdin(const char *cmd, const char *const *paths, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += paths[i] && strcmp(paths[i], "-") == 0;
    if (k > 1)
        return vg_cli_usage_error("%s: only one input can be standard input ('-')", cmd);
    return VG_CLI_EXIT_OK;
}
