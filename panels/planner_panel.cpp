#include "panels/planner_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <QtMath>
#include <cmath>
#include <limits>

#include "engine/core/duration_text.hpp"
#include "panels/result_label.hpp"

namespace kinetic::panels {

namespace {

const char* planner_label_for(PlannerType type) {
  switch (type) {
    case PlannerType::RrtConnect:
      return "RRT-Connect";
    case PlannerType::RrtStar:
      return "RRT*";
    case PlannerType::BiTrrt:
      return "BiTRRT";
    case PlannerType::Prm:
      return "PRM";
    case PlannerType::Est:
      return "EST";
    case PlannerType::Kpiece:
      return "KPIECE";
  }
  return "?";
}

QDoubleSpinBox* double_box(double min, double max, int decimals, double step,
                           const QString& suffix = {}) {
  auto* box = new QDoubleSpinBox;
  box->setRange(min, max);
  box->setDecimals(decimals);
  box->setSingleStep(step);
  box->setSuffix(suffix);
  return box;
}

QSpinBox* int_box(int min, int max) {
  auto* box = new QSpinBox;
  box->setRange(min, max);
  return box;
}

const QString kCartesian = QStringLiteral("cartesian");
const QString kCustomPreset = QStringLiteral("custom");

// A box showing thousandths (mm, mrad) in engine units (m, rad), exact to its decimals: 0.07 mm is
// the double nearest 7e-5 m, which value() / 1000 misses by an ulp.
double from_thousandths(const QDoubleSpinBox* box) {
  const double scale = std::pow(10.0, box->decimals());
  return std::round(box->value() * scale) / (1000.0 * scale);
}

}  // namespace

PlannerPanel::PlannerPanel(QWidget* parent) : QWidget(parent) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  scroll->setWidget(content);
  outer->addWidget(scroll);

  build_group_row(*layout);
  layout->addWidget(make_planner_group());
  layout->addWidget(make_cartesian_group());
  layout->addWidget(make_states_group());
  layout->addWidget(make_timing_group());
  layout->addStretch(1);
  build_run_area(*outer);
  connect_controls();
  set_options(default_preset());
  seed_->clear();
  set_groups({});
  update_enabled();
  watch_settings();
}

void PlannerPanel::build_group_row(QVBoxLayout& layout) {
  // The planning group: which joints plan and move, and whose TCP a pose goal is. Its combo is
  // as wide as a dozen characters, whatever the names, so a robot's groups never widen the panel.
  auto* group_form = new QFormLayout;
  group_ = new QComboBox;
  group_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  group_->setMinimumContentsLength(12);
  group_form->addRow(tr("Group"), group_);
  layout.addLayout(group_form);
}

QGroupBox* PlannerPanel::make_planner_group() {
  auto* planner_group = new QGroupBox(tr("Planner"));
  auto* form = new QFormLayout(planner_group);
  add_search_rows(*form);
  add_constraint_rows(*form);
  return planner_group;
}

