# Unit tests of the TrueType interpreter (owned by vm/tt's owner, issue 3).
foreach(t opcodes stack control points)
  fontvm_add_test(test_interp_${t} ${CMAKE_CURRENT_LIST_DIR}/test_interp_${t}.c)
endforeach()
