# Fixed-base [k]B on edwards25519 (X25519 public keys, Ed25519 [a]B):
# test_x25519_base against libsodium, OpenSSL, RFC 8032 and a GMP
# re-derivation of the table; x25519_base_table_fresh regenerates the table
# with tools/gen_base_table.c and compares it with the checked-in header;
# ct_x25519_base runs the public-key and [a]B paths under valgrind with the
# scalar undefined (labels ct, valgrind).
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
  add_test(NAME x25519_base_table_fresh
    COMMAND sh -c "\"$1\" | cmp - \"$2\"" sh $<TARGET_FILE:gen_base_table>
      ${PROJECT_SOURCE_DIR}/src/curve25519/ge25519_base_table.h)
endif()

include(CheckIncludeFile)
check_include_file(valgrind/memcheck.h VG_HAVE_MEMCHECK_H)
if(VG_HAVE_MEMCHECK_H)
  add_executable(ct_x25519_base ct_x25519_base.c)
  target_link_libraries(ct_x25519_base PRIVATE vgcrypto_internal)
  # DWARF 4 for valgrind 3.19; no -march (valgrind cannot run AVX-512).
  target_compile_options(ct_x25519_base PRIVATE ${VG_WARNINGS} -g -gdwarf-4)
  # tests/ct/run_valgrind.sh: detects the CPU natively, forces it under
  # valgrind, exits 77 (skip) without valgrind.
  add_test(NAME ct_x25519_base COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/ct/run_valgrind.sh
    "${VG_VALGRIND}" $<TARGET_FILE:ct_x25519_base>)
  # The control: passes only when memcheck reports the planted secret branch.
  add_test(NAME ct_x25519_base_leaky_control COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/ct/run_valgrind.sh
    "${VG_VALGRIND}" $<TARGET_FILE:ct_x25519_base> --expect-leak --leaky)
  set_tests_properties(ct_x25519_base_leaky_control PROPERTIES WILL_FAIL TRUE)
else()
  add_test(NAME ct_x25519_base COMMAND sh -c "echo 'SKIP: valgrind/memcheck.h missing'; exit 77")
  add_test(NAME ct_x25519_base_leaky_control COMMAND sh -c "echo 'SKIP: valgrind/memcheck.h missing'; exit 77")
endif()
set_tests_properties(ct_x25519_base ct_x25519_base_leaky_control PROPERTIES
  LABELS "ct;valgrind" SKIP_RETURN_CODE 77 TIMEOUT 600)
