// The round-based scratch memory of device_workspace.hpp.
#include "dyng/backend/cuda/device_workspace.hpp"

#include <algorithm>

#include "dyng/backend/cuda/device_allocator.hpp"

namespace dyng::cuda {
namespace {

/// Offsets handed out are multiples of this: enough for any element type and for coalescing.
constexpr std::size_t k_alignment = 256;

/// The smallest block: a batch of a few thousand changes fits in one.
constexpr std::size_t k_first_block = std::size_t{1} << 20;

}  // namespace

template <class block_t>
unsigned char* device_workspace_t::blocks_t<block_t>::take(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  used = (used + k_alignment - 1) & ~(k_alignment - 1);
  if (blocks.empty() || used + bytes > blocks.back().size()) {
    // At least as large as all blocks so far: a round that keeps growing adds few blocks.
    blocks.emplace_back(std::max({bytes, held(), k_first_block}));
    used = 0;
    grew = true;
  }
  unsigned char* at = blocks.back().data() + used;
  used += bytes;
  return at;
}

template <class block_t>
std::size_t device_workspace_t::blocks_t<block_t>::held() const noexcept {
  std::size_t total = 0;
  for (const block_t& b : blocks) total += b.size();
  return total;
}

template <class block_t>
void device_workspace_t::blocks_t<block_t>::restart() {
  grew = false;
  used = 0;
  if (blocks.size() <= 1) return;
  const std::size_t total = held();
  blocks.clear();
  blocks.emplace_back(total);
  grew = true;
}

template <class block_t>
void device_workspace_t::blocks_t<block_t>::trim() noexcept {
  if (held() <= k_kept_bytes) return;
  blocks.clear();
  used = 0;
}

std::size_t device_workspace_t::device_bytes() const noexcept { return device_.held(); }

void device_workspace_t::reserve(std::size_t device_bytes) {
  if (device_.blocks.empty()) {
    device_.blocks.emplace_back(std::max(device_bytes, k_first_block));
    synchronize(nullptr);  // allocated on the default stream, as begin() explains
  }
  if (host_.blocks.empty()) host_.blocks.emplace_back(k_first_block);
}

void device_workspace_t::end() noexcept {
  idle_ = true;
  device_.trim();
  host_.trim();
}

void device_workspace_t::begin(void* stream) {
  if (!idle_) synchronize(stream);
  idle_ = false;
  temporary_ = nullptr;
  temporary_bytes_ = 0;
  device_.restart();
  host_.restart();
  // A merged block is allocated on the default stream: the round's stream must see it first
  // (a non-blocking stream is not ordered after the default one).
  if (device_.grew) synchronize(nullptr);
}

unsigned char* device_workspace_t::take_device(std::size_t bytes) {
  device_.grew = false;
  unsigned char* at = device_.take(bytes);
  if (device_.grew) synchronize(nullptr);  // as in begin(): only when the round outgrows the block
  return at;
}

unsigned char* device_workspace_t::take_host(std::size_t bytes) { return host_.take(bytes); }

void* device_workspace_t::temporary(std::size_t bytes) {
  if (bytes > temporary_bytes_) {
    temporary_ = take_device(bytes);
    temporary_bytes_ = bytes;
  }
  return temporary_;
}

}  // namespace dyng::cuda
