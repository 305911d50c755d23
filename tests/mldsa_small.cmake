# Small products (src/mldsa/small.h, ML-DSA signing's c s1 and c s2):
# test_mldsa_small checks the small products of every available ML-DSA
# variant (portable, the AVX2 route modulo 3329 through src/lattice, AVX-512)
# against a schoolbook product; once more with AVX-512 masked off, where the
# AVX-512 kernel is not available.
vg_test(test_mldsa_small test_mldsa_small.c)
add_test(NAME test_mldsa_small_avx2 COMMAND test_mldsa_small)
set_tests_properties(test_mldsa_small_avx2 PROPERTIES ENVIRONMENT "VG_CPU_FEATURES=bmi2,adx,avx2,sha")
