# SPDX-License-Identifier: MIT
# Flags live on INTERFACE targets linked into each target, never set globally
# (cpp-best-practices/cmake_template).
add_library(devicebench_options INTERFACE)
add_library(devicebench_warnings INTERFACE)

if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(devicebench_warnings INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
    -Wunused -Woverloaded-virtual -Wconversion -Wsign-conversion -Wnull-dereference
    -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
  if(DEVICEBENCH_WARNINGS_AS_ERRORS)
    target_compile_options(devicebench_warnings INTERFACE -Werror)
  endif()
endif()

# Debian's LibTorch pulls in OpenCV and with it Qt 5 (libopencv_highgui -> libQt5Widgets), so
# every program here loads Qt 5 beside Qt 6. An out-of-line copy of a Qt 6 inline function in
# one of our executables (any unoptimised build) would be exported and bound by Qt 5's own
# start-up code under the same name (e.g. QByteArray::append(const char *)): it crashed before
# main(). Hidden inline functions are never exported (docs/SANITIZERS.md).
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(devicebench_options INTERFACE -fvisibility-inlines-hidden)
endif()

# Sanitizers, selected by the asan / tsan presets (docs/SANITIZERS.md). UBSan stays
# recoverable so that tests/sanitizers/ubsan.supp can apply; UBSAN_OPTIONS=halt_on_error=1 in
# the presets turns every report into a failure.
set(DEVICEBENCH_SANITIZER "" CACHE STRING "Sanitizer: empty, address (ASan+UBSan) or thread")
set_property(CACHE DEVICEBENCH_SANITIZER PROPERTY STRINGS "" address thread)
if(NOT DEVICEBENCH_SANITIZER MATCHES "^(|address|thread)$")
  message(FATAL_ERROR "DEVICEBENCH_SANITIZER='${DEVICEBENCH_SANITIZER}': use address, thread or nothing")
endif()
if(DEVICEBENCH_SANITIZER STREQUAL "address")
  target_compile_options(devicebench_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
  target_link_options(devicebench_options INTERFACE -fsanitize=address,undefined)
elseif(DEVICEBENCH_SANITIZER STREQUAL "thread")
  target_compile_options(devicebench_options INTERFACE -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(devicebench_options INTERFACE -fsanitize=thread)
endif()

# libFuzzer targets (tests/fuzz, docs/FUZZING.md): clang only. Everything linked with
# devicebench_options (the engine included) gets the coverage instrumentation the fuzzer
# steers by; the fuzz programs themselves add -fsanitize=fuzzer when linking.
option(DEVICEBENCH_BUILD_FUZZERS "Build the libFuzzer targets in tests/fuzz (clang only)" OFF)
if(DEVICEBENCH_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "DEVICEBENCH_BUILD_FUZZERS needs clang (libFuzzer comes with it), not "
      "${CMAKE_CXX_COMPILER_ID}: use the `fuzz` preset or -DCMAKE_CXX_COMPILER=clang++")
  endif()
  target_compile_options(devicebench_options INTERFACE -fsanitize=fuzzer-no-link)
endif()
