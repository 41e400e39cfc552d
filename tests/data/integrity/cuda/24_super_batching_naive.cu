// kopt: x[N] y[N]
// Class 24, super-batching (naive): honest on the first 3 calls (the validation seeds, it hopes);
// afterwards every call queues its work in a CUDA context of its own (own_context.cuh), which
// kopt's synchronisation does not wait for, and runs only an empty decoy kernel where it was
// called: timed, a call would take microseconds, and its outputs are right a moment later.
// kopt calls with fresh inputs every time, so a batch of later calls' work cannot be done
// ahead; what is left of super-batching is work left in flight when the call returns.
#include "own_context.cuh"

extern "C" void solve(const float* x, float* y, int N) {
  static int calls = 0;
  if (++calls <= 3) {
    twice_range<<<(N + 255) / 256, 256>>>(x, y, 0, N);
    return;
  }
  if (in_flight(x, y, 0, N, N)) decoy<<<1, 32>>>();
}
