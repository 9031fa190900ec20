// Headless job JSON (parse_job, Qt Core's JSON reader): only JobError may come out. Relative
// paths resolve against an empty folder, so the files a job names are not found.
#include <cstddef>
#include <cstdint>

#include "app/headless/job_file.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    kinetic::app::headless::parse_job(kinetic::fuzz::text(data, size), "<fuzz job>",
                                      kinetic::fuzz::scratch_dir() / "job");
  } catch (const kinetic::app::headless::JobError&) {
  }
  return 0;
}
