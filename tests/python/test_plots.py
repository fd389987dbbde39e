"""dyng._plots.stage_timeline: the profiler's stage timeline, drawn from hand-made samples.

The samples are dyng.StageSample values written here rather than measured, so the chart is
tested on its own terms: one bar per sample where the sample says, rows per depth, a colour and
legend entry per algorithm, labels only where they fit, device time as a thin bar.
"""

import dataclasses
import subprocess
import sys

import pytest

import dyng
from dyng._plots import stage_timeline

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


StageSample = dyng.StageSample

# One sssp.update as the profiler would report it: stages in the order they ended.
SAMPLES = [
    StageSample("graph.apply", 1, 20.0, 0.0, start_ms=1.0),
    StageSample("sssp.reset", 1, 0.1, 0.0, start_ms=21.5),
    StageSample("sssp.loop", 2, 50.0, 42.0, start_ms=22.0),
    StageSample("sssp.finalize", 1, 6.0, 0.0, start_ms=73.0),
    StageSample("sssp.update", 0, 79.5, 0.0, start_ms=0.5),
]


@pytest.fixture
def mpl():
    return pytest.importorskip("matplotlib")


def _bars(ax, height):
    """(left, width, row) of the axes' rectangles of the given height."""
    return sorted(
        (round(p.get_x(), 6), round(p.get_width(), 6), round(p.get_y() + p.get_height() / 2, 6))
        for p in ax.patches
        if abs(p.get_height() - height) < 1e-9
    )


def test_one_bar_per_sample_from_start_to_start_plus_host_time(mpl):
    figure = stage_timeline(SAMPLES)
    (ax,) = figure.axes
    host = _bars(ax, 0.7)
    assert host == sorted((s.start_ms, s.host_ms, s.depth) for s in SAMPLES)
    device = [p for p in ax.patches if abs(p.get_height() - 0.7) > 1e-9]
    assert len(device) == 1, "only sssp.loop has device time"
    bar = device[0]
    assert (bar.get_x(), bar.get_width()) == (22.0, 42.0)
    assert 2 < bar.get_y() + bar.get_height() / 2 < 2.35, "inside the host bar's row, low half"
    assert bar.get_height() < 0.7 / 2


def test_rows_are_depths_with_depth_zero_on_top(mpl):
    (ax,) = stage_timeline(SAMPLES).axes
    assert [t.get_text() for t in ax.get_yticklabels()] == ["depth 0", "depth 1", "depth 2"]
    bottom, top = ax.get_ylim()
    assert top < 0 < 2 < bottom
    assert ax.get_xlim()[1] >= 80.0, "the last stage ends at 80 ms"
    assert ax.get_xlabel() == "ms since the profile began"


def test_colour_and_legend_per_algorithm_prefix(mpl):
    (ax,) = stage_timeline(SAMPLES).axes
    colour = {
        round(p.get_x(), 6): p.get_facecolor()
        for p in ax.patches
        if abs(p.get_height() - 0.7) < 1e-9
    }
    sssp = {colour[s.start_ms] for s in SAMPLES if s.name.startswith("sssp.")}
    graph = {colour[s.start_ms] for s in SAMPLES if s.name.startswith("graph.")}
    assert len(sssp) == 1 and len(graph) == 1 and sssp != graph
    # First appearance decides the order; device time has its own entry when there is some.
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["graph", "sssp", "device time"]
    quiet = [dataclasses.replace(s, device_ms=0.0) for s in SAMPLES]
    (ax,) = stage_timeline(quiet).axes
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["graph", "sssp"]
    assert len(ax.patches) == len(SAMPLES)


def test_labels_only_where_they_fit(mpl):
    samples = [
        StageSample("sssp.compute", 0, 60.0, 0.0, start_ms=0.0),  # wide: full name
        StageSample("an_unusually_long_algorithm_name.loop", 0, 10.0, 0.0, start_ms=70.0),
        StageSample("sssp.reset", 0, 0.05, 0.0, start_ms=90.0),  # a sliver: no label
    ]
    figure = stage_timeline(samples)
    (ax,) = figure.axes
    labels = {t.get_text(): t for t in ax.texts}
    assert set(labels) == {"sssp.compute", "loop"}
    renderer = figure.canvas.get_renderer()
    px_per_ms = ax.get_window_extent(renderer).width / (ax.get_xlim()[1] - ax.get_xlim()[0])
    for sample, text in ((samples[0], labels["sssp.compute"]), (samples[1], labels["loop"])):
        assert text.get_window_extent(renderer).width < sample.host_ms * px_per_ms
        assert text.get_position()[0] == pytest.approx(sample.start_ms + sample.host_ms / 2)


def test_order_of_samples_does_not_matter(mpl):
    forward = _bars(stage_timeline(SAMPLES).axes[0], 0.7)
    assert _bars(stage_timeline(list(reversed(SAMPLES))).axes[0], 0.7) == forward


def test_writes_a_png_to_path(mpl, tmp_path):
    path = tmp_path / "timeline.png"
    figure = stage_timeline(SAMPLES, path=path, title="sssp.update on rmat12")
    assert path.read_bytes()[:8] == PNG_MAGIC
    assert figure.axes[0].get_title() == "sssp.update on rmat12"


def test_draws_on_given_axes(mpl):
    from matplotlib.figure import Figure

    figure = Figure()
    left, right = figure.subplots(1, 2)
    assert stage_timeline(SAMPLES, ax=right) is figure
    assert len(right.patches) == len(SAMPLES) + 1 and not left.patches
    assert right.get_title() == "dyng stage timeline"


def test_leaves_the_chosen_backend_alone(mpl, tmp_path):
    # In a fresh interpreter: a user who picked the PDF backend keeps it, and pyplot (which
    # would pick or start a GUI backend) is never imported.
    script = f"""
import sys, matplotlib
matplotlib.use("pdf")
from collections import namedtuple
from dyng._plots import stage_timeline
S = namedtuple("S", "name depth host_ms device_ms start_ms")
stage_timeline([S("sssp.compute", 0, 5.0, 1.0, 0.0)], path={str(tmp_path / "t.png")!r})
print(matplotlib.get_backend(), "matplotlib.pyplot" in sys.modules)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["pdf", "False"]
    assert (tmp_path / "t.png").read_bytes()[:8] == PNG_MAGIC


def test_missing_matplotlib_says_what_to_install(monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r'pip install "dyng\[plot\]"'):
        stage_timeline(SAMPLES)


def test_no_samples_or_negative_times_are_refused():
    with pytest.raises(dyng.InvalidArgumentError, match="no samples to draw"):
        stage_timeline([])
    bad = StageSample("sssp.loop", 1, -2.0, 0.0, start_ms=1.0)
    with pytest.raises(dyng.InvalidArgumentError, match="'sssp.loop' has depth 1"):
        stage_timeline([bad])
