// JSON and CSV export/import: exact round trips, clear errors on bad files, atomic writes.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <sstream>

#include "engine/core/atomic_file.hpp"
#include "engine/core/error.hpp"
#include "engine/trajectory/time_optimal.hpp"
#include "engine/trajectory/trajectory_io.hpp"

namespace kinetic {
namespace {

namespace fs = std::filesystem;

Trajectory awkward_trajectory() {
  // Values whose decimal forms are long or special: 0.1 + 0.2, denormals, -0.0, huge and tiny.
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> any(-10.0, 10.0);
  std::vector<TrajectorySample> samples;
  double t = 0.0;
  for (int i = 0; i < 50; ++i) {
    JointVector q(3), qd(3), qdd(3);
    q << any(rng), 0.1 + 0.2, -0.0;
    qd << std::numeric_limits<double>::denorm_min(), any(rng) * 1e-300, 1e300;
    qdd << std::nextafter(1.0, 2.0), -any(rng), 1.0 / 3.0;
    samples.push_back({t, q, qd, qdd});
    t += 0.001 + any(rng) * 1e-5;
  }
  return Trajectory("ur5e", {"shoulder_pan_joint", "slider", "wrist 3"},
                    {PositionUnit::Radian, PositionUnit::Metre, PositionUnit::Radian}, samples,
                    {0.0, 0.01 + 0.02, t - 0.001});
}

struct TempDir {
  fs::path path;
  TempDir() {
    path =
        fs::temp_directory_path() / ("kinetic_traj_io_" + std::to_string(std::random_device{}()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(TrajectoryIo, JsonRoundTripIsBitExact) {
  const Trajectory original = awkward_trajectory();
  const std::string text = trajectory_to_json(original);
  const Trajectory back = trajectory_from_json(text);
  EXPECT_TRUE(back == original);
  EXPECT_TRUE(std::signbit(back.samples()[0].position[2]));
  EXPECT_EQ(trajectory_to_json(back), text);  // byte-stable
  EXPECT_NE(text.find("\"format_version\": 1"), std::string::npos);
}

TEST(TrajectoryIo, CsvRoundTripIsBitExact) {
  const Trajectory original = awkward_trajectory();
  const std::string text = trajectory_to_csv(original);
  const Trajectory back = trajectory_from_csv(text);
  EXPECT_TRUE(back == original);
  EXPECT_EQ(trajectory_to_csv(back), text);
  EXPECT_NE(text.find("t,q:shoulder_pan_joint,q:slider,q:wrist 3,qd:shoulder_pan_joint"),
            std::string::npos);
}

TEST(TrajectoryIo, GeneratedTrajectoryRoundTripsThroughFiles) {
  TempDir dir;
  JointPath path{JointVector::Zero(6), JointVector::Constant(6, 0.4),
                 JointVector::LinSpaced(6, -0.3, 0.5)};
  const Trajectory t = time_optimal(path, TrajectoryLimits::uniform(6, 1.0, 2.0, 10.0));
  for (const char* name : {"motion.json", "motion.csv"}) {
    save_trajectory(t, dir.path / name);
    EXPECT_TRUE(load_trajectory(dir.path / name) == t) << name;
  }
  // Steps in acceleration (two samples at one time) survive too.
  EXPECT_GT(t.samples().size(), 2u);
}

TEST(TrajectoryIo, MalformedJsonGivesClearErrors) {
  const std::string good = trajectory_to_json(awkward_trajectory());
  const auto replace = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  EXPECT_NE(error_of([&] {
              trajectory_from_json(replace("\"format_version\": 1", "\"format_version\": 7"),
                                   "a.json");
            }).find("format_version 7 is not supported"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              trajectory_from_json(replace("\"robot\"", "\"robbot\""), "a.json");
            }).find("a.json: unknown field 'robbot'"),
            std::string::npos);
  std::string without_robot = good;
  without_robot.erase(without_robot.find("\"robot\""),
                      without_robot.find('\n', without_robot.find("\"robot\"")) + 1 -
                          without_robot.find("\"robot\""));
  EXPECT_NE(error_of([&] {
              trajectory_from_json(without_robot, "a.json");
            }).find("a.json: missing field 'robot'"),
            std::string::npos);
  const std::string e =
      error_of([&] { trajectory_from_json(replace("\"qd\": [", "\"qd\": [null,"), "a.json"); });
  EXPECT_NE(e.find("sample 0"), std::string::npos) << e;
  EXPECT_NE(e.find("'qd'"), std::string::npos) << e;
  const std::string nan = error_of([&] {
    std::string s = replace("\"qdd\": [", "\"qdd\": [");
    const auto at = s.find("\"qdd\": [", s.find("\"samples\"")) + 8;
    const auto end = s.find(',', at);
    trajectory_from_json(s.replace(at, end - at, "NaN"), "a.json");
  });
  EXPECT_NE(nan.find("a.json: malformed JSON: line "), std::string::npos) << nan;
  const std::string truncated =
      error_of([&] { trajectory_from_json("{\"format\": \"kinetic-trajectory\"", "b.json"); });
  EXPECT_NE(truncated.find("b.json: malformed JSON: line 1, column 32: "), std::string::npos)
      << truncated;
  // A number beyond a double is said plainly too (it escaped as nlohmann's out_of_range), and no
  // message carries nlohmann's "[json.exception...]" tags.
  const std::string overflow =
      error_of([&] { trajectory_from_json(replace("\"q\": [", "\"q\": [1e400, "), "c.json"); });
  EXPECT_NE(overflow.find("c.json: malformed JSON: number overflow parsing '1e400'"),
            std::string::npos)
      << overflow;
  // An unknown field is refused with a did-you-mean (a typo in an optional one was dropped).
  try {
    trajectory_from_json(replace("\"waypoint_times\"", "\"waypoint_time\""), "d.json");
    ADD_FAILURE() << "an unknown field was accepted";
  } catch (const Error& unknown) {
    EXPECT_NE(unknown.message().find("d.json: unknown field 'waypoint_time'"), std::string::npos)
        << unknown.message();
    EXPECT_NE(unknown.hint().find("did you mean 'waypoint_times'?"), std::string::npos)
        << unknown.hint();
  }
  EXPECT_NE(error_of([&] {
              trajectory_from_json(replace("\"qdd\"", "\"qdd\": [0, 0, 0], \"jerk\""), "e.json");
            }).find("e.json: sample 0: unknown field 'jerk'"),
            std::string::npos);
  for (const std::string& message : {nan, truncated, overflow})
    EXPECT_EQ(message.find("json.exception"), std::string::npos) << message;
  // A key given twice is refused, naming where (JSON parsers keep one of the values silently:
  // one of two "samples" arrays would be dropped).
  EXPECT_NE(error_of([&] {
              trajectory_from_json(replace("\"samples\"", "\"samples\": [], \"samples\""),
                                   "f.json");
            }).find("f.json: top level: duplicate key \"samples\""),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              trajectory_from_json(replace("\"qdd\"", "\"qd\": [0, 0, 0], \"qdd\""), "g.json");
            }).find("g.json: samples[0]: duplicate key \"qd\""),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              trajectory_from_json(replace("\"rad\"", "\"deg\""), "a.json");
            }).find("must be \"rad\" or \"m\""),
            std::string::npos);
}

TEST(TrajectoryIo, MalformedCsvGivesClearErrors) {
  const std::string good = trajectory_to_csv(awkward_trajectory());
  const auto lines = [&] {
    std::vector<std::string> out;
    std::string line;
    std::istringstream in(good);
    while (std::getline(in, line)) out.push_back(line);
    return out;
  }();
  const auto join = [](const std::vector<std::string>& ls) {
    std::string s;
    for (const auto& l : ls) s += l + "\n";
    return s;
  };
  {  // ragged row: line 9 (the third sample) loses a field
    auto ls = lines;
    ls[8] = ls[8].substr(0, ls[8].rfind(','));
    const std::string e = error_of([&] { trajectory_from_csv(join(ls), "m.csv"); });
    EXPECT_NE(e.find("m.csv:9: row has 9 fields, expected 10 (sample 2)"), std::string::npos) << e;
  }
  {  // NaN
    auto ls = lines;
    ls[7] = ls[7].substr(0, ls[7].rfind(',')) + ",nan";
    const std::string e = error_of([&] { trajectory_from_csv(join(ls), "m.csv"); });
    EXPECT_NE(e.find("m.csv:8: sample 1 qdd of joint 'wrist 3' is not finite"), std::string::npos)
        << e;
  }
  {  // wrong version
    auto ls = lines;
    ls[1] = "# format_version: 2";
    const std::string e = error_of([&] { trajectory_from_csv(join(ls), "m.csv"); });
    EXPECT_NE(e.find("m.csv:2: format_version 2 is not supported"), std::string::npos) << e;
  }
  {  // missing header line
    auto ls = lines;
    ls.erase(ls.begin() + 2);  // robot
    const std::string e = error_of([&] { trajectory_from_csv(join(ls), "m.csv"); });
    EXPECT_NE(e.find("missing header line '# robot: NAME'"), std::string::npos) << e;
  }
  {  // text in a number
    auto ls = lines;
    ls[6] = "abc" + ls[6].substr(ls[6].find(','));
    const std::string e = error_of([&] { trajectory_from_csv(join(ls), "m.csv"); });
    EXPECT_NE(e.find("m.csv:7: sample 0 t: 'abc' is not a number"), std::string::npos) << e;
  }
  {  // time going backwards
    auto ls = lines;
    std::swap(ls[6], ls[7]);
    const std::string e = error_of([&] { trajectory_from_csv(join(ls), "m.csv"); });
    EXPECT_NE(e.find("sample 1: time"), std::string::npos) << e;
  }
}

// A "# units:" line after the column header added units the header's count check never saw; an
// unknown one was then reported with the name of joint j past the end of the joint list (an
// out-of-bounds read: a garbage string, std::length_error or a crash).
TEST(TrajectoryIo, AUnitsLineAfterTheColumnHeaderIsCountedToo) {
  const std::string csv =
      "# kinetic-trajectory\n# format_version: 1\n# robot: r\n# units: time=s; position=rad\n"
      "t,q:a,qd:a,qdd:a\n0,0,0,0\n# units: position=deg\n";
  const std::string e = error_of([&] { trajectory_from_csv(csv, "late.csv"); });
  EXPECT_NE(e.find("late.csv:7: units list 2 positions for 1 joints"), std::string::npos) << e;
}

// CSV fields are trimmed on import, so a name with a leading or trailing space would come back
// as another name: the writer refuses it (as it refuses commas), JSON keeps it.
TEST(TrajectoryIo, CsvRefusesNamesItWouldNotReadBackUnchanged) {
  for (const std::vector<std::string>& names :
       {std::vector<std::string>{"joint6 "}, std::vector<std::string>{"\tjoint6"}}) {
    const Trajectory t("ur5e", names, {PositionUnit::Radian},
                       {{0.0, JointVector::Zero(1), JointVector::Zero(1), JointVector::Zero(1)}});
    try {
      (void)trajectory_to_csv(t);
      ADD_FAILURE() << "'" << names[0] << "' was written";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidValue);
    }
    EXPECT_TRUE(trajectory_from_json(trajectory_to_json(t)) == t);
  }
  const Trajectory robot(" ur5e", {"j"}, {PositionUnit::Radian},
                         {{0.0, JointVector::Zero(1), JointVector::Zero(1), JointVector::Zero(1)}});
  EXPECT_THROW((void)trajectory_to_csv(robot), Error);
}

