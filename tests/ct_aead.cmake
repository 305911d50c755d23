# ChaCha20-Poly1305 / XChaCha20-Poly1305 constant-time harnesses (issue 15,
# "Constant time"), beside the generic ones of tests/ct.cmake, whose support
# library (vg_ct_support: dudect, the constant-time test build) they link.
#
#   ct_valgrind_aead                  valgrind memcheck: key, plaintext and
#                                     Poly1305 key undefined through seal and
#                                     open (right and wrong tag), every pair
#                                     of variants valgrind runs (label ct)
#   ct_valgrind_aead_leaky_control    must be reported (WILL_FAIL)
#   ct_dudect_aead                    dudect rows, VG_CT_AEAD_SAMPLES each (label ct)
#   ct_dudect_aead_long               10^6 per row (label ct-long, configuration Long)
if(NOT TARGET vg_ct_support)
  return()
endif()

set(VG_CT_AEAD_SAMPLES 100000 CACHE STRING "dudect measurements per AEAD row, short ct test")

if(VG_HAVE_MEMCHECK_H)
  add_executable(ct_valgrind_aead ct/ct_valgrind_aead.c)
  target_link_libraries(ct_valgrind_aead PRIVATE vg_ct_support)
  add_test(NAME ct_valgrind_aead
    COMMAND sh ${VG_CT_RUNNER} "${VG_VALGRIND}" $<TARGET_FILE:ct_valgrind_aead>)
  # Passes only when memcheck reports the planted leak (an early-exit
  # comparison of the tag computed from a secret key).
  add_test(NAME ct_valgrind_aead_leaky_control
    COMMAND sh ${VG_CT_RUNNER} "${VG_VALGRIND}" $<TARGET_FILE:ct_valgrind_aead>
            --expect-leak --leaky)
  set_tests_properties(ct_valgrind_aead_leaky_control PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(ct_valgrind_aead ct_valgrind_aead_leaky_control PROPERTIES
    LABELS "ct;valgrind" SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()

add_executable(test_dudect_aead ct/test_dudect_aead.c ${PROJECT_SOURCE_DIR}/bench/peers.c)
target_include_directories(test_dudect_aead PRIVATE ${PROJECT_SOURCE_DIR}/bench)
target_link_libraries(test_dudect_aead PRIVATE vg_ct_support ${CMAKE_DL_LIBS})
add_test(NAME ct_dudect_aead COMMAND test_dudect_aead ${VG_CT_AEAD_SAMPLES})
set_tests_properties(ct_dudect_aead PROPERTIES SKIP_RETURN_CODE 77 LABELS ct TIMEOUT 600 RUN_SERIAL TRUE)
add_test(NAME ct_dudect_aead_long COMMAND test_dudect_aead ${VG_CT_LONG_SAMPLES}
  CONFIGURATIONS Long)
set_tests_properties(ct_dudect_aead_long PROPERTIES SKIP_RETURN_CODE 77 LABELS ct-long TIMEOUT 7200 RUN_SERIAL TRUE)