void PlannerPanel::add_search_rows(QFormLayout& form) {
  planner_ = new QComboBox;
  for (PlannerType type : all_planner_types())
    planner_->addItem(QString::fromUtf8(planner_label_for(type)),
                      QString::fromUtf8(to_string(type)));
  planner_->addItem(tr("Cartesian (straight TCP line)"), kCartesian);
  form.addRow(tr("Planner"), planner_);
  preset_ = new QComboBox;
  preset_->addItem(tr("default (50 ms)"), QStringLiteral("default"));
  preset_->addItem(tr("realtime (10 ms)"), QStringLiteral("realtime"));
  preset_->addItem(tr("offline (500 ms)"), QStringLiteral("offline"));
  form.addRow(tr("Preset"), preset_);
  timeout_ = double_box(0.1, 3.6e6, 1, 10.0, tr(" ms"));
  form.addRow(tr("Timeout"), timeout_);
  iterations_ = int_box(1, std::numeric_limits<int>::max());
  form.addRow(tr("Iterations"), iterations_);
  margin_ = double_box(0.0, 1.0, 3, 0.005, tr(" m"));
  margin_->setToolTip(
      tr("Clearance the free-space planners keep from obstacles and the robot itself "
         "(reduced where the start or goal is closer); Cartesian moves have their own"));
  form.addRow(tr("Margin"), margin_);
  shortcut_ = int_box(0, 1000000);
  form.addRow(tr("Shortcut passes"), shortcut_);
  smoothing_ = new QCheckBox(tr("Smooth corners"));
  smoothing_passes_ = int_box(0, 6);
  auto* smoothing_row = new QHBoxLayout;
  smoothing_row->addWidget(smoothing_);
  smoothing_row->addWidget(smoothing_passes_);
  form.addRow(tr("Smoothing"), smoothing_row);
  resolution_ = double_box(0.001, 1.0, 3, 0.01, tr(" rad"));
  form.addRow(tr("Edge resolution"), resolution_);
  range_ = double_box(0.0, 100.0, 3, 0.1);
  range_->setSpecialValueText(tr("automatic"));
  form.addRow(tr("Extension range"), range_);
  refine_ = double_box(0.0, 100.0, 2, 0.5, tr(" ×"));
  form.addRow(tr("RRT* refinement"), refine_);
  neighbors_ = int_box(1, 1000);
  form.addRow(tr("PRM neighbours"), neighbors_);
  ik_attempts_ = int_box(1, 1000);
  form.addRow(tr("IK attempts"), ik_attempts_);
  seed_ = new QLineEdit;
  seed_->setPlaceholderText(tr("random"));
  seed_->setValidator(
      new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{0,19}")), seed_));
  seed_->setToolTip(tr("Same seed, same problem: same plan. Empty: a new seed every time."));
  form.addRow(tr("Seed"), seed_);
}

void PlannerPanel::add_constraint_rows(QFormLayout& form) {
  // Workspace bounds: a box in the robot's root frame every link origin must stay inside.
  workspace_ = new QCheckBox(tr("Keep every link inside"));
  workspace_->setToolTip(
      tr("Workspace bounds (m, robot root frame): the plan keeps every link origin "
         "inside this box, e.g. to stay within a cell"));
  form.addRow(tr("Workspace"), workspace_);
  for (int bound = 0; bound < 2; ++bound) {
    auto* row = new QHBoxLayout;
    for (int axis = 0; axis < 3; ++axis) {
      QDoubleSpinBox*& box = bound == 0 ? workspace_min_[axis] : workspace_max_[axis];
      box = double_box(-100.0, 100.0, 3, 0.05, tr(" m"));
      box->setValue(bound == 0 ? -1.0 : 1.0);
      row->addWidget(box);
    }
    form.addRow(bound == 0 ? tr("  min x y z") : tr("  max x y z"), row);
  }
  // Keep TCP orientation: a path constraint around the start's orientation (carry a glass upright).
  keep_orientation_ = new QCheckBox(tr("Keep TCP orientation"));
  orientation_tolerance_ = double_box(0.5, 90.0, 1, 0.5, tr("°"));
  orientation_tolerance_->setValue(5.0);
  orientation_tolerance_->setToolTip(
      tr("Largest rotation of the TCP away from its orientation at the start"));
  auto* orientation_row = new QHBoxLayout;
  orientation_row->addWidget(keep_orientation_);
  orientation_row->addWidget(orientation_tolerance_);
  form.addRow(tr("Orientation"), orientation_row);
}

QGroupBox* PlannerPanel::make_states_group() {
  auto* states = new QGroupBox(tr("Start and goal"));
  auto* states_form = new QFormLayout(states);
  start_type_ = new QComboBox;
  start_type_->addItem(tr("Current state"), int(PlanStartType::Current));
  start_type_->addItem(tr("Named pose"), int(PlanStartType::Named));
  start_type_->addItem(tr("Random valid state"), int(PlanStartType::RandomValid));
  start_type_->addItem(tr("Previous goal"), int(PlanStartType::PreviousGoal));
  start_name_ = new QComboBox;
  states_form->addRow(tr("Start"), start_type_);
  states_form->addRow(QString(), start_name_);
  goal_type_ = new QComboBox;
  goal_type_->addItem(tr("Goal joints"), int(PlanGoalType::Joints));
  goal_type_->addItem(tr("Goal TCP pose (gizmo)"), int(PlanGoalType::TcpPose));
  goal_type_->addItem(tr("Named pose"), int(PlanGoalType::Named));
  goal_name_ = new QComboBox;
  states_form->addRow(tr("Goal"), goal_type_);
  states_form->addRow(QString(), goal_name_);
  return states;
}

QGroupBox* PlannerPanel::make_timing_group() {
  auto* timing_group = new QGroupBox(tr("Timing"));
  auto* timing_form = new QFormLayout(timing_group);
  timing_ = new QComboBox;
  timing_->addItem(tr("Time-optimal"), QStringLiteral("time_optimal"));
  timing_->addItem(tr("Trapezoidal"), QStringLiteral("trapezoidal"));
  timing_->addItem(tr("S-curve"), QStringLiteral("scurve"));
  timing_->addItem(tr("Cubic spline"), QStringLiteral("cubic_spline"));
  timing_form->addRow(tr("Parameterization"), timing_);
  velocity_ = double_box(0.01, 1.0, 2, 0.05);
  velocity_->setValue(1.0);
  acceleration_ = double_box(0.01, 1.0, 2, 0.05);
  acceleration_->setValue(1.0);
  timing_form->addRow(tr("Velocity scaling"), velocity_);
  timing_form->addRow(tr("Acceleration scaling"), acceleration_);
  return timing_group;
}

void PlannerPanel::build_run_area(QVBoxLayout& outer) {
  // Run, below the settings' scroll area: Plan and its result stay in sight however long the form
  // (they were below the fold at 1600x1000). Two rows of two, so the panel is no wider than with
  // Plan, Cancel and Replace last in one row (the right docks take the width of their widest form).
  auto* run = new QVBoxLayout;
  run->setContentsMargins(9, 0, 9, 6);
  outer.addLayout(run);
  goal_hint_ = new QLabel;  // why Plan is off, where the goal is missing
  goal_hint_->setWordWrap(true);
  run->addWidget(goal_hint_);
  auto* buttons = new QGridLayout;
  plan_ = new QPushButton(tr("Plan"));
  plan_->setDefault(true);
  plan_execute_ = new QPushButton(tr("Plan && Execute"));
  cancel_ = new QPushButton(tr("Cancel"));
  buttons->addWidget(plan_, 0, 0);
  buttons->addWidget(plan_execute_, 0, 1);
  buttons->addWidget(cancel_, 1, 0);
  replace_last_plan_ = new QCheckBox(tr("Replace last"));
  replace_last_plan_->setToolTip(
      tr("A new plan replaces the trajectory the last plan added, as RViz keeps one "
         "plan (a renamed, re-timed or edited one is kept); off: every plan is kept"));
  buttons->addWidget(replace_last_plan_, 1, 1);
  run->addLayout(buttons);
  progress_ = new QProgressBar;
  progress_->setTextVisible(true);
  progress_->setFormat(tr("idle"));
  progress_->setValue(0);
  run->addWidget(progress_);
  result_ = new ResultLabel;
  run->addWidget(result_);
}

void PlannerPanel::connect_controls() {
  connect(preset_, &QComboBox::currentIndexChanged, this,
          [this] { apply_preset(preset_->currentData().toString()); });
  connect(planner_, &QComboBox::currentIndexChanged, this, [this] {
    choose_goal_type();
    update_enabled();
  });
  connect(goal_type_, &QComboBox::currentIndexChanged, this, [this] {
    if (!choosing_goal_type_) preferred_goal_type_ = goal_type();
    update_enabled();
  });
  connect(start_type_, &QComboBox::currentIndexChanged, this, &PlannerPanel::update_enabled);
  connect(smoothing_, &QCheckBox::toggled, this, &PlannerPanel::update_enabled);
  connect(workspace_, &QCheckBox::toggled, this, &PlannerPanel::update_enabled);
  connect(keep_orientation_, &QCheckBox::toggled, this, &PlannerPanel::update_enabled);
  connect(orientation_tolerance_, &QDoubleSpinBox::valueChanged, this,
          &PlannerPanel::update_enabled);
  connect(avoid_collisions_, &QCheckBox::toggled, this, &PlannerPanel::update_enabled);
  connect(plan_, &QPushButton::clicked, this, &PlannerPanel::planRequested);
  connect(plan_execute_, &QPushButton::clicked, this, &PlannerPanel::planAndExecuteRequested);
  connect(cancel_, &QPushButton::clicked, this, &PlannerPanel::cancelRequested);
  connect(group_, &QComboBox::currentIndexChanged, this, [this] {
    if (!applying_settings_) emit groupChanged();
  });
}

void PlannerPanel::watch_settings() {
  for (QDoubleSpinBox* box : {timeout_, margin_, resolution_, range_, refine_})
    connect(box, &QDoubleSpinBox::valueChanged, this, &PlannerPanel::refresh_preset_label);
  for (QSpinBox* box : {iterations_, shortcut_, smoothing_passes_, neighbors_, ik_attempts_})
    connect(box, &QSpinBox::valueChanged, this, &PlannerPanel::refresh_preset_label);
  connect(smoothing_, &QCheckBox::toggled, this, &PlannerPanel::refresh_preset_label);
  refresh_preset_label();
  const auto edited = [this] {
    if (!applying_settings_) emit settingsEdited();
  };
  for (QComboBox* box : {group_, planner_, preset_, timing_})
    connect(box, &QComboBox::currentIndexChanged, this, edited);
  for (QDoubleSpinBox* box : findChildren<QDoubleSpinBox*>())
    connect(box, &QDoubleSpinBox::valueChanged, this, edited);
  for (QSpinBox* box : findChildren<QSpinBox*>())
    connect(box, &QSpinBox::valueChanged, this, edited);
  for (QCheckBox* box : findChildren<QCheckBox*>()) connect(box, &QCheckBox::toggled, this, edited);
  connect(seed_, &QLineEdit::textChanged, this, edited);
}

PlannerSettings PlannerPanel::settings() const {
  PlannerSettings s;
  s.group = group();
  s.options = options();
  s.cartesian = cartesian();
  s.random_seed = random_seed();
  s.cartesian_options = cartesian_options();
  // As checked, even where unavailable: the choice comes back with the robot that has it.
  s.cartesian_options.closed_form_ik = closed_form_ik_->isChecked();
  s.keep_orientation = keep_orientation_->isChecked();
  s.orientation_tolerance = qDegreesToRadians(orientation_tolerance_->value());
  s.timing = timing_key();
  s.velocity_scaling = velocity_scaling();
  s.acceleration_scaling = acceleration_scaling();
  s.replace_last_plan = replace_last_plan_->isChecked();
  return s;
}

void PlannerPanel::set_settings(const PlannerSettings& s) {
  applying_settings_ = true;
  select_group(s.group);
  planner_->setCurrentIndex(planner_->findData(
      s.cartesian ? kCartesian : QString::fromUtf8(to_string(s.options.planner))));
  set_options(s.options);
  if (s.random_seed) seed_->clear();
  set_cartesian_options(s.cartesian_options);
  keep_orientation_->setChecked(s.keep_orientation);
  orientation_tolerance_->setValue(qRadiansToDegrees(s.orientation_tolerance));
  if (const int index = timing_->findData(s.timing); index >= 0) timing_->setCurrentIndex(index);
  velocity_->setValue(s.velocity_scaling);
  acceleration_->setValue(s.acceleration_scaling);
  replace_last_plan_->setChecked(s.replace_last_plan);
  applying_settings_ = false;
  update_enabled();
}

// The Cartesian planner's settings, in the units that read best at their size (mm, mrad), with the
// ranges a headless job's "cartesian" object accepts: every value the boxes allow is valid.
// The collision margin is its own field, not the Planner group's: that one is a clearance the
// search keeps and lowers when the start or goal is closer (default 2 cm), this one stops the line
// at the first step closer than it (default 0, the engine's: a plain contact check).
QGroupBox* PlannerPanel::make_cartesian_group() {
  cartesian_group_ = new QGroupBox(tr("Cartesian"));
  auto* form = new QFormLayout(cartesian_group_);
  translation_step_ = double_box(0.01, 100.0, 2, 0.1, tr(" mm"));
  translation_step_->setToolTip(
      tr("Largest TCP move between two IK solutions along the line: smaller "
         "follows the line more closely and takes longer."));
  form->addRow(tr("Translation step"), translation_step_);
  rotation_step_ = double_box(0.01, 500.0, 2, 0.1, tr(" mrad"));
  rotation_step_->setToolTip(
      tr("Largest TCP rotation between two IK solutions (1 mrad ≈ 0.057°): smaller "
         "follows the orientation more closely and takes longer."));
  form->addRow(tr("Rotation step"), rotation_step_);
  jump_threshold_ = double_box(0.0001, 10.0, 4, 0.01, tr(" rad"));
  jump_threshold_->setToolTip(
      tr("Largest change of any joint in one step (m for a sliding joint): a bigger "
         "jump, such as the arm flipping its configuration, stops the line there."));
  form->addRow(tr("Jump threshold"), jump_threshold_);
  avoid_collisions_ = new QCheckBox(tr("Avoid collisions"));
  avoid_collisions_->setToolTip(
      tr("Stop the line at the first step that touches an obstacle or the robot "
         "itself; unchecked, collisions are not checked at all."));
  form->addRow(QString(), avoid_collisions_);
  cartesian_margin_ = double_box(0.0, 1000.0, 1, 1.0, tr(" mm"));
  cartesian_margin_->setToolTip(
      tr("Clearance every step keeps from obstacles and the robot itself: the line "
         "stops where it gets closer (0: a plain contact check, the fastest)."));
  form->addRow(tr("Collision margin"), cartesian_margin_);
  closed_form_ik_ = new QCheckBox(tr("Closed-form IK steps"));
  form->addRow(QString(), closed_form_ik_);
  set_cartesian_options(CartesianOptions{});
  return cartesian_group_;
}

CartesianOptions PlannerPanel::cartesian_options() const {
  CartesianOptions o;
  o.max_translation_step = from_thousandths(translation_step_);
  o.max_rotation_step = from_thousandths(rotation_step_);
  o.jump_threshold = jump_threshold_->value();
  o.avoid_collisions = avoid_collisions_->isChecked();
  o.margin = from_thousandths(cartesian_margin_);
  o.closed_form_ik = closed_form_ik_available_ && closed_form_ik_->isChecked();
  return o;
}

void PlannerPanel::set_cartesian_options(const CartesianOptions& o) {
  translation_step_->setValue(o.max_translation_step * 1000.0);
  rotation_step_->setValue(o.max_rotation_step * 1000.0);
  jump_threshold_->setValue(o.jump_threshold);
  avoid_collisions_->setChecked(o.avoid_collisions);
  cartesian_margin_->setValue(o.margin * 1000.0);
  closed_form_ik_->setChecked(o.closed_form_ik);
}

void PlannerPanel::set_closed_form_ik_available(bool available) {
  closed_form_ik_available_ = available;
  update_enabled();
}

PlannerOptions PlannerPanel::options() const {
  PlannerOptions o;
  if (!cartesian())
    o.planner = planner_type_from_string(planner_->currentData().toString().toStdString());
  o.timeout_ms = timeout_->value();
  o.max_iterations = iterations_->value();
  o.margin = margin_->value();
  o.shortcut_passes = shortcut_->value();
  o.smoothing = smoothing_->isChecked();
  o.smoothing_passes = smoothing_passes_->value();
  o.resolution = resolution_->value();
  o.range = range_->value();
  o.rrt_star_refine_factor = refine_->value();
  o.prm_neighbors = neighbors_->value();
  o.ik_attempts = ik_attempts_->value();
  o.seed = seed_->text().toULongLong();
  if (workspace_->isChecked()) {
    WorkspaceBounds bounds;
    for (int axis = 0; axis < 3; ++axis) {
      bounds.min[axis] = workspace_min_[axis]->value();
      bounds.max[axis] = workspace_max_[axis]->value();
    }
    o.workspace = bounds;
  }
  return o;
}

void PlannerPanel::set_options(const PlannerOptions& o) {
  if (!cartesian())
    planner_->setCurrentIndex(planner_->findData(QString::fromUtf8(to_string(o.planner))));
  timeout_->setValue(o.timeout_ms);
  iterations_->setValue(o.max_iterations);
  margin_->setValue(o.margin);
  shortcut_->setValue(o.shortcut_passes);
  smoothing_->setChecked(o.smoothing);
  smoothing_passes_->setValue(o.smoothing_passes);
  resolution_->setValue(o.resolution);
  range_->setValue(o.range);
  refine_->setValue(o.rrt_star_refine_factor);
  neighbors_->setValue(o.prm_neighbors);
  ik_attempts_->setValue(o.ik_attempts);
  seed_->setText(QString::number(o.seed));
  workspace_->setChecked(o.workspace.has_value());
  if (o.workspace)
    for (int axis = 0; axis < 3; ++axis) {
      workspace_min_[axis]->setValue(o.workspace->min[axis]);
      workspace_max_[axis]->setValue(o.workspace->max[axis]);
    }
}

void PlannerPanel::apply_preset(const QString& name) {
  const int index = preset_->findData(name);
  if (index < 0 || name == kCustomPreset) return;  // (custom: the fields as they are)
  if (preset_->currentIndex() != index) {
    preset_->setCurrentIndex(index);  // re-enters through the signal
    return;
  }
  // A preset fills the options but keeps the chosen planner and the seed (random stays random).
  // It leaves the Cartesian settings alone: presets trade search time against path quality, which
  // a straight line does not have (the engine's presets and a headless job's "preset" do the same).
  PlannerOptions o = preset(name.toStdString());
  if (!cartesian()) o.planner = options().planner;
  const QString seed = seed_->text();
  set_options(o);
  seed_->setText(seed);
}

// The preset the fields hold (as the boxes round them), or "custom": the label said "default
// (50 ms)" with the timeout set to 8 s.
void PlannerPanel::refresh_preset_label() {
  const PlannerOptions now = options();
  const auto same = [](double a, double b, const QDoubleSpinBox* box) {
    return QString::number(a, 'f', box->decimals()) == QString::number(b, 'f', box->decimals());
  };
  QString matching = kCustomPreset;
  for (const char* name : {"default", "realtime", "offline"}) {
    const PlannerOptions p = preset(name);
    if (same(now.timeout_ms, p.timeout_ms, timeout_) && now.max_iterations == p.max_iterations &&
        same(now.margin, p.margin, margin_) && now.shortcut_passes == p.shortcut_passes &&
        now.smoothing == p.smoothing && now.smoothing_passes == p.smoothing_passes &&
        same(now.resolution, p.resolution, resolution_) && same(now.range, p.range, range_) &&
        same(now.rrt_star_refine_factor, p.rrt_star_refine_factor, refine_) &&
        now.prm_neighbors == p.prm_neighbors && now.ik_attempts == p.ik_attempts) {
      matching = QString::fromLatin1(name);
      break;
    }
  }
  const QSignalBlocker block(preset_);  // a label, not a choice: nothing is applied
  int custom = preset_->findData(kCustomPreset);
  if (matching == kCustomPreset && custom < 0) {
    preset_->addItem(tr("custom"), kCustomPreset);
    custom = preset_->count() - 1;
  }
  preset_->setCurrentIndex(preset_->findData(matching));
  if (matching != kCustomPreset && custom >= 0) preset_->removeItem(custom);
}

bool PlannerPanel::cartesian() const {
  return planner_->currentData().toString() == kCartesian;
}

QString PlannerPanel::planner_label() const {
  if (cartesian()) return tr("Cartesian");
  // The engine plans every constrained motion with RRT-Connect (plus projection).
  if (keep_orientation_->isChecked())
    return tr("%1, TCP orientation kept within %2°")
        .arg(QString::fromUtf8(planner_label_for(PlannerType::RrtConnect)))
        .arg(orientation_tolerance_->value(), 0, 'f', 1);
  return planner_->currentText();
}

bool PlannerPanel::random_seed() const {
  return seed_->text().trimmed().isEmpty();
}

std::optional<double> PlannerPanel::keep_orientation_tolerance() const {
  if (cartesian() || !keep_orientation_->isChecked()) return std::nullopt;
  return qDegreesToRadians(orientation_tolerance_->value());
}

void PlannerPanel::set_named_poses(const QStringList& names) {
  for (QComboBox* box : {goal_name_, start_name_}) {
    const QString current = box->currentText();
    box->clear();
    box->addItems(names);
    if (names.contains(current)) box->setCurrentText(current);
  }
  choose_goal_type();
  update_enabled();
}

void PlannerPanel::set_groups(const QList<PlanningGroupChoice>& groups) {
  const QSignalBlocker blocker(group_);  // the list of a robot, not the user's choice
  const QString kept = group();
  group_->clear();
  auto* model = qobject_cast<QStandardItemModel*>(group_->model());
  int usable = 0;
  for (const PlanningGroupChoice& choice : groups) {
    group_->addItem(choice.name, choice.name);
    QStandardItem* item = model->item(group_->count() - 1);
    if (choice.unusable.isEmpty()) {
      ++usable;
      if (!choice.joints_only.isEmpty() && !choice.end_effectors.isEmpty())
        item->setToolTip(
            tr("Not one chain: joint-space goals, and pose goals for each of its end effectors "
               "(%1), one goal gizmo each")
                .arg(choice.end_effectors));
      else if (!choice.joints_only.isEmpty())
        item->setToolTip(
            tr("Joint-space goals only (no TCP for pose goals, IK or Cartesian lines): %1")
                .arg(choice.joints_only));
      continue;
    }
    item->setEnabled(false);
    item->setToolTip(tr("Cannot be planned for: %1").arg(choice.unusable));
  }
  if (groups.isEmpty()) group_->addItem(tr("whole robot"), QString());
  select_group(kept);
  group_->setEnabled(usable > 1);
  if (groups.isEmpty())
    group_->setToolTip(
        tr("This robot defines no planning group: its movable joints plan as one chain."));
  else if (usable == 0)
    group_->setToolTip(tr("None of this robot's planning groups has a joint to plan."));
  else if (usable == 1)
    group_->setToolTip(groups.size() == 1
                           ? tr("This robot has one planning group.")
                           : tr("This robot has one planning group the planner can plan for "
                                "(the others have no joint to plan)."));
  else
    group_->setToolTip(
        tr("The planning group planned for: only its joints move, and the TCP at the end of its "
           "chain is the one the goal gizmo and pose goals use (a group that is not one chain, "
           "such as two arms, plans joint-space goals)."));
}

void PlannerPanel::select_group(const QString& name) {
  const auto* model = qobject_cast<const QStandardItemModel*>(group_->model());
  int chosen = -1, first_usable = -1;
  for (int i = 0; i < group_->count() && chosen < 0; ++i) {
    if (!model->item(i)->isEnabled()) continue;
    if (first_usable < 0) first_usable = i;
    if (group_->itemData(i).toString() == name) chosen = i;
  }
  // "" (a session that names none) or a group this robot lacks or cannot plan: the first usable.
  if (name.isEmpty() || chosen < 0) chosen = std::max(first_usable, 0);
  group_->setCurrentIndex(chosen);
}

QString PlannerPanel::group() const {
  return group_->currentData().toString();
}

PlanGoalType PlannerPanel::goal_type() const {
  return PlanGoalType(goal_type_->currentData().toInt());
}
QString PlannerPanel::goal_name() const {
  return goal_name_->currentText();
}
PlanStartType PlannerPanel::start_type() const {
  return PlanStartType(start_type_->currentData().toInt());
}
QString PlannerPanel::start_name() const {
  return start_name_->currentText();
}

void PlannerPanel::set_goal_available(bool joints, bool tcp_pose) {
  goal_joints_ = joints;
  goal_pose_ = tcp_pose;
  choose_goal_type();
  update_enabled();
}

// Whether Plan can go to this kind of goal: the document has it, and the chosen planner takes it
// (the Cartesian line runs to a TCP pose only; the plan worker refuses the others).
bool PlannerPanel::goal_type_usable(PlanGoalType type) const {
  switch (type) {
    case PlanGoalType::Joints:
      return goal_joints_ && !cartesian();
    case PlanGoalType::TcpPose:
      return goal_pose_;
    case PlanGoalType::Named:
      return goal_name_->count() > 0 && !cartesian();
  }
  return false;
}

// When the planner or the goal changes: the kind the user chose last if usable, else the current
// one if usable, else the first usable of joints and TCP pose (never a named pose nobody picked).
// With none usable the combo stays as it is and the hint says what to do. Choosing the Cartesian
// planner after dragging the gizmo thus plans to the gizmo's pose, and going back to a search
// planner returns to the user's kind.
void PlannerPanel::choose_goal_type() {
  PlanGoalType pick = goal_type();
  if (goal_type_usable(preferred_goal_type_))
    pick = preferred_goal_type_;
  else if (!goal_type_usable(pick))
    for (PlanGoalType candidate : {PlanGoalType::Joints, PlanGoalType::TcpPose})
      if (goal_type_usable(candidate)) {
        pick = candidate;
        break;
      }
  if (pick == goal_type()) return;
  choosing_goal_type_ = true;
  goal_type_->setCurrentIndex(goal_type_->findData(int(pick)));
  choosing_goal_type_ = false;
}

// Why Plan cannot go with the goal kind chosen, and what to do; "" when it can.
QString PlannerPanel::goal_problem() const {
  if (goal_type_usable(goal_type())) return {};
  const QString set_pose = tr("drag the goal gizmo or type a pose in the Goal panel");
  if (cartesian())
    return goal_pose_ ? tr("Cartesian moves go to a TCP pose: choose Goal TCP pose")
                      : tr("Cartesian moves need a TCP pose goal: %1").arg(set_pose);
  switch (goal_type()) {
    case PlanGoalType::Joints:
      break;
    case PlanGoalType::TcpPose:
      return tr("No TCP pose goal yet: %1").arg(set_pose);
    case PlanGoalType::Named:
      return tr("This robot has no named poses: choose another goal");
  }
  return tr("Set a goal first (Goal panel or gizmo), or choose a named pose");
}

QString PlannerPanel::timing_key() const {
  return timing_->currentData().toString();
}
double PlannerPanel::velocity_scaling() const {
  return velocity_->value();
}
double PlannerPanel::acceleration_scaling() const {
  return acceleration_->value();
}

void PlannerPanel::set_running(bool running) {
  running_ = running;
  if (running) {
    progress_->setRange(0, 0);  // busy until the first progress report
    progress_->setFormat(tr("starting…"));
  } else {
    progress_->setRange(0, 100);
    progress_->setValue(0);
    progress_->setFormat(tr("idle"));
  }
  update_enabled();
}

void PlannerPanel::set_progress(const QString& phase, double elapsed_ms, int iterations,
                                int tree_size) {
  if (!running_) return;
  const int timeout = static_cast<int>(timeout_->value());
  if (phase == QStringLiteral("planning")) {
    progress_->setRange(0, std::max(1, timeout));
    progress_->setValue(std::min(timeout, static_cast<int>(elapsed_ms)));
  } else {
    progress_->setRange(0, 0);
  }
  progress_->setFormat(tr("%1 · %2 ms · %3 iterations · %4 nodes")
                           .arg(phase)
                           .arg(elapsed_ms, 0, 'f', 0)
                           .arg(iterations)
                           .arg(tree_size));
}

void PlannerPanel::show_result(const PlanSummary& s) {
  QString text = tr("<b>%1</b>: planned in %2, %3 iterations, %4 nodes<br>"
                    "%5 waypoints, length %6 → %7 rad, duration %8 s, seed %9")
                     .arg(s.planner.toHtmlEscaped())
                     .arg(QString::fromStdString(kinetic::duration_text(s.time_ms)))
                     .arg(s.iterations)
                     .arg(s.tree_size)
                     .arg(s.waypoints)
                     .arg(s.length_before, 0, 'f', 3)
                     .arg(s.length_after, 0, 'f', 3)
                     .arg(s.duration, 0, 'f', 3)
                     .arg(s.seed);
  if (s.cartesian_fraction) {
    text +=
        tr("<br>Cartesian: %1% of the line achieved").arg(*s.cartesian_fraction * 100.0, 0, 'f', 1);
    if (!s.cartesian_stop.isEmpty())
      text += tr(" — stopped: %1").arg(s.cartesian_stop.toHtmlEscaped());
  }
  for (const QString& note : s.notes)
    text += QStringLiteral("<br><i>%1</i>").arg(note.toHtmlEscaped());
  text += tr("<br>Validation: %1").arg(s.validation.toHtmlEscaped());
  result_->show_result(text);
}

void PlannerPanel::show_failure(const QString& why, const QString& fix) {
  QString text = tr("<b>Planning failed:</b> %1").arg(why.toHtmlEscaped());
  if (!fix.isEmpty()) text += tr("<br><b>Try:</b> %1").arg(fix.toHtmlEscaped());
  result_->show_result(text, ResultLabel::Tone::Error);
}

void PlannerPanel::show_message(const QString& text) {
  result_->show_result(text.toHtmlEscaped());
}

bool PlannerPanel::showing_failure() const {
  return result_->tone() == ResultLabel::Tone::Error;
}

void PlannerPanel::update_enabled() {
  const bool cart = cartesian();
  const bool searching = !cart;
  for (QWidget* w : std::initializer_list<QWidget*>{iterations_, margin_, shortcut_, smoothing_,
                                                    resolution_, range_, refine_, neighbors_,
                                                    ik_attempts_, seed_, preset_, timeout_})
    w->setEnabled(searching);
  smoothing_passes_->setEnabled(searching && smoothing_->isChecked());
  refine_->setEnabled(searching &&
                      planner_->currentData().toString() == QStringLiteral("rrt_star"));
  neighbors_->setEnabled(searching && planner_->currentData().toString() == QStringLiteral("prm"));
  workspace_->setEnabled(searching);
  for (int axis = 0; axis < 3; ++axis) {
    workspace_min_[axis]->setEnabled(searching && workspace_->isChecked());
    workspace_max_[axis]->setEnabled(searching && workspace_->isChecked());
  }
  keep_orientation_->setEnabled(searching);
  orientation_tolerance_->setEnabled(searching && keep_orientation_->isChecked());
  keep_orientation_->setToolTip(searching ? tr("Every waypoint keeps the TCP within %1° of its "
                                               "orientation at the start state (e.g. to "
                                               "carry a glass upright); the start and the goal "
                                               "must keep it too. Planned with RRT-Connect "
                                               "plus projection, whatever planner is chosen; "
                                               "shortcuts keep the orientation, corners are not "
                                               "smoothed.")
                                                .arg(orientation_tolerance_->value(), 0, 'f', 1)
                                          : tr("Not used in Cartesian mode: a straight TCP line "
                                               "already interpolates the orientation "
                                               "from the start to the goal."));
  update_cartesian_enabled();
  goal_name_->setVisible(goal_type() == PlanGoalType::Named);
  start_name_->setVisible(start_type() == PlanStartType::Named);
  const QString problem = goal_problem();
  plan_->setEnabled(!running_ && problem.isEmpty());
  plan_->setToolTip(problem);
  plan_execute_->setEnabled(!running_ && problem.isEmpty());
  plan_execute_->setToolTip(
      problem.isEmpty()
          ? tr("Plan from the current state (whatever the Start above) and, when the plan "
               "validates, play it: the robot ends at the goal, one undo step (Ctrl+Shift+Enter)")
          : problem);
  goal_hint_->setText(problem);
  goal_hint_->setVisible(!problem.isEmpty());
  cancel_->setEnabled(running_);
}

// Only the Cartesian planner uses these, so they are hidden (and off) for the others.
void PlannerPanel::update_cartesian_enabled() {
  const bool cart = cartesian();
  cartesian_group_->setVisible(cart);
  cartesian_group_->setEnabled(cart);
  cartesian_margin_->setEnabled(avoid_collisions_->isChecked());
  closed_form_ik_->setEnabled(closed_form_ik_available_);
  closed_form_ik_->setToolTip(closed_form_ik_available_
                                  ? tr("Solve each step with the robot's closed-form IK on the "
                                       "last step's branch: faster, the TCP "
                                       "exactly on the line, but near singularities the line may "
                                       "stop a few steps elsewhere than "
                                       "numerically.")
                                  : tr("This robot has no closed-form IK solver (UR and OPW arms "
                                       "have one): every step is solved "
                                       "numerically."));
}

}  // namespace kinetic::panels
