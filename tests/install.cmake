# Public surface of both libraries (exports, soname, no test hook); install
# tree with pkg-config and CMake consumers.
add_test(NAME check_exports
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/check_exports.sh $<TARGET_FILE:vgcrypto_shared>
          ${PROJECT_SOURCE_DIR}/include/vgcrypto.h $<TARGET_FILE:vgcrypto_static>)
add_test(NAME install_consumers
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/install/run.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
          ${CMAKE_C_COMPILER})
set_tests_properties(install_consumers check_exports PROPERTIES LABELS install)
# The provider module's install location (<libdir>/ossl-modules) and the
# openssl.cnf fragment of docs/provider.md as written (tests/install/provider.sh).
# Not in sanitizer builds: Debian's openssl cannot load a sanitized module.
if(TARGET vgcrypto_provider AND NOT CMAKE_C_FLAGS MATCHES "-fsanitize")
  find_program(VG_BASH bash)
  if(VG_BASH)
    add_test(NAME install_provider
      COMMAND ${VG_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/install/provider.sh ${PROJECT_BINARY_DIR}
              ${PROJECT_SOURCE_DIR} ${CMAKE_INSTALL_LIBDIR})
    set_tests_properties(install_provider PROPERTIES LABELS "install;provider" TIMEOUT 120)
  endif()
endif()
