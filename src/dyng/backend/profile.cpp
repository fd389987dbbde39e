#include "dyng/backend/profile.hpp"

#include <chrono>

#if defined(DYNG_HAVE_CUDA)
#include "dyng/backend/cuda/profile_device.hpp"
#endif

namespace dyng {
namespace {

int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Depth of the innermost open stage on this thread, per session: a thread usually runs under
// one session at a time, so a short list beats a map.
struct thread_depth_t {
  const profile_session_t* session;
  int depth;
};
thread_local std::vector<thread_depth_t> t_depths;

// The context of the call this thread is making, or null.
thread_local const profile_context_t::state_t* t_context = nullptr;

int& depth_on_this_thread(const profile_session_t* session) {
  for (auto& entry : t_depths) {
    if (entry.session == session) return entry.depth;
  }
  t_depths.push_back({session, 0});
  return t_depths.back().depth;
}

void forget_this_thread(const profile_session_t* session) {
  for (size_t i = 0; i < t_depths.size(); ++i) {
    if (t_depths[i].session == session && t_depths[i].depth == 0) {
      t_depths.erase(t_depths.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
  }
}

}  // namespace

// The CUDA event pairs of the stages that asked for them; empty in host-only builds.
struct profile_session_t::pending_events_t {
#if defined(DYNG_HAVE_CUDA)
  cuda::profile_events_t events;
#endif
};

profile_session_t::profile_session_t(profile_options_t options)
    : options_(options),
      clock_origin_ns_(steady_ns()),
      events_(std::make_unique<pending_events_t>()) {}

profile_session_t::~profile_session_t() = default;

profile_context_t::profile_context_t(const execution_t& exec) noexcept {
  profile_session_t* session = exec.profiler.get();
  if (session == nullptr) return;
  state_.session = session;
  state_.stream = exec.stream;
  state_.device = exec.device;
  state_.on_device = exec.backend == backend_t::cuda;
  previous_ = t_context;
  t_context = &state_;
  open_ = true;
  profile_detail::open_contexts.fetch_add(1, std::memory_order_relaxed);
}

profile_context_t::profile_context_t(const profile_fork_t& fork) noexcept {
  if (fork.context == nullptr) return;
  try {
    int& depth = depth_on_this_thread(fork.context->session);
    previous_depth_ = depth;
    depth = fork.depth;
  } catch (...) {
    return;  // this worker's stages go unrecorded
  }
  state_ = *fork.context;
  previous_ = t_context;
  t_context = &state_;
  open_ = true;
  profile_detail::open_contexts.fetch_add(1, std::memory_order_relaxed);
}

profile_context_t::~profile_context_t() {
  if (!open_) return;
  if (previous_depth_ >= 0) {
    depth_on_this_thread(state_.session) = previous_depth_;
    if (previous_depth_ == 0) forget_this_thread(state_.session);
  }
  t_context = previous_;
  profile_detail::open_contexts.fetch_sub(1, std::memory_order_relaxed);
}

profile_fork_t profile_fork() noexcept {
  const profile_context_t::state_t* context = t_context;
  if (context == nullptr) return {};
  try {
    return {context, depth_on_this_thread(context->session)};
  } catch (...) {
    return {};
  }
}

bool profile_session_t::begin(open_stage_t& stage, const char* name) noexcept {
  // A stage that cannot be recorded (no memory for the thread's depth entry) is not timed; the
  // call itself goes on.
  try {
    int& depth = depth_on_this_thread(this);
    stage.name = name;
    stage.depth = depth;
    stage.context = t_context;
    stage.events = -1;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stage.begin_index = next_begin_index_++;
#if defined(DYNG_HAVE_CUDA)
      if (stage.context->on_device && options_.cuda_events) {
        stage.events = events_->events.record_start(stage.context->device, stage.context->stream);
      }
#endif
    }
    ++depth;
  } catch (...) {
    return false;
  }
#if defined(DYNG_HAVE_CUDA)
  // NVTX ranges mark host stages too: Nsight Systems shows them on the CPU timeline.
  if (options_.nvtx) cuda::push_nvtx_range(name);
#endif
  stage.start_ns = steady_ns();
  return true;
}

void profile_session_t::end(open_stage_t& stage) noexcept {
#if defined(DYNG_HAVE_CUDA)
  if (stage.context->on_device) {
    if (stage.events >= 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      events_->events.record_end(stage.events, stage.context->stream);
    }
    if (options_.sync_stages) cuda::synchronize_for_profile(stage.context->stream);
  }
  if (options_.nvtx) cuda::pop_nvtx_range();
#endif
  const int64_t end_ns = steady_ns();
  int& depth = depth_on_this_thread(this);
  depth = stage.depth;
  if (depth == 0) forget_this_thread(this);
  stage_sample_t sample;
  sample.name = stage.name;
  sample.depth = stage.depth;
  sample.begin_index = stage.begin_index;
  sample.host_ms = static_cast<double>(end_ns - stage.start_ns) * 1e-6;
  std::lock_guard<std::mutex> lock(mutex_);
  sample.start_ms = static_cast<double>(stage.start_ns - clock_origin_ns_) * 1e-6;
  // end() runs in a destructor, possibly while an exception unwinds: a sample that cannot be
  // stored is dropped rather than ending the process.
  try {
    samples_.push_back(sample);
    sample_events_.push_back(stage.events);
  } catch (...) {
    if (samples_.size() > sample_events_.size()) samples_.pop_back();
  }
}

void profile_session_t::resolve_device_times() {
#if defined(DYNG_HAVE_CUDA)
  for (size_t i = 0; i < samples_.size(); ++i) {
    if (sample_events_[i] >= 0) {
      samples_[i].device_ms = events_->events.elapsed_ms(sample_events_[i]);
      sample_events_[i] = -1;
    }
  }
#endif
}

std::vector<stage_sample_t> profile_session_t::samples() {
  std::lock_guard<std::mutex> lock(mutex_);
  resolve_device_times();
  return samples_;
}

std::vector<std::pair<std::string, int64_t>> profile_session_t::counters() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return counters_;
}

void profile_session_t::reset() {
  std::lock_guard<std::mutex> lock(mutex_);
  resolve_device_times();  // so that the events can be returned to the pool
  samples_.clear();
  sample_events_.clear();
  counters_.clear();
#if defined(DYNG_HAVE_CUDA)
  events_->events.clear();
#endif
  next_begin_index_ = 0;
  clock_origin_ns_ = steady_ns();
}

void profile_session_t::add_to_counter(std::string_view name, int64_t amount) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [key, value] : counters_) {
    if (key == name) {
      value += amount;
      return;
    }
  }
  counters_.emplace_back(std::string(name), amount);
}

