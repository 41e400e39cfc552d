import ctypes, os, sys, torch
from torch.profiler import profile, ProfilerActivity
d = os.path.dirname(os.path.abspath(__file__))
def kernel_us(lib, args, reps=30):
    for _ in range(5): lib.solve(*args)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(reps):
            lib.solve(*args)
    torch.cuda.synchronize()
    evs = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    tot = {}
    for e in evs: tot.setdefault(e.name, []).append(e.device_time_total if hasattr(e,'device_time_total') else e.cuda_time_total)
    return {k: sorted(v)[len(v)//2] for k, v in tot.items()}
rows, cols = 4096, 1024
x = torch.randn(rows*cols, device='cuda'); y = torch.empty_like(x)
for n in ['softmax_naive', 'softmax_block', 'softmax_block_v1', 'softmax_block_v2', 'softmax_block_v8']:
    lib = ctypes.CDLL(os.path.join(d, n + '.so'))
    lib.solve.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
    print(n, kernel_us(lib, [x.data_ptr(), y.data_ptr(), rows, cols]))
# torch softmax for comparison
with profile(activities=[ProfilerActivity.CUDA]) as prof:
    for _ in range(30): torch.softmax(x.view(rows, cols), 1)
    torch.cuda.synchronize()
print('torch.softmax', sorted(e.device_time_total for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA)[15])
M = N = K = 4096
A = torch.randn(M*K, device='cuda').bfloat16(); B = torch.randn(K*N, device='cuda').bfloat16(); C = torch.empty(M*N, device='cuda', dtype=torch.bfloat16)
lib = ctypes.CDLL(os.path.join(d, 'cutlass_gemm.so'))
lib.solve.argtypes = [ctypes.c_void_p]*3 + [ctypes.c_int]*3
t = kernel_us(lib, [A.data_ptr(), B.data_ptr(), C.data_ptr(), M, N, K])
print('cutlass', {k[:60]: v for k, v in t.items()})
for k, v in t.items(): print('cutlass TFLOP/s', 2*M*N*K / (v*1e-6) / 1e12)
ref = (A.view(M,K).float() @ B.view(K,N).float()).bfloat16()
print('cutlass 4096 maxerr', (C.view(M,N).float()-ref.float()).abs().max().item())
with profile(activities=[ProfilerActivity.CUDA]) as prof:
    for _ in range(10): A.view(M,K) @ B.view(K,N)
    torch.cuda.synchronize()
print('torch bf16 mm us', sorted(e.device_time_total for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA)[5])
# bad alignment case: expect stderr message, no crash
lib.solve(A.data_ptr(), B.data_ptr(), C.data_ptr(), 100, 100, 100); torch.cuda.synchronize(); print('misaligned call returned')
lib2 = ctypes.CDLL(os.path.join(d, 'matmul_naive.so')); lib2.solve.argtypes=[ctypes.c_void_p]*3 + [ctypes.c_int]*3
Af = torch.randn(M*K, device='cuda'); Bf = torch.randn(K*N, device='cuda'); Cf = torch.empty(M*N, device='cuda')
print('matmul_naive', kernel_us(lib2, [Af.data_ptr(), Bf.data_ptr(), Cf.data_ptr(), M, N, K], reps=3))
