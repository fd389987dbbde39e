// Scratch memory for an operation that runs again and again on small inputs (device_graph_t's
// apply() of a small batch): its temporary arrays are carved from blocks that the workspace
// keeps, device memory for the kernels and page-locked host memory for the copies both ways,
// instead of being allocated and freed one by one on every call. For a batch of 1,000 changes
// the per-array pool calls cost more host time than the kernels take on the device.
//
// Use is in rounds on one stream: begin(), take what the round needs, wait for the stream,
// end(). A round's arrays stay valid until the next begin(). Blocks grow: when a round outgrows
// the last block, another one is added (earlier arrays keep their memory), and the next begin()
// merges them into one block that holds the whole round, so that a round of the same size then
// allocates nothing. Only end() shrinks them: past k_kept_bytes of a kind it frees that kind.
// Blocks are allocated and freed on the default stream, like a device graph's storage (a user
// stream may be destroyed before the owner of the workspace).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "dyng/backend/cuda/device_buffer.hpp"

namespace dyng::cuda {

/// An owning block of page-locked host memory (pinned_allocate()); move-only.
class pinned_block_t {
 public:
  explicit pinned_block_t(std::size_t bytes)
      : data_(static_cast<unsigned char*>(pinned_allocate(bytes))), size_(bytes) {}
  pinned_block_t(const pinned_block_t&) = delete;
  pinned_block_t& operator=(const pinned_block_t&) = delete;
  pinned_block_t(pinned_block_t&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  pinned_block_t& operator=(pinned_block_t&& other) noexcept {
    if (this != &other) {
      pinned_deallocate(data_);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~pinned_block_t() { pinned_deallocate(data_); }

  unsigned char* data() noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }

 private:
  unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
};

class device_workspace_t {
 public:
  /// Starts a round on `stream`: everything the last round took is free again. If the last
  /// round never reached end() (it threw), its queued work may still use the memory, so this
  /// waits for `stream` first.
  void begin(void* stream);

  /// Ends the round. The caller has waited for the round's stream: nothing queued uses the
  /// memory any more, so the next round may rewrite the host blocks at once. Blocks beyond
  /// k_kept_bytes of either kind are given back here: a single huge batch must not keep its
  /// scratch (gigabytes of device memory, or of pinned host memory that the OS cannot page) for
  /// the life of the graph, while the rounds of a stream of small batches keep theirs.
  void end() noexcept;

  /// Allocates the first block of each kind now, outside any round, where none is held yet: the
  /// first round of a small batch then allocates nothing (pinning host memory costs far more
  /// than such a round). The device block holds at least `device_bytes` (a larger graph's small
  /// batch needs more scratch: its sorts' temporary storage grows with the rows), the host block
  /// the default size. Device graphs call it when they are made.
  void reserve(std::size_t device_bytes = 0);

  /// The most bytes of each kind kept from one round to the next.
  static constexpr std::size_t k_kept_bytes = std::size_t{256} << 20;

  /// Room for `count` values of T in device memory (nullptr for 0), valid until begin().
  template <class T>
  T* device(std::size_t count) {
    return reinterpret_cast<T*>(take_device(count * sizeof(T)));
  }

  /// Room for `count` values of T in page-locked host memory (nullptr for 0), valid until begin().
  template <class T>
  T* host(std::size_t count) {
    return reinterpret_cast<T*>(take_host(count * sizeof(T)));
  }

  /// Device scratch for one library call at a time (CUB's temporary storage): at least `bytes`,
  /// the same memory on every call while it is large enough. The calls are ordered on the
  /// round's stream, so each is done with it before the next one starts.
  void* temporary(std::size_t bytes);

  /// Device memory the workspace holds, in bytes.
  std::size_t device_bytes() const noexcept;

 private:
  /// Blocks of one kind, handed out by bumping an offset into the last one.
  template <class block_t>
  struct blocks_t {
    std::vector<block_t> blocks;
    std::size_t used = 0;  ///< Bytes taken from blocks.back().
    bool grew = false;     ///< A block was added since the last restart().

    unsigned char* take(std::size_t bytes);
    std::size_t held() const noexcept;
    void restart();
    void trim() noexcept;  ///< Frees every block when they hold more than k_kept_bytes.
  };

  unsigned char* take_device(std::size_t bytes);
  unsigned char* take_host(std::size_t bytes);

  blocks_t<device_buffer<unsigned char>> device_;
  blocks_t<pinned_block_t> host_;
  void* temporary_ = nullptr;
  std::size_t temporary_bytes_ = 0;
  bool idle_ = true;
};

}  // namespace dyng::cuda
