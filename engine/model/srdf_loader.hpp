#pragma once
// SRDF (MoveIt's Semantic Robot Description Format), read with tinyxml2: groups (chain, joint,
// link and subgroup members), group_state, end_effector, virtual_joint, passive_joint,
// disable_collisions. Other elements (gripper, ...) are skipped with a warning.
#include <string>
#include <vector>

#include "engine/model/semantic_model.hpp"

namespace kinetic {

class RobotModel;

// Parses SRDF XML. `source` names the document in messages (a path, or e.g. "<srdf string>").
// When `model` is given every link, joint and group name is checked against it, as MoveIt's
// srdfdom does: an element naming an unknown link, joint (other than the SRDF's own virtual
// joints) or group, or a chain whose tip does not descend from its base, is skipped with a warning
// naming source:line, the name and the closest known names; the rest of the SRDF is kept.
// Malformed XML, a missing required attribute or a subgroup cycle -> Error(ParseError /
// InvalidModel) with file:line. Non-fatal findings go to `warnings`.
SemanticModel parse_srdf(const std::string& xml, const std::string& source,
                         const RobotModel* model = nullptr,
                         std::vector<std::string>* warnings = nullptr);

// Reads and parses an SRDF file (Error(FileNotFound) when unreadable).
SemanticModel load_srdf_file(const std::string& path, const RobotModel* model = nullptr,
                             std::vector<std::string>* warnings = nullptr);

}  // namespace kinetic
