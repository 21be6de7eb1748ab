#!/usr/bin/env python3
"""ClusterDesk's Lloyd iterations against scikit-learn's KMeans(lloyd) and numpy's SGEMM.

n x d float32, k clusters, ITERS iterations from the same initial centroids, on Gaussian
noise (no cluster structure: the bounds prune little, as on market data) and on
Gaussian blobs. The peers are the newest scikit-learn and numpy from PyPI in a private
virtualenv, with their own BLAS settings. Prints for each data set and mode:
- ms per iteration (after the first, on both sides: lloyd_peers.py) and the speed-up
  over scikit-learn (target x4 in fast mode);
- the effective rate 2 n k d per iteration against numpy's SGEMM rate measured in the
  same run (target 50 % in fast mode);
- exact mode's cost against fast mode's (target within x1.5);
- the inertia's difference from scikit-learn's (target 1e-4), and peak memory against
  1.5 x dataset + 64 MiB;
- with --portable-bin, fast mode built without -march=native against --bin's (target
  within 10 %).
Exits 1 when a target is missed.

Usage: kmeans_vs_sklearn.py --bin BUILD/bin --venv DIR [--portable-bin DIR] [--rows N --cols D --k K --iters I]
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lloyd_peers import argument_parser, ours, peer_python, run_peer, steady_ms

TARGETS = {"speedup": 4.0, "sgemm_share": 0.5, "exact_cost": 1.5, "inertia": 1e-4}


def main():
    ap = argument_parser(__doc__)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--cols", type=int, default=32)
    ap.add_argument("--k", type=int, default=64)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--portable-bin", help="clusterdesk-cli built with -DCLUSTERDESK_NATIVE=OFF: its fast mode "
                                           "is compared with --bin's (target within 10 %%)")
    args = ap.parse_args()
    python = peer_python(args.venv)
    if python is None:
        return 0

    n, d, k, iters = args.rows, args.cols, args.k, args.iters
    flops = 2.0 * n * k * d
    dataset_mib = n * d * 4 / 2**20
    budget = 1.5 * dataset_mib + 64
    sgemm = run_peer(python, "sgemm")
    print(f"{n} x {d} float32 ({dataset_mib:.0f} MiB), k={k}, {iters} Lloyd iterations from the same initial centroids")
    print(f"numpy {sgemm['numpy']} SGEMM on {os.cpu_count()} cores: {sgemm['gflops']:.0f} GFLOP/s")
    missed = []
    for kind in ("noise", "blobs"):
        with tempfile.TemporaryDirectory() as tmp:
            run_peer(python, "make", tmp, kind, n, d, k)
            peer = run_peer(python, "sklearn", tmp, iters)
            runs = {mode: ours(args.bin, tmp, mode, iters) for mode in ("fast", "exact")}
            portable = ours(args.portable_bin, tmp, "fast", iters) if args.portable_bin else None
        print(f"{kind}: scikit-learn {peer['version']} KMeans(lloyd): {peer['ms_per_iteration']:.1f} ms/iteration, "
              f"inertia {peer['inertia']:.8g}")
        for mode, r in runs.items():
            ms = steady_ms(r)
            speedup = peer["ms_per_iteration"] / ms
            share = flops / (ms / 1e3) / 1e9 / sgemm["gflops"]
            rel = abs(r["inertia"] - peer["inertia"]) / peer["inertia"]
            checks = [("inertia", rel <= TARGETS["inertia"]), ("memory", r["peak_rss_mib"] <= budget)]
            line = (f"  clusterdesk {mode:5s}: {ms:5.1f} ms/iteration, x{speedup:.2f} scikit-learn, "
                    f"{flops / (ms / 1e3) / 1e9:.0f} GFLOP/s = {100 * share:.0f} % of SGEMM")
            if mode == "fast":
                checks += [("speed-up", speedup >= TARGETS["speedup"]), ("SGEMM share", share >= TARGETS["sgemm_share"])]
                line += f" (targets x{TARGETS['speedup']:.0f}, {100 * TARGETS['sgemm_share']:.0f} %)"
            else:
                cost = ms / steady_ms(runs["fast"])
                checks.append(("exact cost", cost <= TARGETS["exact_cost"]))
                line += f", x{cost:.2f} fast mode's time (target x{TARGETS['exact_cost']})"
            line += (f", inertia rel. diff {rel:.1e}, peak RSS {r['peak_rss_mib']:.0f} MiB (budget {budget:.0f}); "
                     f"{r['devices'][0] if r.get('devices') else r['backend']}")
            failed = [name for name, ok in checks if not ok]
            print(line + ("  OK" if not failed else "  MISSED: " + ", ".join(failed)))
            missed += [f"{kind} {mode} {name}" for name in failed]
        if portable:
            cost = steady_ms(portable) / steady_ms(runs["fast"])
            ok = cost <= 1.1
            print(f"  portable build, fast: {steady_ms(portable):5.1f} ms/iteration, x{cost:.2f} the native build's "
                  f"(target x1.10); {portable['devices'][0]}  {'OK' if ok else 'MISSED'}")
            missed += [] if ok else [f"{kind} portable build"]
    if missed:
        print("missed: " + "; ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
