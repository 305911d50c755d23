# Fixed-base [k]B on edwards25519 (X25519 public keys, Ed25519 [a]B):
# test_x25519_base against libsodium, OpenSSL, RFC 8032 and a GMP
# re-derivation of the table; x25519_base_table_fresh regenerates the table
# with tools/gen_base_table.c and compares it with the checked-in header
# (vg_generated_test, tests/CMakeLists.txt; the other generators' tests are
# in tests/generators.cmake and tests/ed25519.cmake).
# The constant-time checks of every fixed-base variant live in the shared
# harnesses (tests/ct/ct_valgrind.c, tests/ct/test_dudect.c; tests/ct.cmake).
find_library(VG_GMP_LIBRARY gmp)
find_path(VG_GMP_INCLUDE gmp.h)
find_library(VG_SODIUM_LIBRARY sodium)
find_path(VG_SODIUM_INCLUDE sodium.h)

if(VG_GMP_LIBRARY AND VG_GMP_INCLUDE AND VG_SODIUM_LIBRARY AND VG_SODIUM_INCLUDE AND OpenSSL_FOUND)
  vg_test(test_x25519_base test_x25519_base.c
    LIBS ${VG_SODIUM_LIBRARY} ${VG_GMP_LIBRARY} OpenSSL::Crypto)
  target_include_directories(test_x25519_base PRIVATE ${VG_SODIUM_INCLUDE} ${VG_GMP_INCLUDE})
else()
  message(STATUS "GMP, libsodium or OpenSSL not found: test_x25519_base not built")
endif()

if(VG_GMP_LIBRARY AND VG_GMP_INCLUDE)
  add_executable(gen_base_table ${PROJECT_SOURCE_DIR}/tools/gen_base_table.c)
  target_link_libraries(gen_base_table PRIVATE ${VG_GMP_LIBRARY})
  target_include_directories(gen_base_table PRIVATE ${VG_GMP_INCLUDE})
  target_compile_options(gen_base_table PRIVATE -Wall -Wextra)
  vg_generated_test(x25519_base_table_fresh gen_base_table
    ${PROJECT_SOURCE_DIR}/src/curve25519/ge25519_base_table.h)
endif()
