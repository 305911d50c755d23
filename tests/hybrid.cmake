# Hybrid KEMs (tests/test_hybrid.c): X-Wing against the draft's vectors
# (tests/vectors/xwing) and against its algorithms written out from the
# components; X25519MLKEM768's layouts against the components, its input
# checks and failure paths. Once more with portable code only.
vg_test(test_hybrid test_hybrid.c LIBS ${VG_CJSON_LIBRARY})
target_include_directories(test_hybrid PRIVATE ${VG_CJSON_INCLUDE})
add_test(NAME test_hybrid_portable COMMAND test_hybrid)
set_tests_properties(test_hybrid_portable PROPERTIES ENVIRONMENT VG_CPU_FEATURES=none)
