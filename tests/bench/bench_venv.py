"""The benchmarks' private virtualenv for their peers: made once, the newest releases
from PyPI installed into it, so no peer runs on a distribution's older build."""
import os
import subprocess
import sys

# The peers' own BLAS settings: these are unset for their processes alone.
PEER_UNSET = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


def ensure_venv(venv, modules, packages):
    """The venv's python3, with `packages` installed unless `modules` already import."""
    python = os.path.join(venv, "bin", "python3")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    probe = subprocess.run([python, "-c", "import " + ", ".join(modules)], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--upgrade", "pip", *packages], check=True)
    return python


def peer_python_or_skip(venv, modules, packages):
    """ensure_venv's python3, or None after printing why the benchmark skips."""
    try:
        return ensure_venv(venv, modules, packages)
    except (subprocess.CalledProcessError, OSError) as e:
        print(f"SKIP: cannot set up the peer's virtualenv at {venv} ({e})")
        return None


def peer_env():
    """The environment for a peer's process."""
    return {k: v for k, v in os.environ.items() if k not in PEER_UNSET}
