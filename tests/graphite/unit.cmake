# Unit tests of the Graphite engine (owned by vm/graphite, issue 4).
fontvm_add_test(test_gr_machine test_gr_machine.c)
fontvm_add_test(test_gr_verify test_gr_verify.c)
# Shaping behaviour on graphite2's small.ttf (expectations measured with
# graphite2, pinned here): character association, rule-code edge cases.
fontvm_add_test(test_gr_shape test_gr_shape.c)
# Requests fv_gr_shape refuses, and the slot-link check (issue 14).
fontvm_add_test(test_gr_hardening test_gr_hardening.c)
# Several threads shaping with one face (graphite.h's thread rules); run
# under ThreadSanitizer by the tsan preset.
find_package(Threads REQUIRED)
fontvm_add_test(test_gr_threads test_gr_threads.c LIBS Threads::Threads)
