#!/usr/bin/env python3
"""ClusterDesk's Lloyd iteration on a GPU against PyTorch k-means, side by side in one run.

The peer is k-means as PyTorch users write it: distances by matmul, argmin, sums by
index_add_, in chunks of rows so the distance block fits. Both start from the same
initial centroids (rows drawn from the data), run the same number of iterations at
the same precision (fp32; tf32 with torch's allow_tf32) on the same device, and end
with one assignment whose inertia is compared. Data: Gaussian blobs (k planted
clusters) and pure noise (no cluster structure, as most market data). Then FAISS's
published shape (1M x 256, k = 20,000, 25 iterations; 55 s on one P100) timed
beside that figure.

ClusterDesk runs as `clusterdesk-worker --lloyd` (the Qt-free build; no run store
needed), its energy measured through NVML; the peer's energy is read from NVML's
energy counter around its iterations. Prints one line per case with the per-iteration
ratio and the inertia's relative difference; exits 1 when a target is missed
(>= 3x per iteration, inertia within 1e-4). SKIPs, saying why, without PyTorch or GPU.

Usage: gpu_lloyd_torch.py --bin BUILD/bin [--rows N --cols D --k K --iters I] [--tmp DIR]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

SPEEDUP_TARGET = 3.0
INERTIA_TOLERANCE = 1e-4
FAISS_SHAPE = (1_000_000, 256, 20_000, 25)  # rows, cols, k, iterations
FAISS_P100_SECONDS = 55.0  # Johnson, Douze, Jegou: "Billion-scale similarity search with GPUs", k-means on one P100


def nvml_energy_reader():
    """A function returning the GPU's energy counter in joules, or None without NVML."""
    try:
        import pynvml
        pynvml.nvmlInit()
        handle = pynvml.nvmlDeviceGetHandleByIndex(0)
        pynvml.nvmlDeviceGetTotalEnergyConsumption(handle)
        return lambda: pynvml.nvmlDeviceGetTotalEnergyConsumption(handle) / 1e3
    except Exception as e:  # pynvml missing or the counter unsupported: energy not reported
        print(f"note: the peer's energy is not measured ({e})")
        return None


def synchronize(torch, device):
    if device.type == "cuda":
        torch.cuda.synchronize()


def torch_lloyd(torch, X, C, iters, chunk):
    """PyTorch k-means as users write it; per-iteration seconds and the final inertia."""
    n, k = X.shape[0], C.shape[0]
    ones = torch.ones(n, device=X.device)
    times = []
    for _ in range(iters):
        synchronize(torch, X.device)
        start = time.perf_counter()
        cc = (C * C).sum(1)
        labels = torch.cat([(X[i:i + chunk] @ C.T).mul_(-2).add_(cc).argmin(1) for i in range(0, n, chunk)])
        sums = torch.zeros_like(C).index_add_(0, labels, X)
        counts = torch.zeros(k, device=X.device).index_add_(0, labels, ones)
        C = torch.where(counts[:, None] > 0, sums / counts.clamp(min=1)[:, None], C)
        synchronize(torch, X.device)
        times.append(time.perf_counter() - start)
    inertia = 0.0
    for i in range(0, n, chunk):
        d = torch.cdist(X[i:i + chunk], C).square_()
        inertia += d.min(1).values.double().sum().item()
    return times, inertia


def clusterdesk_lloyd(worker, data_path, init_path, iters, precision, topology):
    run = subprocess.run([worker, "--lloyd", "--data", data_path, "--init", init_path, "--iterations", str(iters),
                          "--precision", precision, "--topology", topology], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"clusterdesk-worker --lloyd failed ({run.returncode}): {run.stderr.strip()}")
    summary = json.loads(run.stdout)
    times = [(h["assign_ms"] + h["update_ms"] + h["reduce_ms"]) / 1e3 for h in summary["history"]]
    return times, summary


