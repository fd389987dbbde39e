// Resolves a batch against a graph without writing anything (spec section 3): validates every
// entry, then replays the batch's deletions and insertions per edge in processing order, only
// counting copies, to decide which operations take effect and what the summary says. The result
// is a list of effective operations that Graph.apply() then writes; an error found here leaves
// the graph untouched. An 'error' mode's rejection is looked for first in a prefix of the batch
// (error_probe.hpp), so that refusing a bad batch rarely costs the sort.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/radix_sort.hpp"
#include "dyng/graph/detail/batch_validate.hpp"
#include "dyng/graph/detail/bucket_order.hpp"
#include "dyng/graph/detail/compose.hpp"
#include "dyng/graph/detail/edge_replay.hpp"
#include "dyng/graph/detail/error_probe.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::detail {

template <class vid_t>
struct resolved_batch_t {
  /// The effective edge operations, as row operations of the out-rows: row = the source and
  /// col = the destination as the batch gave them. In key order: by (src, dst), or (min, max)
  /// for an undirected graph, then by seq. That is the order every stored direction's rows want
  /// (graph_apply.cpp), and a stable sort by seq gives processing order back.
  std::vector<row_op_t<vid_t>> ops;
  apply_summary_t summary;
  int64_t num_vertices_after = 0;
  int64_t insert_ops = 0;
  int64_t erase_ops = 0;
};

/// Adds the counters a replay owns (not the vertex counts or dropped self-loops).
inline void add_replay_counts(apply_summary_t& into, const apply_summary_t& part) {
  into.inserted_edges += part.inserted_edges;
  into.updated_edges += part.updated_edges;
  into.deleted_edges += part.deleted_edges;
  into.ignored_deletions += part.ignored_deletions;
  into.ignored_insertions += part.ignored_insertions;
  into.cancelled_pairs += part.cancelled_pairs;
}

/// One batch entry as resolve_batch() orders and replays it.
template <class vid_t>
struct batch_record_t {
  vid_t a, b;   // key: (u, v), or (min, max) for an undirected graph
  int64_t seq;  // its list's base + its position in the list
  bool insert;
  bool swapped;    // (u, v) = (b, a): an undirected edge given high end first
  int32_t weight;  // an insertion's weight when K == 1, carried along the sorts
};

/// What the replay of a run of whole key groups found: the effective operations in key order,
/// the counters it owns, and the earliest rejection in processing order (seq, message).
template <class vid_t>
struct replay_part_t {
  std::vector<row_op_t<vid_t>> ops;
  apply_summary_t counts;
  int64_t error_seq = std::numeric_limits<int64_t>::max();
  std::string error_text;
};

/// Starts of `parts` runs of records[0, m) that split only between key groups (a run may be
/// empty): parts + 1 offsets.
template <class vid_t>
std::vector<size_t> group_aligned_runs(const std::vector<batch_record_t<vid_t>>& recs, int parts) {
  std::vector<size_t> start(static_cast<size_t>(parts) + 1, recs.size());
  start[0] = 0;
  for (int t = 1; t < parts; ++t) {
    size_t at = std::max(start[t - 1], recs.size() * static_cast<size_t>(t) / parts);
    while (at > 0 && at < recs.size() && recs[at].a == recs[at - 1].a &&
           recs[at].b == recs[at - 1].b) {
      ++at;
    }
    start[t] = at;
  }
  return start;
}

/// Where a batch's deletions and insertions sit in processing order: a record's seq is its list's
/// base plus its position in the list.
struct record_bases_t {
  int64_t deletions = 0;
  int64_t insertions = 0;

  /// The position of record `r` in its own list (deletions or insertions).
  template <class vid_t>
  int64_t index(const batch_record_t<vid_t>& r) const {
    return r.seq - (r.insert ? insertions : deletions);
  }
};

/// The batch's entries as records in processing (seq) order, so that a stable sort by key keeps
/// seq order per key. Self-loop insertions that the semantics drop are counted in `sum` and left
/// out.
template <class vid_t>
std::vector<batch_record_t<vid_t>> batch_records(const edge_batch_t<vid_t>& batch,
                                                 const graph_properties_t& props,
                                                 const record_bases_t& bases,
                                                 apply_summary_t& sum) {
  using rec_t = batch_record_t<vid_t>;
  const auto& sem = props.semantics;
  const int64_t nd = static_cast<int64_t>(batch.delete_src.size());
  const int64_t ni = static_cast<int64_t>(batch.insert_src.size());
  const bool carry_weight = props.num_weights == 1;
  auto record = [&](vid_t u, vid_t v, int64_t seq, int64_t index, bool insert) {
    const bool swapped = !props.directed && v < u;
    const int32_t w = insert && carry_weight ? batch.insert_weights[index] : 0;
    return rec_t{swapped ? v : u, swapped ? u : v, seq, insert, swapped, w};
  };
  std::vector<rec_t> recs;
  recs.reserve(static_cast<size_t>(nd + ni));
  auto add_deletions = [&] {
    for (int64_t i = 0; i < nd; ++i) {
      recs.push_back(
          record(batch.delete_src[i], batch.delete_dst[i], bases.deletions + i, i, false));
    }
  };
  auto add_insertions = [&] {
    for (int64_t i = 0; i < ni; ++i) {
      const vid_t u = batch.insert_src[i];
      const vid_t v = batch.insert_dst[i];
      if (u == v && sem.on_self_loop == on_self_loop_t::drop) {
        ++sum.dropped_self_loops;
        continue;
      }
      recs.push_back(record(u, v, bases.insertions + i, i, true));
    }
  };
  if (sem.deletions_first) {
    add_deletions();
    add_insertions();
  } else {
    add_insertions();
    add_deletions();
  }
  return recs;
}

