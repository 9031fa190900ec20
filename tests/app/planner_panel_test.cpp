// Qt Test: the planner panel — presets fill every field, fields edit the engine options, the seed
// field, "Keep TCP orientation" (radians out, off in Cartesian mode), the Cartesian settings (shown
// in Cartesian mode only, engine units out), goal availability gates Plan, the goal kind follows
// the planner (Cartesian: the TCP pose) without overriding the user's choice, progress and the
// result / failure areas.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>
#include <cmath>
#include <cstdint>

#include "panels/planner_panel.hpp"

using namespace kinetic;
using kinetic::panels::PlannerPanel;

namespace {

void choose_cartesian(PlannerPanel& panel) {
  panel.planner_combo()->setCurrentIndex(
      panel.planner_combo()->findData(QStringLiteral("cartesian")));
}

}  // namespace

class PlannerPanelTest : public QObject {
  Q_OBJECT
 private slots:
  void defaults_to_rrt_connect_and_the_default_preset() {
    PlannerPanel panel;
    QCOMPARE(panel.planner_combo()->currentText(), QStringLiteral("RRT-Connect"));
    QCOMPARE(panel.planner_combo()->count(), 7);  // six engine planners + Cartesian
    const PlannerOptions o = panel.options(), d = default_preset();
    QCOMPARE(o.planner, PlannerType::RrtConnect);
    QCOMPARE(o.timeout_ms, d.timeout_ms);
    QCOMPARE(o.max_iterations, d.max_iterations);
    QCOMPARE(o.margin, d.margin);
    QCOMPARE(o.shortcut_passes, d.shortcut_passes);
    QCOMPARE(o.smoothing, d.smoothing);
    QVERIFY(panel.random_seed());
    QCOMPARE(panel.timing_key(), QStringLiteral("time_optimal"));
  }

  void presets_fill_every_field_and_keep_the_planner() {
    PlannerPanel panel;
    panel.planner_combo()->setCurrentIndex(panel.planner_combo()->findText(QStringLiteral("PRM")));
    panel.preset_combo()->setCurrentIndex(2);  // offline
    const PlannerOptions o = panel.options(), off = offline_preset();
    QCOMPARE(o.planner, PlannerType::Prm);
    QCOMPARE(o.timeout_ms, off.timeout_ms);
    QCOMPARE(o.max_iterations, off.max_iterations);
    QCOMPARE(o.shortcut_passes, off.shortcut_passes);
    QCOMPARE(o.resolution, off.resolution);
    QCOMPARE(o.prm_neighbors, off.prm_neighbors);
    panel.apply_preset(QStringLiteral("realtime"));
    QCOMPARE(panel.options().timeout_ms, 10.0);
    QCOMPARE(panel.options().smoothing, false);
    QCOMPARE(panel.options().margin, 0.01);
    QVERIFY(panel.random_seed());  // a preset does not invent a seed
  }

  // The preset box names the preset the fields hold: "custom" once one is changed (it said
  // "default (50 ms)" with the timeout at 8 s), the preset again when the fields are back to it.
  void the_preset_label_says_custom_once_a_field_leaves_the_preset() {
    PlannerPanel panel;
    QCOMPARE(panel.preset_combo()->currentData().toString(), QStringLiteral("default"));
    panel.timeout_box()->setValue(8000.0);
    QCOMPARE(panel.preset_combo()->currentData().toString(), QStringLiteral("custom"));
    QCOMPARE(panel.preset_combo()->currentText(), QStringLiteral("custom"));
    QCOMPARE(panel.options().timeout_ms, 8000.0);  // the label changed nothing
    panel.timeout_box()->setValue(default_preset().timeout_ms);
    QCOMPARE(panel.preset_combo()->currentData().toString(), QStringLiteral("default"));
    QCOMPARE(panel.preset_combo()->findData(QStringLiteral("custom")), -1);
    // Choosing a preset after a change applies it.
    panel.timeout_box()->setValue(8000.0);
    panel.preset_combo()->setCurrentIndex(
        panel.preset_combo()->findData(QStringLiteral("offline")));
    QCOMPARE(panel.options().timeout_ms, offline_preset().timeout_ms);
    QCOMPARE(panel.preset_combo()->currentData().toString(), QStringLiteral("offline"));
  }

