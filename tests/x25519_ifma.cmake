# X25519 with AVX-512 IFMA (src/curve25519/x25519_ifma.c): edge and
# small-order inputs and 10^4 random inputs against the portable ladder and
# libsodium, with and without ADX (test_x25519 runs the vectors on it).
# Skips itself without IFMA.
vg_test(test_x25519_ifma test_x25519_ifma.c LIBS ${VG_SODIUM_LIBRARY})
target_include_directories(test_x25519_ifma PRIVATE ${VG_SODIUM_INCLUDE})
set_tests_properties(test_x25519_ifma PROPERTIES LABELS x25519)
