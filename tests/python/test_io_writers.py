"""What every dyng.io writer promises about the file it writes (src/dyng/io/atomic_file.hpp):
symbolic links are written through and stay links; the target keeps its mode, owner, group
and hard links; a new file gets the mode a plain open() gives under the umask; missing parent
folders are made as 0.2.0 made them; a failed or killed write leaves the old contents (or no
file) and no temporary file; errors are OSError-derived FileFormatErrors naming the path and
what to do. Each property is checked for every writer that names a file."""

from __future__ import annotations

import os
import pickle
import random
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
import threading

import pytest

import dyng
from dyng import io

GRAPH = dyng.Graph.from_edges([0, 1, 2], [1, 2, 0], [[3, 4], [5, 6], [7, 8]])
BATCH = dyng.EdgeBatch(insert=([0], [2], [[9, 9]]), delete=([1], [2]))

# name -> (write(path), the files a write of `path` makes). Every writer of dyng.io.
WRITERS = {
    "edge_list": (lambda p: io.write_edge_list(p, GRAPH), lambda p: [p]),
    "matrix_market": (lambda p: io.write_matrix_market(p, GRAPH), lambda p: [p]),
    "csr_triplet": (
        lambda p: io.write_csr_triplet(p, GRAPH),
        lambda p: [p + "RowPtr.txt", p + "ColInd.txt", p + "Values.txt"],
    ),
    "legacy_batch": (
        lambda p: io.write_legacy_batch(p, p + ".del", BATCH),
        lambda p: [p, p + ".del"],
    ),
    "batches": (lambda p: io.write_batches(p, [BATCH, BATCH]), lambda p: [p]),
    "distances": (
        lambda p: io.write_distances(p, [0, 4, io._results.INFINITE_DISTANCE]),
        lambda p: [p],
    ),
    "parents": (lambda p: io.write_parents(p, [-1, 0, 1]), lambda p: [p]),
    "path_costs": (lambda p: io.write_path_costs(p, [[0, 0], [1, 2]]), lambda p: [p]),
    "histogram_csv": (lambda p: io.write_histogram_csv(p, [0, 0, 3]), lambda p: [p]),
}


def _read(path):
    with open(path, "rb") as file:
        return file.read()


def _expected(name):
    """The bytes each file of writer `name` holds, written to a fresh place."""
    write, files = WRITERS[name]
    with tempfile.TemporaryDirectory() as fresh:
        write(os.path.join(fresh, "f"))
        return [_read(f) for f in files(os.path.join(fresh, "f"))]


def _listing(folder):
    return sorted(os.listdir(folder))


@pytest.fixture(params=sorted(WRITERS))
def writer(request):
    """(write, files, expected bytes) of one writer."""
    write, files = WRITERS[request.param]
    return write, files, _expected(request.param)


# --- symbolic links ---------------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["absolute", "relative", "chained", "other_folder"])
def test_a_link_stays_a_link_and_its_target_gets_the_contents(
    writer, tmp_path, layout, monkeypatch
):
    write, files, expected = writer
    work = tmp_path / "w"
    (work / "real").mkdir(parents=True)
    (work / "links").mkdir()
    monkeypatch.chdir(work)
    names = files("links/f")
    targets = files("real/f")
    for name, target in zip(names, targets):
        with open(target, "w") as file:
            file.write("old\n")
        if layout == "absolute":
            os.symlink(os.path.abspath(target), name)
        elif layout == "relative":
            os.symlink(os.path.join("..", target), name)
        elif layout == "chained":
            hop = name + ".hop"
            os.symlink(os.path.join("..", target), hop)
            os.symlink(os.path.basename(hop), name)
        else:  # a link whose relative target is taken from the link's own folder
            os.symlink(os.path.join("..", "real", os.path.basename(target)), name)
    write("links/f")
    for name, target, data in zip(names, targets, expected):
        assert os.path.islink(name)
        assert _read(target) == data
    assert all(not entry.startswith(".") for entry in os.listdir("real"))


