#!/usr/bin/env python3
"""Lloyd iterations over a sweep of shapes: ClusterDesk's fast mode against scikit-learn's
KMeans(lloyd) and faiss-cpu's Kmeans, on noise and on blobs.

d in {8, 32, 128, 512} x k in {8, 64, 512}; n sized so the data is about 512 MB of
float32. Every side starts from the same k rows as centroids and runs ITERS iterations;
the figure is ms per iteration after the first (lloyd_peers.py). Prints one table per data
kind with each cell's ratio against both peers (above 1: ClusterDesk is faster) and
exits 1 when a cell is slower than either peer.

Usage: lloyd_sweep.py --bin BUILD/bin --venv DIR [--iters I] [--megabytes MB]
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lloyd_peers import argument_parser, ours, peer_python, run_peer, steady_ms

DIMS = (8, 32, 128, 512)
KS = (8, 64, 512)


def shown(ms):
    return f"{ms:>7.1f}ms" if ms is not None else f"{'-':>9}"


def ratio(peer, ms):
    # None: the peer converged after its first iteration, so it has no later ones to time.
    return f"x{peer / ms:>8.2f}" if peer is not None else f"{'-':>9}"


def main():
    ap = argument_parser(__doc__)
    ap.add_argument("--iters", type=int, default=6)
    ap.add_argument("--megabytes", type=float, default=512)
    args = ap.parse_args()
    python = peer_python(args.venv)
    if python is None:
        return 0

    slower = []
    print(f"fast mode, ms per iteration after the first of {args.iters}, data ~{args.megabytes:.0f} MB float32; "
          f"ratio = peer's time / ClusterDesk's (above 1: ClusterDesk is faster)")
    for kind in ("noise", "blobs"):
        print(f"\n{kind}:")
        print(f"{'d':>4} {'k':>4} {'n':>9} | {'clusterdesk':>11} {'sklearn':>9} {'faiss':>9} | {'vs sklearn':>10} {'vs faiss':>9}")
        for d in DIMS:
            n = int(args.megabytes * 1e6 / (4 * d))
            for k in KS:
                with tempfile.TemporaryDirectory() as tmp:
                    run_peer(python, "make", tmp, kind, n, d, k)
                    ms = steady_ms(ours(args.bin, tmp, "fast", args.iters))
                    sk = run_peer(python, "sklearn", tmp, args.iters)["ms_per_iteration"]
                    fa = run_peer(python, "faiss", tmp, args.iters)["ms_per_iteration"]
                cell_slower = [name for name, peer in (("scikit-learn", sk), ("faiss", fa)) if peer is not None and peer < ms]
                mark = "  SLOWER than " + " and ".join(cell_slower) if cell_slower else ""
                print(f"{d:>4} {k:>4} {n:>9} | {ms:>9.1f}ms {shown(sk)} {shown(fa)} | {ratio(sk, ms)} {ratio(fa, ms)}{mark}",
                      flush=True)
                slower += [f"{kind} d={d} k={k} ({', '.join(cell_slower)})"] if cell_slower else []
    if slower:
        print("\ncells slower than a peer: " + "; ".join(slower))
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