// The reader took a robot name with a comma, or a joint name beginning with a space ("q: a"),
// which the writer refuses: such a file loaded but could not be saved back as CSV (found by
// fuzzing, tests/fuzz). Both are refused on reading, naming the line.
TEST(TrajectoryIo, CsvReaderRefusesNamesTheWriterWouldRefuse) {
  const std::string comma =
      "# kinetic-trajectory\n# format_version: 1\n# robot: ur5e,pan\n# units: time=s; "
      "position=rad\n"
      "t,q:j,qd:j,qdd:j\n0,0,0,0\n";
  std::string e = error_of([&] { trajectory_from_csv(comma, "comma.csv"); });
  EXPECT_NE(e.find("comma.csv:3: robot name 'ur5e,pan'"), std::string::npos) << e;
  EXPECT_NE(e.find("commas"), std::string::npos) << e;
  const std::string space =
      "# kinetic-trajectory\n# format_version: 1\n# robot: r\n# units: time=s; position=rad\n"
      "t,q: j,qd: j,qdd: j\n0,0,0,0\n";
  e = error_of([&] { trajectory_from_csv(space, "space.csv"); });
  EXPECT_NE(e.find("space.csv:5: joint name ' j'"), std::string::npos) << e;
}

// A CSV file may carry names that are not UTF-8 (written by a Latin-1 editor, say): it imports,
// and writing it as JSON is a typed error, not nlohmann's type_error escaping the exporter.
TEST(TrajectoryIo, ANameThatIsNotUtf8CannotBeWrittenAsJsonAndSaysSo) {
  const std::string csv =
      "# kinetic-trajectory\n# format_version: 1\n# robot: r\xe9\n# units: time=s; position=rad\n"
      "t,q:j,qd:j,qdd:j\n0,0,0,0\n";
  const Trajectory t = trajectory_from_csv(csv, "latin1.csv");
  try {
    (void)trajectory_to_json(t);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidValue);
    EXPECT_NE(e.message().find("not valid UTF-8"), std::string::npos) << e.message();
  }
  EXPECT_TRUE(trajectory_from_csv(trajectory_to_csv(t)) == t);  // CSV still writes it
}

