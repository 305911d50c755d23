/*
 * Stand-in for <valgrind/memcheck.h> in the MemorySanitizer build of the
 * valgrind harnesses (tests/ct_msan.cmake puts tests/ct/msan first on the
 * include path). The harness sources are compiled unchanged: what marks a
 * secret for memcheck poisons it for MSan, and what declassifies for memcheck
 * unpoisons for MSan. MSan then reports a conditional branch on poisoned
 * bytes and a load or store through a poisoned address
 * ("use-of-uninitialized-value"), as memcheck does under valgrind.
 */
#ifndef VG_CT_MSAN_MEMCHECK_H
#define VG_CT_MSAN_MEMCHECK_H

#if !defined(__has_feature)
#error "the MSan stand-in for valgrind/memcheck.h needs clang -fsanitize=memory"
#elif !__has_feature(memory_sanitizer)
#error "the MSan stand-in for valgrind/memcheck.h needs clang -fsanitize=memory"
#endif
#include <sanitizer/msan_interface.h>

#include "valgrind.h"

#define VALGRIND_MAKE_MEM_UNDEFINED(p, n) (__msan_poison((p), (n)), 0)
#define VALGRIND_MAKE_MEM_DEFINED(p, n) (__msan_unpoison((p), (n)), 0)

#endif
