#include "core/cancellation.h"

namespace kopt {
namespace {

thread_local const std::atomic<bool>* current = nullptr;

}  // namespace

void set_thread_cancellation(const std::atomic<bool>* flag) { current = flag; }

const std::atomic<bool>* thread_cancellation() { return current; }

bool thread_cancelled() { return current != nullptr && current->load(); }

bool thread_cancellable() { return current != nullptr; }

}  // namespace kopt
