# Unit tests of the TrueType interpreter (owned by vm/tt's owner, issue 3).
set(_fv_interp_tests opcodes stack control points)
foreach(t ${_fv_interp_tests})
  fontvm_add_test(test_interp_${t} ${CMAKE_CURRENT_LIST_DIR}/test_interp_${t}.c)
endforeach()

# The same tests against a build of the library with the other dispatch
# variant (plain switch or computed-goto label table; FONTVM_COMPUTED_GOTO
# picks the default build's), so both variants are always tested.
if(FONTVM_COMPUTED_GOTO)
  set(_fv_other_dispatch switch)
  set(_fv_other_goto 0)
else()
  set(_fv_other_dispatch computed-goto)
  set(_fv_other_goto 1)
endif()
file(GLOB _fv_other_sources CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/vm/common/*.c ${PROJECT_SOURCE_DIR}/vm/sfnt/*.c ${PROJECT_SOURCE_DIR}/vm/tt/*.c)
add_library(fontvm_tt_other_dispatch STATIC ${_fv_other_sources})
target_include_directories(fontvm_tt_other_dispatch PUBLIC ${PROJECT_SOURCE_DIR}/vm/include ${PROJECT_SOURCE_DIR}/vm)
target_compile_options(fontvm_tt_other_dispatch PRIVATE ${FONTVM_VM_WARNINGS})
target_compile_definitions(fontvm_tt_other_dispatch PRIVATE FONTVM_BUILDING FONTVM_USE_COMPUTED_GOTO=${_fv_other_goto})
target_link_libraries(fontvm_tt_other_dispatch PUBLIC m)
foreach(t ${_fv_interp_tests})
  add_executable(test_interp_${t}_${_fv_other_dispatch} ${CMAKE_CURRENT_LIST_DIR}/test_interp_${t}.c)
  target_compile_options(test_interp_${t}_${_fv_other_dispatch} PRIVATE ${FONTVM_WARNINGS})
  target_compile_definitions(test_interp_${t}_${_fv_other_dispatch} PRIVATE TT_EXPECT_DISPATCH="${_fv_other_dispatch}")
  target_link_libraries(test_interp_${t}_${_fv_other_dispatch} PRIVATE fontvm_tt_other_dispatch PkgConfig::CMOCKA)
  add_test(NAME test_interp_${t}_${_fv_other_dispatch} COMMAND test_interp_${t}_${_fv_other_dispatch}
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()

# Several threads hinting one face (one execution context and size each).
find_package(Threads REQUIRED)
fontvm_add_test(test_tt_threads ${CMAKE_CURRENT_LIST_DIR}/test_tt_threads.c LIBS Threads::Threads)