  void workspace_bounds_round_trip_through_the_options() {
    PlannerPanel panel;
    QVERIFY(!panel.options().workspace.has_value());  // off by default
    PlannerOptions o = default_preset();
    o.workspace = WorkspaceBounds{{-0.5, -0.6, 0.0}, {0.7, 0.8, 1.2}};
    panel.set_options(o);
    const PlannerOptions back = panel.options();
    QVERIFY(back.workspace.has_value());
    for (int axis = 0; axis < 3; ++axis) {
      QCOMPARE(back.workspace->min[axis], o.workspace->min[axis]);
      QCOMPARE(back.workspace->max[axis], o.workspace->max[axis]);
    }
    panel.set_options(default_preset());
    QVERIFY(!panel.options().workspace.has_value());
  }

  void fields_edit_the_options() {
    PlannerPanel panel;
    panel.timeout_box()->setValue(1234.0);
    panel.iterations_box()->setValue(777);
    panel.margin_box()->setValue(0.05);
    panel.shortcut_box()->setValue(3);
    panel.smoothing_box()->setChecked(false);
    panel.seed_edit()->setText(QStringLiteral("42"));
    const PlannerOptions o = panel.options();
    QCOMPARE(o.timeout_ms, 1234.0);
    QCOMPARE(o.max_iterations, 777);
    QCOMPARE(o.margin, 0.05);
    QCOMPARE(o.shortcut_passes, 3);
    QCOMPARE(o.smoothing, false);
    QCOMPARE(o.seed, std::uint64_t(42));
    QVERIFY(!panel.random_seed());
    o.validate();  // whatever the fields allow is a valid engine setting
  }

  void keep_orientation_gives_radians_and_is_off_in_cartesian_mode() {
    PlannerPanel panel;
    QVERIFY(!panel.keep_orientation_box()->isChecked());  // off by default
    QVERIFY(!panel.keep_orientation_tolerance().has_value());
    QCOMPARE(panel.orientation_tolerance_box()->value(), 5.0);
    QVERIFY(!panel.orientation_tolerance_box()->isEnabled());  // until checked
    panel.keep_orientation_box()->setChecked(true);
    QVERIFY(panel.orientation_tolerance_box()->isEnabled());
    panel.orientation_tolerance_box()->setValue(10.0);
    QVERIFY(panel.keep_orientation_tolerance().has_value());
    QVERIFY(std::abs(*panel.keep_orientation_tolerance() - 10.0 * M_PI / 180.0) < 1e-12);
    QCOMPARE(panel.planner_label(),
             QStringLiteral("RRT-Connect, TCP orientation kept within 10.0°"));
    const QString tip = panel.keep_orientation_box()->toolTip();
    for (const char* part : {"start state", "goal", "10.0°", "RRT-Connect plus projection"})
      QVERIFY2(tip.contains(QString::fromUtf8(part)), qPrintable(tip));
    // Whatever planner is chosen, the constrained motion is RRT-Connect's; a preset keeps it on.
    panel.planner_combo()->setCurrentIndex(panel.planner_combo()->findText(QStringLiteral("RRT*")));
    panel.apply_preset(QStringLiteral("offline"));
    QCOMPARE(panel.planner_label(),
             QStringLiteral("RRT-Connect, TCP orientation kept within 10.0°"));
    QVERIFY(panel.keep_orientation_tolerance().has_value());
    // The range: 0.5° to 90°.
    panel.orientation_tolerance_box()->setValue(0.1);
    QCOMPARE(panel.orientation_tolerance_box()->value(), 0.5);
    panel.orientation_tolerance_box()->setValue(120.0);
    QCOMPARE(panel.orientation_tolerance_box()->value(), 90.0);
    // Cartesian: a straight line interpolates the orientation, so the constraint is off and says
    // why.
    panel.planner_combo()->setCurrentIndex(panel.planner_combo()->count() - 1);
    QVERIFY(!panel.keep_orientation_box()->isEnabled());
    QVERIFY(!panel.orientation_tolerance_box()->isEnabled());
    QVERIFY(!panel.keep_orientation_tolerance().has_value());
    QCOMPARE(panel.planner_label(), QStringLiteral("Cartesian"));
    QVERIFY2(panel.keep_orientation_box()->toolTip().contains(QStringLiteral("Cartesian mode")),
             qPrintable(panel.keep_orientation_box()->toolTip()));
    // Back to a free-space planner: as it was.
    panel.planner_combo()->setCurrentIndex(0);
    QVERIFY(panel.keep_orientation_box()->isEnabled());
    QVERIFY(std::abs(*panel.keep_orientation_tolerance() - M_PI / 2.0) < 1e-12);
  }

