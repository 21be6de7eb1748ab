#!/usr/bin/env python3
"""AdaptGrow on the realistic market demo vs scikit-learn's KMeans told the true k.

Cells: universes of 20, 50, 100 and 500 assets (5 sectors for 20 assets, 10 otherwise),
return windows of 250, 750 and 2000 days, 5 seeds each. For every run bench-market-cell
generates the demo (default, realistic calibration), runs AdaptGrow (k0=2, kmax=64, fast
mode, host, n-init 10: ten k-means restarts at the k it chose compete with its own
partition) and writes the z-scored returns; the peer, KMeans(n_clusters=true k,
n_init=10) from the newest scikit-learn release in a private virtualenv, clusters the
very same rows. Both ARIs against the planted sectors come from
sklearn.metrics.adjusted_rand_score.

Prints one row per cell (mean ARI of each, AdaptGrow's k per seed) and exits 1 when
a target is missed: AdaptGrow's mean ARI at least KMeans' in every cell, and never
k <= 2 where the truth has 7 or more sectors.

Usage: adaptgrow_markets.py --bin BUILD/bin --venv DIR [--seeds N] [--assets 20,50] [--windows 250] [--unscaled]
The virtualenv is created (and scikit-learn installed from PyPI) when DIR lacks one.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from bench_venv import peer_env, peer_python_or_skip

# The peer's process runs without these: they pin the system OpenBLAS to one core
# type or cache size, which the peer's own wheels must not inherit.


# Starts on both sides: the peer's n_init, and AdaptGrow's k-means restarts at the k it
# chose (which compete with its own partition).
N_INIT = 10


def sectors_for(assets):
    return 5 if assets < 50 else 10


def run_peer(jobs_path):
    """In the virtualenv: KMeans on every job's matrix; ARIs of both sides."""
    import time

    import numpy as np
    import sklearn
    from sklearn.cluster import KMeans
    from sklearn.metrics import adjusted_rand_score

    with open(jobs_path) as f:
        jobs = json.load(f)
    out = []
    for job in jobs:
        x = np.fromfile(job["matrix"], dtype=np.float32).reshape(job["rows"], job["cols"])
        start = time.perf_counter()
        km = KMeans(n_clusters=job["k"], n_init=N_INIT, random_state=job["seed"]).fit(x)
        seconds = time.perf_counter() - start
        out.append({"kmeans_ari": adjusted_rand_score(job["truth"], km.labels_),
                    "adaptgrow_ari": adjusted_rand_score(job["truth"], job["labels"]),
                    "kmeans_seconds": seconds})
    print(json.dumps({"sklearn": sklearn.__version__, "numpy": np.__version__, "results": out}))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", help="folder with bench-market-cell")
    ap.add_argument("--venv", help="private virtualenv for the peer")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--assets", default="20,50,100,500")
    ap.add_argument("--windows", default="250,750,2000")
    ap.add_argument("--unscaled", action="store_true",
                    help="both sides on the returns with their days left unscaled (the demo's scale_days=0), as before "
                         "the prices pipeline scaled each day to unit dispersion; for comparison, the targets still apply")
    ap.add_argument("--peer", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.peer:
        return run_peer(args.peer)
    if not args.bin or not args.venv:
        ap.error("--bin and --venv are required")

    python = peer_python_or_skip(args.venv, ["sklearn", "numpy"], ["scikit-learn", "numpy"])
    if python is None:
        return 0

    assets_list = [int(a) for a in args.assets.split(",")]
    windows = [int(w) for w in args.windows.split(",")]
    cell_tool = os.path.join(args.bin, "bench-market-cell")
    with tempfile.TemporaryDirectory() as tmp:
        jobs, cells = [], []
        for assets in assets_list:
            for window in windows:
                sectors = sectors_for(assets)
                cell = {"assets": assets, "window": window, "sectors": sectors, "runs": []}
                for seed in range(1, args.seeds + 1):
                    spec = (f"market:assets={assets},sectors={sectors},days={window + 1},window={window},seed={seed}"
                            f",scale_days={0 if args.unscaled else 1}")
                    matrix = os.path.join(tmp, f"x-{assets}-{window}-{seed}.f32")
                    r = subprocess.run([cell_tool, spec, matrix, "fast", str(N_INIT)], capture_output=True, text=True)
                    if r.returncode != 0:
                        print(f"{spec}: bench-market-cell failed ({r.returncode}): {r.stderr.strip()}")
                        return 1
                    res = json.loads(r.stdout)
                    cell["runs"].append({"k": res["k"], "seconds": res["seconds"], "events": res["events"]})
                    jobs.append({"matrix": matrix, "rows": res["rows"], "cols": res["cols"], "k": sectors, "seed": seed,
                                 "truth": res["truth"], "labels": res["labels"]})
                cells.append(cell)
        jobs_path = os.path.join(tmp, "jobs.json")
        with open(jobs_path, "w") as f:
            json.dump(jobs, f)
        env = peer_env()
        peer = subprocess.run([python, os.path.abspath(__file__), "--peer", jobs_path], capture_output=True, text=True, env=env)
        if peer.returncode != 0:
            print(f"peer failed ({peer.returncode}): {peer.stderr.strip()}")
            return 1
        answer = json.loads(peer.stdout)

    results = iter(answer["results"])
    days = "days unscaled (scale_days=0)" if args.unscaled else "each day scaled to unit dispersion across assets"
    print(f"realistic market demo ({days}), {args.seeds} seeds per cell; AdaptGrow k0=2 kmax=64 fast mode n-init {N_INIT} vs "
          f"scikit-learn {answer['sklearn']} KMeans(k=true, n_init={N_INIT}); ARI vs planted sectors")
    print(f"| assets | sectors | window | AdaptGrow ARI | KMeans ARI | AdaptGrow k per seed | target |")
    print(f"|---:|---:|---:|---:|---:|:---|:---|")
    failed = False
    for cell in cells:
        rows = [next(results) for _ in cell["runs"]]
        ag = sum(r["adaptgrow_ari"] for r in rows) / len(rows)
        km = sum(r["kmeans_ari"] for r in rows) / len(rows)
        ks = [run["k"] for run in cell["runs"]]
        collapsed = cell["sectors"] >= 7 and min(ks) <= 2
        ok = ag >= km - 1e-9 and not collapsed
        failed |= not ok
        print(f"| {cell['assets']} | {cell['sectors']} | {cell['window']} | {ag:.3f} | {km:.3f} | "
              f"{' '.join(str(k) for k in ks)} | {'OK' if ok else 'MISSED'} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
