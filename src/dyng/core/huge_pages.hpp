// A hint for big fresh arrays: back them with huge pages before they are first touched. Fresh
// 4 KiB pages cost a fault (and a TLB miss) every few hundred entries, a fault per 2 MiB with
// huge pages (bench/README.md, "Figures behind design choices"). A no-op where the kernel does
// not support it.
#pragma once

#include <cstddef>

namespace dyng {

/// Asks the kernel to back the whole 2 MiB pages inside [data, data + bytes) with huge pages.
/// Defined in core/memory_pages.cpp, so that no header needs <sys/mman.h>: its Linux extras
/// depend on feature macros that some translation units turn off (the plugin wheels compile CUDA
/// sources with -U_GNU_SOURCE), and an inline body that differs between them would break the
/// one-definition rule.
void advise_huge_pages(void* data, size_t bytes) noexcept;

}  // namespace dyng
