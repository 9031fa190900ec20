#pragma once
// Helpers shared by the tests/engine/model_*_test.cpp files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "engine/core/error.hpp"
#include "support/test_paths.hpp"

namespace kinetic::test {

namespace fs = std::filesystem;

inline fs::path data_dir() {
  return fs::path(test_source_dir()) / "data";
}

// Runs `f`, expecting an Error with `code`; returns it for further checks.
template <typename F>
Error expect_error(F&& f, ErrorCode code) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << "got " << to_string(e.code()) << ": " << e.what();
    return e;
  }
  ADD_FAILURE() << "expected Error(" << to_string(code) << "), nothing was thrown";
  return Error(code, "");
}

// Runs `f`, which must throw an Error within five seconds (a refusal, not a long read or a hang);
// returns its message and hint, as "message | hint".
template <typename F>
std::string refused_quickly(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  std::string message;
  try {
    f();
    ADD_FAILURE() << "nothing was thrown";
  } catch (const Error& error) {
    message = error.message() + " | " + error.hint();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << message;
  return message;
}

// A fresh temporary folder per test.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() / ("kinetic_model_" + std::string(info->test_suite_name()) +
                                         "_" + info->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }
  fs::path write(const std::string& relative, const std::string& text) const {
    const fs::path p = path_ / relative;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p;
  }

 private:
  fs::path path_;
};

// Scoped environment variable.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace kinetic::test
