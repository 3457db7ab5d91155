"""Writing output files all at once: either every file is in place or none is touched.

Everything is rendered in memory first; then the files are written into a temporary folder inside
the output folder (or a temporary file beside each target) and moved into place one by one (a
rename within one file system). An error or a Ctrl-C before the moves leaves everything as it
was; a Ctrl-C during the moves waits until the last file is in place (the set is complete then,
and the interrupt is dropped: the work it would have stopped is done).

The `check_*` functions stop a command before minutes of work when its output cannot be written.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from tower_print.content import UserError


def check_out_folder(out: Path, option: str = "--out") -> None:
    """`out` is a folder, or can be made one, that we may write into."""
    existing = next(p for p in (out, *out.parents) if p.exists())
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise UserError(f"{option}: cannot write to {out}: {existing} is not a writable folder")


def check_out_file(path: Path, option: str, suffixes: Sequence[str] = ()) -> None:
    """`path` can be written as a file: the right suffix (when `suffixes` are given), in a
    writable folder that exists, and not itself a folder."""
    if suffixes and path.suffix.lower() not in suffixes:
        raise UserError(f"{option}: {path} should be a {' or '.join(suffixes)} file")
    folder = path.parent
    if folder.exists() and not folder.is_dir():
        raise UserError(f"{option}: {folder} is not a folder")
    if not folder.is_dir():
        raise UserError(f"{option}: folder {folder} does not exist")
    if path.is_dir():
        raise UserError(f"{option}: {path} is a folder, not a file")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(f"{option}: folder {folder} is not writable")


@contextmanager
def interrupt_held() -> Iterator[None]:
    """Ctrl-C inside the block is dropped instead of breaking it off half-way (main thread
    only; elsewhere Python delivers no signals anyway)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, lambda *_: None)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def write_files(out_dir: Path, files: Mapping[str, bytes]) -> list[Path]:
    """Write `files` (relative POSIX path -> bytes) under `out_dir`; returns the paths."""
    for name in files:
        rel = PurePosixPath(name)
        if rel.is_absolute() or ".." in rel.parts:
            raise ValueError(f"output name must be relative: {name}")
    made = next((p for p in (*reversed(out_dir.parents), out_dir) if not p.exists()), None)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"--out: cannot create {out_dir}: {error.strerror or error}") from None
    written: list[Path] = []
    try:
        staging = Path(tempfile.mkdtemp(prefix=".tower-print-", dir=out_dir))
        try:
            for name, data in files.items():
                temp = staging / name
                temp.parent.mkdir(parents=True, exist_ok=True)
                temp.write_bytes(data)
                os.chmod(temp, 0o644)
            with interrupt_held():
                for name in files:
                    target = out_dir / name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    os.replace(staging / name, target)
                    written.append(target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    except BaseException:
        if made is not None and not written:  # the folders made for nothing go again
            shutil.rmtree(made, ignore_errors=True)
        raise
    return written


def write_together(files: Mapping[Path, bytes]) -> list[Path]:
    """Write several files, each through a temporary file beside it, renamed into place only
    once all are written: an error or a Ctrl-C before that leaves none of them."""
    temps: list[tuple[str, Path]] = []
    try:
        for target, data in files.items():
            mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
            fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                        suffix=".tmp")
            temps.append((temp, target))
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.chmod(temp, mode)
        with interrupt_held():
            for temp, target in temps:
                os.replace(temp, target)
    finally:
        for temp, _ in temps:
            Path(temp).unlink(missing_ok=True)
    return [target for _, target in temps]
