"""C[M x N] = A[M x K] @ B[K x N] in Triton: bf16 in and out, fp32 accumulation, row-major.
Tiles of BLOCK_M x BLOCK_N per program, walked along K in BLOCK_K steps (wgmma on Hopper);
programs are ordered in groups of GROUP_M tile rows so that neighbouring programs share
tiles of A and B in L2. The autotuner picks among a few tile shapes and pipeline depths; kopt tune
searches the wider space the annotations below declare, one configuration at a time.

kopt's Triton contract: setup(**dims, seed=...) builds the tensors, run_kernel(**inputs)
launches the kernel. Reference: triton_matmul_ref.py."""

# kopt: tune(BLOCK_M, 64, 128) tune(BLOCK_N, 64, 128, 256) tune(BLOCK_K, 32, 64)
# kopt: tune(num_warps, 4, 8) tune(num_stages, 3, 4)
# The bf16 tiles of A and B that the pipeline keeps in shared memory, one pair per stage, within 192 KiB:
# kopt: restrict((BLOCK_M * BLOCK_K + BLOCK_K * BLOCK_N) * 2 * num_stages <= 196608)

import torch
import triton
import triton.language as tl

CONFIGS = [
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=8, num_stages=3),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=8, num_stages=3),
    triton.Config({"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=4, num_stages=4),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=4, num_stages=4),
]


@triton.autotune(configs=CONFIGS, key=["M", "N", "K"])
@triton.jit
def matmul_tiles(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    program = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    # Grouped order: GROUP_M consecutive tile rows are finished column by column.
    programs_per_group = GROUP_M * tiles_n
    first_m = (program // programs_per_group) * GROUP_M
    group_rows = min(tiles_m - first_m, GROUP_M)
    tile_m = first_m + (program % programs_per_group) % group_rows
    tile_n = (program % programs_per_group) // group_rows

    rows = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    depth = tl.arange(0, BLOCK_K)
    a_tile = a_ptr + rows[:, None] * stride_am + depth[None, :] * stride_ak
    b_tile = b_ptr + depth[:, None] * stride_bk + cols[None, :] * stride_bn
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        k_left = K - k
        a = tl.load(a_tile, mask=(rows[:, None] < M) & (depth[None, :] < k_left), other=0.0)
        b = tl.load(b_tile, mask=(depth[:, None] < k_left) & (cols[None, :] < N), other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_tile += BLOCK_K * stride_ak
        b_tile += BLOCK_K * stride_bk
    c_tile = c_ptr + rows[:, None] * stride_cm + cols[None, :] * stride_cn
    tl.store(c_tile, accumulator.to(tl.bfloat16), mask=(rows[:, None] < M) & (cols[None, :] < N))


def setup(*, M, N, K, seed=0, **_):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    generator = torch.Generator().manual_seed(seed)
    a = torch.randn(M, K, generator=generator).to(torch.bfloat16).to(device)
    b = torch.randn(K, N, generator=generator).to(torch.bfloat16).to(device)
    c = torch.empty(M, N, dtype=torch.bfloat16, device=device)
    return {"inputs": {"A": a, "B": b, "C": c, "M": M, "N": N, "K": K}, "outputs": ["C"]}


def run_kernel(*, A, B, C, M, N, K, **_):
    def grid(meta):
        return (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)

    matmul_tiles[grid](A, B, C, M, N, K, A.stride(0), A.stride(1), B.stride(0), B.stride(1), C.stride(0), C.stride(1))
