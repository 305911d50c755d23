# Four-way Keccak and the ML-KEM x86-64 backends: test_keccak4x (every
# implementation against the single-state permutation and vg_shake128/256),
# test_mlkem_backend (each backend routine against the portable one on random
# in-bound inputs, and public outputs byte-identical across dispatches), and
# test_mlkem once more with the portable code forced (VG_CPU_FEATURES=none)
# so that ACVP/Wycheproof cover both the default dispatch and portable.
vg_test(test_keccak4x test_keccak4x.c)
if(VG_VALGRIND)
  add_test(NAME test_keccak4x_valgrind
    COMMAND ${VG_VALGRIND} --error-exitcode=1 -q $<TARGET_FILE:test_keccak4x>)
  # Sanitizer builds cannot run under valgrind: tools/run-tests.sh skips the label.
  set_tests_properties(test_keccak4x_valgrind PROPERTIES LABELS valgrind)
endif()
vg_test(test_mlkem_backend test_mlkem_backend.c)
if(TARGET test_mlkem)
  add_test(NAME test_mlkem_portable COMMAND test_mlkem)
  set_tests_properties(test_mlkem_portable PROPERTIES ENVIRONMENT "VG_CPU_FEATURES=none")
endif()
