# SPDX-License-Identifier: MIT
# DeviceBench's data files (engine/core resource_files.h): the published results
# (resources/published/*.json), the example prices (resources/prices/*.json), the article's
# Python workload (resources/python/*.py), and the Python module for a user's own script with
# its examples (resources/python/devicebench/, resources/python/examples/). The programs find them at <folder of the
# program>/../share/devicebench, so they are copied to ${CMAKE_BINARY_DIR}/share/devicebench at
# build time (beside app/ in the build tree) and installed to
# ${CMAKE_INSTALL_DATADIR}/devicebench (beside bin/); scripts/make-bundle.sh copies the build
# tree's folder into the runner bundle. Included from the top-level CMakeLists.txt after app/,
# in every build (also without the UI).
#
# The file lists are globbed at configure time (CONFIGURE_DEPENDS re-checks them at build
# time); a folder that does not exist simply contributes nothing.
set(DEVICEBENCH_DATA_BUILD_DIR ${CMAKE_BINARY_DIR}/share/devicebench)

set(_devicebench_data_outputs)
foreach(_kind published prices python)
  if(_kind STREQUAL "published" OR _kind STREQUAL "prices")
    set(_pattern "*.json")
  else()
    set(_pattern "*.py") # also in subfolders: the module (devicebench/) and its examples
  endif()
  file(GLOB_RECURSE _files CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/resources
       ${PROJECT_SOURCE_DIR}/resources/${_kind}/${_pattern})
  foreach(_relative IN LISTS _files)
    set(_file ${PROJECT_SOURCE_DIR}/resources/${_relative})
    set(_out ${DEVICEBENCH_DATA_BUILD_DIR}/${_relative})
    get_filename_component(_folder ${_relative} DIRECTORY)
    add_custom_command(OUTPUT ${_out}
      COMMAND ${CMAKE_COMMAND} -E copy_if_different ${_file} ${_out}
      DEPENDS ${_file}
      COMMENT "data file: share/devicebench/${_relative}"
      VERBATIM)
    list(APPEND _devicebench_data_outputs ${_out})
    install(FILES ${_file} DESTINATION ${CMAKE_INSTALL_DATADIR}/devicebench/${_folder})
  endforeach()
endforeach()

add_custom_target(devicebench_data_files ALL DEPENDS ${_devicebench_data_outputs})
# Built with the CLI, so that a build of devicebench-cli alone can find its data files.
add_dependencies(devicebench-cli devicebench_data_files)
if(TARGET devicebench)
  add_dependencies(devicebench devicebench_data_files)
endif()
