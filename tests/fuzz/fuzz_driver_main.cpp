// The main of a fuzz target where libFuzzer is not linked (the gcc ASan/UBSan build of the engine
// tests): runs every corpus file through LLVMFuzzerTestOneInput, then a fixed-seed sequence of
// random mutations of them, bounded by a count and by wall seconds. No coverage feedback, but no
// second compile of the engine either (docs/design-notes.md, "Fuzzing").
//
//   fuzz_NAME [--iterations N] [--seconds S] [--seed N] [--max-len BYTES] [--timeout S]
//             [--artifacts DIR] CORPUS_DIR_OR_FILE...
//
// A crash, a sanitizer report, an uncaught exception or an input running longer than --timeout
// writes the input to DIR/crash-<target>-<n> (the current folder by default) and says so; the
// same run again (same seed and corpus) reaches the same input.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
// Present only under a sanitizer runtime: lets the input be saved before it exits.
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

// The input being run and where to save it, for the handlers (set before each run).
const Bytes* g_current = nullptr;
char g_crash_path[4096] = "";

void save_current_input() {
  static volatile sig_atomic_t saved = 0;
  if (saved != 0 || g_current == nullptr || g_crash_path[0] == '\0') return;
  saved = 1;
  // Only async-signal-safe calls: this runs in signal handlers.
  const int fd = ::open(g_crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  const uint8_t* p = g_current->data();
  std::size_t left = g_current->size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n <= 0) break;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  ::close(fd);
  const char lead[] = "fuzz driver: the failing input is in ";
  [[maybe_unused]] ssize_t w = ::write(2, lead, sizeof lead - 1);
  w = ::write(2, g_crash_path, std::strlen(g_crash_path));
  w = ::write(2, "\n", 1);
}

void on_signal(int sig) {
  if (sig == SIGALRM) {
    const char text[] = "fuzz driver: an input ran longer than --timeout (a hang)\n";
    [[maybe_unused]] ssize_t w = ::write(2, text, sizeof text - 1);
  }
  save_current_input();
  ::signal(sig, SIG_DFL);
  ::raise(sig == SIGALRM ? SIGABRT : sig);
}

void on_terminate() {
  std::fputs("fuzz driver: an exception the reader does not document escaped", stderr);
  try {
    if (auto e = std::current_exception()) std::rethrow_exception(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, ": %s", e.what());
  } catch (...) {
  }
  std::fputc('\n', stderr);
  save_current_input();
  std::_Exit(1);
}

Bytes read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Tokens that often sit on a reader's edge cases; inserted or written over a number.
const char* const kInteresting[] = {"0",
                                    "-1",
                                    "1e308",
                                    "-1e308",
                                    "1e-320",
                                    "nan",
                                    "inf",
                                    "-0",
                                    "4294967296",
                                    "9223372036854775807",
                                    "-9223372036854775808",
                                    "\"\"",
                                    "[]",
                                    "{}",
                                    "null",
                                    "\n",
                                    ",",
                                    "<",
                                    ">",
                                    "\"",
                                    "'",
                                    "${",
                                    "}",
                                    "$(",
                                    ")",
                                    "=",
                                    "[",
                                    "]",
                                    "\\",
                                    "\x00",
                                    "\xff"};

class Mutator {
 public:
  Mutator(uint64_t seed, std::size_t max_len) : rng_(seed), max_len_(max_len) {}

  // One to four of: flip a bit, set a byte, insert bytes, delete a range, copy a range of the
  // same input elsewhere, splice in part of another corpus input, insert an interesting token.
  Bytes mutate(const std::vector<Bytes>& corpus) {
    Bytes data = corpus[pick(corpus.size())];
    const std::size_t steps = 1 + pick(4);
    for (std::size_t s = 0; s < steps; ++s) step(data, corpus);
    if (data.size() > max_len_) data.resize(max_len_);
    return data;
  }

 private:
  std::size_t pick(std::size_t n) {
    return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
  }

  void step(Bytes& data, const std::vector<Bytes>& corpus) {
    const std::size_t n = data.size();
    switch (pick(7)) {
      case 0:
        if (n > 0) data[pick(n)] ^= static_cast<uint8_t>(1u << pick(8));
        break;
      case 1:
        if (n > 0) data[pick(n)] = static_cast<uint8_t>(pick(256));
        break;
      case 2: {
        const std::size_t count = 1 + pick(8);
        Bytes bytes(count);
        for (auto& b : bytes) b = static_cast<uint8_t>(pick(256));
        data.insert(data.begin() + static_cast<std::ptrdiff_t>(pick(n + 1)), bytes.begin(),
                    bytes.end());
        break;
      }
      case 3:
        if (n > 0) {
          const std::size_t at = pick(n);
          const std::size_t count = 1 + pick(std::min<std::size_t>(n - at, 64));
          data.erase(data.begin() + static_cast<std::ptrdiff_t>(at),
                     data.begin() + static_cast<std::ptrdiff_t>(at + count));
        }
        break;
      case 4:
        if (n > 0) {
          const std::size_t from = pick(n);
          const std::size_t count = 1 + pick(std::min<std::size_t>(n - from, 256));
          const Bytes chunk(data.begin() + static_cast<std::ptrdiff_t>(from),
                            data.begin() + static_cast<std::ptrdiff_t>(from + count));
          data.insert(data.begin() + static_cast<std::ptrdiff_t>(pick(n + 1)), chunk.begin(),
                      chunk.end());
        }
        break;
      case 5: {
        const Bytes& other = corpus[pick(corpus.size())];
        if (other.empty()) break;
        const std::size_t from = pick(other.size());
        const std::size_t count = 1 + pick(std::min<std::size_t>(other.size() - from, 512));
        const std::size_t at = pick(n + 1);
        data.erase(data.begin() + static_cast<std::ptrdiff_t>(at),
                   data.begin() + static_cast<std::ptrdiff_t>(std::min(n, at + pick(64))));
        data.insert(data.begin() + static_cast<std::ptrdiff_t>(at),
                    other.begin() + static_cast<std::ptrdiff_t>(from),
                    other.begin() + static_cast<std::ptrdiff_t>(from + count));
        break;
      }
      default: {
        const char* token = kInteresting[pick(std::size(kInteresting))];
        const std::size_t length = token[0] == '\0' ? 1 : std::strlen(token);
        const std::size_t at = pick(n + 1);
        // Over a run of digits when there is one there (a number becomes an edge value).
        std::size_t end = at;
        while (end < n && (std::isdigit(data[end]) != 0 || data[end] == '.')) ++end;
        data.erase(data.begin() + static_cast<std::ptrdiff_t>(at),
                   data.begin() + static_cast<std::ptrdiff_t>(end));
        data.insert(data.begin() + static_cast<std::ptrdiff_t>(at), token, token + length);
        break;
      }
    }
  }