  void cartesian_settings_show_only_in_cartesian_mode() {
    PlannerPanel panel;
    QVERIFY(!panel.cartesian());
    QVERIFY(panel.cartesian_group()->isHidden());
    QVERIFY(!panel.cartesian_group()->isEnabled());
    QVERIFY(panel.margin_box()->isEnabled());
    choose_cartesian(panel);
    QVERIFY(!panel.cartesian_group()->isHidden());
    QVERIFY(panel.cartesian_group()->isEnabled());
    QVERIFY(panel.translation_step_box()->isEnabled());
    // The free-space margin is not the line's: the line has its own, which needs the collision
    // check.
    QVERIFY(!panel.margin_box()->isEnabled());
    QVERIFY(panel.cartesian_margin_box()->isEnabled());
    panel.avoid_collisions_box()->setChecked(false);
    QVERIFY(!panel.cartesian_margin_box()->isEnabled());
    panel.avoid_collisions_box()->setChecked(true);
    QVERIFY(panel.cartesian_margin_box()->isEnabled());
    for (QWidget* w :
         std::initializer_list<QWidget*>{panel.translation_step_box(), panel.rotation_step_box(),
                                         panel.jump_threshold_box(), panel.avoid_collisions_box(),
                                         panel.cartesian_margin_box(), panel.closed_form_ik_box()})
      QVERIFY2(!w->toolTip().isEmpty(), qPrintable(w->objectName()));
    panel.planner_combo()->setCurrentIndex(0);
    QVERIFY(panel.cartesian_group()->isHidden());
    QVERIFY(!panel.cartesian_group()->isEnabled());
  }

  void closed_form_ik_steps_need_a_closed_form_solver() {
    PlannerPanel panel;
    choose_cartesian(panel);
    QVERIFY(!panel.closed_form_ik_box()->isEnabled());  // until the studio says the robot has one
    QVERIFY(
        panel.closed_form_ik_box()->toolTip().contains(QStringLiteral("no closed-form IK solver")));
    panel.closed_form_ik_box()->setChecked(true);
    QVERIFY(!panel.cartesian_options().closed_form_ik);
    panel.set_closed_form_ik_available(true);
    QVERIFY(panel.closed_form_ik_box()->isEnabled());
    QVERIFY(panel.cartesian_options().closed_form_ik);
    panel.set_closed_form_ik_available(false);
    QVERIFY(!panel.closed_form_ik_box()->isEnabled());
    QVERIFY(!panel.cartesian_options().closed_form_ik);
  }

  void cartesian_options_start_at_the_engines_and_come_out_in_metres_and_radians() {
    PlannerPanel panel;
    const CartesianOptions d, o = panel.cartesian_options();
    QVERIFY(o.max_translation_step == d.max_translation_step);
    QVERIFY(o.max_rotation_step == d.max_rotation_step);
    QVERIFY(o.jump_threshold == d.jump_threshold);
    QCOMPARE(o.avoid_collisions, d.avoid_collisions);
    QVERIFY(o.margin == d.margin);
    QCOMPARE(o.closed_form_ik, d.closed_form_ik);
    QCOMPARE(panel.translation_step_box()->value(), 1.0);  // mm
    QCOMPARE(panel.rotation_step_box()->value(), 1.0);     // mrad

    choose_cartesian(panel);
    panel.set_closed_form_ik_available(true);
    // Values a division by 1000 misses by an ulp: the conversion must be exact to the shown digits.
    QVERIFY(0.07 / 1000.0 != 7e-5 && 0.12 / 1000.0 != 1.2e-4);
    panel.translation_step_box()->setValue(0.07);
    panel.rotation_step_box()->setValue(0.12);
    panel.jump_threshold_box()->setValue(0.0123);
    panel.avoid_collisions_box()->setChecked(false);
    panel.cartesian_margin_box()->setValue(2.5);
    panel.closed_form_ik_box()->setChecked(true);
    const CartesianOptions edited = panel.cartesian_options();
    QVERIFY2(edited.max_translation_step == 7e-5,
             qPrintable(QString::number(edited.max_translation_step, 'g', 17)));
    QVERIFY2(edited.max_rotation_step == 1.2e-4,
             qPrintable(QString::number(edited.max_rotation_step, 'g', 17)));
    QVERIFY(edited.jump_threshold == 0.0123);
    QCOMPARE(edited.avoid_collisions, false);
    QVERIFY(edited.margin == 0.0025);
    QCOMPARE(edited.closed_form_ik, true);

    // Steps stay > 0: the boxes stop at 0.01 mm and 0.01 mrad, the jump threshold at 0.0001 rad.
    panel.translation_step_box()->setValue(0.0);
    panel.rotation_step_box()->setValue(-1.0);
    panel.jump_threshold_box()->setValue(0.0);
    QVERIFY(panel.cartesian_options().max_translation_step == 1e-5);
    QVERIFY(panel.cartesian_options().max_rotation_step == 1e-5);
    QVERIFY(panel.cartesian_options().jump_threshold == 1e-4);
  }

