#include "app/document/file_kind.hpp"

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <algorithm>
#include <cctype>

namespace kinetic::app {

namespace {

bool ends_with(const std::string& name, const std::string& end) {
  if (name.size() < end.size()) return false;
  return std::equal(end.rbegin(), end.rend(), name.rbegin(), [](char a, char b) {
    return a == std::tolower(static_cast<unsigned char>(b));
  });
}

// robot.urdf, or robot.urdf.xacro (and other xacro robot descriptions).
bool ends_with_urdf(const std::string& name) {
  return ends_with(name, ".urdf") || ends_with(name, ".xacro");
}

// The first character that is not white space or a UTF-8 byte order mark is '<'.
bool starts_like_xml(const std::string& text) {
  size_t at = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  return at < text.size() && text[at] == '<';
}

// The path as a shell takes it back: quoted when it holds anything but plain path characters.
std::string shell_word(const std::string& path) {
  const bool plain = !path.empty() && std::all_of(path.begin(), path.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string("/._-+,:=@%").find(c) != std::string::npos;
  });
  if (plain) return path;
  std::string quoted = "'";
  for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

const char* noun(FileKind kind) {
  switch (kind) {
    case FileKind::Job:
      return "a headless job file";
    case FileKind::Session:
      return "a Kinetic session file";
    case FileKind::Scene:
      return "a scene file";
    case FileKind::Trajectory:
      return "a trajectory file";
    case FileKind::Urdf:
      return "a URDF";
    case FileKind::MotionPlanRequest:
      return "a MoveIt motion plan request";
    case FileKind::Other:
      break;
  }
  return "another file";
}

const char* expected_noun(FileKind kind) {
  switch (kind) {
    case FileKind::Job:
      return "a job";
    case FileKind::Session:
      return "a session";
    case FileKind::Scene:
      return "a scene";
    case FileKind::Trajectory:
      return "a trajectory";
    case FileKind::Urdf:
      return "a robot";
    case FileKind::MotionPlanRequest:
      return "a motion plan request";
    case FileKind::Other:
      break;
  }
  return "what was expected";
}

// Where a file of this kind goes instead; the studio's menus when it was given to the studio.
std::string what_to_do(FileKind found, FileKind expected, const std::string& path) {
  const std::string file = shell_word(path);
  const bool in_the_studio = expected == FileKind::Session;
  switch (found) {
    case FileKind::Job:
      return "run it with kinetic-studio --headless " + file;
    case FileKind::Session:
      return "open it in the studio (kinetic-studio " + file + ")";
    case FileKind::Scene:
      return in_the_studio ? std::string("load it with File → Load scene…")
                           : "pass it with --scene " + file + ", or name it as a job's \"scene\"";
    case FileKind::Trajectory:
      return "import it in the studio's Trajectory panel";
    case FileKind::Urdf:
      if (in_the_studio) return "open it as the robot (kinetic-studio " + file + ")";
      return "use --robot " + file +
             (expected == FileKind::Job ? " with a goal flag (--goal-named, --goal-joints, "
                                          "--goal-pose or --goal-relative)"
                                        : "");
    case FileKind::MotionPlanRequest:
      return "give it as a job step's goal {\"request\": \"" + path +
             "\"} (and the job's start), or plan a folder of scenes and requests with --benchmark "
             "DIR";
    case FileKind::Other:
      break;
  }
  return {};
}

}  // namespace

FileKind kind_of_format(const std::string& format) {
  if (format == "kinetic-job") return FileKind::Job;
  if (format == "kinetic-session") return FileKind::Session;
  if (format == "kinetic-scene") return FileKind::Scene;
  if (format == "kinetic-trajectory") return FileKind::Trajectory;
  return FileKind::Other;
}

namespace {

// A top-level YAML key at the start of a line ("world:", "goal_constraints:").
bool has_top_level_key(const std::string& text, const std::string& key) {
  for (std::size_t at = text.find(key + ":"); at != std::string::npos;
       at = text.find(key + ":", at + 1))
    if (at == 0 || text[at - 1] == '\n') return true;
  return false;
}

}  // namespace

FileKind file_kind(const std::string& text, const std::string& name) {
  if (ends_with_urdf(name) || starts_like_xml(text)) return FileKind::Urdf;
  if (ends_with(name, ".scene")) return FileKind::Scene;
  if (ends_with(name, ".yaml") || ends_with(name, ".yml")) {
    if (has_top_level_key(text, "goal_constraints")) return FileKind::MotionPlanRequest;
    if (has_top_level_key(text, "world")) return FileKind::Scene;
    return FileKind::Other;
  }
  QJsonParseError error;
  const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
  if (error.error != QJsonParseError::NoError || !document.isObject()) return FileKind::Other;
  const QJsonValue format = document.object().value(QStringLiteral("format"));
  return format.isString() ? kind_of_format(format.toString().toStdString()) : FileKind::Other;
}

std::string wrong_kind_message(FileKind found, FileKind expected, const std::string& path) {
  if (found == expected || found == FileKind::Other) return {};
  return std::string("this is ") + noun(found) + ", not " + expected_noun(expected) + ": " +
         what_to_do(found, expected, path);
}

}  // namespace kinetic::app