// A trajectory without joints (JSON reads one) was written to CSV as "position=" and read back
// as one empty unit for no joints: its CSV export could not be imported.
TEST(TrajectoryIo, ATrajectoryWithoutJointsRoundTripsThroughCsv) {
  const Trajectory t("r", {}, {}, {{0.0, JointVector(0), JointVector(0), JointVector(0)}});
  EXPECT_TRUE(trajectory_from_json(trajectory_to_json(t)) == t);
  EXPECT_TRUE(trajectory_from_csv(trajectory_to_csv(t), "empty.csv") == t);
}

// format_version was read with get<int>(): 2^32 + 1 wrapped to 1 and the file loaded as version 1.
TEST(TrajectoryIo, AFormatVersionBeyondIntIsNotSupportedRatherThanWrapped) {
  for (const std::string version : {"4294967297", "18446744073709551615", "-4294967295"}) {
    const std::string text =
        "{\"format\": \"kinetic-trajectory\", \"format_version\": " + version +
        ", \"robot\": \"r\", \"joint_names\": [], \"units\": {\"time\": \"s\", "
        "\"position\": []}, \"samples\": []}";
    try {
      (void)trajectory_from_json(text, "v.json");
      ADD_FAILURE() << "format_version " << version << " was read as version 1";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
      EXPECT_NE(e.message().find("format_version " + version + " is not supported"),
                std::string::npos)
          << e.message();
    }
  }
}