def compare(torch, np, args, worker, tmp, name, X, C, iters, precisions, energy):
    data_path, init_path = os.path.join(tmp, "x.npy"), os.path.join(tmp, "init.npy")
    np.save(data_path, X.cpu().numpy())
    np.save(init_path, C.cpu().numpy())
    n, d, k = X.shape[0], X.shape[1], C.shape[0]
    flops = 2.0 * n * k * d
    missed = []
    for precision in precisions:
        torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
        torch_lloyd(torch, X, C, 1, args.chunk)  # warm-up: cuBLAS plans, allocator
        before = energy() if energy else None
        t_times, t_inertia = torch_lloyd(torch, X, C, iters, args.chunk)
        t_joules = energy() - before if energy else None
        c_times, summary = clusterdesk_lloyd(worker, data_path, init_path, iters, precision, args.topology)
        t_med, c_med = statistics.median(t_times), statistics.median(c_times)
        c_first = c_times[0]
        rel = abs(summary["inertia"] - t_inertia) / t_inertia
        ratio = t_med / c_med
        ok = ratio >= SPEEDUP_TARGET and rel <= INERTIA_TOLERANCE
        if not ok:
            missed.append(f"{name} {precision}")
        energy_text = f"energy {summary.get('energy_j', 0):.0f} J ({summary.get('energy_source', '?')})"
        if t_joules is not None:
            energy_text += f" vs torch {t_joules:.0f} J (NVML counter, iterations only)"
        print(f"{name:6s} {n}x{d} k={k} {precision}: ClusterDesk {c_med * 1e3:8.2f} ms/iteration median "
              f"(first {c_first * 1e3:.2f} ms, {flops / c_first / 1e12:.3g} effective TFLOP/s), "
              f"PyTorch {t_med * 1e3:8.2f} ms ({flops / t_med / 1e12:.3g} TFLOP/s): {ratio:.2f}x "
              f"(target {SPEEDUP_TARGET}x); inertia {summary['inertia']:.8g} vs {t_inertia:.8g}, "
              f"relative difference {rel:.2e} (target {INERTIA_TOLERANCE:g}); {energy_text}; "
              f"points per joule {summary.get('points_per_joule', 0):.3g} {'ok' if ok else 'MISSED'}", flush=True)
    return missed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="folder with clusterdesk-worker")
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--cols", type=int, default=128)
    ap.add_argument("--k", type=int, default=1024)
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--chunk", type=int, default=1 << 20, help="rows per distance block in the peer")
    ap.add_argument("--tmp", help="folder for the data files (default: the system's temporary folder)")
    ap.add_argument("--no-faiss-shape", action="store_true", help="skip FAISS's published shape")
    ap.add_argument("--device", default="cuda", choices=("cuda", "cpu"),
                    help="cpu: the same comparison on the host (a dry run of this script without a GPU)")
    args = ap.parse_args()
    args.topology = "cuda:0" if args.device == "cuda" else "host"

    try:
        import numpy as np
        import torch
    except ImportError as e:
        print(f"SKIP: PyTorch or NumPy is not importable ({e})")
        return 0
    if args.device == "cuda" and not torch.cuda.is_available():
        print("SKIP: PyTorch sees no CUDA device")
        return 0
    worker = os.path.join(args.bin, "clusterdesk-worker")
    dev = torch.device("cuda:0" if args.device == "cuda" else "cpu")
    name = torch.cuda.get_device_name(0) if args.device == "cuda" else "cpu"
    print(f"device: {name}; torch {torch.__version__}; CUDA {torch.version.cuda}", flush=True)
    energy = nvml_energy_reader() if args.device == "cuda" else None
    gen = torch.Generator(device=dev).manual_seed(2026)
    n, d, k = args.rows, args.cols, args.k
    missed = []
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        centres = torch.rand(k, d, generator=gen, device=dev) * 20 - 10
        datasets = {
            "blobs": centres[torch.randint(0, k, (n,), generator=gen, device=dev)]
            + 3 * torch.randn(n, d, generator=gen, device=dev),
            "noise": torch.randn(n, d, generator=gen, device=dev),
        }
        for name, X in datasets.items():
            C = X[torch.randperm(n, generator=gen, device=dev)[:k]].clone()
            missed += compare(torch, np, args, worker, tmp, name, X, C, args.iters, ("fp32", "tf32"), energy)
        del datasets, X, C
        torch.cuda.empty_cache()

        if not args.no_faiss_shape:
            fn, fd, fk, fiters = FAISS_SHAPE
            X = torch.randn(fn, fd, generator=gen, device=dev)
            C = X[torch.randperm(fn, generator=gen, device=dev)[:fk]].clone()
            data_path, init_path = os.path.join(tmp, "x.npy"), os.path.join(tmp, "init.npy")
            np.save(data_path, X.cpu().numpy())
            np.save(init_path, C.cpu().numpy())
            for precision in ("fp32", "tf32"):
                start = time.perf_counter()
                c_times, summary = clusterdesk_lloyd(worker, data_path, init_path, fiters, precision, args.topology)
                wall = time.perf_counter() - start
                print(f"faiss-shape {fn}x{fd} k={fk} {fiters} iterations {precision}: ClusterDesk {sum(c_times):.2f} s "
                      f"in iterations ({summary['seconds_total']:.2f} s run, {wall:.2f} s with loading), against FAISS's "
                      f"published {FAISS_P100_SECONDS:.0f} s on one P100; energy {summary.get('energy_j', 0):.0f} J",
                      flush=True)
    if missed:
        print("MISSED: " + ", ".join(missed))
        return 1
    print("all targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
