# CPU features, version, constant-time helpers, randomness.
find_package(Threads REQUIRED)
vg_test(test_common test_common.c LIBS Threads::Threads)
foreach(setting none "bmi2,adx" avx2 "avx512ifma,bogus" sha "")
  string(MAKE_C_IDENTIFIER "${setting}" suffix)
  add_test(NAME test_common_env_${suffix} COMMAND test_common)
  set_tests_properties(test_common_env_${suffix} PROPERTIES ENVIRONMENT "VG_CPU_FEATURES=${setting}")
endforeach()
vg_test(test_random test_random.c)
