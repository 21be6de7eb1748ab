#!/usr/bin/env python3
"""ClusterDesk k-means vs scikit-learn's KMeans (lloyd), side by side in one run.

Same data (Gaussian blobs, float32), same initial centroids, same iteration count
(tol=0 in both, so both run every iteration unless labels stop changing). Prints the
speed-up of each ClusterDesk mode over scikit-learn, the effective GFLOP/s next to the
host's measured SGEMM rate, and the CLI's peak resident memory against the budget of
1.5 x dataset + 64 MiB. Exits 1 when a target is missed.

Usage: kmeans_vs_sklearn.py --bin BUILD/bin [--rows N --cols D --k K --iters I]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

TARGETS = {"fast": 3.0, "exact": 1.5}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="folder with clusterdesk-cli and clusterdesk-worker")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--cols", type=int, default=32)
    ap.add_argument("--k", type=int, default=64)
    ap.add_argument("--iters", type=int, default=20)
    args = ap.parse_args()

    try:
        import numpy as np
        from sklearn import __version__ as sklearn_version
        from sklearn.cluster import KMeans
    except ImportError as e:
        print(f"SKIP: scikit-learn is not importable ({e}); apt-get install python3-sklearn")
        return 0

    n, d, k, iters = args.rows, args.cols, args.k, args.iters
    rng = np.random.default_rng(2026)
    centres = rng.uniform(-10, 10, (k, d)).astype(np.float32)
    X = centres[rng.integers(0, k, n)] + 3.0 * rng.standard_normal((n, d), dtype=np.float32)
    init = X[rng.choice(n, k, replace=False)]

    with tempfile.TemporaryDirectory() as tmp:
        data_path = os.path.join(tmp, "x.npy")
        init_path = os.path.join(tmp, "init.csv")
        np.save(data_path, X)
        np.savetxt(init_path, init, delimiter=",", fmt="%.9g")
        dataset_mib = X.nbytes / 2**20

        start = time.perf_counter()
        km = KMeans(n_clusters=k, init=init, n_init=1, max_iter=iters, tol=0, algorithm="lloyd").fit(X)
        sk_seconds = time.perf_counter() - start
        del X

        sgemm = subprocess.run([os.path.join(args.bin, "clusterdesk-worker"), "--sgemm"], capture_output=True, text=True, check=True)
        sgemm_gflops = float(sgemm.stdout.split()[0])

        print(f"data: {n} x {d} float32 ({dataset_mib:.0f} MiB), k={k}, {iters} Lloyd iterations from the same initial centroids")
        print(f"scikit-learn {sklearn_version} KMeans(lloyd): {sk_seconds:.3f} s for {km.n_iter_} iterations, inertia {km.inertia_:.8g}")
        print(f"host SGEMM measured: {sgemm_gflops:.1f} GFLOP/s")
        failed = False
        for mode in ("fast", "exact"):
            out = subprocess.run([os.path.join(args.bin, "clusterdesk-cli"), "run", "--data", data_path, "--init-centroids", init_path,
                                  "--max-iter", str(iters), "--tol", "0", "--mode", mode, "--json", "-"],
                                 capture_output=True, text=True)
            if out.returncode != 0:
                print(f"clusterdesk {mode}: failed ({out.returncode}): {out.stderr.strip()}")
                failed = True
                continue
            r = json.loads(out.stdout)
            seconds = r["seconds_total"]
            loop_seconds = r["ms_per_iteration"] * r["iterations"] / 1e3
            gflops = 2.0 * n * k * d * r["iterations"] / loop_seconds / 1e9
            speedup = sk_seconds / seconds
            budget = 1.5 * dataset_mib + 64
            rel = abs(r["inertia"] - km.inertia_) / km.inertia_
            ok = speedup >= TARGETS[mode] and r["peak_rss_mib"] <= budget
            failed |= not ok
            print(f"clusterdesk {mode:5s}: {seconds:.3f} s for {r['iterations']} iterations "
                  f"({r['ms_per_iteration']:.1f} ms/iteration), speed-up x{speedup:.2f} over scikit-learn "
                  f"(target x{TARGETS[mode]}), effective {gflops:.1f} GFLOP/s (Lloyd-equivalent) = {100 * gflops / sgemm_gflops:.0f}% of SGEMM, "
                  f"peak RSS {r['peak_rss_mib']:.0f} MiB (budget {budget:.0f}), inertia rel. diff {rel:.1e}  "
                  f"{'OK' if ok else 'MISSED'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
