# SPDX-License-Identifier: MIT
# cmake -DEXECUTABLE=<devicebench-cli> -P check_no_qt.cmake
# Fails when the executable needs Qt: its own ELF NEEDED entries (readelf -d) may name no Qt
# library at all, and the libraries the dynamic loader resolves for it, recursively (ldd), no
# libQt6 library (Widgets, Gui, Charts or any other). Used by the DEVICEBENCH_BUILD_UI=OFF build.
# A Qt 5 that a dependency brings in is reported, not failed: Debian's LibTorch package
# (libtorch_cpu.so.1.13) needs libopencv_highgui, which needs Qt 5 Widgets/Gui; the PyPI
# LibTorch needs no Qt.
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
string(REGEX MATCHALL "Shared library: \\[[^]]*[Qq][Tt][^]]*\\]" qt_needed "${needed}")
string(REGEX MATCHALL "[^\n]*libQt6[^\n]*" qt6_resolved "${resolved}")
string(REGEX MATCHALL "[^\n]*libQt5[^\n]*" qt5_resolved "${resolved}")
if(qt_needed OR qt6_resolved)
  message(FATAL_ERROR "check_no_qt: ${EXECUTABLE} needs Qt:\n${qt_needed}\n${qt6_resolved}")
endif()
message(STATUS "check_no_qt: ${EXECUTABLE}: ${needed_count} NEEDED entries, none of them Qt; "
               "ldd resolves no libQt6")
if(qt5_resolved)
  message(STATUS "check_no_qt: note: a dependency (not the executable) brings in Qt 5 "
                 "(Debian's LibTorch needs libopencv_highgui):\n${qt5_resolved}")
endif()
