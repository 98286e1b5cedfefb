# SPDX-License-Identifier: MIT
# gtest_discover_tests' build-time step, one ctest test per GoogleTest suite instead of one per
# case (DEVICEBENCH_TEST_PER_SUITE, cmake/GTestPerSuite.cmake). Run as CMake's own
# GoogleTestAddTests.cmake is (cmake -P with the same -D variables, or included and called as
# gtest_discover_tests_impl), it lists the executable's cases and writes, per suite:
#
#   add_test(<prefix><suite> <exe> --gtest_filter=<suite>.<case1>:<suite>.<case2>:... <extra>)
#
# naming every case the listing gave, so that TEST_FILTER and DISABLED_ cases (left out) are
# honoured exactly. Properties: the call's PROPERTIES, with a TIMEOUT among them multiplied by
# the suite's number of cases; WORKING_DIRECTORY as given; and a SKIP_REGULAR_EXPRESSION that
# matches only the summary of a suite whose every case skipped (none passed, none failed), since
# ctest's skip expression wins over a failing exit code.
cmake_minimum_required(VERSION 3.22)

function(_devicebench_quote out)
  set(args "")
  foreach(arg IN LISTS ARGN)
    if(arg MATCHES "[^-./:a-zA-Z0-9_]")
      string(APPEND args " [==[${arg}]==]")
    else()
      string(APPEND args " ${arg}")
    endif()
  endforeach()
  set(${out} "${args}" PARENT_SCOPE)
endfunction()

function(gtest_discover_tests_impl)
  cmake_parse_arguments(""
    ""
    "NO_PRETTY_TYPES;NO_PRETTY_VALUES;TEST_EXECUTABLE;TEST_WORKING_DIR;TEST_PREFIX;TEST_SUFFIX;TEST_LIST;CTEST_FILE;TEST_DISCOVERY_TIMEOUT;TEST_XML_OUTPUT_DIR;TEST_FILTER"
    "TEST_EXTRA_ARGS;TEST_PROPERTIES;TEST_EXECUTOR"
    ${ARGN})
  if(NOT EXISTS "${_TEST_EXECUTABLE}")
    message(FATAL_ERROR "Specified test executable does not exist.\n  Path: '${_TEST_EXECUTABLE}'")
  endif()
  set(filter "")
  if(_TEST_FILTER)
    set(filter "--gtest_filter=${_TEST_FILTER}")
  endif()
  execute_process(
    COMMAND ${_TEST_EXECUTOR} "${_TEST_EXECUTABLE}" --gtest_list_tests ${filter}
    WORKING_DIRECTORY "${_TEST_WORKING_DIR}"
    TIMEOUT ${_TEST_DISCOVERY_TIMEOUT}
    OUTPUT_VARIABLE output
    RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "Error running test executable.\n  Path: '${_TEST_EXECUTABLE}'\n"
      "  Result: ${result}\n  Output:\n    ${output}\n")
  endif()

  # The listing: "Suite." lines (a parameterised or typed suite: "Prefix/Suite." or
  # "Suite/0.  # TypeParam = ..."), then "  Case" lines (a parameterised case:
  # "  Case/0  # GetParam() = ..."). Names hold no ';', '[' or ']' (C++ identifiers, '/' and
  # digits), so the lines are split as a CMake list once the comments are cut.
  string(REGEX REPLACE "[ ]+#[^\n]*" "" output "${output}")
  string(REPLACE ";" "" output "${output}")
  string(REPLACE "\n" ";" lines "${output}")
  set(suites "")
  set(suite "")
  foreach(line IN LISTS lines)
    if(line STREQUAL "" OR line MATCHES "gtest_main\\.cc")
      continue()
    endif()
    if(NOT line MATCHES "^  ")
      string(REGEX REPLACE "\\.$" "" suite "${line}")
      string(MAKE_C_IDENTIFIER "${suite}" key)
      if(NOT key IN_LIST suites)
        list(APPEND suites "${key}")
        set(name_${key} "${suite}")
        set(cases_${key} "")
      endif()
    else()
      string(STRIP "${line}" case)
      if(suite MATCHES "^DISABLED_" OR case MATCHES "^DISABLED_")
        continue() # not run, as ctest does not run a DISABLED test
      endif()
      list(APPEND cases_${key} "${suite}.${case}")
    endif()
  endforeach()

  # ctest's skip rule: the suite's summary says no case passed, then lists only skipped ones.
  set(nl "\n")
  set(skipped "\\[  PASSED  \\] 0 tests\\.${nl}\\[  SKIPPED \\] [0-9]+ tests?, listed below:${nl}(\\[  SKIPPED \\] [^${nl}]*${nl})*$")

  set(script "")
  set(names "")
  foreach(key IN LISTS suites)
    list(LENGTH cases_${key} count)
    if(count EQUAL 0)
      continue()
    endif()
    set(testname "${_TEST_PREFIX}${name_${key}}${_TEST_SUFFIX}")
    list(JOIN cases_${key} ":" cases)
    set(xml "")
    if(_TEST_XML_OUTPUT_DIR)
      set(xml "--gtest_output=xml:${_TEST_XML_OUTPUT_DIR}/${testname}.xml")
    endif()
    _devicebench_quote(args ${_TEST_EXECUTOR} "${_TEST_EXECUTABLE}" "--gtest_filter=${cases}"
      ${xml} ${_TEST_EXTRA_ARGS})
    string(APPEND script "add_test([==[${testname}]==]${args})\n")
    # The call's properties; a TIMEOUT is per case, so the suite gets it times its cases.
    set(properties "")
    set(take_timeout OFF)
    foreach(item IN LISTS _TEST_PROPERTIES)
      if(take_timeout)
        math(EXPR item "${item} * ${count}")
        set(take_timeout OFF)
      elseif(item STREQUAL "TIMEOUT")
        set(take_timeout ON)
      endif()
      list(APPEND properties "${item}")
    endforeach()
    _devicebench_quote(props WORKING_DIRECTORY "${_TEST_WORKING_DIR}"
      SKIP_REGULAR_EXPRESSION "${skipped}" ${properties})
    string(APPEND script "set_tests_properties([==[${testname}]==] PROPERTIES${props})\n")
    list(APPEND names "${testname}")
  endforeach()
  _devicebench_quote(list_args ${names})
  string(APPEND script "set(${_TEST_LIST}${list_args})\n")
  file(WRITE "${_CTEST_FILE}" "${script}")
endfunction()

if(CMAKE_SCRIPT_MODE_FILE)
  gtest_discover_tests_impl(
    NO_PRETTY_TYPES ${NO_PRETTY_TYPES}
    NO_PRETTY_VALUES ${NO_PRETTY_VALUES}
    TEST_EXECUTABLE ${TEST_EXECUTABLE}
    TEST_EXECUTOR ${TEST_EXECUTOR}
    TEST_WORKING_DIR ${TEST_WORKING_DIR}
    TEST_PREFIX ${TEST_PREFIX}
    TEST_SUFFIX ${TEST_SUFFIX}
    TEST_FILTER ${TEST_FILTER}
    TEST_LIST ${TEST_LIST}
    CTEST_FILE ${CTEST_FILE}
    TEST_DISCOVERY_TIMEOUT ${TEST_DISCOVERY_TIMEOUT}
    TEST_XML_OUTPUT_DIR ${TEST_XML_OUTPUT_DIR}
    TEST_EXTRA_ARGS ${TEST_EXTRA_ARGS}
    TEST_PROPERTIES ${TEST_PROPERTIES})
endif()
