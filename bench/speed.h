/*
 * `vgcrypto speed`: median timings of our operations beside the peers'
 * (bench/peers.h), in one run, alternating in small chunks (TOOLING.md).
 */
#ifndef VG_BENCH_SPEED_H
#define VG_BENCH_SPEED_H

/* argv[0] is "speed". Options: NAME... (row-name prefixes), --json,
 * --samples N. Returns the exit code (0; 1 when an output differs from a
 * peer's; 2 on a usage error), printing one stderr line on failure. */
int vg_cli_cmd_speed(int argc, char **argv);

#endif /* VG_BENCH_SPEED_H */
