// SPDX-License-Identifier: MIT
// A function of a library opened at run time (dlopen), typed: the one place the project turns
// dlsym's data pointer into a function pointer (memcpy, which is defined where a cast is not).
#pragma once

#include <dlfcn.h>

#include <cstring>

namespace devicebench {

// The function `name` of `library` (a dlopen handle) as a Function (a function pointer type);
// nullptr when the library has no such symbol.
template <typename Function> Function lookUpFunction(void *library, const char *name) {
    Function function = nullptr;
    void *symbol = dlsym(library, name);
    static_assert(sizeof(function) == sizeof(symbol), "function and data pointers differ");
    std::memcpy(&function, &symbol, sizeof(function));
    return function;
}

} // namespace devicebench
