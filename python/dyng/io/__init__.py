"""File formats (spec section 7): edge lists, Matrix Market, the MOSP tools' CSR triplet and
batch files, dyng's ``.dgt`` batch stream, and the result files of the original tools.

Every reader parses through one native block scanner: the file is read in blocks that end at a
line break (never whole into memory) and large files are parsed on several threads. LF, CR LF
and a bare CR all end a line. A missing file or a malformed token raises
[`dyng.FileFormatError`][] with ``path``, ``line`` and ``column`` (1-based) and says what was
expected there; so does a control byte anywhere in the text (a damaged file), even in a
comment. Every writer replaces the contents of its target, never the file: the whole new
contents are written to a temporary file first, so a failed or interrupted write leaves the old
contents (or no file); a symbolic link is written through and stays a link; the target keeps
its mode, owner, group and hard links; a new file gets the mode a plain ``open()`` gives under
the umask; missing parent folders are made. A write that cannot be done raises
[`dyng.FileFormatError`][] (an ``OSError``) naming the path and what to do, and leaves the
target as it was.

The edge readers take a ``source_range=(lo, hi)``: they keep only the edges whose source lies in
``lo <= src < hi`` (hi None: no upper end), such as one rank's shard of a 1D partition
([`dyng.distributed.read_edge_list`][dyng.distributed.read_edge_list] reads a whole
distributed graph so). Memory then holds those edges only; every line is still read and
checked, so a malformed line anywhere raises on every range what the full read raises, and the
vertex count is the whole file's. The edges are exactly those of the full read whose source lies
in the range, in the same order, after the same clean-up (self-loops, duplicates, mirrors of a
symmetric matrix or of ``symmetrize``, each kept by its own source's range).

Examples
--------
>>> import os, tempfile, dyng
>>> p = os.path.join(tempfile.mkdtemp(), "g.txt")
>>> dyng.io.write_edge_list(p, dyng.Graph.from_edges([0, 1], [1, 2], [3, 4]))
>>> dyng.io.read_edge_list(p, num_weights=1).num_edges
2
>>> dyng.io.read_edge_list_arrays(p, num_weights=1, ids="as_is", source_range=(1, None)).src
array([1], dtype=int32)
"""

from __future__ import annotations

from dyng.io._batches import read_batches, read_legacy_batch, write_batches, write_legacy_batch
from dyng.io._csr import read_csr_triplet, write_csr_triplet
from dyng.io._edges import (
    read_edge_list,
    read_edge_list_arrays,
    read_matrix_market,
    read_matrix_market_arrays,
    write_edge_list,
    write_matrix_market,
)
from dyng.io._results import (
    histogram_csv,
    read_distances,
    read_parents,
    write_distances,
    write_histogram_csv,
    write_parents,
    write_path_costs,
)
from dyng.io._types import EdgeList, EdgeListInfo

__all__ = [
    "EdgeList",
    "EdgeListInfo",
    "read_edge_list",
    "read_edge_list_arrays",
    "write_edge_list",
    "read_matrix_market",
    "read_matrix_market_arrays",
    "write_matrix_market",
    "read_csr_triplet",
    "write_csr_triplet",
    "read_legacy_batch",
    "write_legacy_batch",
    "read_batches",
    "write_batches",
    "read_distances",
    "write_distances",
    "read_parents",
    "write_parents",
    "write_path_costs",
    "histogram_csv",
    "write_histogram_csv",
]