  void presets_leave_the_cartesian_settings_alone() {
    PlannerPanel panel;
    CartesianOptions custom;
    custom.max_translation_step = 0.005;
    custom.jump_threshold = 0.2;
    custom.margin = 0.01;
    panel.set_cartesian_options(custom);
    panel.apply_preset(QStringLiteral("realtime"));
    panel.apply_preset(QStringLiteral("offline"));
    QCOMPARE(panel.options().timeout_ms, offline_preset().timeout_ms);  // the preset did apply
    const CartesianOptions o = panel.cartesian_options();
    QVERIFY(o.max_translation_step == 0.005);
    QVERIFY(o.jump_threshold == 0.2);
    QVERIFY(o.margin == 0.01);
  }

  void settings_come_back_as_they_were_set_and_edits_are_signalled() {
    PlannerPanel source;
    panels::PlannerSettings settings;
    settings.options = offline_preset();
    settings.options.planner = PlannerType::Prm;
    settings.options.seed = 42;
    settings.options.smoothing_passes = 2;
    WorkspaceBounds bounds;
    bounds.min = {-0.5, -0.6, 0.0};
    bounds.max = {0.7, 0.8, 1.2};
    settings.options.workspace = bounds;
    settings.random_seed = false;
    settings.cartesian_options.jump_threshold = 0.2;
    settings.cartesian_options.closed_form_ik =
        true;  // kept as chosen, though this robot has no solver
    settings.keep_orientation = true;
    settings.orientation_tolerance = qDegreesToRadians(10.0);
    settings.timing = QStringLiteral("scurve");
    settings.velocity_scaling = 0.5;
    settings.acceleration_scaling = 0.25;
    settings.replace_last_plan = true;
    QSignalSpy edited(&source, &PlannerPanel::settingsEdited);
    source.set_settings(settings);
    QCOMPARE(edited.count(), 0);  // set, not edited
    const panels::PlannerSettings back = source.settings();
    QCOMPARE(back.options.planner, PlannerType::Prm);
    QCOMPARE(back.options.timeout_ms, offline_preset().timeout_ms);
    QCOMPARE(back.options.max_iterations, offline_preset().max_iterations);
    QCOMPARE(back.options.seed, std::uint64_t{42});
    QCOMPARE(back.options.smoothing_passes, 2);
    QVERIFY(back.options.workspace && back.options.workspace->max[2] == 1.2);
    QVERIFY(!back.random_seed);
    QCOMPARE(back.cartesian_options.jump_threshold, 0.2);
    QVERIFY(back.cartesian_options.closed_form_ik);
    QVERIFY(back.keep_orientation);
    QVERIFY(std::abs(back.orientation_tolerance - qDegreesToRadians(10.0)) < 1e-9);
    QCOMPARE(back.timing, QStringLiteral("scurve"));
    QCOMPARE(back.velocity_scaling, 0.5);
    QCOMPARE(back.acceleration_scaling, 0.25);
    QVERIFY(back.replace_last_plan);

    // Cartesian mode and a random seed come back too.
    settings.cartesian = true;
    settings.random_seed = true;
    source.set_settings(settings);
    QVERIFY(source.settings().cartesian);
    QVERIFY(source.random_seed());

    // A user's edit in any box is signalled.
    source.velocity_box()->setValue(0.75);
    QCOMPARE(edited.count(), 1);
    source.seed_edit()->setText(QStringLiteral("7"));
    QVERIFY(edited.count() >= 2);
    source.timing_combo()->setCurrentIndex(
        source.timing_combo()->findData(QStringLiteral("trapezoidal")));
    QVERIFY(edited.count() >= 3);
  }

