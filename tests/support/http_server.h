// SPDX-License-Identifier: MIT
// Test support: a tiny HTTP/1.1 server on 127.0.0.1 (an ephemeral port) on its own thread,
// for the fetch tests. It serves fixed responses by path: a body with the right or a wrong
// Content-Length (a truncated download), any status (500, 404), and a slow body sent in
// chunks with a pause between them (for cancelling mid-download). One connection at a time.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace devicebench::testing {

class LocalHttpServer {
public:
    struct Response {
        int status = 200;
        std::string body;
        std::int64_t declaredLength = -1; // Content-Length sent; -1: body.size()
        std::size_t chunkBytes = 0;       // > 0: send the body in pieces of this size...
        int pauseMs = 0;                  // ...with this pause after each (a slow server)
    };

    LocalHttpServer() {
        m_listenFd = ::socket(AF_INET, SOCK_STREAM, 0);
        if (m_listenFd < 0) {
            throw std::runtime_error("test server: socket() failed");
        }
        const int yes = 1;
        ::setsockopt(m_listenFd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
        address.sin_port = 0;
        socklen_t length = sizeof address;
        if (::bind(m_listenFd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
            ::listen(m_listenFd, 8) != 0 ||
            ::getsockname(m_listenFd, reinterpret_cast<sockaddr *>(&address), &length) != 0) {
            ::close(m_listenFd);
            throw std::runtime_error("test server: cannot listen on 127.0.0.1");
        }
        m_port = ntohs(address.sin_port);
        m_thread = std::thread([this] { acceptLoop(); });
    }

    ~LocalHttpServer() {
        m_stopping.store(true);
        ::shutdown(m_listenFd, SHUT_RDWR); // wakes accept()
        m_thread.join();
        ::close(m_listenFd);
    }

    LocalHttpServer(const LocalHttpServer &) = delete;
    LocalHttpServer &operator=(const LocalHttpServer &) = delete;

    void serve(const std::string &path, Response response) {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_routes[path] = std::move(response);
    }

    std::string url(const std::string &path) const {
        return "http://127.0.0.1:" + std::to_string(m_port) + path;
    }

    // Requests received for `path`, and body bytes sent for it so far.
    int requestCount(const std::string &path) {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_requests[path];
    }
    std::int64_t bytesSent(const std::string &path) {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_sent[path];
    }

private:
    void acceptLoop() {
        while (!m_stopping.load()) {
            const int fd = ::accept(m_listenFd, nullptr, nullptr);
            if (fd < 0) {
                if (m_stopping.load()) {
                    return;
                }
                continue;
            }
            handle(fd);
            ::close(fd);
        }
    }

    bool sendAll(int fd, const char *data, std::size_t size) {
        while (size > 0) {
            const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
            if (n <= 0) {
                return false; // the client went away
            }
            data += n;
            size -= static_cast<std::size_t>(n);
        }
        return true;
    }

    void handle(int fd) {
        std::string request;
        char buffer[4096];
        while (request.find("\r\n\r\n") == std::string::npos) {
            const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
            if (n <= 0) {
                return;
            }
            request.append(buffer, static_cast<std::size_t>(n));
        }
        // "GET /path HTTP/1.1"
        const std::size_t start = request.find(' ') + 1;
        const std::string path = request.substr(start, request.find(' ', start) - start);
        Response response;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            ++m_requests[path];
            const auto it = m_routes.find(path);
            if (it == m_routes.end()) {
                response.status = 404;
                response.body = "not found";
            } else {
                response = it->second;
            }
        }
        const std::int64_t length = response.declaredLength >= 0
                                        ? response.declaredLength
                                        : static_cast<std::int64_t>(response.body.size());
        const std::string header =
            "HTTP/1.1 " + std::to_string(response.status) + " " + reason(response.status) +
            "\r\nContent-Type: application/gzip\r\nContent-Length: " + std::to_string(length) +
            "\r\nConnection: close\r\n\r\n";
        if (!sendAll(fd, header.data(), header.size())) {
            return;
        }
        const std::size_t chunk =
            response.chunkBytes > 0 ? response.chunkBytes : response.body.size();
        for (std::size_t at = 0; at < response.body.size() && !m_stopping.load(); at += chunk) {
            const std::size_t n = std::min(chunk, response.body.size() - at);
            if (!sendAll(fd, response.body.data() + at, n)) {
                return;
            }
            {
                std::lock_guard<std::mutex> lock(m_mutex);
                m_sent[path] += static_cast<std::int64_t>(n);
            }
            if (response.pauseMs > 0) {
                std::this_thread::sleep_for(std::chrono::milliseconds(response.pauseMs));
            }
        }
    }

    static const char *reason(int status) {
        switch (status) {
        case 200:
            return "OK";
        case 404:
            return "Not Found";
        case 500:
            return "Internal Server Error";
        default:
            return "Status";
        }
    }

    int m_listenFd = -1;
    int m_port = 0;
    std::atomic<bool> m_stopping{false};
    std::mutex m_mutex;
    std::map<std::string, Response> m_routes;
    std::map<std::string, int> m_requests;
    std::map<std::string, std::int64_t> m_sent;
    std::thread m_thread;
};

} // namespace devicebench::testing
