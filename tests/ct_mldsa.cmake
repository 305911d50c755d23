# ML-DSA constant-time harnesses (issue 6), beside tests/ct.cmake, whose
# vg_ct_support library (the constant-time test build vgcrypto_ct, dudect,
# DWARF 4 flags) and run_valgrind.sh they reuse.
#
#   ct_valgrind_mldsa               valgrind memcheck, seed / sk / rnd undefined,
#                                   portable and AVX2 backends  (labels ct;valgrind)
#   ct_valgrind_mldsa_leaky_control must be reported (WILL_FAIL)  (labels ct;valgrind)
if(NOT TARGET vg_ct_support)
  return()
endif()

if(VG_HAVE_MEMCHECK_H)
  add_executable(ct_valgrind_mldsa ct/ct_valgrind_mldsa.c)
  target_link_libraries(ct_valgrind_mldsa PRIVATE vg_ct_support)
  add_test(NAME ct_valgrind_mldsa
    COMMAND sh ${VG_CT_RUNNER} "${VG_VALGRIND}" $<TARGET_FILE:ct_valgrind_mldsa>)
  add_test(NAME ct_valgrind_mldsa_leaky_control
    COMMAND sh ${VG_CT_RUNNER} "${VG_VALGRIND}" $<TARGET_FILE:ct_valgrind_mldsa>
      --expect-leak --leaky)
  set_tests_properties(ct_valgrind_mldsa_leaky_control PROPERTIES WILL_FAIL TRUE)
else()
  add_test(NAME ct_valgrind_mldsa COMMAND sh -c "echo 'SKIP: valgrind/memcheck.h missing'; exit 77")
  add_test(NAME ct_valgrind_mldsa_leaky_control
    COMMAND sh -c "echo 'SKIP: valgrind/memcheck.h missing'; exit 77")
endif()
set_tests_properties(ct_valgrind_mldsa ct_valgrind_mldsa_leaky_control PROPERTIES
  LABELS "ct;valgrind" SKIP_RETURN_CODE 77 TIMEOUT 300)

#   ct_dudect_mldsa                 dudect: signing (fixed vs random one-attempt keys) and key
#                                   generation (fixed vs random seeds) on every backend
#                                   combination, with leaky and null controls (label ct)
#   ct_dudect_mldsa_long            the same at 10^5 per signing row (label ct-long,
#                                   configuration Long only)
set(VG_CT_MLDSA_SAMPLES 5000 CACHE STRING "dudect measurements per ML-DSA signing row, short ct test")
set(VG_CT_MLDSA_LONG_SAMPLES 100000 CACHE STRING "dudect measurements per ML-DSA signing row, ct-long test")
add_executable(test_dudect_mldsa ct/test_dudect_mldsa.c)
target_link_libraries(test_dudect_mldsa PRIVATE vg_ct_support)
add_test(NAME ct_dudect_mldsa COMMAND test_dudect_mldsa ${VG_CT_MLDSA_SAMPLES})
# Alone on the machine: other tests beside it move the clock and add noise.
set_tests_properties(ct_dudect_mldsa PROPERTIES SKIP_RETURN_CODE 77 LABELS ct TIMEOUT 300 RUN_SERIAL TRUE)
add_test(NAME ct_dudect_mldsa_long
  COMMAND test_dudect_mldsa ${VG_CT_MLDSA_LONG_SAMPLES} --pool 8192 --info CONFIGURATIONS Long)
set_tests_properties(ct_dudect_mldsa_long PROPERTIES SKIP_RETURN_CODE 77 LABELS ct-long TIMEOUT 7200 RUN_SERIAL TRUE)
