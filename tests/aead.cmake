# ChaCha20, Poly1305, ChaCha20-Poly1305, XChaCha20-Poly1305 (tests/test_aead.c):
# RFC 8439 and draft-irtf-cfrg-xchacha vectors, Wycheproof, OpenSSL and
# libsodium as independent implementations, and a GMP model of Poly1305.
# Every implementation the build and the CPU have runs (portable and x86-64).
vg_test(test_aead test_aead.c
  LIBS OpenSSL::Crypto ${VG_SODIUM_LIBRARY} ${VG_GMP_LIBRARY} ${VG_CJSON_LIBRARY})
target_include_directories(test_aead PRIVATE ${VG_SODIUM_INCLUDE} ${VG_GMP_INCLUDE}
  ${VG_CJSON_INCLUDE})
# The same program with every CPU feature disabled: the dispatch must still
# give the same bytes.
add_test(NAME test_aead_nocpu COMMAND test_aead)
set_tests_properties(test_aead_nocpu PROPERTIES ENVIRONMENT VG_CPU_FEATURES=none)
# With AVX2, BMI2 and ADX only (no AVX-512): the dispatch takes the AVX2
# ChaCha20 and the MULX Poly1305, and every variant those features allow
# runs over the same tests.
add_test(NAME test_aead_avx2 COMMAND test_aead)
set_tests_properties(test_aead_avx2 PROPERTIES ENVIRONMENT VG_CPU_FEATURES=avx2,bmi2,adx)
