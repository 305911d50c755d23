# SHA-256 / SHA-512 (tests/test_sha2.c). OpenSSL's libcrypto is the
# independent implementation for the differential tests.
if(TARGET OpenSSL::Crypto)
  vg_test(test_sha2 test_sha2.c LIBS OpenSSL::Crypto)
  # The same program with every CPU feature disabled: the dispatch must pick
  # the portable code (checked inside the test) and it must still pass.
  add_test(NAME test_sha2_nocpu COMMAND test_sha2)
  set_tests_properties(test_sha2_nocpu PROPERTIES ENVIRONMENT VG_CPU_FEATURES=none)
endif()
