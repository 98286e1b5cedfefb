// SPDX-License-Identifier: MIT
// The rendezvous through c10d's TCPStore: the launcher's store, and a rank joining its job.
#include "process_group.h"

#include "devicebench/distributed.h"

#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

namespace devicebench {
namespace {

using std::chrono::milliseconds;

std::string seconds(double s) {
    std::ostringstream out;
    out << s;
    return out.str();
}

std::string arrivedKey(int rank) { return "devicebench/arrived/" + std::to_string(rank); }

// The first line of a c10d message (its backtrace and C++ frames left out).
std::string firstLine(const std::string &what) { return what.substr(0, what.find('\n')); }

// LibTorch 2.4 and later build the store on libuv unless told not to; a LibTorch built without
// libuv (Debian's 2.6) then refuses. Sets the option where this LibTorch has it (1.13 has not,
// and has no libuv store); true when it did.
template <class Options>
auto withoutLibUv(Options &options, int) -> decltype(options.useLibUV = false, bool()) {
    options.useLibUV = false;
    return true;
}
template <class Options> bool withoutLibUv(Options &, long) { return false; }

// The first line of what a c10d call threw: c10::Error (DistNetworkError) or
// std::runtime_error, by LibTorch version.
std::string c10dMessage(const std::exception &e) {
    const auto *c10 = dynamic_cast<const c10::Error *>(&e);
    return firstLine(c10 != nullptr ? c10->what_without_backtrace() : e.what());
}

// The store as `options` say; again without libuv when this LibTorch was built without it.
c10::intrusive_ptr<c10d::TCPStore> makeStore(const std::string &host,
                                             c10d::TCPStoreOptions options) {
    try {
        return c10::make_intrusive<c10d::TCPStore>(host, options);
    } catch (const std::exception &e) {
        if (c10dMessage(e).find("without libuv") == std::string::npos || !withoutLibUv(options, 0))
            throw;
        return c10::make_intrusive<c10d::TCPStore>(host, options);
    }
}

c10::intrusive_ptr<c10d::TCPStore> openStore(const std::string &host, int port, bool server,
                                             int worldSize, double timeoutSeconds) {
    c10d::TCPStoreOptions options;
    options.port = static_cast<std::uint16_t>(port);
    options.isServer = server;
    options.numWorkers = worldSize;
    options.waitWorkers = false;
    options.timeout = detail::toMilliseconds(timeoutSeconds);
    try {
        return makeStore(host, options);
    } catch (const std::exception &e) {
        const std::string what = c10dMessage(e);
        if (server)
            throw DistributedError("cannot open the rendezvous store on port " +
                                   std::to_string(port) + " of " + host + ": " + what +
                                   " (another job on that port? choose another --master-port "
                                   "or MASTER_PORT; does the address name this host?)");
        throw DistributedError("cannot reach the rendezvous store at " + host + ":" +
                               std::to_string(port) + " within " + seconds(timeoutSeconds) +
                               " s: " + what +
                               " (is MASTER_ADDR / --master-addr right, and rank 0 or the "
                               "launcher of node 0 started?)");
    }
}

} // namespace

struct StoreHost::Impl {
    c10::intrusive_ptr<c10d::TCPStore> store;
};

StoreHost::StoreHost(int port, int worldSize, double timeoutSeconds)
    : m_impl(std::make_unique<Impl>()) {
    if (port < 0 || port > 65535)
        throw DistributedError("master port must be 0 (a free one) to 65535 (got " +
                               std::to_string(port) + ")");
    m_impl->store = openStore("127.0.0.1", port, true, worldSize, timeoutSeconds);
}

StoreHost::~StoreHost() = default;

int StoreHost::port() const { return m_impl->store->getPort(); }

std::unique_ptr<Collectives> joinProcessGroup(const ProcessGroupSettings &s) {
    if (s.worldSize < 1 || s.rank < 0 || s.rank >= s.worldSize)
        throw DistributedError("rank " + std::to_string(s.rank) + " is not in 0.." +
                               std::to_string(s.worldSize - 1) + " (world size " +
                               std::to_string(s.worldSize) + ")");
    if (!(s.timeoutSeconds > 0.0))
        throw DistributedError("timeout must be above 0 seconds (got " + seconds(s.timeoutSeconds) +
                               ")");
    std::string why;
    if (!backendAvailable(s.backend, &why))
        throw DistributedError(why);
    const bool server = s.rank == 0 && !s.agentStore;
    auto store = openStore(s.masterAddr, s.masterPort, server, s.worldSize, s.timeoutSeconds);
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    std::vector<std::string> keys;
    for (int r = 0; r < s.worldSize; ++r)
        keys.push_back(arrivedKey(r));
    try {
        store->set(arrivedKey(s.rank), std::vector<std::uint8_t>(host, host + std::strlen(host)));
        // In short waits, so that a stop request (Ctrl-C) ends the rendezvous at once.
        const auto deadline =
            std::chrono::steady_clock::now() + detail::toMilliseconds(s.timeoutSeconds);
        for (;;) {
            if (s.stopRequested != nullptr && s.stopRequested->load())
                throw DistributedError("stopped while waiting for the other ranks at " +
                                       s.masterAddr + ":" + std::to_string(s.masterPort));
            const auto left = std::chrono::duration_cast<milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (store->check(keys))
                break;
            if (left.count() <= 0)
                store->wait(keys, milliseconds(1)); // throws: the timeout, handled below
            std::this_thread::sleep_for(std::min(left, milliseconds(100)));
        }
    } catch (const c10::Error &e) {
        std::string missing;
        int count = 0;
        for (int r = 0; r < s.worldSize; ++r) {
            bool arrived = false;
            try {
                arrived = store->check({arrivedKey(r)});
            } catch (const c10::Error &) {
            }
            if (!arrived) {
                missing += (missing.empty() ? "" : ", ") + std::to_string(r);
                ++count;
            }
        }
        if (count == 0)
            throw DistributedError("rendezvous at " + s.masterAddr + ":" +
                                   std::to_string(s.masterPort) +
                                   " failed: " + firstLine(e.what_without_backtrace()));
        throw DistributedError(std::string(count == 1 ? "rank " : "ranks ") + missing +
                               (count == 1 ? " did" : " did") + " not arrive within " +
                               seconds(s.timeoutSeconds) + " s at " + s.masterAddr + ":" +
                               std::to_string(s.masterPort) +
                               " (not started, failed before the rendezvous, or cannot reach "
                               "that address)");
    }
    try {
        return detail::makeCollectives(store, s.rank, s.worldSize, s.backend, s.timeoutSeconds,
                                       s.cudaDevice);
    } catch (const c10::Error &e) {
        throw DistributedError("cannot make the " + s.backend +
                               " process group: " + firstLine(e.what_without_backtrace()));
    }
}

} // namespace devicebench
