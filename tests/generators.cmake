# Generated tables: each generator in tools/ is built and run, and its output
# must equal the checked-in table it made (vg_generated_test, defined in
# tests/CMakeLists.txt), so that a table edited by hand, or a generator
# changed without regenerating, fails here. The other two generators' tests
# sit beside their areas' tests:
#   tools/gen_base_table.c             x25519_base_table_fresh (x25519_base.cmake)
#   tools/gen_ed25519_vartime_table.c  ed25519_vartime_table_fresh (ed25519.cmake)
# The generators are plain C (the AVX-512 one only computes the kernel's
# schedule), so these run in every configuration, VG_PORTABLE included.

# src/mldsa/small_zetas.h, the twiddles of the portable small-product NTT
# (src/mldsa/small_portable.c): the whole file is the generator's output.
add_executable(gen_mldsa_small_zetas ${PROJECT_SOURCE_DIR}/tools/gen_mldsa_small_zetas.c)
target_compile_options(gen_mldsa_small_zetas PRIVATE -Wall -Wextra)
vg_generated_test(mldsa_small_zetas_fresh gen_mldsa_small_zetas
  ${PROJECT_SOURCE_DIR}/src/mldsa/small_zetas.h)

# The AVX-512 small-product kernel's twiddle tables, vg_small_fwd_tw and
# vg_small_inv_tw: the generator prints the two array definitions, which sit
# among the kernel's code in small_avx512.c, so the section from the first
# table's definition through the end of the second is compared. The generator
# also checks the kernel's lane schedule and int16 bounds and exits 1 if one
# fails, which fails this test too.
add_executable(gen_mldsa_small_avx512 ${PROJECT_SOURCE_DIR}/tools/gen_mldsa_small_avx512.c)
target_compile_options(gen_mldsa_small_avx512 PRIVATE -Wall -Wextra)
vg_generated_test(mldsa_small_avx512_tables_fresh gen_mldsa_small_avx512
  ${PROJECT_SOURCE_DIR}/src/mldsa/x86_64/small_avx512.c
  FIRST "^static const int16_t vg_small_fwd_tw\\[" LAST "^static const int16_t vg_small_inv_tw\\[")
