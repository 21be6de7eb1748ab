#!/usr/bin/env python3
"""A whole job from a CSV file: ClusterDesk against pandas (pyarrow engine) + scikit-learn.

Gaussian noise, n x d float32 written as CSV (%.7g) and as .npy; the same k initial
centroids; 20 Lloyd iterations (tol 0) on both sides. Prints, in one run:
- the whole job (load + iterations) of `clusterdesk-cli run --data x.csv --no-record`
  against pandas.read_csv(engine="pyarrow") + KMeans(lloyd).fit in the peer's process,
  best of 3 each, as a ratio (target x3);
- ClusterDesk's CSV parsing rate: the file's bytes over (CSV job - .npy job), the same
  rows and work otherwise (target 400 MB/s);
- peak resident memory of the CSV and .npy jobs against 1.5 x dataset + 64 MiB.
The peers are the newest pandas, pyarrow and scikit-learn from PyPI in a private
virtualenv. Exits 1 when a target is missed.

Usage: csv_load.py --bin BUILD/bin --venv DIR [--rows N --cols D --k K --iters I]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_venv import peer_env, peer_python_or_skip

REPEATS = 3


def make(folder, n, d, k):
    """Writes x.csv, x.npy and init.csv into folder (runs in the peer's venv: numpy)."""
    import numpy as np
    rng = np.random.default_rng(2026)
    x = rng.standard_normal((n, d), dtype=np.float32)
    np.save(os.path.join(folder, "x.npy"), x)
    np.savetxt(os.path.join(folder, "x.csv"), x, delimiter=",", fmt="%.7g")
    np.savetxt(os.path.join(folder, "init.csv"), x[rng.choice(n, k, replace=False)], delimiter=",", fmt="%.9g")


def peer(folder, iters):
    """pandas(pyarrow) + scikit-learn on x.csv, best of REPEATS; prints JSON."""
    import resource
    import numpy as np
    import pandas as pd
    import pyarrow
    import sklearn
    from sklearn.cluster import KMeans
    init = np.loadtxt(os.path.join(folder, "init.csv"), delimiter=",", dtype=np.float32)
    best = None
    for _ in range(REPEATS):
        start = time.perf_counter()
        x = pd.read_csv(os.path.join(folder, "x.csv"), header=None, engine="pyarrow", dtype=np.float32).to_numpy()
        loaded = time.perf_counter()
        km = KMeans(n_clusters=len(init), init=init, n_init=1, max_iter=iters, tol=0, algorithm="lloyd").fit(x)
        done = time.perf_counter()
        if best is None or done - start < best["seconds"]:
            best = {"seconds": done - start, "load_seconds": loaded - start, "inertia": float(km.inertia_), "iterations": int(km.n_iter_)}
        del x
    best.update({"pandas": pd.__version__, "pyarrow": pyarrow.__version__, "sklearn": sklearn.__version__,
                 "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})
    json.dump(best, sys.stdout)


def ours(cli, data, init, iters):
    """Best wall time of REPEATS CLI runs, with the run's JSON summary."""
    best = None
    for _ in range(REPEATS):
        start = time.perf_counter()
        out = subprocess.run([cli, "run", "--data", data, "--init-centroids", init, "--max-iter", str(iters), "--tol", "0",
                              "--no-record", "--json", "-"], capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if out.returncode != 0:
            raise RuntimeError(f"clusterdesk-cli failed on {data} ({out.returncode}): {out.stderr.strip()}")
        if best is None or seconds < best[0]:
            best = (seconds, json.loads(out.stdout))
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin")
    ap.add_argument("--venv")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--cols", type=int, default=32)
    ap.add_argument("--k", type=int, default=64)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--make", help=argparse.SUPPRESS)
    ap.add_argument("--peer", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.make:
        make(args.make, args.rows, args.cols, args.k)
        return 0
    if args.peer:
        peer(args.peer, args.iters)
        return 0
    if not args.bin or not args.venv:
        ap.error("--bin and --venv are required")
    python = peer_python_or_skip(args.venv, ["numpy", "pandas", "pyarrow", "sklearn"], ["numpy", "pandas", "pyarrow", "scikit-learn"])
    if python is None:
        return 0

    script = os.path.abspath(__file__)
    cli = os.path.join(args.bin, "clusterdesk-cli")
    n, d, k, iters = args.rows, args.cols, args.k, args.iters
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([python, script, "--make", tmp, "--rows", str(n), "--cols", str(d), "--k", str(k)], check=True, env=peer_env())
        csv_path, npy_path, init_path = (os.path.join(tmp, f) for f in ("x.csv", "x.npy", "init.csv"))
        csv_mb = os.path.getsize(csv_path) / 1e6
        dataset_mib = n * d * 4 / 2**20
        budget = 1.5 * dataset_mib + 64

        r = subprocess.run([python, script, "--peer", tmp, "--iters", str(iters)], capture_output=True, text=True, env=peer_env())
        if r.returncode != 0:
            print(f"peer failed ({r.returncode}): {r.stderr.strip()}")
            return 1
        p = json.loads(r.stdout)
        csv_seconds, csv_run = ours(cli, csv_path, init_path, iters)
        npy_seconds, npy_run = ours(cli, npy_path, init_path, iters)

    parse_rate = csv_mb / max(1e-9, csv_seconds - npy_seconds)
    speedup = p["seconds"] / csv_seconds
    rel = abs(csv_run["inertia"] - p["inertia"]) / p["inertia"]
    checks = [
        ("whole job", speedup >= 3.0),
        ("CSV parsing", parse_rate >= 400),
        ("CSV peak RSS", csv_run["peak_rss_mib"] <= budget),
        (".npy peak RSS", npy_run["peak_rss_mib"] <= budget),
    ]
    print(f"data: {n} x {d} Gaussian noise, float32 ({dataset_mib:.0f} MiB), CSV {csv_mb:.0f} MB; k={k}, "
          f"{iters} Lloyd iterations from the same centroids; best of {REPEATS} on each side")
    print(f"peer: pandas {p['pandas']} (pyarrow {p['pyarrow']}) read_csv {p['load_seconds']:.3f} s + scikit-learn "
          f"{p['sklearn']} KMeans(lloyd) {p['seconds'] - p['load_seconds']:.3f} s = {p['seconds']:.3f} s, "
          f"{p['iterations']} iterations, inertia {p['inertia']:.8g}, peak RSS {p['peak_rss_mib']:.0f} MiB")
    print(f"clusterdesk CSV job:  {csv_seconds:.3f} s wall (process start to exit), {csv_run['iterations']} iterations, "
          f"inertia rel. diff {rel:.1e}, speed-up x{speedup:.2f} over the peer (target x3)")
    print(f"clusterdesk .npy job: {npy_seconds:.3f} s wall")
    print(f"CSV parsing: {csv_mb:.0f} MB in {csv_seconds - npy_seconds:.3f} s (CSV job - .npy job) = {parse_rate:.0f} MB/s "
          f"on {os.cpu_count()} cores (target 400)")
    print(f"peak RSS: CSV {csv_run['peak_rss_mib']:.0f} MiB, .npy {npy_run['peak_rss_mib']:.0f} MiB "
          f"(budget 1.5 x {dataset_mib:.0f} + 64 = {budget:.0f} MiB)")
    for name, ok in checks:
        print(f"  {name}: {'OK' if ok else 'MISSED'}")
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
