# Stack use per operation (issue 5): test_stack runs each operation on a
# thread with a painted stack of known size and prints the table; it asserts
# the ML-KEM-1024 bound in optimised, unsanitized builds (see its header).
find_package(Threads REQUIRED)
vg_test(test_stack test_stack.c LIBS Threads::Threads LABELS stack)
