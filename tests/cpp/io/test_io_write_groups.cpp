// write_group and the targets of atomic_file: files of one group appear together or not at all
// (with the folders made for them), nested groups hand their files to the outer one, and a
// write reaches the file behind a symbolic link and keeps a hard-linked file's inode.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "check.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/io/atomic_file.hpp"
#include "dyng/io/write_group.hpp"
#include "io/io_test_util.hpp"

using dyng::file_format_error;
using namespace dyng::io;
namespace fs = std::filesystem;

namespace {

void write(const std::string& path, const std::string& text) {
  atomic_file f(path, "write_text");
  f.put(text);
  f.commit();
}

size_t entries(const std::string& folder) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(folder)) ++n;
  return n;
}

std::string fresh_folder(const std::string& name) {
  const std::string folder = dyng_test::scratch_dir() + "/" + name;
  fs::create_directories(folder);
  return folder;
}

}  // namespace

DYNG_TEST("a_group_puts_its_files_in_place_only_at_commit") {
  const std::string d = fresh_folder("commit");
  dyng_test::write_file("commit/a.txt", "old a\n");
  {
    write_group group;
    write(d + "/a.txt", "new a\n");
    write(d + "/new/b.txt", "new b\n");
    CHECK_EQ(dyng_test::read_file(d + "/a.txt"), std::string("old a\n"));
    CHECK(!fs::exists(d + "/new/b.txt"));
    group.commit();
  }
  CHECK_EQ(dyng_test::read_file(d + "/a.txt"), std::string("new a\n"));
  CHECK_EQ(dyng_test::read_file(d + "/new/b.txt"), std::string("new b\n"));
  CHECK_EQ(entries(d), size_t{2});  // a.txt and new/: no temporary file
}

DYNG_TEST("a_group_closed_without_commit_leaves_nothing_new") {
  const std::string d = fresh_folder("discard");
  dyng_test::write_file("discard/a.txt", "old a\n");
  {
    write_group group;
    write(d + "/a.txt", "new a\n");
    write(d + "/x/y/b.txt", "new b\n");
    write(d + "/x/c.txt", "new c\n");
  }
  CHECK_EQ(dyng_test::read_file(d + "/a.txt"), std::string("old a\n"));
  CHECK_EQ(entries(d), size_t{1});  // the folders made for b and c are gone too
  CHECK(write_group::current() == nullptr);
}

DYNG_TEST("an_inner_group_hands_its_files_to_the_outer_one") {
  const std::string d = fresh_folder("nested");
  {
    write_group outer;
    {
      write_group inner;
      write(d + "/a.txt", "a\n");
      inner.commit();
    }
    CHECK(write_group::current() == &outer);
    CHECK(!fs::exists(d + "/a.txt"));
  }
  CHECK(!fs::exists(d + "/a.txt"));
  {
    write_group outer;
    {
      write_group inner;
      write(d + "/a.txt", "a\n");
      inner.commit();
    }
    outer.commit();
  }
  CHECK_EQ(dyng_test::read_file(d + "/a.txt"), std::string("a\n"));
}

DYNG_TEST("a_failed_file_leaves_the_group_as_it_was") {
  const std::string d = fresh_folder("failed");
  fs::create_directories(d + "/in_the_way");
  {
    write_group group;
    write(d + "/a.txt", "a\n");
    CHECK_THROWS_AS(write(d + "/in_the_way", "b\n"), file_format_error);
  }
  CHECK_EQ(entries(d), size_t{1});
}

DYNG_TEST("links_are_written_through_and_hard_links_kept") {
  const std::string d = fresh_folder("links");
  dyng_test::write_file("links/real.txt", "old\n");
  fs::create_symlink("real.txt", d + "/link.txt");
  write(d + "/link.txt", "through\n");
  CHECK(fs::is_symlink(d + "/link.txt"));
  CHECK_EQ(dyng_test::read_file(d + "/real.txt"), std::string("through\n"));
  fs::create_hard_link(d + "/real.txt", d + "/other.txt");
  struct stat before;
  ::stat((d + "/real.txt").c_str(), &before);
  write(d + "/real.txt", "in place, longer than before\n");
  struct stat after;
  ::stat((d + "/other.txt").c_str(), &after);
  CHECK_EQ(after.st_ino, before.st_ino);
  CHECK_EQ(dyng_test::read_file(d + "/other.txt"), std::string("in place, longer than before\n"));
  write(d + "/real.txt", "short\n");
  CHECK_EQ(dyng_test::read_file(d + "/other.txt"), std::string("short\n"));
}

DYNG_TEST_MAIN()
