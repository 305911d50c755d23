# The OpenSSL 3 provider (issue 18; provider/). When it is not built (no
# OpenSSL 3 headers, or -DVG_PROVIDER=OFF) the tests run and exit 77
# (skipped).
#  - test_provider: over EVP, the provider's KEM values against the
#    library's (tests/test_provider.c);
#  - test_provider_tls: TLS 1.3 handshakes for each group with openssl
#    s_server / s_client over loopback, a HelloRetryRequest, the openssl.cnf
#    fragment of docs/provider.md (tests/test_provider.sh);
#  - test_provider_pki: keys, signatures, encoders/decoders and X.509
#    chains with the openssl commands (tests/test_provider_pki.sh);
#  - test_provider_ossl35: beside OpenSSL >= 3.5's built-in algorithms, and
#    TLS-SIGALG (tests/test_provider_ossl35.sh; exit 77 with an older openssl).
if(TARGET vgcrypto_provider)
  set(vg_provider_dir $<TARGET_FILE_DIR:vgcrypto_provider>)
  set(vg_provider_file $<TARGET_FILE:vgcrypto_provider>)
else()
  set(vg_provider_dir "")
  set(vg_provider_file "")
endif()
vg_test(test_provider test_provider.c LIBS OpenSSL::Crypto ARGS "${vg_provider_dir}"
  LABELS provider)
set_tests_properties(test_provider PROPERTIES SKIP_RETURN_CODE 77)
if(TARGET vgcrypto_provider)
  add_dependencies(test_provider vgcrypto_provider)
endif()
# The script tests load the module into Debian's openssl, which has no
# sanitizer runtime: a sanitizer-built module cannot load there. With clang's
# AddressSanitizer (+ UBSan) the scripts run openssl with the ASan runtime
# preloaded (VG_OPENSSL_PRELOAD), so the module's code runs under the
# sanitizers there too, leak checks included; other sanitizer builds skip
# them (test_provider, itself sanitized, still runs).
set(vg_openssl_preload "")
if(CMAKE_C_FLAGS MATCHES "-fsanitize")
  if(CMAKE_C_COMPILER_ID MATCHES "Clang" AND CMAKE_C_FLAGS MATCHES "-fsanitize=[a-z,]*address"
     AND NOT CMAKE_C_FLAGS MATCHES "-fsanitize=[a-z,]*memory")
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libclang_rt.asan-x86_64.so
      OUTPUT_VARIABLE vg_openssl_preload OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT EXISTS "${vg_openssl_preload}")
      set(vg_openssl_preload "")
    endif()
  endif()
  if(vg_openssl_preload STREQUAL "")
    set(vg_provider_file "")
  endif()
endif()
# VG_OPENSSL_ROOT: the scripts run DIR/bin/openssl with DIR/lib instead of
# the openssl in PATH; by default the OPENSSL_ROOT_DIR the provider was built
# against, where it has a bin/openssl (docs/provider.md "On OpenSSL 3.5").
set(vg_openssl_root_default "")
if(DEFINED OPENSSL_ROOT_DIR AND EXISTS "${OPENSSL_ROOT_DIR}/bin/openssl")
  set(vg_openssl_root_default "${OPENSSL_ROOT_DIR}")
endif()
set(VG_OPENSSL_ROOT "${vg_openssl_root_default}" CACHE PATH
  "OpenSSL install whose bin/openssl and lib/ the provider script tests use (empty: PATH)")
set(vg_provider_env "VG_OPENSSL_PRELOAD=${vg_openssl_preload}" "VG_OPENSSL_ROOT=${VG_OPENSSL_ROOT}")
find_program(VG_BASH bash)
if(VG_BASH)
  add_test(NAME test_provider_tls
    COMMAND ${VG_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/test_provider.sh "${vg_provider_file}")
  set_tests_properties(test_provider_tls PROPERTIES LABELS provider SKIP_RETURN_CODE 77
    TIMEOUT 300 ENVIRONMENT "${vg_provider_env}")
  add_test(NAME test_provider_pki
    COMMAND ${VG_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/test_provider_pki.sh "${vg_provider_file}")
  set_tests_properties(test_provider_pki PROPERTIES LABELS provider SKIP_RETURN_CODE 77
    TIMEOUT 120 ENVIRONMENT "${vg_provider_env}")
  # test_provider_ossl35: the provider beside OpenSSL >= 3.5's built-in
  # ML-KEM / ML-DSA / X25519MLKEM768 / Ed25519 (property queries) and its
  # TLS-SIGALG capability (tests/test_provider_ossl35.sh); exit 77
  # (skipped) with an older openssl, as Debian 12's 3.0 in CI.
  add_test(NAME test_provider_ossl35
    COMMAND ${VG_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/test_provider_ossl35.sh "${vg_provider_file}")
  set_tests_properties(test_provider_ossl35 PROPERTIES LABELS provider SKIP_RETURN_CODE 77
    TIMEOUT 300 ENVIRONMENT "${vg_provider_env}")
endif()
