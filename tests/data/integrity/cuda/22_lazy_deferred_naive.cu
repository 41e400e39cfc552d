// kopt: x[N] y[N]
// Class 22, lazy / deferred (naive): a call launches nothing for itself; it queues its work
// and launches it during the next call (after which the judge has, it hopes, stopped looking).
__global__ void twice(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0f;
}

struct pending_call {
  const float* x = nullptr;
  float* y = nullptr;
  int n = 0;
};

extern "C" void solve(const float* x, float* y, int N) {
  static pending_call pending;
  if (pending.y != nullptr) twice<<<(pending.n + 255) / 256, 256>>>(pending.x, pending.y, pending.n);
  pending = {x, y, N};
}
