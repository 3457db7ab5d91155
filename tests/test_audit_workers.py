"""The audit's worker processes end with the audit's own process, even when it is killed
outright (no Ctrl-C handler runs): none is left computing or waiting for work."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

PLANTED = Path(__file__).parent / "data" / "brix-planted.yaml"

SCRIPT = """
import multiprocessing, os, signal, sys
from pathlib import Path
from tower_print.brix.audit import AuditSettings, Explorer
from tower_print.brix.decks import load_deck

def progress(state):
    if state["phase"] == "pool":
        print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
        os.kill(os.getpid(), signal.SIGKILL)

deck = load_deck(Path(sys.argv[1]))
Explorer(deck, AuditSettings(samples=600, deals=50), Path(sys.argv[2])).run(2, progress)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie has ended; only its entry is left
        return stat.read().split()[2] != "Z"


def test_workers_end_when_the_audit_is_killed(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-c", SCRIPT, str(PLANTED), str(tmp_path)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == -9, run.stderr
    workers = [int(p) for p in run.stdout.split()]
    assert len(workers) == 2
    deadline = time.monotonic() + 15
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(map(_alive, workers))
