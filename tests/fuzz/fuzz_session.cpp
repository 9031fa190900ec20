// Session files (apply_session_json) loaded into a real StudioDocument, with no window: the
// document and its robot loading need only Qt Core. Relative paths resolve against tests/data, so
// the seeds' robot is tests/data's tiny_gripper (fast to load). Beyond "no crash, no exception",
// two properties of the studio's own are checked, each a lost-work bug when broken:
// - a file that is refused changes nothing in the document it was opened into;
// - a file that opens is saved (session_to_json) as a file that opens again, and saving that one
//   gives the same session (a session the studio wrote must be one it reads back as it was).
#include <QCoreApplication>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/document/studio_document.hpp"
#include "app/session/session_file.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using kinetic::app::apply_session_json;
using kinetic::app::session_to_json;
using kinetic::app::SessionLoadResult;
using kinetic::app::StudioDocument;

const QString kSource = QStringLiteral("<fuzz session>");
const QString kBaseDir = QString::fromUtf8(kinetic::fuzz::test_data_dir());

// QObject's machinery (signals, translations) expects an application object; one for the run.
void ensure_application() {
  static int argc = 1;
  static char name[] = "fuzz_session";
  static char* argv[] = {name, nullptr};
  static const auto* const app = new QCoreApplication(argc, argv);
  (void)app;
}

// A document as the studio has it before a session opens: the Planner and Trajectories panels
// have put their settings in (a session whose settings are dropped leaves these).
std::unique_ptr<StudioDocument> studio_document() {
  auto document = std::make_unique<StudioDocument>();
  document->set_planner_settings(kinetic::panels::PlannerSettings{});
  document->set_retime_settings(kinetic::panels::RetimeSettings{});
  return document;
}

[[noreturn]] void broken(const char* property, const std::string& detail) {
  std::fprintf(stderr, "fuzz_session: %s\n%s\n", property, detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ensure_application();
  // A fresh document per input: the verdict on an input never depends on the ones before it.
  const auto document = studio_document();
  const std::string before = session_to_json(*document);
  const quint64 generation = document->work_generation();
  const SessionLoadResult result =
      apply_session_json(*document, kinetic::fuzz::text(data, size), kSource, kBaseDir);
  // KINETIC_FUZZ_VERBOSE=1 says what each input did (to see that a seed opens, or why not).
  if (std::getenv("KINETIC_FUZZ_VERBOSE"))
    std::fprintf(stderr, "%s (%lld warnings)\n", result.ok() ? "opened" : qPrintable(result.error),
                 static_cast<long long>(result.warnings.size()));
  if (!result.ok()) {
    if (session_to_json(*document) != before || document->work_generation() != generation)
      broken("a refused session changed the document", result.error.toStdString());
    return 0;
  }
  const std::string saved = session_to_json(*document, result.camera);
  const auto reopened = studio_document();
  const SessionLoadResult again = apply_session_json(*reopened, saved, kSource, kBaseDir);
  if (!again.ok())
    broken("a session the studio saved does not open again",
           again.error.toStdString() + "\n" + saved);
  // Compared as JSON values, not bytes: -0.0 and 0.0 are one number (a rotation of half a turn is
  // written with w = -0.0 once and 0.0 the next time; the same session).
  if (const std::string resaved = session_to_json(*reopened, again.camera);
      nlohmann::json::parse(resaved) != nlohmann::json::parse(saved))
    broken("a saved session opened and saved again is not the same session",
           saved + "\n--- saved again ---\n" + resaved);
  return 0;
}
