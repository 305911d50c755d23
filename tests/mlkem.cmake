# ML-KEM (FIPS 203): test_mlkem against NIST ACVP (keyGen, encapDecap with
# the key-check groups), the twelve Wycheproof mlkem_* files, schoolbook
# arithmetic, round trips, implicit rejection and the API's error paths.
find_library(VG_CJSON_LIBRARY cjson)
find_path(VG_CJSON_INCLUDE cjson/cJSON.h)
if(NOT VG_CJSON_LIBRARY OR NOT VG_CJSON_INCLUDE)
  message(FATAL_ERROR "test_mlkem needs cJSON (Debian: libcjson-dev)")
endif()
vg_test(test_mlkem test_mlkem.c LIBS ${VG_CJSON_LIBRARY})
target_include_directories(test_mlkem PRIVATE ${VG_CJSON_INCLUDE})
