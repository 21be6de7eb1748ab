"""Lloyd iterations, ClusterDesk against its peers, for the benchmarks that compare them
(kmeans_vs_sklearn.py, lloyd_sweep.py).

Run with the peers' virtualenv python, this file is also the peer side:
  lloyd_peers.py make FOLDER KIND N D K      writes FOLDER/x.npy and FOLDER/init.csv
  lloyd_peers.py sklearn FOLDER ITERS        prints scikit-learn's ms per iteration (JSON)
  lloyd_peers.py faiss FOLDER ITERS          the same for faiss-cpu's Kmeans
  lloyd_peers.py sgemm                       numpy's SGEMM rate on every core (JSON)

A peer's time per iteration is (fit with ITERS iterations) - (fit with 1), divided by
the iterations between them (scikit-learn stops once no label changes): what its setup,
input checks, first iteration and final labelling cost cancels out. ClusterDesk's figure
is the same: its iterations after the first, from the run's own per-iteration times
(steady_ms).
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_venv import peer_env, peer_python_or_skip

PEER_MODULES = ["numpy", "sklearn", "faiss"]
PEER_PACKAGES = ["numpy", "scikit-learn", "faiss-cpu"]
SCRIPT = os.path.abspath(__file__)


def argument_parser(doc):
    """The benchmarks' command line: --bin and --venv, and their own options after."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="folder with clusterdesk-cli")
    ap.add_argument("--venv", required=True, help="the peers' virtualenv (made if missing)")
    return ap


def peer_python(venv):
    """The venv's python with the newest numpy, scikit-learn and faiss-cpu, or None (printed why)."""
    return peer_python_or_skip(venv, PEER_MODULES, PEER_PACKAGES)


def run_peer(python, *args):
    """One peer command in the peers' environment (their own BLAS settings); its JSON."""
    out = subprocess.run([python, SCRIPT, *map(str, args)], capture_output=True, text=True, env=peer_env())
    if out.returncode != 0:
        raise RuntimeError(f"peer {' '.join(map(str, args))} failed ({out.returncode}): {out.stderr.strip()[-2000:]}")
    return json.loads(out.stdout) if out.stdout.strip() else None


def steady_ms(run):
    """A ClusterDesk run's ms per iteration after its first, as the peers' figures are."""
    later = run["history"][1:]
    return sum(h["assign_ms"] + h["update_ms"] + h["reduce_ms"] for h in later) / max(1, len(later))


def ours(bin_dir, folder, mode, iters):
    """ClusterDesk's run on FOLDER's data and centroids: its JSON summary."""
    cli = os.path.join(bin_dir, "clusterdesk-cli")
    out = subprocess.run([cli, "run", "--data", os.path.join(folder, "x.npy"), "--init-centroids",
                          os.path.join(folder, "init.csv"), "--max-iter", str(iters), "--tol", "0", "--mode", mode,
                          "--no-record", "--json", "-"], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"clusterdesk-cli {mode} failed ({out.returncode}): {out.stderr.strip()}")
    return json.loads(out.stdout)


# --- the peer side -------------------------------------------------------------------

def make(folder, kind, n, d, k):
    """Gaussian noise (no structure) or k Gaussian blobs, float32; k rows as initial centroids."""
    import numpy as np
    rng = np.random.default_rng(2026)
    if kind == "noise":
        x = rng.standard_normal((n, d), dtype=np.float32)
    else:
        centres = rng.uniform(-10, 10, (k, d)).astype(np.float32)
        x = centres[rng.integers(0, k, n)]
        x += 3.0 * rng.standard_normal((n, d), dtype=np.float32)
    np.save(os.path.join(folder, "x.npy"), x)
    np.savetxt(os.path.join(folder, "init.csv"), x[rng.choice(n, k, replace=False)], delimiter=",", fmt="%.9g")


def load(folder):
    import numpy as np
    x = np.load(os.path.join(folder, "x.npy"))
    init = np.loadtxt(os.path.join(folder, "init.csv"), delimiter=",", dtype=np.float32, ndmin=2)
    return x, init


def per_iteration(fit, iters):
    """(fit(iters) - fit(1)) over the iterations between them, in ms, each the best of
    three after one fit to warm up, and the inertia after iters. fit(n) returns (seconds,
    inertia, iterations run): scikit-learn stops early once no label changes. At k = 8 the
    iterations between the two fits are a small difference of two large times (five
    cheap iterations against the fit's own setup on 512 MB), so each side gets a warm-up
    and three tries."""
    fit(1)
    best_short = min(fit(1)[0] for _ in range(3))
    runs = [fit(iters) for _ in range(3)]
    best_long = min(r[0] for r in runs)
    extra = runs[0][2] - 1
    if extra < 1:
        return {"ms_per_iteration": None, "inertia": runs[0][1], "iterations": runs[0][2]}
    return {"ms_per_iteration": max(0.0, best_long - best_short) / extra * 1e3, "inertia": runs[0][1],
            "iterations": runs[0][2]}


def sklearn_lloyd(folder, iters):
    import sklearn
    from sklearn.cluster import KMeans
    x, init = load(folder)

    def fit(n_iter):
        start = time.perf_counter()
        km = KMeans(n_clusters=len(init), init=init, n_init=1, max_iter=n_iter, tol=0, algorithm="lloyd").fit(x)
        return time.perf_counter() - start, float(km.inertia_), int(km.n_iter_)

    result = per_iteration(fit, iters)
    result["version"] = sklearn.__version__
    return result


def faiss_lloyd(folder, iters):
    import faiss
    import numpy as np
    x, init = load(folder)
    n, d = x.shape

    def fit(n_iter):
        km = faiss.Kmeans(d, len(init), niter=n_iter, verbose=False, seed=1, min_points_per_centroid=1,
                          max_points_per_centroid=n)  # every row, as the others use
        start = time.perf_counter()
        km.train(x, init_centroids=init)
        seconds = time.perf_counter() - start
        distances, _ = km.index.search(x, 1)
        return seconds, float(np.sum(distances, dtype=np.float64)), n_iter  # faiss runs every iteration

    result = per_iteration(fit, iters)
    result["version"] = faiss.__version__
    return result


def sgemm():
    """numpy's float32 matrix product on every core: best of 3, 4096^3."""
    import numpy as np
    a = np.random.default_rng(1).standard_normal((4096, 4096), dtype=np.float32)
    a @ a
    best = min(timed(lambda: a @ a) for _ in range(3))
    return {"gflops": 2 * 4096**3 / best / 1e9, "numpy": np.__version__}


def timed(work):
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main(argv):
    command = argv[0]
    if command == "make":
        make(argv[1], argv[2], int(argv[3]), int(argv[4]), int(argv[5]))
        return 0
    if command == "sklearn":
        result = sklearn_lloyd(argv[1], int(argv[2]))
    elif command == "faiss":
        result = faiss_lloyd(argv[1], int(argv[2]))
    elif command == "sgemm":
        result = sgemm()
    else:
        raise SystemExit(f"unknown command {command}")
    json.dump(result, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
