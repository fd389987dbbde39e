"""Lists the device code in a CUDA fat binary (the contents of an ELF's .nv_fatbin section).

The section holds one fatbin per CUDA translation unit, each a 16-byte header (magic 0xBA55ED50,
version, header size, payload size) followed by entries; an entry's header gives its kind (1 PTX,
2 ELF, i.e. SASS), its own header size, its payload size and the architecture (sm_XY as XY).
Compressed entries keep the same header, so no decompression is needed to list them.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

FATBIN_MAGIC = 0xBA55ED50
KIND_PTX, KIND_SASS = 1, 2


class FatbinError(ValueError):
    """The bytes are not a fatbin this reader understands."""


@dataclass(frozen=True)
class Entry:
    kind: str  # "ptx" or "sass"
    arch: int  # 90 for sm_90 / compute_90


def read_fatbins(section: bytes) -> list[list[Entry]]:
    """Every fatbin in a .nv_fatbin section, as its list of entries."""
    fatbins = []
    offset = 0
    while offset + 16 <= len(section):
        magic, _version, header_size, payload = struct.unpack_from("<IHHQ", section, offset)
        if magic != FATBIN_MAGIC:
            # The linker pads between fatbins; skip zero bytes up to the next header.
            if section[offset : offset + 4] == b"\0\0\0\0":
                offset += 4
                continue
            raise FatbinError(f"bad fatbin magic {magic:#x} at offset {offset}")
        entries = []
        pos, end = offset + header_size, offset + header_size + payload
        while pos + 32 <= end:
            kind, _, entry_header, entry_size = struct.unpack_from("<HHIQ", section, pos)
            (arch,) = struct.unpack_from("<I", section, pos + 28)
            if kind in (KIND_PTX, KIND_SASS):
                entries.append(Entry("ptx" if kind == KIND_PTX else "sass", arch))
            if entry_header == 0:
                raise FatbinError(f"fatbin entry with zero header size at offset {pos}")
            pos += entry_header + entry_size
        fatbins.append(entries)
        offset = end
    return fatbins


def write_fatbin(entries: list[Entry], payload: bytes = b"\0" * 16) -> bytes:
    """A fatbin with the given entries (each carrying ``payload``): for tests and fixtures."""
    body = b""
    for entry in entries:
        kind = KIND_PTX if entry.kind == "ptx" else KIND_SASS
        header = struct.pack("<HHIQIIHHI", kind, 0x0101, 64, len(payload), 0, 0, 8, 1, entry.arch)
        body += header.ljust(64, b"\0") + payload
    return struct.pack("<IHHQ", FATBIN_MAGIC, 1, 16, len(body)) + body
