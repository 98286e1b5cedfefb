// SPDX-License-Identifier: MIT
// Where DeviceBench's data files are: the built-in ones that come with the program (published
// results in "published/", the article's Python workload in "python/") and the user's own.
// Plain C++ (no Qt, no LibTorch). Paths are returned whether or not they exist; the caller says
// what is missing.
#pragma once

#include <string>

namespace devicebench {

// Set to a folder, it replaces the built-in data folder (tests, a checkout run by hand).
inline constexpr const char *kResourcesVariable = "DEVICEBENCH_RESOURCES";

// The built-in data folder: $DEVICEBENCH_RESOURCES when set and not empty, else
// <folder of the running program>/../share/devicebench, which the build tree
// (build/<preset>/share/devicebench), the install tree (<prefix>/share/devicebench) and the
// runner bundle all provide. "" when neither the variable nor /proc/self/exe can be read.
std::string resourceDir();

// resourceDir()'s rule for a given program path and value of the variable (nullptr: unset),
// so that it can be tested: "/opt/x/bin/prog" -> "/opt/x/share/devicebench".
std::string resourceDirFor(const std::string &programPath, const char *variableValue);

// The running program's own path (/proc/self/exe resolved); "" when it cannot be read.
std::string currentProgramPath();

// resourceDir() + "/" + relative ("published/article.json"); "" when resourceDir() is "".
std::string resourcePath(const std::string &relative);

// The user's DeviceBench data folder: $XDG_DATA_HOME/devicebench, else
// $HOME/.local/share/devicebench; "" when neither is set (empty counts as unset).
std::string userDataDir();

// userDataDir()'s rule for given values of XDG_DATA_HOME and HOME (nullptr: unset).
std::string userDataDirFor(const char *xdgDataHome, const char *home);

// The user's DeviceBench cache folder (made data that can be made again, such as the article
// script's copy of CIFAR-10): $XDG_CACHE_HOME/devicebench, else $HOME/.cache/devicebench; ""
// when neither is set.
std::string userCacheDir();

// userCacheDir()'s rule for given values of XDG_CACHE_HOME and HOME (nullptr: unset).
std::string userCacheDirFor(const char *xdgCacheHome, const char *home);

} // namespace devicebench
