# Unmodified applications over the OpenSSL 3 provider (issue 18):
#  - test_provider_nginx: Debian's nginx serving HTTPS with
#    `ssl_ecdh_curve X25519MLKEM768;` and Debian's curl with
#    `--curves X25519MLKEM768`, both loading the provider through OPENSSL_CONF
#    (tests/test_provider_nginx.sh). Skipped (exit 77) when the provider is
#    not built or nginx / curl are missing (tools/install-deps.sh installs
#    them), and in sanitizer builds (Debian's nginx and curl have no
#    sanitizer runtime to load such a module into).
if(TARGET vgcrypto_provider AND NOT CMAKE_C_FLAGS MATCHES "-fsanitize")
  set(vg_provider_apps_module $<TARGET_FILE:vgcrypto_provider>)
else()
  set(vg_provider_apps_module "")
endif()
find_program(VG_BASH bash)
if(VG_BASH)
  add_test(NAME test_provider_nginx
    COMMAND ${VG_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/test_provider_nginx.sh "${vg_provider_apps_module}")
  set_tests_properties(test_provider_nginx PROPERTIES LABELS provider SKIP_RETURN_CODE 77
    TIMEOUT 120)
endif()
#  - bench_tls_handshake_smoke: the handshake benchmark (bench/tls_handshake.c)
#    runs 3 handshakes per group in both of its modes and checks that each
#    negotiated the group it asked for (SSL_get_negotiated_group).
if(TARGET vg_tls_handshake)
  add_test(NAME bench_tls_handshake_smoke COMMAND vg_tls_handshake --smoke)
  set_tests_properties(bench_tls_handshake_smoke PROPERTIES LABELS provider TIMEOUT 120)
endif()
