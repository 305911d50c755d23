# P-256 / P-384 constant-time harness (issue 16), beside the generic ones of
# tests/ct.cmake, whose support library (vg_ct_support: the constant-time
# test build) it links.
#
#   ct_valgrind_nist                valgrind memcheck: the secret scalar of
#                                   [k]G and [k]P of every variant valgrind
#                                   runs; the secret key (and nonce) through
#                                   public_key, ecdh and signing (label ct)
#   ct_valgrind_nist_leaky_control  must be reported (WILL_FAIL)
#   ct_dudect_nist                  dudect rows (ecdh, public_key, sign per
#                                   curve and variant, OpenSSL EVP peers),
#                                   VG_CT_NIST_SAMPLES each (label ct)
#   ct_dudect_nist_long             10^6 per row (label ct-long, configuration Long)
if(NOT TARGET vg_ct_support)
  return()
endif()

if(VG_HAVE_MEMCHECK_H)
  add_executable(ct_valgrind_nist ct/ct_valgrind_nist.c)
  target_link_libraries(ct_valgrind_nist PRIVATE vg_ct_support)
  add_test(NAME ct_valgrind_nist
    COMMAND sh ${VG_CT_RUNNER} "${VG_VALGRIND}" $<TARGET_FILE:ct_valgrind_nist>)
  # Passes only when memcheck reports the planted leak (the variable-time
  # verification routine given a secret scalar).
  add_test(NAME ct_valgrind_nist_leaky_control
    COMMAND sh ${VG_CT_RUNNER} "${VG_VALGRIND}" $<TARGET_FILE:ct_valgrind_nist>
            --expect-leak --leaky)
  set_tests_properties(ct_valgrind_nist_leaky_control PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(ct_valgrind_nist ct_valgrind_nist_leaky_control PROPERTIES
    LABELS "ct;valgrind" SKIP_RETURN_CODE 77 TIMEOUT 1200)
endif()

# The short run: P-256 rows only (with their OpenSSL peers and the controls),
# 3000 samples each. At 20000 samples with P-384 (OpenSSL 3.0's P-384 is
# generic C, about 3M ticks a call) it took 221 s of CI time per
# configuration; the long test keeps every row at VG_CT_LONG_SAMPLES.
set(VG_CT_NIST_SAMPLES 3000 CACHE STRING "dudect measurements per P-256 row, short ct test")
add_executable(test_dudect_nist ct/test_dudect_nist.c ${PROJECT_SOURCE_DIR}/bench/peers_nist.c)
target_include_directories(test_dudect_nist PRIVATE ${PROJECT_SOURCE_DIR}/bench)
target_link_libraries(test_dudect_nist PRIVATE vg_ct_support ${CMAKE_DL_LIBS})
add_test(NAME ct_dudect_nist COMMAND test_dudect_nist ${VG_CT_NIST_SAMPLES} --only p256)
set_tests_properties(ct_dudect_nist PROPERTIES SKIP_RETURN_CODE 77 LABELS ct TIMEOUT 900 RUN_SERIAL TRUE)
add_test(NAME ct_dudect_nist_long COMMAND test_dudect_nist ${VG_CT_LONG_SAMPLES}
  CONFIGURATIONS Long)
set_tests_properties(ct_dudect_nist_long PROPERTIES SKIP_RETURN_CODE 77 LABELS ct-long TIMEOUT 14400 RUN_SERIAL TRUE)
