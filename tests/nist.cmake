# NIST P-256 and P-384 (src/nist).
#   test_nist_fe   the field and scalar kernels (both portable paths: with
#                  unsigned __int128 and, nist_fe_twin.c, with 32-bit
#                  multiplies) and the inversions against GMP
#   test_nist      point formulas against a GMP affine model, [k]G and
#                  [k]P, Wycheproof ECDH and ECDSA, RFC 6979, DER, OpenSSL
#                  differential; every backend variant the build and CPU have
#   nist_p256_table_fresh / nist_p384_table_fresh: tools/gen_nist_tables.c
#                  prints exactly the checked-in base tables
vg_test(test_nist_fe test_nist_fe.c nist_fe_twin.c LIBS ${VG_GMP_LIBRARY})
target_include_directories(test_nist_fe PRIVATE ${VG_GMP_INCLUDE})
target_compile_options(test_nist_fe PRIVATE ${VG_WARNINGS})

foreach(bits 256 384)
  add_executable(gen_nist_p${bits}_table ${PROJECT_SOURCE_DIR}/tools/gen_nist_tables.c)
  target_compile_definitions(gen_nist_p${bits}_table PRIVATE VG_GEN_BITS=${bits})
  target_link_libraries(gen_nist_p${bits}_table PRIVATE ${VG_GMP_LIBRARY})
  target_include_directories(gen_nist_p${bits}_table PRIVATE ${VG_GMP_INCLUDE})
  target_compile_options(gen_nist_p${bits}_table PRIVATE -Wall -Wextra)
  vg_generated_test(nist_p${bits}_table_fresh gen_nist_p${bits}_table
    ${PROJECT_SOURCE_DIR}/src/nist/p${bits}_table.h)
endforeach()

vg_test(test_nist test_nist.c LIBS ${VG_GMP_LIBRARY} ${VG_CJSON_LIBRARY} OpenSSL::Crypto)
target_include_directories(test_nist PRIVATE ${VG_GMP_INCLUDE} ${VG_CJSON_INCLUDE})
# The issue's 10^4 random keys per curve and variant (minutes): with the
# other long tests.
if(VG_LONG_TESTS)
  add_test(NAME test_nist_long COMMAND test_nist --keys 10000)
  set_tests_properties(test_nist_long PROPERTIES LABELS nist-long TIMEOUT 7200)
endif()

# The command line (src/cli/cmd_nist.c), with the openssl command as the peer.
find_program(VG_OPENSSL_BIN openssl)
find_program(VG_PYTHON3_BIN python3)
if(VG_OPENSSL_BIN AND VG_PYTHON3_BIN)
  add_test(NAME test_nist_cli COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_nist_cli.sh
    $<TARGET_FILE:vgcrypto>)
else()
  message(STATUS "openssl or python3 not found: test_nist_cli not registered")
endif()
