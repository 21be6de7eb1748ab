#!/usr/bin/env python3
"""Default initialisation quality: ClusterDesk's k-means (greedy k-means++, its
default) against scikit-learn's KMeans with its default (greedy k-means++, one start),
on the same Gaussian blobs, ARI against the planted blobs, seed by seed.

The blobs are made like the `blobs` demo (k centres uniform in a box, at least 8 sd
apart, unit spread) by the peer's numpy, saved as .npy, and clustered by both. The
peer is the newest scikit-learn from PyPI in a private virtualenv, with
OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset for its process alone. Target: our mean
ARI at least scikit-learn's; exits 1 when missed.

Usage: init_quality.py --bin BUILD/bin --venv DIR [--rows N --cols D --k K --seeds S]
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

from bench_venv import peer_env, peer_python_or_skip


def make_blobs(path, truth_path, n, d, k, seed):
    """In the peer's python: blobs like the demo, the data as float32 .npy."""
    import numpy as np
    rng = np.random.default_rng(seed)
    centres = []
    side = 16.0 * k ** (1.0 / d)  # room for k centres 8 apart in any dimension
    while len(centres) < k:
        c = rng.uniform(-side / 2, side / 2, d)
        if all(np.linalg.norm(c - o) >= 8.0 for o in centres):
            centres.append(c)
    truth = rng.integers(0, k, n)
    x = (np.asarray(centres)[truth] + rng.standard_normal((n, d))).astype(np.float32)
    np.save(path, x)
    np.save(truth_path, truth.astype(np.int32))


def run_peer(jobs_path):
    import numpy as np
    import sklearn
    from sklearn.cluster import KMeans
    from sklearn.metrics import adjusted_rand_score
    with open(jobs_path) as f:
        jobs = json.load(f)
    results = []
    for job in jobs:
        if job["make"]:
            make_blobs(job["data"], job["truth"], job["rows"], job["cols"], job["k"], job["seed"])
            results.append({})
            continue
        x = np.load(job["data"])
        truth = np.load(job["truth"])
        peer = KMeans(n_clusters=job["k"], random_state=job["seed"]).fit(x)
        ours = np.loadtxt(job["labels"], delimiter=",", skiprows=1, usecols=1, dtype=np.int64)
        results.append({"peer_ari": adjusted_rand_score(truth, peer.labels_),
                        "ours_ari": adjusted_rand_score(truth, ours)})
    json.dump({"sklearn": sklearn.__version__, "results": results}, sys.stdout)
    return 0


def peer(python, jobs, tmp):
    path = os.path.join(tmp, "jobs.json")
    with open(path, "w") as f:
        json.dump(jobs, f)
    r = subprocess.run([python, os.path.abspath(__file__), "--peer", path], capture_output=True, text=True, env=peer_env())
    if r.returncode != 0:
        raise RuntimeError(f"peer failed ({r.returncode}): {r.stderr.strip()}")
    return json.loads(r.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", help="folder with clusterdesk-cli")
    ap.add_argument("--venv", help="private virtualenv for the peer")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--cols", type=int, default=32)
    ap.add_argument("--k", type=int, default=64)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--peer", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.peer:
        return run_peer(args.peer)
    if not args.bin or not args.venv:
        ap.error("--bin and --venv are required")
    python = peer_python_or_skip(args.venv, ["sklearn", "numpy"], ["scikit-learn", "numpy"])
    if python is None:
        return 0

    with tempfile.TemporaryDirectory() as tmp:
        seeds = range(1, args.seeds + 1)
        jobs = [{"make": True, "data": os.path.join(tmp, f"x{s}.npy"), "truth": os.path.join(tmp, f"t{s}.npy"),
                 "labels": os.path.join(tmp, f"l{s}.csv"), "rows": args.rows, "cols": args.cols, "k": args.k, "seed": s}
                for s in seeds]
        peer(python, jobs, tmp)
        for job in jobs:
            r = subprocess.run([os.path.join(args.bin, "clusterdesk-cli"), "run", "--data", job["data"], "--k", str(args.k),
                                "--seed", str(job["seed"]), "--no-record", "--labels-out", job["labels"]],
                               capture_output=True, text=True)
            if r.returncode != 0:
                print(f"clusterdesk-cli failed ({r.returncode}): {r.stderr.strip()}")
                return 1
            job["make"] = False
        answer = peer(python, jobs, tmp)

    print(f"default initialisation on blobs n={args.rows} d={args.cols} k={args.k}: ARI against the planted blobs")
    print(f"| seed | ClusterDesk (greedy k-means++) | scikit-learn {answer['sklearn']} KMeans() |")
    print("|---:|---:|---:|")
    ours = [r["ours_ari"] for r in answer["results"]]
    theirs = [r["peer_ari"] for r in answer["results"]]
    for seed, a, b in zip(seeds, ours, theirs):
        print(f"| {seed} | {a:.4f} | {b:.4f} |")
    mean_ours, mean_theirs = sum(ours) / len(ours), sum(theirs) / len(theirs)
    ok = mean_ours >= mean_theirs - 1e-9
    print(f"| mean | {mean_ours:.4f} | {mean_theirs:.4f} |  ratio {mean_ours / mean_theirs:.3f}  {'OK' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
