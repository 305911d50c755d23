# SHA-3 and SHAKE (FIPS 202): every Keccak implementation, against NIST
# examples and OpenSSL; once more with portable code only.
if(OpenSSL_FOUND)
  vg_test(test_sha3 test_sha3.c LIBS OpenSSL::Crypto)
  add_test(NAME test_sha3_portable COMMAND test_sha3)
  set_tests_properties(test_sha3_portable PROPERTIES ENVIRONMENT "VG_CPU_FEATURES=none")
endif()
