# Scalars mod L (src/curve25519/sc25519.h) against GMP: reduction of 512-bit
# values, multiply-add, the S < L check (test_sc25519.c). GMP is required:
# tools/install-deps.sh installs libgmp-dev, and Ed25519 signing depends on
# these routines, so a build without the test is an error, not a skip.
find_library(VG_GMP_LIBRARY gmp)
find_path(VG_GMP_INCLUDE gmp.h)
if(NOT VG_GMP_LIBRARY OR NOT VG_GMP_INCLUDE)
  message(FATAL_ERROR "GMP not found (Debian package: libgmp-dev; tools/install-deps.sh "
    "installs it): test_sc25519 needs it")
endif()
vg_test(test_sc25519 test_sc25519.c LIBS ${VG_GMP_LIBRARY})
target_include_directories(test_sc25519 PRIVATE ${VG_GMP_INCLUDE})
target_compile_options(test_sc25519 PRIVATE ${VG_WARNINGS})
