# The ML-DSA x86-64 backend: test_mldsa_backend (each backend routine against
# the portable one on random in-bound inputs, the four-way A-hat sampler
# against the single one, and pk/sk/signatures byte-identical across
# dispatches), and test_mldsa once more with the portable code forced
# (VG_CPU_FEATURES=none) so that ACVP/Wycheproof cover both the default
# dispatch and portable.
vg_test(test_mldsa_backend test_mldsa_backend.c)
# Once more with AVX-512 masked off, so the AVX2-only kernels (rej_eta's
# prefix-sum kernel instead of the AVX-512 VBMI2 one) are checked too.
add_test(NAME test_mldsa_backend_avx2 COMMAND test_mldsa_backend 50)
set_tests_properties(test_mldsa_backend_avx2 PROPERTIES ENVIRONMENT "VG_CPU_FEATURES=bmi2,adx,avx2,sha")
if(TARGET test_mldsa)
  add_test(NAME test_mldsa_portable COMMAND test_mldsa)
  set_tests_properties(test_mldsa_portable PROPERTIES ENVIRONMENT "VG_CPU_FEATURES=none")
endif()
