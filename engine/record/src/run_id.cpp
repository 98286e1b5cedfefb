// SPDX-License-Identifier: MIT
// Run ids and the UTC times records carry.
#include "devicebench/run_record.h"

#include "record_time.h"

#include <array>
#include <ctime>
#include <iomanip>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>

namespace devicebench {
namespace detail {

std::string utcTime(bool compact) {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    std::array<char, 32> text{};
    const std::size_t n = compact
                              ? std::strftime(text.data(), text.size(), "%Y%m%dT%H%M%SZ", &tm)
                              : std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return std::string(text.data(), n);
}

} // namespace detail

std::string newRunId() {
    std::array<char, 256> host{};
    if (::gethostname(host.data(), host.size() - 1) != 0) {
        host[0] = '\0';
    }
    std::string hostName = host.data();
    if (hostName.empty()) {
        hostName = "unknown-host";
    }
    for (char &ch : hostName) {
        const bool safe = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                          (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
        if (!safe) {
            ch = '-';
        }
    }
    std::random_device random;
    std::ostringstream hex;
    hex << std::hex << std::setw(8) << std::setfill('0') << random();
    return detail::utcTime(true) + "-" + hostName + "-" + hex.str();
}

} // namespace devicebench
