/*
 * Stand-in for <valgrind/valgrind.h> in the MemorySanitizer build of the
 * valgrind harnesses (see memcheck.h here). RUNNING_ON_VALGRIND is 0: the
 * harness runs natively, so it runs every variant the real CPUID shows,
 * AVX-512 and SHA-NI included. The harness then prints "not under valgrind:
 * ... nothing checks them", which is untrue here: MSan checks them;
 * tests/ct/msan/run_msan.sh rewrites that line.
 */
#ifndef VG_CT_MSAN_VALGRIND_H
#define VG_CT_MSAN_VALGRIND_H

#define RUNNING_ON_VALGRIND 0

#endif
