# Unit tests of the TrueType interpreter (owned by vm/tt's owner, issue 3).
set(_fv_interp_tests opcodes stack control points)
foreach(t ${_fv_interp_tests})
  fontvm_add_test(test_interp_${t} ${CMAKE_CURRENT_LIST_DIR}/test_interp_${t}.c)
endforeach()

# The same tests against a build of the library whose interpreter uses the
# plain switch dispatch (the default build uses computed goto where the
# compiler has it), so both dispatch variants are tested.
if(FONTVM_COMPUTED_GOTO)
  file(GLOB _fv_switch_sources CONFIGURE_DEPENDS
    ${PROJECT_SOURCE_DIR}/vm/common/*.c ${PROJECT_SOURCE_DIR}/vm/sfnt/*.c ${PROJECT_SOURCE_DIR}/vm/tt/*.c)
  add_library(fontvm_tt_switch STATIC ${_fv_switch_sources})
  target_include_directories(fontvm_tt_switch PUBLIC ${PROJECT_SOURCE_DIR}/vm/include ${PROJECT_SOURCE_DIR}/vm)
  target_compile_options(fontvm_tt_switch PRIVATE ${FONTVM_VM_WARNINGS})
  target_compile_definitions(fontvm_tt_switch PRIVATE FONTVM_BUILDING FONTVM_USE_COMPUTED_GOTO=0)
  target_link_libraries(fontvm_tt_switch PUBLIC m)
  foreach(t ${_fv_interp_tests})
    add_executable(test_interp_${t}_switch ${CMAKE_CURRENT_LIST_DIR}/test_interp_${t}.c)
    target_compile_options(test_interp_${t}_switch PRIVATE ${FONTVM_WARNINGS})
    target_compile_definitions(test_interp_${t}_switch PRIVATE TT_EXPECT_DISPATCH="switch")
    target_link_libraries(test_interp_${t}_switch PRIVATE fontvm_tt_switch PkgConfig::CMOCKA)
    add_test(NAME test_interp_${t}_switch COMMAND test_interp_${t}_switch WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  endforeach()
endif()
