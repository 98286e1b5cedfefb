# SPDX-License-Identifier: MIT
# find_package(Torch): Debian's libtorch-dev (the default presets), or the LibTorch inside a
# PyTorch installation (the PyPI `torch` wheel) for the `cuda`, `ci-cuda` and `bundle` presets
# (docs/GPU.md).
#
#   DEVICEBENCH_TORCH_PYTHON  a Python whose `import torch` is the PyTorch to build against.
#       Empty (the default presets): find_package(Torch) finds Debian's libtorch-dev, or what
#       CMAKE_PREFIX_PATH names. "auto": the venv scripts/install-torch.sh makes,
#       $DEVICEBENCH_TORCH_VENV, else ${XDG_CACHE_HOME:-$HOME/.cache}/devicebench/venv-torch<pin>.
#   DEVICEBENCH_TORCH_VERSION the version that Python's torch must have ("" = any), e.g.
#       2.11.0: checked here, so that a build never silently picks up another PyTorch.
#
# Sets, for everyone after it: DEVICEBENCH_TORCH_CUDA (ON when this LibTorch has CUDA compiled
# in, whether or not a GPU is here); with DEVICEBENCH_TORCH_PYTHON also
# DEVICEBENCH_TORCH_PYTHON_VERSION (torch.__version__ without the
# local part, e.g. "2.11.0"), DEVICEBENCH_TORCH_PYTHON_LIB (torch/lib of that installation).
set(DEVICEBENCH_TORCH_PYTHON "" CACHE STRING
    "Build against the LibTorch of this Python's PyTorch (auto = the scripts/install-torch.sh venv)")
set(DEVICEBENCH_TORCH_VERSION "" CACHE STRING
    "The PyTorch version DEVICEBENCH_TORCH_PYTHON must have, e.g. 2.11.0 (empty: any)")

include(${CMAKE_CURRENT_LIST_DIR}/Python.cmake) # devicebench_torch_venv: the venv's rule

macro(devicebench_find_torch)
  find_package(Torch REQUIRED)
  # TorchConfig sets TORCH_CUDA_LIBRARIES only in a CUDA build of LibTorch.
  if(TORCH_CUDA_LIBRARIES)
    set(DEVICEBENCH_TORCH_CUDA ON)
  else()
    set(DEVICEBENCH_TORCH_CUDA OFF)
  endif()
  message(STATUS "LibTorch ${Torch_VERSION}: ${TORCH_LIBRARY}, CUDA compiled in: ${DEVICEBENCH_TORCH_CUDA}")
  # libstdc++ must come before libtorch.so among every program's NEEDED libraries. The wheel's
  # libtorch.so (and the official LibTorch downloads, built the same way) exports unversioned
  # copies of libstdc++ functions newer than its build's base libstdc++ (std::filesystem::
  # remove_all, std::chrono::tzdb, stringbuf::view, ...; `nm -D libtorch.so`). The loader binds
  # a symbol to the first library in load order that defines it, and the linker's -lstdc++
  # comes last, so std::filesystem::remove_all(path, error_code&) bound to libtorch.so's copy,
  # which jumped to address 0 (every test removing a temporary folder crashed). Listed first in
  # the link options (they precede the objects and libraries), libstdc++.so.6 is loaded first
  # and its definitions win. Harmless for Debian's libtorch, which exports none.
  set_property(TARGET torch APPEND PROPERTY INTERFACE_LINK_OPTIONS
    "LINKER:--push-state,--no-as-needed" "-lstdc++" "LINKER:--pop-state")
  # The wheel ships its own {fmt} 12 headers in torch/include/fmt, and torch/include comes
  # before /usr/include, so Debian's spdlog (built against Debian's fmt 9) would compile against
  # fmt 12 and fail. LibTorch's public headers do not include <fmt/...> (c10/util/strong_type.h
  # only with STRONG_HAS_FMT_FORMAT, off by default), so every <fmt/...> here may be Debian's:
  # a folder holding only a link fmt -> Debian's fmt goes in front of torch's include folders.
  # (Both fmts in one program are fine: fmt 9 is namespace fmt::v9, torch's is fmt::v12.)
  foreach(_dir IN LISTS TORCH_INCLUDE_DIRS)
    if(EXISTS "${_dir}/fmt/core.h" AND NOT _dir STREQUAL "/usr/include")
      find_package(fmt CONFIG REQUIRED)
      get_target_property(_fmt_dirs fmt::fmt INTERFACE_INCLUDE_DIRECTORIES)
      list(GET _fmt_dirs 0 _fmt_dir)
      set(_shim "${CMAKE_BINARY_DIR}/torch-fmt-shim")
      file(MAKE_DIRECTORY "${_shim}")
      file(CREATE_LINK "${_fmt_dir}/fmt" "${_shim}/fmt" SYMBOLIC)
      get_target_property(_torch_dirs torch INTERFACE_INCLUDE_DIRECTORIES)
      set_target_properties(torch PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_shim};${_torch_dirs}")
      message(STATUS "LibTorch's own fmt (${_dir}/fmt) hidden behind fmt ${fmt_VERSION} (${_fmt_dir})")
      break()
    endif()
  endforeach()
endmacro()

if(DEVICEBENCH_TORCH_PYTHON STREQUAL "")
  devicebench_find_torch()
  return()
endif()

