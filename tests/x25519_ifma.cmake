# X25519 with AVX-512 IFMA (src/curve25519/x25519_ifma.c): RFC 7748 and
# Wycheproof vectors, edge and small-order inputs, 10^5 random inputs against
# the portable ladder and libsodium. Skips itself without IFMA.
find_library(VG_SODIUM_LIBRARY sodium)
find_path(VG_SODIUM_INCLUDE sodium.h)
find_library(VG_CJSON_LIBRARY cjson)
find_path(VG_CJSON_INCLUDE cjson/cJSON.h)

if(VG_SODIUM_LIBRARY AND VG_SODIUM_INCLUDE AND VG_CJSON_LIBRARY AND VG_CJSON_INCLUDE)
  vg_test(test_x25519_ifma test_x25519_ifma.c LIBS ${VG_SODIUM_LIBRARY} ${VG_CJSON_LIBRARY})
  target_include_directories(test_x25519_ifma PRIVATE ${VG_SODIUM_INCLUDE} ${VG_CJSON_INCLUDE})
  set_tests_properties(test_x25519_ifma PROPERTIES LABELS x25519)
else()
  message(STATUS "libsodium or cJSON not found: test_x25519_ifma not built")
endif()
