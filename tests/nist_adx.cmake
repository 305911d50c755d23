# The BMI2/ADX field and scalar kernels of P-256 and P-384
# (src/nist/x86_64/*_adx.h) and the AVX-512 IFMA P-256 multiplication
# (fe256_ifma.h), all static inline for the point formulas, against GMP:
# edges, inputs beyond the contract, 10^5 random pairs per modulus,
# aliasing (test_nist_adx.c). The kernels are wrapped out of line in two
# more compilations of the same file, with -mbmi2 -madx and with
# -mavx512f -mavx512ifma, called only after the CPU check; a set the CPU
# lacks is skipped, and with neither the test exits 77 (skip). x86-64 only.
find_library(VG_GMP_LIBRARY gmp)
find_path(VG_GMP_INCLUDE gmp.h)
if(NOT VG_GMP_LIBRARY OR NOT VG_GMP_INCLUDE)
  message(FATAL_ERROR "GMP not found (Debian package: libgmp-dev; tools/install-deps.sh "
    "installs it): test_nist_adx needs it")
endif()
if(VG_X86)
  add_library(test_nist_adx_kernels OBJECT test_nist_adx.c)
  target_compile_definitions(test_nist_adx_kernels PRIVATE VG_NIST_ADX_KERNELS)
  target_compile_options(test_nist_adx_kernels PRIVATE ${VG_WARNINGS} -mbmi2 -madx)
  target_link_libraries(test_nist_adx_kernels PRIVATE vgcrypto_internal)
  add_library(test_nist_ifma_kernels OBJECT test_nist_adx.c)
  target_compile_definitions(test_nist_ifma_kernels PRIVATE VG_NIST_IFMA_KERNELS)
  target_compile_options(test_nist_ifma_kernels PRIVATE ${VG_WARNINGS} -mavx512f -mavx512ifma)
  target_link_libraries(test_nist_ifma_kernels PRIVATE vgcrypto_internal)
  vg_test(test_nist_adx test_nist_adx.c $<TARGET_OBJECTS:test_nist_adx_kernels>
    $<TARGET_OBJECTS:test_nist_ifma_kernels> LIBS ${VG_GMP_LIBRARY})
  target_include_directories(test_nist_adx PRIVATE ${VG_GMP_INCLUDE})
  target_compile_options(test_nist_adx PRIVATE ${VG_WARNINGS})
  set_tests_properties(test_nist_adx PROPERTIES LABELS nist SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
# Constant time of the ADX kernels under valgrind memcheck (inputs undefined;
# test_nist_adx --force MASK, via tests/ct/run_valgrind.sh of the ct area),
# with its leaky control, in the builds that have the valgrind harnesses.
if(VG_X86 AND VG_HAVE_MEMCHECK_H)
  target_compile_definitions(test_nist_adx PRIVATE VG_NIST_ADX_MEMCHECK)
  add_test(NAME ct_valgrind_nist_adx
    COMMAND sh ${VG_CT_RUNNER} "${VG_VALGRIND}" $<TARGET_FILE:test_nist_adx>)
  add_test(NAME ct_valgrind_nist_adx_leaky_control
    COMMAND sh ${VG_CT_RUNNER} "${VG_VALGRIND}" $<TARGET_FILE:test_nist_adx> --expect-leak --leaky)
  set_tests_properties(ct_valgrind_nist_adx_leaky_control PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(ct_valgrind_nist_adx ct_valgrind_nist_adx_leaky_control PROPERTIES
    LABELS "ct;valgrind" SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
