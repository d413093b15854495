"""Imported last by the workflow's job server (``falseclaims.pipeline.job_context``).

The server forks one process per job. ``gc.freeze`` puts every object imported so far out of
the cyclic garbage collector's reach, so a job's collections do not write to the memory pages
these objects live on: each such write makes the job copy the page (Python's documentation of
``gc.freeze`` recommends it before ``fork``; measured in docs/benchmarks.md).
"""

import gc

gc.freeze()
