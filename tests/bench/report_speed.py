#!/usr/bin/env python3
"""How long `clusterdesk-cli report` takes for a 10,000-asset run (issue: under 3 s).

Clusters the `market` demo with 10,000 assets once (recorded in a temporary store),
then writes its report as HTML and as PDF several times and prints the wall time of
each (the whole process: start, reading the store, reopening the dataset, the
membership of every asset, the graphs, the document, recording it), the best of the
repetitions, and the ratio to the 3 s target. No peer: no other tool writes this
document.

Usage: report_speed.py --bin BUILD/bin [--assets N --repeat R]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

TARGET_S = 3.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--assets", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cli = os.path.join(args.bin, "clusterdesk-cli")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, CLUSTERDESK_DB=os.path.join(tmp, "runs.sqlite"),
                   CLUSTERDESK_CHAIN_KEY=os.path.join(tmp, "chain.key"))
        run = subprocess.run([cli, "run", "--demo", f"market:assets={args.assets},sectors=20,days=300,seed=7",
                              "--k", "20", "--mode", "exact"], capture_output=True, text=True, env=env)
        if run.returncode != 0:
            sys.exit("the run failed: " + run.stderr)
        run_id = re.search(r"recorded  run ([0-9a-f-]{36})", run.stdout).group(1)
        print(f"report of a {args.assets}-asset run (market demo, k=20), target {TARGET_S:.1f} s")
        print(f"{'format':8} {'best s':>8} {'all runs (s)':>28} {'best / target':>14}")
        worst = 0.0
        for suffix in ("html", "pdf"):
            times = []
            for i in range(args.repeat):
                out = os.path.join(tmp, f"report{i}.{suffix}")
                start = time.perf_counter()
                p = subprocess.run([cli, "report", run_id, "--out", out], capture_output=True, text=True, env=env)
                times.append(time.perf_counter() - start)
                if p.returncode != 0:
                    sys.exit(f"report --out {out} failed: {p.stderr}")
            best = min(times)
            worst = max(worst, best)
            print(f"{suffix:8} {best:8.2f} {' '.join(f'{t:.2f}' for t in times):>28} {best / TARGET_S:14.2f}")
        size = os.path.getsize(os.path.join(tmp, "report0.pdf"))
        print(f"PDF size {size / 1e6:.1f} MB; HTML size {os.path.getsize(os.path.join(tmp, 'report0.html')) / 1e6:.1f} MB")
        return 0 if worst < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
