"""Imported last by the workflow's job server (``falseclaims.pipeline.job_context``).

It marks the server's ``__main__`` as the parent's main program (``pipeline.MAIN_PROGRAM``:
multiprocessing then does not run that program again in every job). It does once what every
figure job would do again: subsetting the style's fonts for the PDFs
(:func:`falseclaims.figures.pdf_fonts.prepare`). Then ``gc.freeze`` puts every object
imported so far out of the cyclic garbage collector's reach, so a job's collections do not
write to the memory pages these objects live on: each such write makes the job copy the page
(Python's documentation of ``gc.freeze`` recommends it before ``fork``; both measured in
docs/benchmarks.md).
"""

import gc
import os
import sys

from falseclaims import style
from falseclaims.figures import pdf_fonts
from falseclaims.pipeline import MAIN_PROGRAM

if os.environ.get(MAIN_PROGRAM):
    sys.modules["__main__"].__file__ = os.environ[MAIN_PROGRAM]
style.apply_style()
pdf_fonts.prepare(pdf_fonts.style_fonts())
gc.freeze()
