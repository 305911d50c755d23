/*
 * The key-encoding and hybrid-KEM extensions of keygen, encaps and decaps
 * (cmd_hybrid.c), and the pkey command (cmd_pkey.c). Each _ext function
 * returns -1, having done nothing, when the arguments are not its own
 * (cmd_keygen.c then carries on), else the exit code.
 */
#ifndef VG_CLI_HYBRID_H
#define VG_CLI_HYBRID_H

int vg_cli_keygen_ext(int argc, char **argv);
int vg_cli_encaps_ext(int argc, char **argv);
int vg_cli_decaps_ext(int argc, char **argv);
int vg_cli_cmd_pkey(int argc, char **argv);

#endif