if(DEVICEBENCH_TORCH_PYTHON STREQUAL "auto")
  if(DEVICEBENCH_TORCH_VERSION STREQUAL "" AND "$ENV{DEVICEBENCH_TORCH_VENV}" STREQUAL "")
    message(FATAL_ERROR "DEVICEBENCH_TORCH_PYTHON=auto needs DEVICEBENCH_TORCH_VERSION (the venv "
      "is named after it)")
  endif()
  devicebench_torch_venv(_venv "${DEVICEBENCH_TORCH_VERSION}")
  set(_python "${_venv}/bin/python")
  if(NOT EXISTS "${_python}")
    message(FATAL_ERROR "No PyTorch venv at ${_venv} (DEVICEBENCH_TORCH_PYTHON=auto): run "
      "scripts/install-torch.sh first, or set DEVICEBENCH_TORCH_VENV, or pass "
      "-DDEVICEBENCH_TORCH_PYTHON=/path/to/python")
  endif()
else()
  set(_python "${DEVICEBENCH_TORCH_PYTHON}")
endif()

# One call: version, the CMake prefix, the lib folder, the C++ ABI and whether CUDA is built in.
execute_process(
  COMMAND "${_python}" -c [=[
import os, torch
print(torch.__version__.split("+")[0])
print(torch.utils.cmake_prefix_path)
print(os.path.join(os.path.dirname(torch.__file__), "lib"))
print(int(torch._C._GLIBCXX_USE_CXX11_ABI))
print(torch.version.cuda or "")
]=]
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "'${_python} -c \"import torch\"' failed (exit ${_rc}): ${_err}")
endif()
string(REPLACE "\n" ";" _lines "${_out}")
list(LENGTH _lines _n)
if(NOT _n EQUAL 5)
  message(FATAL_ERROR "Unexpected answer from ${_python} about torch: '${_out}'")
endif()
list(GET _lines 0 DEVICEBENCH_TORCH_PYTHON_VERSION)
list(GET _lines 1 _prefix)
list(GET _lines 2 DEVICEBENCH_TORCH_PYTHON_LIB)
list(GET _lines 3 _abi)
list(GET _lines 4 _cuda)

if(NOT DEVICEBENCH_TORCH_VERSION STREQUAL ""
   AND NOT DEVICEBENCH_TORCH_PYTHON_VERSION STREQUAL DEVICEBENCH_TORCH_VERSION)
  message(FATAL_ERROR "${_python} has PyTorch ${DEVICEBENCH_TORCH_PYTHON_VERSION}, this build is "
    "pinned to ${DEVICEBENCH_TORCH_VERSION} (DEVICEBENCH_TORCH_VERSION): run scripts/install-torch.sh")
endif()
# The wheel since 2.x is built with the C++11 ABI, as Debian's g++ defaults to; TorchConfig
# adds -D_GLIBCXX_USE_CXX11_ABI=<this> to torch's interface, and an old-ABI torch would not
# link with spdlog/fmt/GTest from Debian. Refuse it here with a clear message instead.
if(NOT _abi STREQUAL "1")
  message(FATAL_ERROR "PyTorch ${DEVICEBENCH_TORCH_PYTHON_VERSION} at ${_python} uses the pre-C++11 "
    "ABI (torch._C._GLIBCXX_USE_CXX11_ABI=0); Debian's libraries need the C++11 ABI")
endif()

# The wheel's TorchConfig finds the CUDA toolkit (headers, libcudart for linking; nvcc only for
# its version) when torch was built with CUDA: /usr/local/cuda unless CUDAToolkit_ROOT says.
if(NOT _cuda STREQUAL "")
  if(NOT DEFINED CUDAToolkit_ROOT AND NOT DEFINED ENV{CUDAToolkit_ROOT}
     AND EXISTS "/usr/local/cuda-${_cuda}/bin/nvcc")
    set(CUDAToolkit_ROOT "/usr/local/cuda-${_cuda}")
  endif()
  # Only kernels compiled here would use it (there are none: DeviceBench calls LibTorch's
  # kernels), but TorchConfig queries the GPU for it when unset and warns on a GPU-less
  # machine. sm_90 = the H200; 7.5 T4, 8.6 RTX 30xx, 8.9 RTX 40xx.
  if(NOT DEFINED TORCH_CUDA_ARCH_LIST AND NOT DEFINED ENV{TORCH_CUDA_ARCH_LIST})
    set(TORCH_CUDA_ARCH_LIST "7.5;8.6;8.9;9.0")
  endif()
endif()

# Both torch/share/cmake (TorchConfig) and torch/ itself: TorchConfig looks for libtorch.so with
# find_library(... PATHS torch/lib), and PATHS come after the system folders, so Debian's
# /usr/lib/x86_64-linux-gnu/libtorch.so (libtorch-dev) would win; <prefix>/lib of an entry of
# CMAKE_PREFIX_PATH comes before them.
get_filename_component(_torch_root "${DEVICEBENCH_TORCH_PYTHON_LIB}" DIRECTORY)
list(PREPEND CMAKE_PREFIX_PATH "${_prefix}" "${_torch_root}")
set(DEVICEBENCH_TORCH_PYTHON_CUDA "${_cuda}")
message(STATUS "LibTorch from PyTorch ${DEVICEBENCH_TORCH_PYTHON_VERSION} (CUDA ${_cuda}) at ${_prefix}")
devicebench_find_torch()
