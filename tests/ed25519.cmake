# Ed25519 (RFC 8032): test_ed25519 against RFC 8032 7.1, sign.input,
# Wycheproof, libsodium and OpenSSL, and edge cases built with a GMP model
# of the curve (it prints the verdict table of docs/ed25519-verdicts.md).
find_library(VG_GMP_LIBRARY gmp)
find_path(VG_GMP_INCLUDE gmp.h)
find_library(VG_SODIUM_LIBRARY sodium)
find_path(VG_SODIUM_INCLUDE sodium.h)
find_library(VG_CJSON_LIBRARY cjson)
find_path(VG_CJSON_INCLUDE cjson/cJSON.h)

if(VG_GMP_LIBRARY AND VG_GMP_INCLUDE AND VG_SODIUM_LIBRARY AND VG_SODIUM_INCLUDE
   AND VG_CJSON_LIBRARY AND VG_CJSON_INCLUDE AND OpenSSL_FOUND)
  vg_test(test_ed25519 test_ed25519.c
    LIBS ${VG_SODIUM_LIBRARY} ${VG_GMP_LIBRARY} ${VG_CJSON_LIBRARY} OpenSSL::Crypto)
  target_include_directories(test_ed25519 PRIVATE ${VG_SODIUM_INCLUDE} ${VG_GMP_INCLUDE}
    ${VG_CJSON_INCLUDE})
else()
  message(STATUS "GMP, libsodium, cJSON or OpenSSL not found: test_ed25519 not built")
endif()

# ed25519_vartime_table_fresh regenerates the verification table of odd
# multiples of B with tools/gen_ed25519_vartime_table.c (GMP) and compares
# it with the checked-in header.
if(VG_GMP_LIBRARY AND VG_GMP_INCLUDE)
  add_executable(gen_ed25519_vartime_table ${PROJECT_SOURCE_DIR}/tools/gen_ed25519_vartime_table.c)
  target_link_libraries(gen_ed25519_vartime_table PRIVATE ${VG_GMP_LIBRARY})
  target_include_directories(gen_ed25519_vartime_table PRIVATE ${VG_GMP_INCLUDE})
  add_test(NAME ed25519_vartime_table_fresh
    COMMAND sh -c "\"$1\" | cmp - \"$2\"" sh $<TARGET_FILE:gen_ed25519_vartime_table>
      ${PROJECT_SOURCE_DIR}/src/curve25519/ge25519_vartime_table.h)
endif()