const char* profile_session_t::intern(std::string_view name) {
  std::lock_guard<std::mutex> lock(mutex_);
  return names_.emplace(name).first->c_str();
}

void stage_scope_t::open(const char* name) noexcept {
  const profile_context_t::state_t* context = t_context;
  if (context == nullptr) return;
  if (context->session->begin(stage_, name)) session_ = context->session;
}

void stage_scope_t::open(std::string_view prefix, const char* suffix) noexcept {
  const profile_context_t::state_t* context = t_context;
  if (context == nullptr) return;
  const char* name = nullptr;
  try {
    std::string full(prefix);
    full += suffix;
    name = context->session->intern(full);
  } catch (...) {
    return;
  }
  if (context->session->begin(stage_, name)) session_ = context->session;
}

void stage_scope_t::close() noexcept { session_->end(stage_); }

void count_in_profile_slow(const char* name, int64_t amount) noexcept {
  const profile_context_t::state_t* context = t_context;
  if (context == nullptr) return;
  try {
    context->session->add_to_counter(name, amount);
  } catch (...) {
    // A counter that cannot be stored is lost; the call goes on.
  }
}

std::string_view algorithm_of_call(std::string_view fn) noexcept {
  // Public calls read "sssp.update()"; the GPU entry points name themselves in C++ terms
  // ("sssp::cuda::update()"): both start with the algorithm.
  const size_t end = fn.find_first_of(".:");
  return end == std::string_view::npos ? fn : fn.substr(0, end);
}

bool nvtx_available() noexcept {
#if defined(DYNG_HAVE_CUDA)
  return cuda::nvtx_compiled();
#else
  return false;
#endif
}

}  // namespace dyng
