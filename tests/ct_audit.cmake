# Instruction audit of the shipped library (label audit; docs/constant-time.md,
# "Instruction audit"): tools/ct-audit.py disassembles every secret-handling
# function of libvgcrypto.so (the functions by name in
# tools/ct-audit-allowlist.txt) and fails on an instruction outside the
# allowlist of data-operand-independent-timing instructions, on any division
# or square root, and on a function the allowlist does not classify.
# Registered for the builds that ship code as it is: not for sanitizer builds
# (instrumented code is not the shipped code).
if(NOT CMAKE_C_FLAGS MATCHES "-fsanitize")
  find_package(Python3 COMPONENTS Interpreter)
  find_program(VG_OBJDUMP NAMES objdump)
  set(VG_CT_AUDIT ${PROJECT_SOURCE_DIR}/tools/ct-audit.py)
  if(Python3_Interpreter_FOUND AND VG_OBJDUMP)
    add_test(NAME ct_audit COMMAND ${Python3_EXECUTABLE} ${VG_CT_AUDIT} --objdump ${VG_OBJDUMP}
      $<TARGET_FILE:vgcrypto_shared>)
    # The negative control: a planted DIV in a function named like a field
    # kernel; the audit must fail on it.
    add_library(ct_audit_planted_div OBJECT ct/audit/planted_div.c)
    target_compile_options(ct_audit_planted_div PRIVATE ${VG_WARNINGS})
    add_test(NAME ct_audit_planted_div COMMAND ${Python3_EXECUTABLE} ${VG_CT_AUDIT}
      --objdump ${VG_OBJDUMP} --expect-never fe51_planted_div $<TARGET_OBJECTS:ct_audit_planted_div>)
    set_tests_properties(ct_audit_planted_div PROPERTIES WILL_FAIL TRUE)
    set_tests_properties(ct_audit ct_audit_planted_div PROPERTIES LABELS audit)
  else()
    message(STATUS "python3 or objdump missing: ct_audit skipped")
    add_test(NAME ct_audit COMMAND sh -c "echo 'SKIP: python3 or objdump missing'; exit 77")
    set_tests_properties(ct_audit PROPERTIES LABELS audit SKIP_RETURN_CODE 77)
  endif()
endif()
