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

# Sanitizers, selected by the asan / tsan presets.
set(DEVICEBENCH_SANITIZER "" CACHE STRING "Sanitizer: empty, address (ASan+UBSan) or thread")
if(DEVICEBENCH_SANITIZER STREQUAL "address")
  target_compile_options(devicebench_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
  target_link_options(devicebench_options INTERFACE -fsanitize=address,undefined)
elseif(DEVICEBENCH_SANITIZER STREQUAL "thread")
  target_compile_options(devicebench_options INTERFACE -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(devicebench_options INTERFACE -fsanitize=thread)
endif()