/// Orders the records by (a, b, seq), keys below `key_bound`. Sequentially: stably by a (a
/// counting sort for a large batch), then each a-group stably by b; the groups are small (a row's
/// share of the batch). On a team: two stable radix sorts, by b and then by a.
template <class vid_t>
void sort_records(std::vector<batch_record_t<vid_t>>& recs, int64_t key_bound, int team) {
  using rec_t = batch_record_t<vid_t>;
  if (team > 1) {
    std::vector<rec_t> scratch;
    const int bits = key_bits_below(key_bound);
    radix_sort_vector(recs, scratch, bits, [](const rec_t& r) { return r.b; }, team);
    radix_sort_vector(recs, scratch, bits, [](const rec_t& r) { return r.a; }, team);
    return;
  }
  stable_sort_by_key(recs, key_bound, [](const rec_t& r) { return r.a; });
  for (size_t g = 0; g < recs.size();) {
    size_t h = g + 1;
    while (h < recs.size() && recs[h].a == recs[g].a) ++h;
    if (h - g > 1) {
      stable_sort_small(recs.begin() + g, recs.begin() + h,
                        [](const rec_t& x, const rec_t& y) { return x.b < y.b; });
    }
    g = h;
  }
}

/// Replays the key groups of recs[first, last) (whole groups) into `part`: which operations take
/// effect given the stored copies (`copies(a, b)`, for keys of existing vertices), the counters,
/// and the earliest rejection of an 'error' mode in processing order.
template <class vid_t, class copies_fn>
void replay_key_groups(const std::vector<batch_record_t<vid_t>>& recs, size_t first, size_t last,
                       const graph_properties_t& props, int64_t n, copies_fn& copies,
                       const record_bases_t& bases, replay_part_t<vid_t>& part) {
  using rec_t = batch_record_t<vid_t>;
  const auto& sem = props.semantics;
  auto& counts = part.counts;
  part.ops.reserve(last - first);
  // Keeps the earliest rejection in processing order; its text is built only when it is the
  // earliest so far (a batch can hold millions of rejected operations).
  auto reject = [&](const rec_t& r, auto&& text) {
    if (r.seq < part.error_seq) {
      part.error_seq = r.seq;
      part.error_text = text();
    }
  };
  auto& ops = part.ops;

  for (size_t g = first; g < last;) {
    size_t h = g;
    while (h < last && recs[h].a == recs[g].a && recs[h].b == recs[g].b) ++h;
    const vid_t a = recs[g].a;
    const vid_t b = recs[g].b;
    // An undirected edge is two stored copies unless it is a self-loop: counters count both.
    const int64_t mult = (!props.directed && a != b) ? 2 : 1;
    edge_replay_t replay;
    const copies_found_t found = (a < n && b < n) ? as_found(copies(a, b)) : copies_found_t{};
    replay.count = found.count;
    for (size_t j = g; j < h; ++j) {
      const rec_t& r = recs[j];
      const vid_t u = r.swapped ? r.b : r.a;
      const vid_t v = r.swapped ? r.a : r.b;
      const replay_step_t step =
          r.insert ? replay.insert_step(sem.as_sets) : replay.delete_step(sem.as_sets);
      switch (step) {
        case replay_step_t::repeat: break;
        case replay_step_t::erase:
          counts.deleted_edges += mult;
          ops.push_back({u, v, r.seq, found.first, op_kind_t::erase, 0});
          break;
        case replay_step_t::missing_delete:
          if (sem.on_missing_delete == on_missing_delete_t::error) {
            reject(r, [&] { return missing_delete_text(bases.index(r), u, v); });
          }
          counts.ignored_deletions += mult;
          break;
        case replay_step_t::insert:
          counts.inserted_edges += mult;
          ops.push_back({u, v, r.seq, bases.index(r), op_kind_t::insert, r.weight});
          break;
        case replay_step_t::existing_insert:
          switch (sem.on_existing_insert) {
            case on_existing_insert_t::upsert:
              counts.updated_edges += mult;
              ops.push_back({u, v, r.seq, bases.index(r), op_kind_t::reweight, r.weight});
              break;
            case on_existing_insert_t::ignore: counts.ignored_insertions += mult; break;
            case on_existing_insert_t::error:
              reject(r, [&] { return existing_insert_text(bases.index(r), u, v); });
              break;
          }
          break;
      }
    }
    if (sem.as_sets && replay.erased && replay.inserted) counts.cancelled_pairs += mult;
    g = h;
  }
}

