/*
 * Negative control of the instruction audit (tests/ct_audit.cmake): a
 * function whose name matches a [secret] pattern of
 * tools/ct-audit-allowlist.txt (the X25519 field kernels, fe51_*) and whose
 * body divides by a run-time value, so the compiler must emit DIV. The
 * audit run on this object must fail (the test is WILL_FAIL).
 */
#include <stdint.h>

uint64_t fe51_planted_div(uint64_t a, uint64_t b);

uint64_t fe51_planted_div(uint64_t a, uint64_t b)
{
    return a / (b | 1u);
}
