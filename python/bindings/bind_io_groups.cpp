// The native side of dyng's all-or-nothing outputs: a write group that the command line opens
// around a command (io_write_group_open/commit/discard; src/dyng/io/write_group.hpp), and a
// writer of raw bytes for the outputs that are not text (io_write_bytes).
#include <memory>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>

#include "dyng/core/errors.hpp"
#include "dyng/io/write_group.hpp"
#include "dyng/io/writers.hpp"
#include "module.hpp"

namespace dyng::bindings {
namespace nb = nanobind;
namespace {

// The groups Python opened on this thread, innermost last; a write_group belongs to the thread
// that opened it, as the files staged in it do.
thread_local std::vector<std::unique_ptr<io::write_group>> t_groups;

std::unique_ptr<io::write_group> close_innermost(const char* function) {
  if (t_groups.empty())
    throw internal_error(std::string(function) +
                         "(): no write group is open on this thread; open one first");
  auto group = std::move(t_groups.back());
  t_groups.pop_back();
  return group;
}

}  // namespace

void bind_io_groups(nb::module_& m) {
  m.def(
      "io_write_group_open", [] { t_groups.push_back(std::make_unique<io::write_group>()); },
      "Opens a write group: files written on this thread wait in it until commit.");
  m.def(
      "io_write_group_commit",
      [] {
        auto group = close_innermost("io_write_group_commit");
        nb::gil_scoped_release release;
        group->commit();
      },
      "Puts every file of the innermost group in place and closes it.");
  m.def(
      "io_write_group_discard", [] { close_innermost("io_write_group_discard"); },
      "Closes the innermost group, removing its files' temporary copies and new folders.");
  m.def(
      "io_write_bytes",
      [](const std::string& path, const std::string& function, nb::bytes data) {
        std::string contents(data.c_str(), data.size());
        nb::gil_scoped_release release;
        io::write_text(path, function.c_str(), contents);
      },
      nb::arg("path"), nb::arg("function"), nb::arg("data"), "Writes bytes atomically.");
}

}  // namespace dyng::bindings