TEST(TrajectoryIo, FailedWriteLeavesTheOldFileAndNoTemporary) {
  TempDir dir;
  const Trajectory t = awkward_trajectory();
  const fs::path target = dir.path / "motion.json";
  save_trajectory(t, target);
  const std::string before = read_text_file(target);
  // A folder that does not exist: nothing is written anywhere.
  EXPECT_NE(error_of([&] {
              save_trajectory(t, dir.path / "missing" / "motion.json");
            }).find("cannot write"),
            std::string::npos);
  // A target the rename cannot replace (a non-empty folder of that name): the write fails at the
  // last step, the folder and its contents stay, and the temporary is removed.
  const fs::path blocked = dir.path / "blocked.json";
  fs::create_directories(blocked);
  std::ofstream(blocked / "keep.txt") << "keep";
  try {
    save_trajectory(t, blocked);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::IoError);
    EXPECT_NE(std::string(e.what()).find("blocked.json"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_text_file(blocked / "keep.txt"), "keep");
  EXPECT_EQ(read_text_file(target), before);
  int entries = 0;
  for (const auto& entry : fs::directory_iterator(dir.path)) {
    ++entries;
    EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos) << entry.path();
  }
  EXPECT_EQ(entries, 2);
  EXPECT_THROW(load_trajectory(dir.path / "absent.json"), Error);
  EXPECT_THROW(save_trajectory(t, dir.path / "motion.txt"), Error);
}

}  // namespace
}  // namespace kinetic
