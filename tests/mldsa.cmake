# ML-DSA (FIPS 204): test_mldsa against NIST ACVP (keyGen, sigGen, sigVer with
# HashML-DSA through the internal interface, pre-hash by OpenSSL), the nine
# Wycheproof mldsa_* files, exhaustive rounding, NTT vs schoolbook, round
# trips with tampering, and the API's error paths.
find_library(VG_CJSON_LIBRARY cjson)
find_path(VG_CJSON_INCLUDE cjson/cJSON.h)
if(NOT VG_CJSON_LIBRARY OR NOT VG_CJSON_INCLUDE)
  message(FATAL_ERROR "test_mldsa needs cJSON (Debian: libcjson-dev)")
endif()
vg_test(test_mldsa test_mldsa.c LIBS ${VG_CJSON_LIBRARY} OpenSSL::Crypto)
target_include_directories(test_mldsa PRIVATE ${VG_CJSON_INCLUDE})
