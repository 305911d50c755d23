# Constant-time harness of the hybrid KEMs and the key encodings (issue 17),
# beside tests/ct.cmake, whose support library it links:
#   ct_valgrind_hybrid                 valgrind memcheck, seeds and keys undefined
#   ct_valgrind_hybrid_leaky_control   must be reported (WILL_FAIL)
if(NOT TARGET vg_ct_support)
  return()
endif()
if(VG_HAVE_MEMCHECK_H)
  add_executable(ct_valgrind_hybrid ct/ct_valgrind_hybrid.c)
  target_link_libraries(ct_valgrind_hybrid PRIVATE vg_ct_support)
  add_test(NAME ct_valgrind_hybrid
    COMMAND sh ${VG_CT_RUNNER} "${VG_VALGRIND}" $<TARGET_FILE:ct_valgrind_hybrid>)
  add_test(NAME ct_valgrind_hybrid_leaky_control
    COMMAND sh ${VG_CT_RUNNER} "${VG_VALGRIND}" $<TARGET_FILE:ct_valgrind_hybrid>
            --expect-leak --leaky)
  set_tests_properties(ct_valgrind_hybrid_leaky_control PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(ct_valgrind_hybrid ct_valgrind_hybrid_leaky_control PROPERTIES
    LABELS "ct;valgrind" SKIP_RETURN_CODE 77 TIMEOUT 900)
endif()
