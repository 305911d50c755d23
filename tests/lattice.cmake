# The shared 16-bit NTT of R_3329 (src/lattice/ntt3329.h): test_lattice runs
# every available implementation against definitions computed in the test
# (NTT residues, schoolbook products mod X^256 + 1 and 3329) and against the
# portable one bit for bit, on random and edge inputs at the contract
# bounds; once more with AVX2 masked off (portable only).
vg_test(test_lattice test_lattice.c)
add_test(NAME test_lattice_portable COMMAND test_lattice)
set_tests_properties(test_lattice_portable PROPERTIES ENVIRONMENT "VG_CPU_FEATURES=none")
