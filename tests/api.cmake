# The uniform rules of the public API (DESIGN section 2) over every function
# of include/vgcrypto.h: NULL pointers, lengths over the standard's limits.
vg_test(test_api test_api.c)
target_compile_definitions(test_api PRIVATE
  VG_PUBLIC_HEADER="${PROJECT_SOURCE_DIR}/include/vgcrypto.h")
