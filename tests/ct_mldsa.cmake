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
