# SPDX-License-Identifier: MIT
# The Pythons the build and the tests use, found again at every configure (a cache holds only
# what the user chose with -D, never a guess made before a venv existed).
#
#   devicebench_torch_venv(<var> [<version>])
#       <var> = the folder of the venv scripts/install-torch.sh makes, by its rule:
#       $DEVICEBENCH_TORCH_VENV, else ${XDG_CACHE_HOME:-$HOME/.cache}/devicebench/venv-torch<version>.
#       <version> defaults to that script's own pin (its `torch_pin=` line).
#   devicebench_python_with(<var> MODULES <module>... CANDIDATES <python>...)
#       <var> = the first candidate that runs and finds every module (importlib.util.find_spec:
#       nothing is imported), else the first candidate that exists, else the last one, so that
#       a test run with it fails naming what is missing.
include_guard(GLOBAL)

function(devicebench_torch_venv var)
  if(ARGC GREATER 1)
    set(_version "${ARGV1}")
  else()
    file(STRINGS "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../scripts/install-torch.sh" _pin
         REGEX "^torch_pin=")
    string(REGEX REPLACE "^torch_pin=([^ #]*).*" "\\1" _version "${_pin}")
  endif()
  if(NOT "$ENV{DEVICEBENCH_TORCH_VENV}" STREQUAL "")
    set(_venv "$ENV{DEVICEBENCH_TORCH_VENV}")
  elseif(NOT "$ENV{XDG_CACHE_HOME}" STREQUAL "")
    set(_venv "$ENV{XDG_CACHE_HOME}/devicebench/venv-torch${_version}")
  else()
    set(_venv "$ENV{HOME}/.cache/devicebench/venv-torch${_version}")
  endif()
  set(${var} "${_venv}" PARENT_SCOPE)
endfunction()

function(devicebench_python_with var)
  cmake_parse_arguments(PARSE_ARGV 1 _arg "" "" "MODULES;CANDIDATES")
  set(_check "import importlib.util as u, sys\nsys.exit(any(u.find_spec(m) is None for m in sys.argv[1:]))")
  set(_existing "")
  foreach(_python IN LISTS _arg_CANDIDATES)
    if(NOT EXISTS "${_python}")
      continue()
    endif()
    if(_existing STREQUAL "")
      set(_existing "${_python}")
    endif()
    execute_process(COMMAND "${_python}" -c "${_check}" ${_arg_MODULES}
      RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET TIMEOUT 30)
    if(_rc EQUAL 0)
      set(${var} "${_python}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  if(_existing STREQUAL "")
    list(GET _arg_CANDIDATES -1 _existing)
  endif()
  set(${var} "${_existing}" PARENT_SCOPE)
endfunction()
