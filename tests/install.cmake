# Public surface of both libraries (exports, soname, no test hook); install
# tree with pkg-config and CMake consumers.
add_test(NAME check_exports
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/check_exports.sh $<TARGET_FILE:vgcrypto_shared>
          ${PROJECT_SOURCE_DIR}/include/vgcrypto.h $<TARGET_FILE:vgcrypto_static>)
add_test(NAME install_consumers
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/install/run.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
          ${CMAKE_C_COMPILER})
set_tests_properties(install_consumers check_exports PROPERTIES LABELS install)
