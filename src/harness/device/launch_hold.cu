// Holds the default stream for a set time so that a call's launches queue up behind it. Each
// sample starts from an idle, synchronised GPU; without the hold, every launch after the first
// runs only when the host has issued it, and the span of a call that launches several kernels
// from Python (a torch reference, a Triton wrapper) measures the interpreter between them. In
// a program the host runs ahead of the GPU and those gaps vanish; the hold makes the sample
// see the same. nvbench's "blocking kernel" serves the same purpose.
// Built to PTX at kopt's build time and loaded through the driver, like the L2 flush.

extern "C" __global__ void kopt_launch_hold(unsigned long long nanoseconds) {
  unsigned long long start = 0;
  unsigned long long now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    __nanosleep(256);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}
