"""A pool worker that ends with its parent, whatever ends the parent (a kill -9 included).

The server's bot pool, the cluster's workers and the arena's match pool all start workers that must
not outlive the process that started them.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from pathlib import Path

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def exit_with_parent(parent: int) -> None:
    """Pool initializer: this worker ends when its parent (pid ``parent``: the server, a
    worker process, an arena) does.

    Nothing else would end it after a kill -9 of the parent: the worker holds both ends of its own call
    queue's pipe, so it never reads an end of file. On Linux the kernel sends it SIGKILL the moment the
    parent dies (PR_SET_PDEATHSIG), but only if the parent's main thread started it: the signal follows
    the *thread* that started the child, and only the main thread lives as long as the process. A daemon
    thread also checks twice a second that the parent is still ``parent`` (other systems, a worker started
    by another thread, a parent that died before this ran). multiprocessing's resource tracker then ends
    by itself: it stops at the end of file of a pipe that only the parent and the workers hold open.
    """
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            if str(os.getpid()) in Path(f"/proc/{parent}/task/{parent}/children").read_text().split():
                ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, ctypes.c_ulong(signal.SIGKILL))

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
