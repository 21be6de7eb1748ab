#!/usr/bin/env python3
"""Scaling of one k-means job over MPI ranks (pool:1, pool:2, pool:4 on this machine)
and over the local GPUs (cuda:0, cuda:0,1, ... when there are any), in one run.

Every run is the same exact-mode job (same data, seed and iteration count, tol=0), so
the iterates are bit-identical and only the time differs. Each MPI rank gets one host
thread, so the rank count is the only parallelism: parallel efficiency is
T(1) / (N x T(N)), with T the mean time per iteration (rank 0's assign + update +
reduce). The all-reduce share is rank 0's reduce time over its iteration time; it
includes waiting for the slowest rank, so the table also shows the least reduce time
of any rank (the rank that arrives last waits least: roughly the exchange itself).
Ranks beyond this machine's cores are oversubscribed and say so.

Usage: pool_scaling.py --bin BUILD/bin [--rows N --cols D --k K --iters I --ranks 1,2,4]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def run(cli, topology, threads, args, tmp):
    cmd = [cli, "run", "--demo", f"blobs:n={args.rows},d={args.cols},k={args.k},seed=7,spread=8", "--k", str(args.k),
           "--mode", "exact", "--tol", "0", "--max-iter", str(args.iters), "--topology", topology,
           "--threads", str(threads), "--json", "-", "--no-record"]
    env = dict(os.environ, CLUSTERDESK_DB=os.path.join(tmp, "runs.sqlite"))
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        return None, (p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1]
    return summarise(json.loads(p.stdout)), None


def summarise(summary):
    history = summary["history"]
    iters = len(history)
    total = sum(h["assign_ms"] + h["update_ms"] + h["reduce_ms"] for h in history) / iters
    reduce0 = sum(h["reduce_ms"] for h in history) / iters
    least = sum(min(r["reduce_ms"] for r in h.get("ranks", [h])) for h in history) / iters
    return {"iters": iters, "ms": total, "reduce": reduce0, "least_reduce": least, "inertia": summary["inertia"],
            "communicator": summary.get("communicator", "")}


def table(title, rows, base_ms, cores):
    print(title)
    print(f"  {'topology':<14}{'ranks':>6}{'ms/iter':>10}{'reduce ms':>11}{'share':>8}{'least reduce':>14}{'efficiency':>12}  note")
    for topology, n, s, note in rows:
        if s is None:
            print(f"  {topology:<14}{n:>6}  failed: {note}")
            continue
        eff = base_ms / (n * s["ms"]) if base_ms else float("nan")
        over = "oversubscribed: %d ranks on %d cores" % (n, cores) if n > cores else ""
        print(f"  {topology:<14}{n:>6}{s['ms']:>10.2f}{s['reduce']:>11.2f}{100 * s['reduce'] / s['ms']:>7.1f}%"
              f"{s['least_reduce']:>14.2f}{100 * eff:>11.1f}%  {'; '.join(x for x in (note, over) if x)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="folder with clusterdesk-cli and clusterdesk-worker")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--cols", type=int, default=32)
    ap.add_argument("--k", type=int, default=64)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--ranks", default="1,2,4")
    args = ap.parse_args()
    cli = os.path.join(args.bin, "clusterdesk-cli")
    cores = os.cpu_count() or 1
    print(f"job: blobs {args.rows} x {args.cols}, k={args.k}, exact mode, {args.iters} iterations (tol=0); "
          f"this machine has {cores} cores, load average {os.getloadavg()[0]:.1f} at the start "
          f"(other work on these cores slows the multi-rank runs most)", flush=True)
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        rows, reference = [], None
        for n in (int(x) for x in args.ranks.split(",")):
            s, err = run(cli, f"pool:{n}", n, args, tmp)
            failed |= s is None
            if s is not None and reference is None:
                reference = s
            note = err or ""
            if s is not None and s["inertia"] != reference["inertia"]:
                note, failed = f"inertia {s['inertia']!r} differs from {reference['inertia']!r}", True
            rows.append((f"pool:{n}", n, s, note))
        base = rows[0][2]["ms"] if rows and rows[0][2] else None
        table("MPI ranks on this machine (one host thread each):", rows, base, cores)

        probe, why = run(cli, "cuda:0", 1, argparse.Namespace(rows=1000, cols=4, k=2, iters=1), tmp)
        if probe is None:
            print(f"GPUs: none usable here ({why})")
        else:
            gpu_rows, devices = [], 1
            while True:  # count GPUs by asking for one more until that fails
                more, _ = run(cli, "cuda:" + ",".join(str(d) for d in range(devices + 1)), 1,
                              argparse.Namespace(rows=1000, cols=4, k=2, iters=1), tmp)
                if more is None or devices >= 8:
                    break
                devices += 1
            counts = [c for c in (1, 2, 4, 8) if c <= devices]
            for c in counts:
                topology = "cuda:" + ",".join(str(d) for d in range(c))
                s, err = run(cli, topology, 1, args, tmp)
                failed |= s is None
                rows_note = err or (s["communicator"] if s else "")
                gpu_rows.append((topology, c, s, rows_note))
            base = gpu_rows[0][2]["ms"] if gpu_rows[0][2] else None
            table(f"Local GPUs ({devices} present):", gpu_rows, base, 10**9)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