  std::mt19937_64 rng_;
  std::size_t max_len_;
};

[[noreturn]] void usage(const char* program, const std::string& problem) {
  std::fprintf(stderr,
               "%s: %s\nusage: %s [--iterations N] [--seconds S] [--seed N] [--max-len BYTES] "
               "[--timeout S] [--artifacts DIR] CORPUS_DIR_OR_FILE...\n",
               program, problem.c_str(), program);
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string target = fs::path(argv[0]).filename().string();
  uint64_t iterations = 10000, seed = 1;
  double seconds = 10;
  std::size_t max_len = 64 * 1024;
  unsigned timeout = 30;
  fs::path artifacts = ".";
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(argv[0], arg + " needs a value");
      return argv[++i];
    };
    try {
      if (arg == "--iterations")
        iterations = std::stoull(value());
      else if (arg == "--seconds")
        seconds = std::stod(value());
      else if (arg == "--seed")
        seed = std::stoull(value());
      else if (arg == "--max-len")
        max_len = std::stoull(value());
      else if (arg == "--timeout")
        timeout = static_cast<unsigned>(std::stoul(value()));
      else if (arg == "--artifacts")
        artifacts = value();
      else if (arg.rfind("--", 0) == 0)
        usage(argv[0], "unknown option " + arg);
      else
        inputs.emplace_back(arg);
    } catch (const std::logic_error&) {
      usage(argv[0], "not a number after " + arg);
    }
  }
  if (inputs.empty()) usage(argv[0], "no corpus given");

  // Every file of each folder (sorted, so the run is the same everywhere), or the file itself.
  std::vector<Bytes> corpus;
  for (const auto& input : inputs) {
    if (fs::is_directory(input)) {
      std::vector<fs::path> files;
      for (const auto& entry : fs::directory_iterator(input))
        if (entry.is_regular_file()) files.push_back(entry.path());
      std::sort(files.begin(), files.end());
      for (const auto& file : files) corpus.push_back(read_file(file));
    } else if (fs::is_regular_file(input)) {
      corpus.push_back(read_file(input));
    } else {
      usage(argv[0], "no such corpus folder or file: " + input.string());
    }
  }
  if (corpus.empty()) corpus.emplace_back();

  std::error_code ec;
  fs::create_directories(artifacts, ec);
  std::set_terminate(on_terminate);
  // Under a sanitizer its own handlers report faults (with a stack) and call back to save the
  // input; without one, ours save it.
  if (__sanitizer_set_death_callback != nullptr) {
    __sanitizer_set_death_callback(save_current_input);
    for (int sig : {SIGABRT, SIGALRM}) ::signal(sig, on_signal);
  } else {
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM}) ::signal(sig, on_signal);
  }

  uint64_t runs = 0;
  const auto run = [&](const Bytes& data, const std::string& name) {
    std::snprintf(g_crash_path, sizeof g_crash_path, "%s", (artifacts / name).c_str());
    g_current = &data;
    ::alarm(timeout);
    LLVMFuzzerTestOneInput(data.data(), data.size());
    ::alarm(0);
    g_current = nullptr;
    ++runs;
  };

  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < corpus.size(); ++i)
    run(corpus[i], "crash-" + target + "-corpus-" + std::to_string(i));
  Mutator mutator(seed, max_len);
  uint64_t mutations = 0;
  for (; mutations < iterations; ++mutations) {
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (elapsed.count() >= seconds) break;
    const Bytes data = mutator.mutate(corpus);
    run(data, "crash-" + target + "-seed" + std::to_string(seed) + "-mutation-" +
                  std::to_string(mutations));
  }
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  std::printf(
      "fuzz driver: %s: %zu corpus inputs and %llu mutations (seed %llu) in %.1f s, %llu runs, no "
      "finding\n",
      target.c_str(), corpus.size(), static_cast<unsigned long long>(mutations),
      static_cast<unsigned long long>(seed), elapsed.count(),
      static_cast<unsigned long long>(runs));
  return 0;
}
