# MemorySanitizer taint check of the constant-time harnesses (label msan;
# docs/constant-time.md, "MemorySanitizer and the instruction audit").
#
# Built only when CMAKE_C_FLAGS has -fsanitize=memory (clang): the valgrind
# harnesses' sources compiled unchanged, with tests/ct/msan first on the
# include path, whose valgrind/memcheck.h and valgrind/valgrind.h turn
# "mark secret" into __msan_poison and "declassify" into __msan_unpoison. They
# link the MSan flavour of the library (vgcrypto_ct_msan, top-level
# CMakeLists.txt), where VG_CT_DECLASSIFY is __msan_unpoison too, and nothing
# else uninstrumented but libc (which MSan intercepts): no OpenSSL, no
# libsodium. They run natively, so the AVX-512 and SHA-NI variants that
# valgrind cannot execute are checked.
#   tools/run-tests.sh configuration 6:  ctest -L msan
if(TARGET vgcrypto_ct_msan)
  add_library(vg_ct_msan_support STATIC ct/ct_impls.c fe51_twin.c)
  target_link_libraries(vg_ct_msan_support PUBLIC vgcrypto_ct_msan)
  target_include_directories(vg_ct_msan_support BEFORE PUBLIC
    ${CMAKE_CURRENT_SOURCE_DIR}/ct/msan)
  target_include_directories(vg_ct_msan_support PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}
    ${CMAKE_CURRENT_SOURCE_DIR}/ct)
  target_compile_options(vg_ct_msan_support PUBLIC ${VG_WARNINGS} -g)
  set(VG_MSAN_RUNNER ${CMAKE_CURRENT_SOURCE_DIR}/ct/msan/run_msan.sh)
  # ct_valgrind_hybrid (issue 17): the hybrid KEMs' keypairs, encapsulations
  # and decapsulations and PKCS#8 encoding and decoding, seeds and secret
  # keys poisoned, on the AVX-512 ML-KEM / ML-DSA and IFMA X25519 paths.
  foreach(h ct_valgrind ct_valgrind_mlkem ct_valgrind_mldsa ct_valgrind_hybrid)
    string(REPLACE "ct_valgrind" "ct_msan" t ${h})
    add_executable(${t} ct/${h}.c)
    target_link_libraries(${t} PRIVATE vg_ct_msan_support)
    add_test(NAME ${t} COMMAND sh ${VG_MSAN_RUNNER} $<TARGET_FILE:${t}>)
    # The leaky control of each harness: passes only when MSan reports it.
    add_test(NAME ${t}_leaky_control
      COMMAND sh ${VG_MSAN_RUNNER} $<TARGET_FILE:${t}> --expect-leak --leaky)
    set_tests_properties(${t}_leaky_control PROPERTIES WILL_FAIL TRUE)
    set_tests_properties(${t} ${t}_leaky_control PROPERTIES LABELS msan TIMEOUT 600)
  endforeach()
  # ChaCha20, Poly1305 and the AEADs: an MSan-only harness until the valgrind
  # harness has AEAD rows (ct_msan then checks those as well).
  add_executable(ct_msan_aead ct/msan/ct_msan_aead.c)
  target_link_libraries(ct_msan_aead PRIVATE vg_ct_msan_support)
  add_test(NAME ct_msan_aead COMMAND sh ${VG_MSAN_RUNNER} $<TARGET_FILE:ct_msan_aead>)
  add_test(NAME ct_msan_aead_leaky_control
    COMMAND sh ${VG_MSAN_RUNNER} $<TARGET_FILE:ct_msan_aead> --expect-leak --leaky)
  set_tests_properties(ct_msan_aead_leaky_control PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(ct_msan_aead ct_msan_aead_leaky_control PROPERTIES LABELS msan TIMEOUT 600)
  add_custom_target(vg_ct_msan_all DEPENDS ct_msan ct_msan_mlkem ct_msan_mldsa ct_msan_aead
    ct_msan_hybrid)
endif()