  void plan_needs_a_goal_and_cartesian_needs_a_pose() {
    PlannerPanel panel;
    QVERIFY(!panel.plan_button()->isEnabled());
    panel.set_goal_available(true, false);
    QVERIFY(panel.plan_button()->isEnabled());
    QSignalSpy plan(&panel, &PlannerPanel::planRequested);
    panel.plan_button()->click();
    QCOMPARE(plan.count(), 1);
    panel.planner_combo()->setCurrentIndex(panel.planner_combo()->count() - 1);  // Cartesian
    QVERIFY(panel.cartesian());
    QVERIFY(!panel.plan_button()->isEnabled());  // joints goal only
    panel.set_goal_available(true, true);
    QCOMPARE(panel.goal_type(), panels::PlanGoalType::TcpPose);
    QVERIFY(panel.plan_button()->isEnabled());
    panel.set_named_poses({QStringLiteral("home"), QStringLiteral("zero")});
    panel.goal_combo()->setCurrentIndex(2);
    QCOMPARE(panel.goal_type(), panels::PlanGoalType::Named);
    QCOMPARE(panel.goal_name(), QStringLiteral("home"));
    panel.start_combo()->setCurrentIndex(2);
    QCOMPARE(panel.start_type(), panels::PlanStartType::RandomValid);
  }

  // After a gizmo drag (a goal with joints and a TCP pose), choosing the Cartesian planner plans
  // to the pose at once; back to a search planner, the goal kind is the joints again.
  void choosing_cartesian_after_the_gizmo_plans_to_its_pose() {
    PlannerPanel panel;
    panel.set_goal_available(true, true);
    QCOMPARE(panel.goal_type(), panels::PlanGoalType::Joints);
    choose_cartesian(panel);
    QCOMPARE(panel.goal_type(), panels::PlanGoalType::TcpPose);
    QVERIFY(panel.plan_button()->isEnabled());
    QVERIFY(panel.goal_hint_label()->isHidden());
    panel.planner_combo()->setCurrentIndex(
        panel.planner_combo()->findText(QStringLiteral("RRT-Connect")));
    QCOMPARE(panel.goal_type(), panels::PlanGoalType::Joints);
    QVERIFY(panel.plan_button()->isEnabled());
  }

  void cartesian_without_a_pose_goal_says_what_to_do() {
    PlannerPanel panel;
    panel.set_goal_available(true, false);  // joints only
    choose_cartesian(panel);
    QVERIFY(!panel.plan_button()->isEnabled());
    QVERIFY(!panel.goal_hint_label()->isHidden());
    const QString hint = panel.goal_hint_label()->text();
    QVERIFY2(hint.contains(QStringLiteral("TCP pose goal")) &&
                 hint.contains(QStringLiteral("drag the goal gizmo")),
             qPrintable(hint));
    QCOMPARE(panel.plan_button()->toolTip(), hint);
    panel.set_goal_available(true, true);  // the gizmo dragged
    QCOMPARE(panel.goal_type(), panels::PlanGoalType::TcpPose);
    QVERIFY(panel.plan_button()->isEnabled());
    QVERIFY(panel.goal_hint_label()->isHidden());
  }

  // A named pose is not a goal for the Cartesian line: the panel says so rather than let the
  // plan fail in the worker.
  void cartesian_refuses_a_named_goal() {
    PlannerPanel panel;
    panel.set_named_poses({QStringLiteral("home")});
    panel.goal_combo()->setCurrentIndex(
        panel.goal_combo()->findData(int(panels::PlanGoalType::Named)));
    QVERIFY(panel.plan_button()->isEnabled());
    choose_cartesian(panel);
    QCOMPARE(panel.goal_type(), panels::PlanGoalType::Named);  // nothing better to offer
    QVERIFY(!panel.plan_button()->isEnabled());
    QVERIFY(panel.goal_hint_label()->text().contains(QStringLiteral("TCP pose goal")));
  }

