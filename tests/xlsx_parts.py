"""Hand-written .xlsx files for hostile-input tests: the sheet XML is streamed as given, so
a test can write one cell at XFD1048576, 10^5 rows or a DOCTYPE in a few kilobytes."""

from __future__ import annotations

import zipfile

_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
    'package/2006/content-types"><Default Extension="rels" ContentType="application/'
    'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType='
    '"application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName='
    '"/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.worksheet+xml"/></Types>')
ROOT_RELS = (f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_PKG}">'
             f'<Relationship Id="rId1" Type="{_REL}/officeDocument" Target="xl/workbook.xml"/>'
             "</Relationships>")
WORKBOOK = (f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{_NS}" xmlns:r="{_REL}">'
            '<sheets><sheet name="papers" sheetId="1" r:id="rId1"/></sheets></workbook>')
WORKBOOK_RELS = (f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_PKG}">'
                 f'<Relationship Id="rId1" Type="{_REL}/worksheet" '
                 'Target="worksheets/sheet1.xml"/></Relationships>')


def text_cell(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def number_cell(ref: str, value) -> str:
    return f'<c r="{ref}"><v>{value}</v></c>'


def write_xlsx(path, rows_xml, prolog: str = "") -> None:
    """A one-sheet workbook ('papers') whose sheetData holds the strings of ``rows_xml``
    (an iterable, written as it comes); ``prolog`` goes before the root element."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", CONTENT_TYPES)
        z.writestr("_rels/.rels", ROOT_RELS)
        z.writestr("xl/workbook.xml", WORKBOOK)
        z.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as fh:
            fh.write(f'<?xml version="1.0" encoding="UTF-8"?>{prolog}<worksheet '
                     f'xmlns="{_NS}"><sheetData>'.encode())
            for chunk in rows_xml:
                fh.write(chunk.encode())
            fh.write(b"</sheetData></worksheet>")
