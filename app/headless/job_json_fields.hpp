#pragma once
// Reading one JSON object of a job file: typed getters that name the field at fault, and unknown
// keys rejected (typos fail loudly). Shared by the job file's parts (job_file.cpp,
// job_motion_settings.cpp).
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "app/headless/job_file.hpp"
#include "engine/core/string_similarity.hpp"
#include "engine/core/types.hpp"

namespace kinetic::app::headless::job_json {

inline std::string str(const QString& s) {
  return s.toStdString();
}

inline const char* type_name(const QJsonValue& v) {
  switch (v.type()) {
    case QJsonValue::Null:
      return "null";
    case QJsonValue::Bool:
      return "a boolean";
    case QJsonValue::Double:
      return "a number";
    case QJsonValue::String:
      return "a string";
    case QJsonValue::Array:
      return "an array";
    case QJsonValue::Object:
      return "an object";
    default:
      return "nothing";
  }
}

// One JSON object with its field path; rejects keys it does not know (typos fail loudly).
class Fields {
 public:
  Fields(const QJsonValue& value, std::string path, std::vector<std::string> known)
      : path_(std::move(path)) {
    if (!value.isObject())
      throw JobError(path_, std::string("expected an object, got ") + type_name(value));
    object_ = value.toObject();
    for (auto it = object_.begin(); it != object_.end(); ++it) {
      const std::string key = str(it.key());
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        const std::string hint = suggestion_hint(key, known);
        throw JobError(at(key),
                       "unknown field" + (hint.empty() ? std::string() : " (" + hint + ")"));
      }
    }
  }

  std::string at(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  const std::string& path() const { return path_; }
  bool has(const std::string& key) const { return object_.contains(QString::fromStdString(key)); }
  QJsonValue value(const std::string& key) const {
    return object_.value(QString::fromStdString(key));
  }

  std::string text(const std::string& key, const std::string& fallback = {}) const {
    if (!has(key)) return fallback;
    const QJsonValue v = value(key);
    if (!v.isString())
      throw JobError(at(key), std::string("expected a string, got ") + type_name(v));
    if (v.toString().isEmpty()) throw JobError(at(key), "must not be empty");
    return str(v.toString());
  }
  std::string required_text(const std::string& key) const {
    if (!has(key)) throw JobError(at(key), "missing (required)");
    return text(key);
  }
  double number(const std::string& key, double fallback, double min, double max) const {
    if (!has(key)) return fallback;
    const QJsonValue v = value(key);
    if (!v.isDouble())
      throw JobError(at(key), std::string("expected a number, got ") + type_name(v));
    const double x = v.toDouble();
    if (!std::isfinite(x) || x < min || x > max) {
      std::ostringstream range;
      range << "must be in [" << min << ", " << max << "], got " << x;
      throw JobError(at(key), range.str());
    }
    return x;
  }
  int integer(const std::string& key, int fallback, int min, int max) const {
    const double x = number(key, fallback, min, max);
    if (x != std::floor(x)) throw JobError(at(key), "expected a whole number");
    return static_cast<int>(x);
  }
  bool flag(const std::string& key, bool fallback) const {
    if (!has(key)) return fallback;
    const QJsonValue v = value(key);
    if (!v.isBool())
      throw JobError(at(key), std::string("expected true or false, got ") + type_name(v));
    return v.toBool();
  }
  std::vector<double> numbers(const std::string& key, int count, const std::string& what) const {
    return number_array(value(key), at(key), count, what);
  }

  static std::vector<double> number_array(const QJsonValue& v, const std::string& path, int count,
                                          const std::string& what) {
    const std::string expected =
        count > 0
            ? "expected " + std::to_string(count) + " numbers" + (what.empty() ? "" : " in " + what)
            : "expected an array of numbers" + (what.empty() ? std::string() : " (" + what + ")");
    if (!v.isArray()) throw JobError(path, expected + ", got " + type_name(v));
    const QJsonArray array = v.toArray();
    if ((count > 0 && array.size() != count) || (count <= 0 && array.isEmpty()))
      throw JobError(path, expected + ", got " + std::to_string(array.size()));
    std::vector<double> out;
    for (int i = 0; i < array.size(); ++i) {
      if (!array[i].isDouble() || !std::isfinite(array[i].toDouble()))
        throw JobError(path + "[" + std::to_string(i) + "]",
                       std::string("expected a number, got ") + type_name(array[i]));
      out.push_back(array[i].toDouble());
    }
    return out;
  }

 private:
  QJsonObject object_;
  std::string path_;
};

inline Vector3 vec3(const std::vector<double>& v) {
  return {v[0], v[1], v[2]};
}

// A pose from "xyz" (default zero), and "rpy" (radians) or "quaternion" [x, y, z, w].
Pose parse_pose(const Fields& f);

}  // namespace kinetic::app::headless::job_json