  void an_explicit_goal_choice_is_kept_while_it_is_usable() {
    PlannerPanel panel;
    panel.set_goal_available(true, true);
    panel.set_named_poses({QStringLiteral("home")});
    const auto choose_goal = [&](panels::PlanGoalType type) {
      panel.goal_combo()->setCurrentIndex(panel.goal_combo()->findData(int(type)));
    };
    const auto choose_planner = [&](const QString& name) {
      panel.planner_combo()->setCurrentIndex(panel.planner_combo()->findText(name));
    };
    // A named pose, kept from planner to search planner; Cartesian takes the gizmo's pose instead,
    // and the named pose comes back with a search planner.
    choose_goal(panels::PlanGoalType::Named);
    choose_planner(QStringLiteral("PRM"));
    QCOMPARE(panel.goal_type(), panels::PlanGoalType::Named);
    choose_cartesian(panel);
    QCOMPARE(panel.goal_type(), panels::PlanGoalType::TcpPose);
    choose_planner(QStringLiteral("RRT-Connect"));
    QCOMPARE(panel.goal_type(), panels::PlanGoalType::Named);
    // The TCP pose chosen for a search planner stays through Cartesian and back.
    choose_goal(panels::PlanGoalType::TcpPose);
    choose_cartesian(panel);
    choose_planner(QStringLiteral("RRT*"));
    QCOMPARE(panel.goal_type(), panels::PlanGoalType::TcpPose);
    // A goal typed as joints only has no pose: the joints, until the gizmo gives a pose again.
    panel.set_goal_available(true, false);
    QCOMPARE(panel.goal_type(), panels::PlanGoalType::Joints);
    QVERIFY(panel.plan_button()->isEnabled());
    panel.set_goal_available(true, true);
    QCOMPARE(panel.goal_type(), panels::PlanGoalType::TcpPose);
    // Choosing a kind the planner cannot use is the user's to make: the combo keeps it and says
    // why.
    choose_cartesian(panel);
    choose_goal(panels::PlanGoalType::Joints);
    QCOMPARE(panel.goal_type(), panels::PlanGoalType::Joints);
    QVERIFY(!panel.plan_button()->isEnabled());
    QVERIFY(panel.goal_hint_label()->text().contains(QStringLiteral("choose Goal TCP pose")));
  }

  void running_shows_progress_and_cancel() {
    PlannerPanel panel;
    panel.set_goal_available(true, false);
    panel.set_running(true);
    QVERIFY(!panel.plan_button()->isEnabled());
    QVERIFY(panel.cancel_button()->isEnabled());
    QSignalSpy cancel(&panel, &PlannerPanel::cancelRequested);
    panel.cancel_button()->click();
    QCOMPARE(cancel.count(), 1);
    panel.set_progress(QStringLiteral("planning"), 25.0, 120, 240);
    QCOMPARE(panel.progress_bar()->value(), 25);
    QCOMPARE(panel.progress_bar()->maximum(), 50);
    QVERIFY(panel.progress_bar()->format().contains(QStringLiteral("120 iterations")));
    panel.set_running(false);
    QVERIFY(panel.plan_button()->isEnabled());
  }

  void result_and_failure_texts() {
    PlannerPanel panel;
    panels::PlanSummary s;
    s.planner = QStringLiteral("plan 1 · RRT-Connect");
    s.time_ms = 12.5;
    s.iterations = 321;
    s.waypoints = 7;
    s.length_before = 4.5;
    s.length_after = 3.25;
    s.cartesian_fraction = 0.73;
    s.validation = QStringLiteral("ok");
    panel.show_result(s);
    const QString text = panel.result_label()->text();
    for (const char* part :
         {"321 iterations", "7 waypoints", "4.500", "3.250", "73.0%", "planned in 12.5 ms"})
      QVERIFY2(text.contains(QString::fromUtf8(part)), qPrintable(text));
    // A plan faster than a millisecond keeps its digits (it read "planned in 0.0 ms").
    s.time_ms = 0.043;
    panel.show_result(s);
    QVERIFY2(panel.result_label()->text().contains(QStringLiteral("planned in 0.043 ms")),
             qPrintable(panel.result_label()->text()));
    panel.show_failure(QStringLiteral("start state is in collision: 'link2' with 'box1'"),
                       QStringLiteral("Move the start or the obstacle."));
    QVERIFY(panel.result_label()->text().contains(QStringLiteral("&#x27;link2&#x27;")) ||
            panel.result_label()->text().contains(QStringLiteral("'link2'")));
    QVERIFY(
        panel.result_label()->text().contains(QStringLiteral("Move the start or the obstacle.")));
  }
};

QTEST_MAIN(PlannerPanelTest)
#include "planner_panel_test.moc"
