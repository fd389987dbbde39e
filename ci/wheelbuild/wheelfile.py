"""Reading and (re)writing wheel archives: name tags, METADATA, entry points, RECORD.

Used by the checker, by the repair step (which must edit a repaired wheel to restore an RPATH)
and by the tests (which build small synthetic wheels). Written archives are deterministic: sorted
entries, one timestamp (SOURCE_DATE_EPOCH when set).
"""

from __future__ import annotations

import base64
import configparser
import email.parser
import hashlib
import os
import time
import zipfile
from dataclasses import dataclass
from email.message import Message
from pathlib import Path


@dataclass(frozen=True)
class WheelName:
    distribution: str  # as in the file name: dyng_cu13
    version: str
    python: str  # cp312
    abi: str  # abi3
    platforms: tuple[str, ...]  # manylinux_2_28_x86_64, ... (compressed tag set expanded)

    @classmethod
    def parse(cls, filename: str) -> WheelName:
        if not filename.endswith(".whl"):
            raise ValueError(f"{filename} is not a wheel file name")
        parts = filename[:-4].split("-")
        if len(parts) not in (5, 6):
            raise ValueError(
                f"{filename} is not a valid wheel file name (name-version[-build]-"
                "python-abi-platform.whl)"
            )
        return cls(parts[0], parts[1], parts[-3], parts[-2], tuple(parts[-1].split(".")))


def dist_info(names: list[str]) -> str:
    """The .dist-info folder of a wheel's member names."""
    found = {n.split("/", 1)[0] for n in names if n.split("/", 1)[0].endswith(".dist-info")}
    if len(found) != 1:
        raise ValueError(f"a wheel must have exactly one .dist-info folder, found {sorted(found)}")
    return found.pop()


def read_metadata(archive: zipfile.ZipFile) -> Message:
    info = dist_info(archive.namelist())
    return email.parser.Parser().parsestr(archive.read(f"{info}/METADATA").decode())


def read_entry_points(archive: zipfile.ZipFile) -> dict[str, dict[str, str]]:
    info = dist_info(archive.namelist())
    name = f"{info}/entry_points.txt"
    if name not in archive.namelist():
        return {}
    parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
    parser.optionxform = str  # keep entry-point names' case
    parser.read_string(archive.read(name).decode())
    return {section: dict(parser[section]) for section in parser.sections()}


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def _timestamp() -> tuple[int, int, int, int, int, int]:
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))
    # Zip cannot store dates before 1980.
    return time.gmtime(max(epoch, 315532800))[:6]


def write_wheel(path: Path, files: dict[str, bytes], *, executable: set[str] = frozenset()) -> Path:
    """Writes ``files`` (member name -> bytes) as a wheel with a fresh RECORD."""
    info = dist_info(list(files))
    record_name = f"{info}/RECORD"
    members = {k: v for k, v in files.items() if k != record_name}
    lines = [f"{name},{_record_hash(data)},{len(data)}" for name, data in sorted(members.items())]
    lines.append(f"{record_name},,")
    members[record_name] = ("\n".join(lines) + "\n").encode()
    stamp = _timestamp()
    # dist-info last, as the wheel spec recommends.
    order = sorted(members, key=lambda n: (n.startswith(info + "/"), n))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in order:
            entry = zipfile.ZipInfo(name, date_time=stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            mode = 0o755 if name in executable or name.endswith(".so") or ".so." in name else 0o644
            entry.external_attr = (0o100000 | mode) << 16
            archive.writestr(entry, members[name])
    return path


def read_all(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist() if not name.endswith("/")}