def test_a_dangling_link_into_an_existing_folder_makes_its_target(tmp_path):
    # As open() (and 0.2.0) does: the link stays, the file it names appears.
    os.symlink("made.txt", tmp_path / "link.txt")
    io.write_edge_list(str(tmp_path / "link.txt"), GRAPH)
    assert os.path.islink(tmp_path / "link.txt")
    assert _read(tmp_path / "made.txt") == _expected("edge_list")[0]


# --- metadata ---------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o755, 0o604])
def test_the_target_keeps_its_mode(writer, tmp_path, mode):
    write, files, expected = writer
    prefix = str(tmp_path / "f")
    for name in files(prefix):
        with open(name, "w") as file:
            file.write("old\n")
        os.chmod(name, mode)
    write(prefix)
    for name, data in zip(files(prefix), expected):
        assert stat.S_IMODE(os.stat(name).st_mode) == mode
        assert _read(name) == data


def test_the_target_keeps_its_hard_links(writer, tmp_path):
    write, files, expected = writer
    prefix = str(tmp_path / "f")
    for name in files(prefix):
        with open(name, "w") as file:
            file.write("old contents, longer than some of the new ones\n" * 3)
        os.link(name, name + ".other")
    write(prefix)
    for name, data in zip(files(prefix), expected):
        assert _read(name) == data
        assert _read(name + ".other") == data
        assert os.stat(name).st_ino == os.stat(name + ".other").st_ino
        assert os.stat(name).st_nlink == 2
    assert not [e for e in os.listdir(tmp_path) if e.startswith(".")]


def _foreign_ids():
    """A (uid, gid) this process may give a file but would not give a new one, or None."""
    if os.geteuid() == 0:
        return 12345, 23456
    other = [g for g in os.getgroups() if g != os.getegid()]
    return (os.geteuid(), other[0]) if other else None


def test_the_target_keeps_its_owner_and_group(writer, tmp_path):
    ids = _foreign_ids()
    if ids is None:
        pytest.skip("needs root, or a user in a second group, to make a file owned otherwise")
    write, files, expected = writer
    prefix = str(tmp_path / "f")
    for name in files(prefix):
        with open(name, "w") as file:
            file.write("old\n")
        os.chown(name, *ids)
        os.chmod(name, 0o604)
    write(prefix)
    for name, data in zip(files(prefix), expected):
        info = os.stat(name)
        assert (info.st_uid, info.st_gid) == ids
        assert stat.S_IMODE(info.st_mode) == 0o604
        assert _read(name) == data


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002, 0o027])
def test_a_new_file_gets_the_mode_open_gives_under_the_umask(writer, tmp_path, umask):
    write, files, _ = writer
    previous = os.umask(umask)
    try:
        with open(tmp_path / "plain", "w"):
            pass
        write(str(tmp_path / "new" / "deeper" / "f"))
    finally:
        os.umask(previous)
    plain = stat.S_IMODE(os.stat(tmp_path / "plain").st_mode)
    assert plain == 0o666 & ~umask
    for name in files(str(tmp_path / "new" / "deeper" / "f")):
        assert stat.S_IMODE(os.stat(name).st_mode) == plain
    for folder in (tmp_path / "new", tmp_path / "new" / "deeper"):
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o777 & ~umask


def test_missing_parent_folders_are_made_as_0_2_made_them(writer, tmp_path):
    # 0.2.0 made every missing folder of the path (tests/data/io holds no such case: checked
    # by hand with /work/venv020), folders with the umask's mode.
    write, files, expected = writer
    prefix = str(tmp_path / "a" / "b" / "c" / "f")
    write(prefix)
    assert [_read(f) for f in files(prefix)] == expected


# --- failures leave the target as it was ------------------------------------------------------


def _assert_error(info, path, *words):
    error = info.value
    assert isinstance(error, dyng.FileFormatError) and isinstance(error, OSError)
    text = str(error)
    assert path in text and "; " in text, text
    for word in words:
        assert word in text, text


def test_a_folder_in_the_way(writer, tmp_path):
    write, files, _ = writer
    prefix = str(tmp_path / "f")
    names = files(prefix)
    for name in names[:-1]:
        with open(name, "w") as file:
            file.write("old\n")
    os.mkdir(names[-1])
    before = _listing(tmp_path)
    with pytest.raises(dyng.FileFormatError) as info:
        write(prefix)
    _assert_error(info, names[-1], "folder")
    assert _listing(tmp_path) == before
    for name in names[:-1]:
        assert _read(name) == b"old\n"


