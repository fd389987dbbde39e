"""CycleEnumeration's text batch: ``- u v`` deletion lines, ``+ u v`` insertion lines.

Blank lines and ``#`` comments are skipped; on a weighted graph an insertion may carry its K
weights (``+ u v w1..wK``), otherwise each gets weight 1 in every column.
"""

from __future__ import annotations

from dyng.cli import _outputs
from dyng.cli._errors import CliError


def read(path, graph):
    """The EdgeBatch in the file at `path`, for `graph`."""
    import numpy as np

    import dyng

    k = graph.num_weights if graph.weighted else 0
    ins, ins_w, dels = [], [], []
    try:
        with open(path, encoding="utf-8") as file:
            lines = list(file)
    except OSError as exc:
        raise CliError(
            f"{path}: cannot open the batch file ({exc.strerror}); check the path"
        ) from exc
    for number, line in enumerate(lines, 1):
        tokens = line.split()
        if not tokens or tokens[0].startswith("#"):
            continue
        sign, rest = tokens[0], tokens[1:]
        fits = (sign == "-" and len(rest) == 2) or (
            sign == "+" and (len(rest) == 2 or (k > 0 and len(rest) == 2 + k))
        )
        try:
            values = [int(token) for token in rest]
        except ValueError:
            fits = False
        if not fits:
            raise CliError(f"{path}:{number}: expected '+ u v' or '- u v', got {line.strip()!r}")
        if sign == "-":
            dels.append(values)
        else:
            ins.append(values[:2])
            ins_w.append(values[2:] or [1] * k)
    dtype = np.dtype(graph.vertex_dtype)
    pairs = lambda rows: np.array(rows, dtype=dtype).reshape(-1, 2)  # noqa: E731
    ins_arr, del_arr = pairs(ins), pairs(dels)
    insert = (ins_arr[:, 0], ins_arr[:, 1])
    if k:
        insert += (np.array(ins_w, dtype=np.int32).reshape(-1, k),)
    return dyng.EdgeBatch(
        insert=insert if len(ins) else None,
        delete=(del_arr[:, 0], del_arr[:, 1]) if len(dels) else None,
    )


def text(batch):
    """The batch as file text: its deletions, then its insertions (weights left out)."""
    lines = [f"- {u} {v}" for u, v in zip(batch.delete_src.tolist(), batch.delete_dst.tolist())]
    lines += [f"+ {u} {v}" for u, v in zip(batch.insert_src.tolist(), batch.insert_dst.tolist())]
    return "".join(line + "\n" for line in lines)


def write(path, batch):
    _outputs.write_text(path, text(batch), "write_batch")
