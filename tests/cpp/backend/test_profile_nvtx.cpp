// NVTX ranges of profile stages (CUDA builds): with nvtx=true every stage pushes a range named
// after it and pops it when it ends, host stages included; with nvtx=false nothing reaches NVTX.
// The test is its own NVTX tool: it links a static injection (NVTX's InitializeInjectionNvtx2_fnptr
// hook, the one Nsight Systems' loader also goes through) that records the pushes and pops, so
// it needs no profiler installed and no GPU.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "check.hpp"
#include "dyng/backend/profile.hpp"

namespace {

std::vector<std::string> g_events;

int record_push(const char* message) {
  g_events.emplace_back(std::string("push ") + message);
  return 0;
}

int record_pop() {
  g_events.emplace_back("pop");
  return 0;
}

// The injection ABI of nvtx3/nvtxDetail/nvtxTypes.h, spelled out: including the NVTX header here
// would also define the weak hook this file defines.
using function_pointer_t = void (*)();
using function_table_t = function_pointer_t**;
struct export_table_callbacks_t {
  size_t struct_size;
  int (*get_module_function_table)(int module, function_table_t* table, unsigned* size);
};
using get_export_table_t = const void* (*)(uint32_t id);
constexpr uint32_t k_export_table_callbacks = 1;  // NVTX_ETID_CALLBACKS
constexpr int k_module_core = 1;                  // NVTX_CB_MODULE_CORE
constexpr unsigned k_range_push_a = 9;            // NVTX_CBID_CORE_RangePushA
constexpr unsigned k_range_pop = 11;              // NVTX_CBID_CORE_RangePop

int initialize_injection(get_export_table_t get_export_table) {
  const auto* callbacks =
      static_cast<const export_table_callbacks_t*>(get_export_table(k_export_table_callbacks));
  function_table_t table = nullptr;
  unsigned size = 0;
  if (callbacks == nullptr || !callbacks->get_module_function_table(k_module_core, &table, &size) ||
      size <= k_range_pop) {
    return 0;
  }
  *table[k_range_push_a] = reinterpret_cast<function_pointer_t>(&record_push);
  *table[k_range_pop] = reinterpret_cast<function_pointer_t>(&record_pop);
  return 1;
}

}  // namespace

extern "C" {
int (*InitializeInjectionNvtx2_fnptr)(get_export_table_t) = &initialize_injection;
}

namespace {

void run_stages(bool nvtx) {
  dyng::profile_session_t session(dyng::profile_options_t{false, nvtx, false});
  dyng::execution_t exec;  // a host execution: NVTX marks host stages as well
  exec.profiler.set(&session);
  const dyng::profile_context_t context(exec);
  const dyng::stage_scope_t outer("nvtx.outer");
  {
    const dyng::stage_scope_t inner("nvtx.inner");
  }
}

DYNG_TEST("nvtx_available in a CUDA build") { CHECK(dyng::nvtx_available()); }

DYNG_TEST("nvtx=false: no ranges") {
  g_events.clear();
  run_stages(false);
  CHECK(g_events.empty());
}

DYNG_TEST("nvtx=true: one range per stage, nested, named after it") {
  g_events.clear();
  run_stages(true);
  CHECK((g_events == std::vector<std::string>{"push nvtx.outer", "push nvtx.inner", "pop", "pop"}));
}

}  // namespace

DYNG_TEST_MAIN()
