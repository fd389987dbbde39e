"""Reads what the wheel checker needs from a 64-bit little-endian ELF shared object.

The dynamic section (DT_NEEDED, DT_RPATH/DT_RUNPATH, DT_SONAME), the exported dynamic symbols,
the glibc symbol versions required (.gnu.version_r) and any section's bytes (the CUDA fatbin
lives in .nv_fatbin). Plain struct parsing: the checker runs in CI's dev venv, without pyelftools.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

SHT_DYNSYM = 11
SHT_DYNAMIC = 6
SHT_GNU_VERNEED = 0x6FFFFFFE
DT_NEEDED, DT_SONAME, DT_RPATH, DT_RUNPATH = 1, 14, 15, 29
STB_GLOBAL, STB_WEAK = 1, 2
STV_DEFAULT, STV_PROTECTED = 0, 3
SHN_UNDEF = 0


class ElfError(ValueError):
    """The bytes are not an ELF object this reader understands."""


@dataclass(frozen=True)
class Section:
    name: str
    type: int
    offset: int
    size: int
    link: int
    entsize: int


@dataclass
class ElfInfo:
    needed: list[str] = field(default_factory=list)
    rpath: list[str] = field(default_factory=list)  # DT_RPATH and DT_RUNPATH entries
    soname: str | None = None
    exported: list[str] = field(default_factory=list)  # defined, default/protected visibility
    version_needs: dict[str, set[str]] = field(default_factory=dict)  # library -> versions
    sections: dict[str, bytes] = field(default_factory=dict)

    def max_glibc(self) -> tuple[int, ...] | None:
        """Highest GLIBC_x.y version any symbol needs (None when none does)."""
        found = [
            tuple(int(p) for p in v[len("GLIBC_") :].split("."))
            for versions in self.version_needs.values()
            for v in versions
            if v.startswith("GLIBC_") and v[len("GLIBC_") :].replace(".", "").isdigit()
        ]
        return max(found) if found else None


def _cstr(data: bytes, offset: int) -> str:
    end = data.index(b"\0", offset)
    return data[offset:end].decode("utf-8", "replace")


def _sections(data: bytes) -> list[Section]:
    if data[:4] != b"\x7fELF":
        raise ElfError("not an ELF file (bad magic)")
    if data[4] != 2 or data[5] != 1:
        raise ElfError("only 64-bit little-endian ELF is supported")
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    raw = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = raw[shstrndx][4] if shnum else 0
    return [
        Section(
            name=_cstr(data, names + r[0]),
            type=r[1],
            offset=r[4],
            size=r[5],
            link=r[6],
            entsize=r[9],
        )
        for r in raw
    ]


def read_elf(data: bytes, keep_sections: tuple[str, ...] = (".nv_fatbin",)) -> ElfInfo:
    """Parses ``data``; the bytes of the sections named in ``keep_sections`` are kept."""
    sections = _sections(data)
    info = ElfInfo()
    for sec in sections:
        if sec.name in keep_sections:
            info.sections[sec.name] = data[sec.offset : sec.offset + sec.size]
        if sec.type == SHT_DYNAMIC:
            strtab = sections[sec.link].offset
            for off in range(sec.offset, sec.offset + sec.size, 16):
                tag, value = struct.unpack_from("<qQ", data, off)
                if tag == 0:
                    break
                if tag == DT_NEEDED:
                    info.needed.append(_cstr(data, strtab + value))
                elif tag in (DT_RPATH, DT_RUNPATH):
                    info.rpath += [p for p in _cstr(data, strtab + value).split(":") if p]
                elif tag == DT_SONAME:
                    info.soname = _cstr(data, strtab + value)
        elif sec.type == SHT_DYNSYM:
            strtab = sections[sec.link].offset
            for off in range(sec.offset + 24, sec.offset + sec.size, 24):  # entry 0 is null
                name, st_info, st_other, shndx = struct.unpack_from("<IBBH", data, off)
                bind, visibility = st_info >> 4, st_other & 3
                if (
                    shndx != SHN_UNDEF
                    and bind in (STB_GLOBAL, STB_WEAK)
                    and visibility in (STV_DEFAULT, STV_PROTECTED)
                ):
                    info.exported.append(_cstr(data, strtab + name))
        elif sec.type == SHT_GNU_VERNEED:
            strtab = sections[sec.link].offset
            off = sec.offset
            while True:
                _, count, file_off, aux, next_off = struct.unpack_from("<HHIII", data, off)
                versions = info.version_needs.setdefault(_cstr(data, strtab + file_off), set())
                aux_off = off + aux
                for _ in range(count):
                    _, _, _, name_off, aux_next = struct.unpack_from("<IHHII", data, aux_off)
                    versions.add(_cstr(data, strtab + name_off))
                    aux_off += aux_next
                if not next_off:
                    break
                off += next_off
    return info
