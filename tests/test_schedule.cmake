# The order in which `ctest -j` starts the longest tests (included after the
# discovered tests, tests/CMakeLists.txt). On a clean build CTest has no
# timings of its own yet (Testing/Temporary/CTestCostData.txt) and starts
# tests in the order they were declared, so a long test declared late ran
# alone at the end of the suite: the register-cache trade started a minute
# in and finished two minutes after every other test. CTest starts the tests
# of higher COST first; the figures are their seconds on the project's
# 2-core machine (docs/testing.md, "Tests over 30 seconds"). Tests declared
# by add_test set theirs where they are declared (bench/, the Slurm test).
# CTest ignores a name that no longer exists: `layers: every test the
# schedule names exists` keeps this list true.
set_tests_properties(
  [=[cli:docs/validation.md: the register-cache trade is what the model gives]=]
  PROPERTIES COST 150)
set_tests_properties(
  [=[cli:validate m1-max on the shipped data: report files and accuracy guard]=]
  PROPERTIES COST 45)
set_tests_properties(
  [=[cli:config keys: each numeric key of the machine moves some statistic]=]
  PROPERTIES COST 20)
# The longest of the sanitized run (scripts/test-sanitized.sh), 20-45 s
# there: each starts early in both runs.
set_tests_properties(
  [=[cli:config keys: each timing class's latency, issue interval and dispatch cycles count]=]
  [=[cli:sampled run: every library kernel's buffers are the full run's, byte for byte]=]
  [=[cli:memory validation on m1: staircase, bandwidth limits, DRAM streaming and the code-size sweep]=]
  [=[cli:functional run: every library kernel's buffers are the timed run's, byte for byte]=]
  [=[cli:plots: each kind renders to PNG at its size, nothing past its edge]=]
  PROPERTIES COST 9)
# After the guards whose simulations it repeats, so that it reads them from
# the shared validate cache (build/tests/validate-cache) instead of running
# them beside the guards a second time.
set_tests_properties(
  [=[cli:validate m1-max on every shipped file: predictions within 1.5x of all rows]=]
  PROPERTIES COST 10 DEPENDS
  [=[cli:validate m1-max on the shipped data: report files and accuracy guard;cli:validate m1-max on the quad-group tables: accuracy guard]=])