/// Replays the sorted records in group-aligned runs on a team of `team` threads, then throws the
/// earliest rejection of all runs or joins their operations, in key order, into `out` (the
/// counters into `sum`). The result is the one a single run gives.
template <class vid_t, class copies_fn>
void replay_on_team(const std::vector<batch_record_t<vid_t>>& recs, const graph_properties_t& props,
                    int64_t n, copies_fn& copies, const record_bases_t& bases, int team,
                    std::vector<row_op_t<vid_t>>& out, apply_summary_t& sum) {
  const std::vector<size_t> start = group_aligned_runs(recs, team);
  std::vector<replay_part_t<vid_t>> parts(static_cast<size_t>(team));
  std::vector<std::exception_ptr> failures(static_cast<size_t>(team));
#pragma omp parallel for num_threads(team) schedule(static, 1)
  for (int t = 0; t < team; ++t) {
    try {
      replay_key_groups(recs, start[t], start[t + 1], props, n, copies, bases, parts[t]);
    } catch (...) {
      failures[t] = std::current_exception();  // std::bad_alloc, rethrown below
    }
  }
  for (const auto& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
  const replay_part_t<vid_t>* first_error = nullptr;
  size_t total = 0;
  for (const auto& part : parts) {
    if (!part.error_text.empty() && (!first_error || part.error_seq < first_error->error_seq)) {
      first_error = &part;
    }
    total += part.ops.size();
  }
  if (first_error) throw invalid_argument_error(first_error->error_text);
  out.resize(total);
  std::vector<size_t> at(parts.size() + 1, 0);
  for (size_t t = 0; t < parts.size(); ++t) at[t + 1] = at[t] + parts[t].ops.size();
#pragma omp parallel for num_threads(team) schedule(static, 1)
  for (int t = 0; t < team; ++t) {
    std::copy(parts[t].ops.begin(), parts[t].ops.end(), out.begin() + at[t]);
  }
  for (const auto& part : parts) add_replay_counts(sum, part.counts);
}

/// Replays the batch per edge key. `copies(u, v)` counts the stored copies of (u, v) (only
/// called for existing vertices). Throws invalid_argument_error for the first operation (in
/// processing order) that an 'error' mode rejects, looked for first among the first
/// `probe_ops` operations (tests pass 0 to exercise the sorted path alone). With `team` > 1 the
/// records are ordered by a radix sort and the key groups replayed in runs on an OpenMP team
/// (copies() must then be safe to call concurrently); the result is the same for every team.
/// Between its passes over the batch it throws interrupted_error once `cancel` asks.
template <class vid_t, class copies_fn>
resolved_batch_t<vid_t> resolve_batch(const edge_batch_t<vid_t>& batch,
                                      const graph_properties_t& props, int64_t n,
                                      copies_fn&& copies, int64_t probe_ops = k_error_probe_ops,
                                      int team = 1, cancel_token_t cancel = {}) {
  constexpr const char* fn = "Graph.apply()";
  resolved_batch_t<vid_t> out;
  const validated_batch_t checked = validate_batch(batch, props, n);
  out.num_vertices_after = checked.num_vertices_after;
  probe_batch_errors(batch, props, n, probe_ops, copies);
  throw_if_cancelled(cancel, fn);
  auto& sum = out.summary;
  sum.num_vertices_after = out.num_vertices_after;
  sum.inserted_vertices = out.num_vertices_after - n;

  const int64_t nd = static_cast<int64_t>(batch.delete_src.size());
  const int64_t ni = static_cast<int64_t>(batch.insert_src.size());
  const record_bases_t bases{props.semantics.deletions_first ? 0 : ni,
                             props.semantics.deletions_first ? nd : 0};
  std::vector<batch_record_t<vid_t>> recs = batch_records(batch, props, bases, sum);
  throw_if_cancelled(cancel, fn);
  sort_records(recs, batch_id_bound(checked.ids, out.num_vertices_after), team);
  throw_if_cancelled(cancel, fn);

  if (team <= 1 || recs.size() < 2) {
    replay_part_t<vid_t> part;
    replay_key_groups(recs, 0, recs.size(), props, n, copies, bases, part);
    if (!part.error_text.empty()) throw invalid_argument_error(part.error_text);
    out.ops = std::move(part.ops);
    add_replay_counts(sum, part.counts);
  } else {
    replay_on_team(recs, props, n, copies, bases, team, out.ops, sum);
  }

  for (const auto& op : out.ops) {
    out.insert_ops += op.kind == op_kind_t::insert ? 1 : 0;
    out.erase_ops += op.kind == op_kind_t::erase ? 1 : 0;
  }
  return out;
}

}  // namespace dyng::detail
