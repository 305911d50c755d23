/*
 * keygen, ecdh, sign and verify for P-256 and P-384 (cmd_nist.c). The command
 * table of main.c lists keygen, sign and verify here first: these run
 * p-256 / p-384 and pass any other algorithm to vg_cli_cmd_keygen,
 * vg_cli_cmd_sign, vg_cli_cmd_verify unchanged.
 */
#ifndef VG_CLI_CMD_NIST_H
#define VG_CLI_CMD_NIST_H

int vg_cli_cmd_nist_keygen(int argc, char **argv);
int vg_cli_cmd_nist_ecdh(int argc, char **argv);
int vg_cli_cmd_nist_sign(int argc, char **argv);
int vg_cli_cmd_nist_verify(int argc, char **argv);

#endif
