# The uniform rules of the public API (DESIGN section 2) over every function
# of include/vgcrypto.h: NULL pointers, lengths over the standard's limits.
vg_test(test_api test_api.c)
target_compile_definitions(test_api PRIVATE
  VG_PUBLIC_HEADER="${PROJECT_SOURCE_DIR}/include/vgcrypto.h")
# src/common includes nothing from the areas above it (DESIGN section 5).
add_test(NAME check_layering
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_layering.sh ${PROJECT_SOURCE_DIR})
