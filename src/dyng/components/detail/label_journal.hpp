// The repairs' one way of changing a components state: every write of a label, a size or the
// count goes through here, which remembers each entry's value before its first write. undo() puts
// them back (the update policy's undo), and the remembered values give `affected` and
// `relabelled` without a pass over all vertices.
#pragma once

#include <cstdint>
#include <vector>

#include "dyng/components/components.hpp"

namespace dyng::components::detail {

template <class vid_t>
class label_journal_t {
 public:
  explicit label_journal_t(state_t<vid_t>& state) : state_(state) {}

  /// Starts a repair of the (already grown) state.
  void begin() {
    recorded_.assign(state_.labels.size(), 0);
    records_.clear();
    count_before_ = state_.count;
    begun_ = true;
  }

  int64_t label(vid_t v) const { return state_.labels[static_cast<size_t>(v)]; }
  int64_t size(int64_t label) const { return state_.sizes[static_cast<size_t>(label)]; }

  void set_label(int64_t v, int64_t label) {
    remember(v);
    state_.labels[static_cast<size_t>(v)] = label;
  }
  void set_size(int64_t label, int64_t size) {
    remember(label);
    state_.sizes[static_cast<size_t>(label)] = size;
  }
  void add_components(int64_t delta) { state_.count += delta; }

  /// Vertices whose label or size entry differs from before the repair.
  int64_t affected() const {
    int64_t count = 0;
    for (const record_t& r : records_) {
      const auto v = static_cast<size_t>(r.vertex);
      count += state_.labels[v] != r.label || state_.sizes[v] != r.size ? 1 : 0;
    }
    return count;
  }
  /// Vertices whose label differs from before the repair (new vertices included).
  int64_t relabelled() const {
    int64_t count = 0;
    for (const record_t& r : records_) {
      count += state_.labels[static_cast<size_t>(r.vertex)] != r.label ? 1 : 0;
    }
    return count;
  }

  void undo() noexcept {
    if (!begun_) return;
    for (const record_t& r : records_) {
      state_.labels[static_cast<size_t>(r.vertex)] = r.label;
      state_.sizes[static_cast<size_t>(r.vertex)] = r.size;
    }
    records_.clear();
    state_.count = count_before_;
    begun_ = false;
  }

 private:
  struct record_t {
    int64_t vertex;
    int64_t label;
    int64_t size;
  };

  void remember(int64_t v) {
    if (recorded_[static_cast<size_t>(v)]) return;
    recorded_[static_cast<size_t>(v)] = 1;
    records_.push_back(
        {v, state_.labels[static_cast<size_t>(v)], state_.sizes[static_cast<size_t>(v)]});
  }

  state_t<vid_t>& state_;
  std::vector<uint8_t> recorded_;
  std::vector<record_t> records_;
  int64_t count_before_ = 0;
  bool begun_ = false;
};

/// Makes each vertex the batch added a component of its own (growth left it at -1, size 0).
template <class vid_t>
void add_new_vertices(const change_log_t<vid_t>& log, label_journal_t<vid_t>& journal) {
  for (int64_t v = log.num_vertices_before; v < static_cast<int64_t>(log.num_vertices_after); ++v) {
    journal.set_label(v, v);
    journal.set_size(v, 1);
    journal.add_components(1);
  }
}

/// Gives every vertex of `members` (one whole component, in any order) its smallest id as label.
template <class vid_t, class range_t>
int64_t label_component(const range_t& members, label_journal_t<vid_t>& journal) {
  int64_t smallest = INT64_MAX;
  for (const auto v : members) smallest = static_cast<int64_t>(v) < smallest ? v : smallest;
  for (const auto v : members) {
    if (journal.label(v) != smallest) journal.set_label(v, smallest);
  }
  journal.set_size(smallest, static_cast<int64_t>(members.size()));
  return smallest;
}

}  // namespace dyng::components::detail
