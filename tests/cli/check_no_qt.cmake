# SPDX-License-Identifier: MIT
# cmake -DEXECUTABLE=<devicebench-cli> -P check_no_qt.cmake
# Fails when the executable needs a Qt library: neither its own ELF NEEDED entries (readelf -d)
# nor the libraries the dynamic loader resolves for it, recursively (ldd), may name libQt6*
# (in particular Widgets, Gui or Charts). Used by the DEVICEBENCH_BUILD_UI=OFF build.
if(NOT EXECUTABLE OR NOT EXISTS "${EXECUTABLE}")
  message(FATAL_ERROR "check_no_qt: EXECUTABLE '${EXECUTABLE}' does not exist")
endif()
find_program(READELF readelf)
find_program(LDD ldd)
if(NOT READELF OR NOT LDD)
  message(FATAL_ERROR "check_no_qt: readelf (binutils) and ldd (libc-bin) are needed")
endif()
execute_process(COMMAND ${READELF} -d ${EXECUTABLE}
  OUTPUT_VARIABLE needed RESULT_VARIABLE readelf_status)
execute_process(COMMAND ${LDD} ${EXECUTABLE}
  OUTPUT_VARIABLE resolved RESULT_VARIABLE ldd_status)
if(NOT readelf_status EQUAL 0 OR NOT ldd_status EQUAL 0)
  message(FATAL_ERROR "check_no_qt: readelf/ldd failed on ${EXECUTABLE}")
endif()
string(REGEX MATCHALL "Shared library: \\[[^]]+\\]" needed_libraries "${needed}")
list(LENGTH needed_libraries needed_count)
if(needed_count EQUAL 0)
  message(FATAL_ERROR "check_no_qt: no NEEDED entry read from ${EXECUTABLE}")
endif()
string(REGEX MATCHALL "[^\n]*[Qq][Tt]6[^\n]*" qt_needed "${needed}")
string(REGEX MATCHALL "[^\n]*libQt[^\n]*" qt_resolved "${resolved}")
if(qt_needed OR qt_resolved)
  message(FATAL_ERROR "check_no_qt: ${EXECUTABLE} needs Qt:\n${qt_needed}\n${qt_resolved}")
endif()
message(STATUS "check_no_qt: ${EXECUTABLE}: ${needed_count} NEEDED entries, none of them Qt; "
               "ldd resolves no libQt")