def test_a_file_in_the_way_of_a_folder(writer, tmp_path):
    write, _, _ = writer
    (tmp_path / "plain").write_text("old\n")
    with pytest.raises(dyng.FileFormatError) as info:
        write(str(tmp_path / "plain" / "sub" / "f"))
    _assert_error(info, "plain", "file is in the way")
    assert _listing(tmp_path) == ["plain"] and (tmp_path / "plain").read_text() == "old\n"


def test_a_dangling_link_into_a_missing_folder(writer, tmp_path):
    write, files, _ = writer
    prefix = str(tmp_path / "f")
    for name in files(prefix):
        os.symlink(str(tmp_path / "nowhere" / os.path.basename(name)), name)
    before = _listing(tmp_path)
    with pytest.raises(dyng.FileFormatError) as info:
        write(prefix)
    _assert_error(info, files(prefix)[0], "symbolic link", "does not exist")
    assert _listing(tmp_path) == before and not (tmp_path / "nowhere").exists()


def _device(folder, name, minor):
    """A memory device node (1, `minor`) in the test's own folder, or a skip where this user
    may not make one: a writer that wrongly replaced the node harms nothing outside the test
    (never test with /dev/null or /dev/full themselves)."""
    path = os.path.join(folder, name)
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    except PermissionError:
        pytest.skip("making a device node needs CAP_MKNOD")
    return path


def test_a_full_device_is_reported_with_what_to_do(tmp_path):
    full = _device(tmp_path, "full", 7)  # as /dev/full: every write fails with ENOSPC
    with pytest.raises(dyng.FileFormatError) as info:
        io.write_edge_list(full, GRAPH)
    _assert_error(info, full, "No space left", "free space")
    assert stat.S_ISCHR(os.stat(full).st_mode) and _listing(tmp_path) == ["full"]


def test_a_device_is_written_as_it_is(tmp_path):
    # Not a regular file: no temporary file beside it, nothing renamed over it.
    null = _device(tmp_path, "null", 3)
    io.write_edge_list(null, GRAPH)
    assert stat.S_ISCHR(os.stat(null).st_mode) and _listing(tmp_path) == ["null"]


def test_a_pipe_is_written_as_it_is(tmp_path):
    pipe = str(tmp_path / "pipe")
    os.mkfifo(pipe)
    received = []
    reader = threading.Thread(target=lambda: received.append(_read(pipe)))
    reader.start()
    io.write_edge_list(pipe, GRAPH)
    reader.join()
    assert received == _expected("edge_list")
    assert stat.S_ISFIFO(os.stat(pipe).st_mode) and _listing(tmp_path) == ["pipe"]


_EFBIG_CHILD = textwrap.dedent("""
    import resource, signal, sys
    import numpy as np
    import dyng
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # write() then fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[2]), int(sys.argv[2])))
    n = 200_000
    g = dyng.Graph.from_edges(np.arange(n), (np.arange(n) + 1) % n, np.full(n, 7))
    try:
        dyng.io.write_edge_list(sys.argv[1], g)
    except dyng.FileFormatError as e:
        print(type(e).__name__, e)
        sys.exit(3)
""")


@pytest.mark.parametrize("links", [1, 2])
def test_running_out_of_room_midway_leaves_the_old_contents(tmp_path, links):
    # RLIMIT_FSIZE makes a write fail partway (EFBIG) as a full disk would (ENOSPC). With a
    # hard link the target is rewritten in place, after the temporary copy succeeded; here the
    # copy already fails, so the target is never touched.
    target = tmp_path / "g.txt"
    target.write_text("old\n")
    if links == 2:
        os.link(target, tmp_path / "other.txt")
    before = _listing(tmp_path)
    run = subprocess.run(
        [sys.executable, "-c", _EFBIG_CHILD, str(target), "100000"], capture_output=True, text=True
    )
    assert run.returncode == 3, run.stderr
    assert "FileFormatError" in run.stdout and "File too large" in run.stdout, run.stdout
    assert str(target) in run.stdout and "; " in run.stdout
    assert target.read_text() == "old\n"
    assert _listing(tmp_path) == before


