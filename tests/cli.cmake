# The vgcrypto command: key-file I/O (C test, compiling src/cli/cli_io.c in)
# and the command itself (tests/test_cli.sh against sha256sum, sha512sum and
# `openssl dgst`, and the ML-DSA vectors in VG_VECTORS_DIR; exit code 77 =
# skipped when one of the tools is missing). seal / open are checked against
# libsodium through cli_aead_ref (tests/cli_aead_ref.c), a file-level
# reference built here, not a test of its own.
vg_test(test_cli_io test_cli_io.c ${PROJECT_SOURCE_DIR}/src/cli/cli_io.c
  ${PROJECT_SOURCE_DIR}/src/cli/cli_out.c LABELS cli)

add_executable(cli_aead_ref cli_aead_ref.c)
target_include_directories(cli_aead_ref PRIVATE ${VG_SODIUM_INCLUDE})
target_link_libraries(cli_aead_ref PRIVATE ${VG_SODIUM_LIBRARY})
target_compile_options(cli_aead_ref PRIVATE ${VG_WARNINGS})

find_program(VG_BASH bash)
if(VG_BASH)
  add_test(NAME test_cli
    COMMAND ${VG_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/test_cli.sh $<TARGET_FILE:vgcrypto>
            ${VG_VECTORS_DIR} $<TARGET_FILE:cli_aead_ref>)
  set_tests_properties(test_cli PROPERTIES LABELS cli SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
