"""Byte-identical XLSX workbooks for the synthetic example generators."""

from __future__ import annotations

import datetime as _dt
import io
import re
import zipfile
from pathlib import Path

__all__ = ["save_reproducible"]

_FIXED_TIME = _dt.datetime(2023, 10, 8, 0, 0, 0)  # MICCAI 2023; fixed for byte-identical files


def save_reproducible(wb, path: Path, creator: str) -> None:
    """Save an openpyxl workbook byte-identically across runs (fixed times and stamps)."""
    wb.properties.creator = creator
    wb.properties.created = _FIXED_TIME
    wb.properties.modified = _FIXED_TIME
    wb.properties.lastModifiedBy = creator
    buf = io.BytesIO()
    wb.save(buf)
    # re-zip with fixed entry timestamps so reruns are byte-identical
    stamp = _FIXED_TIME.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    out = io.BytesIO()
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            zi = zipfile.ZipInfo(item.filename, date_time=_FIXED_TIME.timetuple()[:6])
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = item.external_attr
            data = src.read(item.filename)
            if item.filename == "docProps/core.xml":  # openpyxl stamps 'modified' at save
                data = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*(<)",
                              rb"\g<1>" + stamp + rb"\g<2>", data)
            dst.writestr(zi, data)
    Path(path).write_bytes(out.getvalue())