def _as_unprivileged(function):
    """Runs `function()` as a user without root's way past permissions: in this process when it
    is not root, else in a forked child that gives up root. Returns ("ok", value) or
    ("error", exception type name, message)."""

    def call():
        try:
            return ("ok", function())
        except Exception as exc:  # reported to the parent
            return ("error", type(exc).__name__, str(exc))

    if os.geteuid() != 0:
        return call()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop root, run, report, leave without running pytest's exit
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            data = pickle.dumps(call())
        except BaseException as exc:  # noqa: BLE001 - anything must reach the parent
            data = pickle.dumps(("error", type(exc).__name__, str(exc)))
        os.write(write, data)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    return pickle.loads(data)


@pytest.fixture
def shared_folder():
    """A folder the unprivileged user of _as_unprivileged can reach (pytest's own is root's)."""
    folder = tempfile.mkdtemp(prefix="dyng_writers_")
    os.chmod(folder, 0o755)
    yield folder
    subprocess.run(["rm", "-rf", folder], check=False)


@pytest.mark.parametrize("folder_mode", [0o755, 0o777])
def test_permission_denied_leaves_the_file_and_says_what_to_do(shared_folder, folder_mode):
    # A read-only file is refused also where its folder would let a new file replace it, as
    # open() refuses it.
    target = os.path.join(shared_folder, "locked.txt")
    with open(target, "w") as file:
        file.write("old\n")
    os.chmod(target, 0o444)
    os.chmod(shared_folder, folder_mode)
    outcome = _as_unprivileged(lambda: io.write_edge_list(target, GRAPH))
    assert outcome[:2] == ("error", "FileFormatError"), outcome
    assert target in outcome[2] and "Permission denied" in outcome[2]
    assert "permissions" in outcome[2]
    assert _read(target) == b"old\n" and os.listdir(shared_folder) == ["locked.txt"]


def test_a_writable_file_in_a_closed_folder_is_rewritten_in_place(shared_folder):
    # No temporary file can be made beside it, so the file's own inode is rewritten (0.2.0
    # wrote such files too); its owner stays.
    target = os.path.join(shared_folder, "open.txt")
    with open(target, "w") as file:
        file.write("old\n")
    os.chmod(target, 0o666)
    os.chmod(shared_folder, 0o555)
    try:
        inode = os.stat(target).st_ino
        outcome = _as_unprivileged(lambda: io.write_edge_list(target, GRAPH))
    finally:
        os.chmod(shared_folder, 0o755)
    assert outcome == ("ok", None), outcome
    assert _read(target) == _expected("edge_list")[0]
    assert os.stat(target).st_ino == inode and os.listdir(shared_folder) == ["open.txt"]


# --- never a partial file ---------------------------------------------------------------------

_WRITE_LOOP = textwrap.dedent("""
    import sys
    import numpy as np
    import dyng
    n = 120_000
    graphs = [dyng.Graph.from_edges(np.arange(n), (np.arange(n) + 1) % n, np.full(n, w))
              for w in (1, 2)]
    print("ready", flush=True)
    for i in range(1_000_000):
        dyng.io.write_edge_list(sys.argv[1], graphs[i % 2])
""")


def test_a_killed_write_leaves_a_complete_file(tmp_path):
    # SIGKILL at random moments of a writer that alternates two contents: the target always
    # holds one of them whole, whatever instant the process died.
    target = str(tmp_path / "g.txt")
    n = 120_000
    whole = [b"".join(b"%d %d %d\n" % (i, (i + 1) % n, w) for i in range(n)) for w in (1, 2)]
    rng = random.Random(40)
    seen = set()
    for _ in range(5):
        child = subprocess.Popen(
            [sys.executable, "-c", _WRITE_LOOP, target], stdout=subprocess.PIPE, text=True
        )
        assert child.stdout.readline() == "ready\n"
        try:
            child.wait(timeout=rng.uniform(0.05, 0.4))
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        if os.path.exists(target):
            data = _read(target)
            assert data in whole, f"a partial file of {len(data)} bytes"
            seen.add(whole.index(data))
    assert seen  # at least one write finished
