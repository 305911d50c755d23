# ML-KEM constant-time harnesses (issue 5, "Constant time"), beside the
# generic ones of tests/ct.cmake, whose support library (vg_ct_support:
# dudect, the constant-time test build of the library) they link.
#
#   ct_valgrind_mlkem                 valgrind memcheck, d/z, m and dk undefined
#   ct_valgrind_mlkem_leaky_control   must be reported (WILL_FAIL)
#   ct_dudect_mlkem                   dudect rows, VG_CT_MLKEM_SAMPLES each (label ct)
#   ct_dudect_mlkem_long              10^6 per row (label ct-long, configuration Long)
if(NOT TARGET vg_ct_support)
  return()
endif()

set(VG_CT_MLKEM_SAMPLES 20000 CACHE STRING "dudect measurements per ML-KEM row, short ct test")

if(VG_HAVE_MEMCHECK_H)
  add_executable(ct_valgrind_mlkem ct/ct_valgrind_mlkem.c)
  target_link_libraries(ct_valgrind_mlkem PRIVATE vg_ct_support)
  add_test(NAME ct_valgrind_mlkem
    COMMAND sh ${VG_CT_RUNNER} "${VG_VALGRIND}" $<TARGET_FILE:ct_valgrind_mlkem>)
  # Passes only when memcheck reports the planted leak (a branch on the
  # shared secret decaps computed from a secret dk).
  add_test(NAME ct_valgrind_mlkem_leaky_control
    COMMAND sh ${VG_CT_RUNNER} "${VG_VALGRIND}" $<TARGET_FILE:ct_valgrind_mlkem>
            --expect-leak --leaky)
  set_tests_properties(ct_valgrind_mlkem_leaky_control PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(ct_valgrind_mlkem ct_valgrind_mlkem_leaky_control PROPERTIES
    LABELS "ct;valgrind" SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()

add_executable(test_dudect_mlkem ct/test_dudect_mlkem.c)
target_link_libraries(test_dudect_mlkem PRIVATE vg_ct_support)
add_test(NAME ct_dudect_mlkem COMMAND test_dudect_mlkem ${VG_CT_MLKEM_SAMPLES})
set_tests_properties(ct_dudect_mlkem PROPERTIES SKIP_RETURN_CODE 77 LABELS ct TIMEOUT 300 RUN_SERIAL TRUE)
add_test(NAME ct_dudect_mlkem_long COMMAND test_dudect_mlkem ${VG_CT_LONG_SAMPLES}
  CONFIGURATIONS Long)
set_tests_properties(ct_dudect_mlkem_long PROPERTIES SKIP_RETURN_CODE 77 LABELS ct-long TIMEOUT 7200 RUN_SERIAL TRUE)
