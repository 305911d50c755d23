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

# Issue 21: 3 GiB (sparse) messages signed and verified in bounded memory
# (tests/test_cli_long.sh), against the library's one-shot Ed25519 over the
# mapped file (tests/cli_mmap_sign.c). Configuration Long, label "long": not
# in the default run (`ctest -C Long -L long` runs it; README "Tests").
add_executable(cli_mmap_sign cli_mmap_sign.c)
target_link_libraries(cli_mmap_sign PRIVATE vgcrypto_internal)
target_compile_options(cli_mmap_sign PRIVATE ${VG_WARNINGS})
if(VG_BASH)
  add_test(NAME test_cli_long
    COMMAND ${VG_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/test_cli_long.sh $<TARGET_FILE:vgcrypto>
            $<TARGET_FILE:cli_mmap_sign> CONFIGURATIONS Long)
  set_tests_properties(test_cli_long PROPERTIES LABELS long SKIP_RETURN_CODE 77 TIMEOUT 900)
endif()
