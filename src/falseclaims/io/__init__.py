"""File formats, below every domain package: the text-table policy (:mod:`.textio`), the
guarded XLSX reader (:mod:`.xlsx`), raw sheets with spreadsheet row numbers
(:mod:`.raw_reader`, :mod:`.raw_table`, :mod:`.textguard`), the grammar of a result cell
that the sheet reader and table mode share (:mod:`.cells`) and the pipeline's table and
YAML writing (:mod:`.table_io`). Nothing here knows what a survey, a claim or a venue is."""
