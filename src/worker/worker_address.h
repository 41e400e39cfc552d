#pragma once
// Where a warm worker listens, and who it is. A client uses a worker only when both would run
// a command alike: the same kopt (its version, and its executable's path, size and time, so a
// rebuilt kopt never talks to the old one's worker), the same user and the same environment
// (PATH picks nvcc and ncu, KOPT_* and CUDA_* change what kopt does). The identity's digest
// names the socket, so a client finds only workers like itself; the handshake checks it again.

#include <filesystem>
#include <string>
#include <string_view>

namespace kopt::worker {

// The identity of this process as a worker or a client: a text a person can read (what went
// into it), and its digest.
struct identity {
  std::string text;
  std::string digest;  // SHA-256 of text, hex
};

// `version` is kopt's. The environment counts but for the variables a shell changes from
// command to command (PWD, OLDPWD, SHLVL, _) and KOPT_WARM, which only asks for a worker.
identity current_identity(std::string_view version);

// The worker's folder: $KOPT_CACHE_DIR (or the user's cache)/worker, made private (0700).
std::filesystem::path worker_folder();

// <worker_folder>/<first 16 hex digits>.sock; its log beside it as .log. Throws kopt::error
// when the path is too long for a Unix socket (set KOPT_CACHE_DIR to a shorter folder).
std::filesystem::path socket_path(const identity& id);
std::filesystem::path log_path(const identity& id);

}  // namespace kopt::worker
