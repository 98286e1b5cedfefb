# SPDX-License-Identifier: MIT
# DEVICEBENCH_TEST_PER_SUITE (ON in the CI presets: ci, asan, ci-cuda): gtest_discover_tests
# adds one ctest test per GoogleTest suite, running the suite's cases in one process, instead
# of one test and one process per case (docs/BUILDING.md, "CI's time").
#
# Why: every process of a test program linked with LibTorch first loads it and registers its
# operators, a fixed cost before the first line of a test: 0.45 s of CPU with Debian's LibTorch,
# 0.45-0.65 s with the CUDA wheel's, 1.1 s under AddressSanitizer (its start-up and the leak
# check at exit). Measured per case (2026-12-04), that start-up was most of the time of the
# ~860 cases of the programs that link LibTorch, which fall into ~215 suites: under asan, the
# 10 cases of ContentionRule took 10.6 s of CPU as 10 processes and 1.1 s as one.
#
# Every case still runs, in the same program, with the same checks; only the cases of one suite
# share a process (as when a GoogleTest program is run by hand). A failing case fails its
# suite's test and is named in its output (ctest --output-on-failure). A suite's TIMEOUT is
# the per-case one times its cases; a suite whose every case skipped is reported skipped.
# Developers' presets keep one test per case (ctest -R <Suite>.<Case>); either way the suite
# test runs with `ctest -R '^<Suite>$'`, one case with `<program> --gtest_filter=<Suite>.<Case>`.
#
# How: CMake's gtest_discover_tests is kept (same arguments, same build-time listing); only the
# script it runs after each build is replaced by cmake/GTestPerSuiteAddTests.cmake, through
# GoogleTest.cmake's _GOOGLETEST_DISCOVER_TESTS_SCRIPT (CMake 3.10 to 3.28 at least: Debian 12's
# 3.25). CMake 3.31 (Debian 13's) has no such variable and runs its own script: there the
# tests stay one per case, as the message below says (the same cases, run one per process).
option(DEVICEBENCH_TEST_PER_SUITE
  "One ctest test per GoogleTest suite (the CI presets) instead of one per case" OFF)
if(DEVICEBENCH_TEST_PER_SUITE AND NOT DEFINED _GOOGLETEST_DISCOVER_TESTS_SCRIPT)
  message(WARNING "DEVICEBENCH_TEST_PER_SUITE: CMake ${CMAKE_VERSION}'s GoogleTest module has no "
    "_GOOGLETEST_DISCOVER_TESTS_SCRIPT to replace: one ctest test per case instead (slower, the "
    "same checks)")
elseif(DEVICEBENCH_TEST_PER_SUITE)
  set(_GOOGLETEST_DISCOVER_TESTS_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/GTestPerSuiteAddTests.cmake")
endif()
