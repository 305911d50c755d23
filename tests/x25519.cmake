# X25519 (RFC 7748): the field kernels against GMP, the ladders against the
# RFC and Wycheproof vectors and against libsodium and OpenSSL. Each test
# also compiles the portable field a second time without __int128
# (fe51_twin.c) and runs it as one more variant.
option(VG_LONG_TESTS "Register the long tests (e.g. RFC 7748 1,000,000 iterations)" OFF)
find_library(VG_GMP_LIBRARY gmp)
find_path(VG_GMP_INCLUDE gmp.h)
find_library(VG_SODIUM_LIBRARY sodium)
find_path(VG_SODIUM_INCLUDE sodium.h)

if(VG_GMP_LIBRARY AND VG_GMP_INCLUDE)
  vg_test(test_fe25519 test_fe25519.c fe51_twin.c LIBS ${VG_GMP_LIBRARY})
  target_include_directories(test_fe25519 PRIVATE ${VG_GMP_INCLUDE})
else()
  message(STATUS "GMP not found: test_fe25519 not built")
endif()

if(VG_SODIUM_LIBRARY AND VG_SODIUM_INCLUDE AND OpenSSL_FOUND)
  vg_test(test_x25519 test_x25519.c fe51_twin.c LIBS ${VG_SODIUM_LIBRARY} OpenSSL::Crypto)
  target_include_directories(test_x25519 PRIVATE ${VG_SODIUM_INCLUDE})
  if(VG_LONG_TESTS)
    add_test(NAME test_x25519_long COMMAND test_x25519 --long)
    set_tests_properties(test_x25519_long PROPERTIES LABELS x25519-long TIMEOUT 3600)
  endif()
else()
  message(STATUS "libsodium or OpenSSL not found: test_x25519 not built")
endif()
