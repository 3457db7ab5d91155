"""Writing a set of output files all at once: either every file is in place or none is touched.

Everything is rendered in memory first; then the files are written into a temporary folder inside
the output folder and moved into place one by one (a rename within one file system). An error
before the moves leaves the output folder as it was.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from tower_print.content import UserError


def write_files(out_dir: Path, files: Mapping[str, bytes]) -> list[Path]:
    """Write `files` (relative POSIX path -> bytes) under `out_dir`; returns the paths."""
    for name in files:
        rel = PurePosixPath(name)
        if rel.is_absolute() or ".." in rel.parts:
            raise ValueError(f"output name must be relative: {name}")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"--out: cannot create {out_dir}: {error.strerror or error}") from None
    staging = Path(tempfile.mkdtemp(prefix=".tower-print-", dir=out_dir))
    written: list[Path] = []
    try:
        for name, data in files.items():
            temp = staging / name
            temp.parent.mkdir(parents=True, exist_ok=True)
            temp.write_bytes(data)
            os.chmod(temp, 0o644)
        for name in files:
            target = out_dir / name
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging / name, target)
            written.append(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return written
