# Unit tests of the Graphite engine (owned by vm/graphite, issue 4).
fontvm_add_test(test_gr_machine test_gr_machine.c)
fontvm_add_test(test_gr_verify test_gr_verify.c)
# The opcode list and what is generated from it (decoder, stack counts,
# disassembly) against the spec's table.
fontvm_add_test(test_gr_opcodes test_gr_opcodes.c)
# Shaping behaviour on graphite2's small.ttf (expectations measured with
# graphite2, pinned here): character association, rule-code edge cases.
fontvm_add_test(test_gr_shape test_gr_shape.c)
# Requests fv_gr_shape refuses, and the slot-link check (issue 14).
fontvm_add_test(test_gr_hardening test_gr_hardening.c)
# Several threads shaping with one face (graphite.h's thread rules); run
# under ThreadSanitizer by the tsan preset.
find_package(Threads REQUIRED)
fontvm_add_test(test_gr_threads test_gr_threads.c LIBS Threads::Threads)
# The same rules broken on purpose (set_trace while another thread shapes):
# passes only if ThreadSanitizer reports the race, so a tsan build that
# would miss races fails here.  tsan builds only.
if(FONTVM_SANITIZE_THREAD)
  fontvm_add_test(test_gr_threads_rule_broken test_gr_threads_rule_broken.c LIBS Threads::Threads)
  set_tests_properties(test_gr_threads_rule_broken PROPERTIES
    PASS_REGULAR_EXPRESSION "WARNING: ThreadSanitizer: data race"
    ENVIRONMENT "FONTVM_SOURCE_DIR=${PROJECT_SOURCE_DIR};TSAN_OPTIONS=history_size=7")
endif()
# How close the default corpus comes to the Graphite work budget: every
# segment of conform.toml's Graphite jobs (default features) must stay 10x
# under its segment and pass budgets (the full survey with the feature
# sweeps: README.md, "Hardening").
add_executable(gr_budget_survey ${CMAKE_CURRENT_LIST_DIR}/gr_budget_survey.c)
target_compile_options(gr_budget_survey PRIVATE ${FONTVM_WARNINGS})
target_link_libraries(gr_budget_survey PRIVATE fontvm_internal)
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME graphite_budget_headroom
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/budget_survey.py
          $<TARGET_FILE:gr_budget_survey> --default-features-only)
set_tests_properties(graphite_budget_headroom PROPERTIES TIMEOUT 300)

# The machine's tests and two shaping suites against a build of the library
# with the switch dispatch alone (the default build runs untraced rule code
# through a label table where the compiler has computed goto; traced runs
# and the switch build use the switch, the reference): both variants are
# always tested (vm/graphite/machine.c, "Dispatch").
file(GLOB _fv_gr_switch_sources CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/vm/common/*.c ${PROJECT_SOURCE_DIR}/vm/sfnt/*.c
  ${PROJECT_SOURCE_DIR}/vm/tt/*.c ${PROJECT_SOURCE_DIR}/vm/graphite/*.c)
add_library(fontvm_gr_switch_dispatch STATIC ${_fv_gr_switch_sources})
target_include_directories(fontvm_gr_switch_dispatch PUBLIC ${PROJECT_SOURCE_DIR}/vm/include ${PROJECT_SOURCE_DIR}/vm)
target_compile_options(fontvm_gr_switch_dispatch PRIVATE ${FONTVM_VM_WARNINGS})
target_compile_definitions(fontvm_gr_switch_dispatch PRIVATE FONTVM_BUILDING FONTVM_GR_SWITCH_DISPATCH=1)
# (the libraries vm/CMakeLists.txt finds through pkg-config, by name:
# imported targets do not reach this directory)
target_link_libraries(fontvm_gr_switch_dispatch PUBLIC lz4 z brotlidec m)
foreach(t test_gr_machine test_gr_shape test_gr_hardening)
  add_executable(${t}_switch ${CMAKE_CURRENT_LIST_DIR}/${t}.c)
  target_compile_options(${t}_switch PRIVATE ${FONTVM_WARNINGS})
  target_include_directories(${t}_switch PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
  target_link_libraries(${t}_switch PRIVATE fontvm_gr_switch_dispatch PkgConfig::CMOCKA)
  add_test(NAME ${t}_switch COMMAND ${t}_switch WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(${t}_switch PROPERTIES ENVIRONMENT "FONTVM_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
endforeach()
target_compile_definitions(test_gr_machine_switch PRIVATE GR_EXPECT_DISPATCH="switch")
