#!/usr/bin/env python3
"""Live feeds: how fresh the published clusters are, and what one update costs.

1. Latency. The real clusterdesk-feed plays the market demo (500 assets, 10 sectors) at
   12x, 60,000 ticks/s; clusterdesk-cli live clusters it (1 s bars, a 60-bar window, an
   update every 5 bars, one thread) for 60 updates. Printed: the tick rate received and
   the latency from the tick that completed a bar to the published clusters, p50/p99 per
   update, against the target p99 <= 10 ms.
2. Cost of one re-clustering update, side by side on the very same windows (written by
   bench-live-windows, the live demo through its sector rotation): ClusterDesk's update
   (warm-started k-means, stable ids) against scikit-learn's MiniBatchKMeans.partial_fit
   and River's KMeans (learn_one over the window's rows), each then labelling the rows;
   median time per update as a ratio, and the median ARI against the sectors of the time.
   The peers are the newest releases from PyPI in a private virtualenv, run with their
   own BLAS settings (OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset for them).

Exits 1 when the latency target is missed or a peer gets a better ARI.

Usage: live_update.py --bin BUILD/bin --venv DIR [--updates N]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from bench_venv import ensure_venv, peer_env

TARGET_P99_MS = 10.0
MIN_RATE = 50_000


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))]


def run_peer(jobs_path):
    """In the virtualenv: both peers on every window, in order (they learn as a stream)."""
    import time

    import numpy as np
    import river
    import sklearn
    from river import cluster
    from sklearn.cluster import MiniBatchKMeans
    from sklearn.metrics import adjusted_rand_score

    with open(jobs_path) as f:
        jobs = json.load(f)
    minibatch = MiniBatchKMeans(n_clusters=10, random_state=0, n_init=1)
    online = cluster.KMeans(n_clusters=10, halflife=0.5, sigma=3, seed=0)
    out = []
    for job in jobs:
        x = np.fromfile(job["window"], dtype=np.float32).reshape(job["rows"], job["cols"])
        truth = np.fromfile(job["truth"], dtype=np.int32)
        start = time.perf_counter()
        minibatch.partial_fit(x)
        labels = minibatch.predict(x)
        mb_s = time.perf_counter() - start
        rows = [dict(enumerate(r)) for r in x.astype(float)]  # River's input: one dict per row (not timed)
        start = time.perf_counter()
        for r in rows:
            online.learn_one(r)
        river_labels = [online.predict_one(r) for r in rows]
        rv_s = time.perf_counter() - start
        out.append({"minibatch_ms": 1000 * mb_s, "minibatch_ari": adjusted_rand_score(truth, labels),
                    "river_ms": 1000 * rv_s, "river_ari": adjusted_rand_score(truth, river_labels)})
    print(json.dumps({"sklearn": sklearn.__version__, "river": river.__version__, "results": out}))
    return 0


def latency(bin_dir, updates):
    feed = subprocess.Popen([os.path.join(bin_dir, "clusterdesk-feed"), "--demo", "market:assets=500,sectors=10",
                             "--speed", "12"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = feed.stdout.readline().strip()
        live = subprocess.run([os.path.join(bin_dir, "clusterdesk-cli"), "live", "--feed", url, "--k", "10",
                               "--threads", "1", "--updates", str(updates), "--no-record", "--json", "-"],
                              capture_output=True, text=True, check=True)
    finally:
        feed.terminate()
        feed.wait()
    lines = [json.loads(l) for l in live.stdout.splitlines()]
    summary = lines[-1]["summary"]
    per_update = [l["latency_ms"]["value"] for l in lines[:-1]]
    rate = summary["feed"]["ticks"] / summary["duration_s"]
    return per_update, rate, summary


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", help="folder with clusterdesk-feed, clusterdesk-cli and bench-live-windows")
    ap.add_argument("--venv", help="private virtualenv for the peers")
    ap.add_argument("--updates", type=int, default=60)
    ap.add_argument("--peer", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.peer:
        return run_peer(args.peer)
    if not args.bin or not args.venv:
        ap.error("--bin and --venv are required")

    failed = False
    per_update, rate, summary = latency(args.bin, args.updates)
    p50, p99 = percentile(per_update, 0.5), percentile(per_update, 0.99)
    rate_ok = rate >= MIN_RATE
    ok = p99 <= TARGET_P99_MS
    print(f"latency: {len(per_update)} updates at {rate:,.0f} ticks/s received (500 assets); tick to published "
          f"clusters p50 {p50:.2f} ms, p99 {p99:.2f} ms (target p99 <= {TARGET_P99_MS:g} ms: {'OK' if ok else 'MISSED'})"
          f"{'' if rate_ok else f'; the feed delivered less than {MIN_RATE:,} ticks/s'}")
    failed |= not ok or not rate_ok

    try:
        python = ensure_venv(args.venv, ["sklearn", "river", "numpy"], ["scikit-learn", "river", "numpy"])
    except (subprocess.CalledProcessError, OSError) as e:
        print(f"SKIP peers: cannot set up the peers' virtualenv at {args.venv} ({e})")
        return 1 if failed else 0
    with tempfile.TemporaryDirectory() as tmp:
        ours = subprocess.run([os.path.join(args.bin, "bench-live-windows"), tmp, "300"], capture_output=True, text=True,
                              check=True)
        updates = [json.loads(l) for l in ours.stdout.splitlines()]
        jobs = [{"window": os.path.join(tmp, f"window_{u['update']}.f32"), "truth": os.path.join(tmp, f"truth_{u['update']}.i32"),
                 "rows": u["rows"], "cols": u["cols"]} for u in updates]
        jobs_path = os.path.join(tmp, "jobs.json")
        with open(jobs_path, "w") as f:
            json.dump(jobs, f)
        env = peer_env()
        peer = subprocess.run([python, os.path.abspath(__file__), "--peer", jobs_path], capture_output=True, text=True,
                              env=env)
        if peer.returncode != 0:
            print(f"peer failed ({peer.returncode}): {peer.stderr.strip()}")
            return 1
        answer = json.loads(peer.stdout)
    res = answer["results"]
    our_ms = statistics.median(u["ms"] for u in updates)
    our_ari = statistics.median(u["ari"] for u in updates)
    print(f"one update on the same {len(updates)} windows (500 assets x 60 bar returns, k=10, the rotation half-way), "
          f"median time and ARI vs the sectors:")
    print("| method | ms per update | ARI | ratio (peer time / ours) |")
    print("|---|---:|---:|---:|")
    print(f"| ClusterDesk live update (warm-started k-means, 1 thread) | {our_ms:.2f} | {our_ari:.3f} | 1 |")
    for name, key in ((f"scikit-learn {answer['sklearn']} MiniBatchKMeans.partial_fit + predict", "minibatch"),
                      (f"River {answer['river']} KMeans learn_one + predict_one", "river")):
        ms = statistics.median(r[f"{key}_ms"] for r in res)
        ari = statistics.median(r[f"{key}_ari"] for r in res)
        better = our_ari >= ari - 1e-9
        failed |= not better
        print(f"| {name} | {ms:.2f} | {ari:.3f} | {ms / our_ms:.1f}x{'' if better else ' (peer ARI higher: MISSED)'} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
