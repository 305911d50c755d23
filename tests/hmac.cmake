# HMAC-SHA-256/384/512 and HKDF (tests/test_hmac.c): RFC 4231 and RFC 5869
# vectors, OpenSSL's EVP_MAC and EVP_KDF as the independent implementation,
# for every SHA-2 variant the CPU has (the test steers the dispatch itself).
vg_test(test_hmac test_hmac.c LIBS OpenSSL::Crypto)
# Once more with every CPU feature disabled: the portable code only.
add_test(NAME test_hmac_nocpu COMMAND test_hmac)
set_tests_properties(test_hmac_nocpu PROPERTIES ENVIRONMENT VG_CPU_FEATURES=none)
