// Qt Test: the scene panel bound to a real document with a real robot (UR5e), offscreen.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "app/document/studio_document.hpp"
#include "app/scene/scene_panel_binding.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/planning/state_diagnostics.hpp"
#include "engine/scene/scene_file.hpp"
#include "panels/scene_panel.hpp"
#include "support/test_paths.hpp"

using kinetic::Pose;
using kinetic::Shape;
using kinetic::Vector3;
using kinetic::app::StudioDocument;
using kinetic::panels::ScenePanel;

namespace {

Vector3 world_position(const StudioDocument& document, const std::string& name) {
  const auto& scene = document.scene();
  if (scene.has_obstacle(name)) return scene.obstacle(name).pose.translation();
  const auto& object = scene.attached(name);
  return (kinetic::compute_link_pose(*document.robot(), document.joints(), object.link) *
          object.pose)
      .translation();
}

// Scenes equal up to rounding (a pose's rotation goes through a quaternion in the file).
bool same_scene(const kinetic::PlanningScene& a, const kinetic::PlanningScene& b) {
  if (a.obstacles().size() != b.obstacles().size() ||
      a.attached_objects().size() != b.attached_objects().size() || a.overrides() != b.overrides())
    return false;
  for (std::size_t i = 0; i < a.obstacles().size(); ++i) {
    const auto &x = a.obstacles()[i], &y = b.obstacles()[i];
    if (x.name != y.name || x.shape.type != y.shape.type || x.shape.box_size != y.shape.box_size ||
        x.shape.radius != y.shape.radius || x.shape.length != y.shape.length ||
        !x.pose.isApprox(y.pose, 1e-12))
      return false;
  }
  for (std::size_t i = 0; i < a.attached_objects().size(); ++i) {
    const auto &x = a.attached_objects()[i], &y = b.attached_objects()[i];
    if (x.name != y.name || x.link != y.link || x.shape.type != y.shape.type ||
        x.shape.radius != y.shape.radius || x.shape.box_size != y.shape.box_size ||
        !x.pose.isApprox(y.pose, 1e-12))
      return false;
  }
  return true;
}

}  // namespace

class ScenePanelTest : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    document_ = std::make_unique<StudioDocument>();
    QVERIFY2(document_->load_robot(QStringLiteral("ur5e")).isEmpty(), "ur5e loads");
    panel_ = std::make_unique<ScenePanel>();
    kinetic::app::bind_scene_panel(*panel_, *document_);
  }
  void cleanup() {
    panel_.reset();
    document_.reset();
  }

  void add_primitives_with_unique_names_in_front_of_the_robot() {
    QVERIFY(panel_->add_primitive(Shape::Type::Box).isEmpty());
    QVERIFY(panel_->add_primitive(Shape::Type::Box).isEmpty());
    QVERIFY(panel_->add_primitive(Shape::Type::Cylinder).isEmpty());
    QVERIFY(panel_->add_primitive(Shape::Type::Sphere).isEmpty());
    const auto& scene = document_->scene();
    QCOMPARE(scene.obstacles().size(), std::size_t{4});
    QVERIFY(scene.has_obstacle("box1"));
    QVERIFY(scene.has_obstacle("box2"));
    QVERIFY(scene.has_obstacle("cylinder1"));
    QVERIFY(scene.has_obstacle("sphere1"));
    QVERIFY(scene.obstacle("box1").pose.translation().x() > 0.2);  // in front (+x)
    QCOMPARE(scene.obstacle("box1").pose.translation().z(), 0.1);  // standing on the floor
    // The newest is selected in both the panel and the document.
    QCOMPARE(document_->selected_object(), QStringLiteral("sphere1"));
    QCOMPARE(panel_->object_list()->count(), 4);
    // Four undo steps, undone one by one.
    QCOMPARE(document_->undo_stack().count(), 4);
    document_->undo_stack().undo();
    QVERIFY(!document_->scene().has_obstacle("sphere1"));
    QCOMPARE(panel_->object_list()->count(), 3);
  }

  void resize_move_and_rename_through_the_editors() {
    QVERIFY(panel_->add_primitive(Shape::Type::Box).isEmpty());
    panel_->size_editor(0)->setValue(0.5);
    QCOMPARE(document_->scene().obstacle("box1").shape.box_size.x(), 0.5);
    panel_->position_editor(1)->setValue(-0.3);
    panel_->rpy_editor(2)->setValue(90.0);
    const Pose pose = document_->scene().obstacle("box1").pose;
    QCOMPARE(pose.translation().y(), -0.3);
    QVERIFY((pose.linear() * Vector3::UnitX() - Vector3::UnitY()).norm() < 1e-9);  // yaw 90°
    panel_->name_editor()->setText(QStringLiteral("crate"));
    emit panel_->name_editor()->editingFinished();
    QVERIFY(document_->scene().has_obstacle("crate"));
    QVERIFY(!document_->scene().has_obstacle("box1"));
    QCOMPARE(document_->selected_object(), QStringLiteral("crate"));
    QCOMPARE(document_->scene().obstacle("crate").shape.box_size.x(), 0.5);
    // A taken name is refused and changes nothing.
    QVERIFY(panel_->add_primitive(Shape::Type::Sphere).isEmpty());
    QVERIFY(!panel_->rename_selected(QStringLiteral("crate")).isEmpty());
    QVERIFY(document_->scene().has_obstacle("sphere1"));

    // Undo walks back through the rename to the original name, redo forward again.
    QUndoStack& undo = document_->undo_stack();
    while (undo.canUndo() && !document_->scene().has_obstacle("box1")) undo.undo();
    QVERIFY(document_->scene().has_obstacle("box1"));
    while (undo.canRedo()) undo.redo();
    QVERIFY(document_->scene().has_obstacle("crate"));
    QVERIFY(document_->scene().has_obstacle("sphere1"));
  }

  void selection_follows_the_document_both_ways() {
    QVERIFY(panel_->add_primitive(Shape::Type::Box).isEmpty());
    QVERIFY(panel_->add_primitive(Shape::Type::Sphere).isEmpty());
    document_->set_selected_object(QStringLiteral("box1"));
    QCOMPARE(panel_->selected(), QStringLiteral("box1"));
    QCOMPARE(panel_->object_list()->currentItem()->data(Qt::UserRole).toString(),
             QStringLiteral("box1"));
    panel_->object_list()->setCurrentRow(1);
    QCOMPARE(document_->selected_object(), QStringLiteral("sphere1"));
  }

  void attach_to_the_tool_and_detach_keeps_the_world_pose() {
    QVERIFY(panel_->add_primitive(Shape::Type::Cylinder).isEmpty());
    const Vector3 before = world_position(*document_, "cylinder1");
    QCOMPARE(panel_->link_chooser()->currentText(),
             QStringLiteral("tool0"));  // the end effector's link
    QVERIFY(panel_->attach_selected(QStringLiteral("tool0")).isEmpty());
    QVERIFY(document_->scene().has_attached("cylinder1"));
    QCOMPARE(QString::fromStdString(document_->scene().attached("cylinder1").link),
             QStringLiteral("tool0"));
    QVERIFY((world_position(*document_, "cylinder1") - before).norm() < 1e-9);
    // It moves with the arm: turn the base by 0.5 rad, then detach where it is.
    kinetic::JointVector q = document_->joints();
    q[0] += 0.5;
    document_->set_joints(q);
    const Vector3 carried = world_position(*document_, "cylinder1");
    QVERIFY((carried - before).norm() > 0.05);
    QVERIFY(panel_->detach_selected().isEmpty());
    QVERIFY(document_->scene().has_obstacle("cylinder1"));
    QVERIFY((world_position(*document_, "cylinder1") - carried).norm() < 1e-9);
    // Undo the detach: attached again.
    document_->undo_stack().undo();
    QVERIFY(document_->scene().has_attached("cylinder1"));
  }

  // A part held flush on the flange touches the links that hold it: attaching lets them touch it
  // (as a pick and place does), so the robot is not in collision at once and can still plan.
  void a_part_attached_flush_on_the_flange_may_touch_the_links_that_hold_it() {
    QVERIFY(panel_->add_primitive(Shape::Type::Box).isEmpty());
    kinetic::PlanningScene scene = document_->scene();
    const Pose flange =
        kinetic::compute_link_pose(*document_->robot(), document_->joints(), "tool0");
    scene.remove_obstacle("box1");  // a 4 cm part, 1 cm of it inside the flange's housing
    scene.add_obstacle("box1", Shape::box(Vector3(0.04, 0.04, 0.04)),
                       flange * Pose(Eigen::Translation3d(0.0, 0.0, 0.01)));
    document_->set_scene(scene);
    kinetic::CollisionChecker checker(document_->robot());
    checker.set_scene(document_->scene());
    QVERIFY2(checker.in_collision(document_->joints()),
             "the box overlaps the wrist before attaching");
    QVERIFY(panel_->attach_selected(QStringLiteral("tool0")).isEmpty());
    const auto& touch = document_->scene().attached("box1").touch_links;
    QVERIFY(std::find(touch.begin(), touch.end(), "link6") != touch.end());
    checker.set_scene(document_->scene());
    QVERIFY2(!checker.in_collision(document_->joints()),
             kinetic::describe_contacts(checker.contacts(document_->joints())).c_str());
    QVERIFY2(panel_->note().contains(QStringLiteral("link6")), qPrintable(panel_->note()));
  }

  void delete_and_undo() {
    QVERIFY(panel_->add_primitive(Shape::Type::Box).isEmpty());
    QVERIFY(panel_->delete_selected().isEmpty());
    QVERIFY(document_->scene().obstacles().empty());
    QVERIFY(document_->selected_object().isEmpty());
    document_->undo_stack().undo();
    QVERIFY(document_->scene().has_obstacle("box1"));
    document_->undo_stack().redo();
    QVERIFY(!document_->scene().has_obstacle("box1"));
    QVERIFY(!panel_->delete_selected().isEmpty());  // nothing selected: a message, no change
  }

  void save_and_load_round_trip() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(panel_->add_primitive(Shape::Type::Box).isEmpty());
    QVERIFY(panel_->add_primitive(Shape::Type::Sphere).isEmpty());
    QVERIFY(panel_->attach_selected(QStringLiteral("tool0")).isEmpty());
    const kinetic::PlanningScene saved = document_->scene();
    const QString path = dir.filePath(QStringLiteral("scene.json"));
    QVERIFY(panel_->save_scene_file(path).isEmpty());
    QVERIFY(panel_->delete_selected().isEmpty());
    QVERIFY(panel_->load_scene_file(path).isEmpty());
    QVERIFY(same_scene(document_->scene(), saved));
    // Loading is one undo step.
    document_->undo_stack().undo();
    QVERIFY(!document_->scene().has_attached("sphere1"));
  }

  // Add from a scene file keeps what is there (Load replaces it): a fixture into a work cell,
  // clashing names renamed and said, one undo step.
  void objects_from_a_scene_file_are_added_to_the_scene() {
    QTemporaryDir dir;
    kinetic::PlanningScene fixture;
    fixture.add_obstacle("box1", Shape::box(Vector3(0.1, 0.1, 0.1)),
                         Pose(Eigen::Translation3d(-0.4, 0.3, 0.05)));
    fixture.add_obstacle("clamp", Shape::cylinder(0.02, 0.1),
                         Pose(Eigen::Translation3d(-0.4, 0.2, 0.05)));
    const QString path = dir.filePath(QStringLiteral("fixture.json"));
    kinetic::save_scene(fixture, path.toStdString());
    QVERIFY(panel_->add_primitive(Shape::Type::Box).isEmpty());  // the cell's own box1
    const Vector3 own = document_->scene().obstacle("box1").pose.translation();
    const int steps = document_->undo_stack().count();
    QVERIFY(panel_->add_scene_file(path).isEmpty());
    const auto& scene = document_->scene();
    QCOMPARE(scene.obstacles().size(), std::size_t(3));
    QVERIFY(scene.has_obstacle("clamp") && scene.has_obstacle("box1_2"));
    QVERIFY((scene.obstacle("box1").pose.translation() - own).norm() < 1e-12);
    QVERIFY2(panel_->note().contains(QStringLiteral("'box1' as 'box1_2'")),
             qPrintable(panel_->note()));
    QCOMPARE(panel_->selected(), QStringLiteral("box1_2"));
    QCOMPARE(document_->undo_stack().count(), steps + 1);
    document_->undo_stack().undo();
    QCOMPARE(document_->scene().obstacles().size(), std::size_t(1));
    // A file that cannot be read adds nothing and says so.
    QVERIFY(panel_->add_scene_file(dir.filePath(QStringLiteral("nope.json")))
                .startsWith(QStringLiteral("Nothing was added")));
    QCOMPARE(document_->scene().obstacles().size(), std::size_t(1));
  }

  void a_copy_of_the_selected_object_goes_beside_it_and_delete_takes_it() {
    QVERIFY(panel_->add_primitive(Shape::Type::Cylinder).isEmpty());
    const kinetic::Obstacle original = document_->scene().obstacle("cylinder1");
    QVERIFY(panel_->duplicate_selected().isEmpty());
    QCOMPARE(panel_->selected(), QStringLiteral("cylinder1_copy1"));
    const kinetic::Obstacle& copy = document_->scene().obstacle("cylinder1_copy1");
    QCOMPARE(copy.shape.radius, original.shape.radius);
    QVERIFY((copy.pose.translation() - original.pose.translation() - Vector3(0, 0.1, 0)).norm() <
            1e-12);
    // The Delete key in the list deletes the selected object.
    panel_->object_list()->setFocus();
    QTest::keyClick(panel_->object_list(), Qt::Key_Delete);
    QVERIFY(!document_->scene().has_obstacle("cylinder1_copy1"));
    QVERIFY(document_->scene().has_obstacle("cylinder1"));
  }

  void malformed_scene_file_reports_and_keeps_the_scene() {
    QTemporaryDir dir;
    QVERIFY(panel_->add_primitive(Shape::Type::Box).isEmpty());
    const std::string before = kinetic::scene_to_json(document_->scene());
    const int steps = document_->undo_stack().count();
    const QString path = dir.filePath(QStringLiteral("broken.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "x", "shape": {"type": "sphere", "radius": -1}, )");
    file.close();
    QSignalSpy errors(panel_.get(), &ScenePanel::errorOccurred);
    const QString error = panel_->load_scene_file(path);
    QVERIFY(!error.isEmpty());
    QVERIFY2(error.contains(QStringLiteral("broken.json")), qPrintable(error));
    QCOMPARE(errors.count(), 1);
    QCOMPARE(kinetic::scene_to_json(document_->scene()), before);
    QCOMPARE(document_->undo_stack().count(), steps);
    // A missing file, likewise.
    QVERIFY(panel_->load_scene_file(dir.filePath(QStringLiteral("nope.json")))
                .contains(QStringLiteral("nope.json")));
    QCOMPARE(kinetic::scene_to_json(document_->scene()), before);
  }

  void scene_file_with_a_missing_mesh_or_a_folder_keeps_the_scene() {
    // A mesh obstacle whose file is gone used to load silently (a placeholder in the view, the next
    // plan failed); a folder was reported as malformed JSON.
    QTemporaryDir dir;
    QVERIFY(panel_->add_primitive(Shape::Type::Box).isEmpty());
    const std::string before = kinetic::scene_to_json(document_->scene());
    const int steps = document_->undo_stack().count();
    const QString gone = dir.filePath(QStringLiteral("gone.stl"));
    kinetic::PlanningScene with_mesh;
    with_mesh.add_obstacle("part", Shape::mesh(gone.toStdString()), Pose::Identity());
    const QString path = dir.filePath(QStringLiteral("meshes.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(kinetic::scene_to_json(with_mesh)));
    file.close();
    const QString error = panel_->load_scene_file(path);
    QVERIFY2(error.contains(QStringLiteral("meshes.json")) &&
                 error.contains(QStringLiteral("'part'")) &&
                 error.contains(QStringLiteral("gone.stl")),
             qPrintable(error));
    QCOMPARE(kinetic::scene_to_json(document_->scene()), before);
    QCOMPARE(document_->undo_stack().count(), steps);

    const QString folder = panel_->load_scene_file(dir.path());
    QVERIFY2(folder.contains(QStringLiteral("is a folder")), qPrintable(folder));
    QCOMPARE(kinetic::scene_to_json(document_->scene()), before);
  }

  // MoveIt's scenes load as Kinetic's do: MotionBenchMaker's planning-scene YAML and a .scene text.
  void loads_moveit_scene_files() {
    QTemporaryDir dir;
    const QString text = dir.filePath(QStringLiteral("exported.scene"));
    QFile file(text);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        "exported\n* crate\n0.6 0 0.2\n0 0 0 1\n1\nbox\n0.2 0.2 0.2\n0 0 0\n0 0 0 1\n0 0 0 "
        "0\n0\n.\n");
    file.close();
    QVERIFY(panel_->load_scene_file(text).isEmpty());
    QCOMPARE(document_->scene().obstacles().size(), std::size_t{1});
    QVERIFY(document_->scene().has_obstacle("crate"));
    if (kinetic::test::mbm_panda_dir().empty())
      QSKIP("../shared/mbm/panda is absent: its YAML scene is skipped");
    const QString yaml = QString::fromStdString(kinetic::test::mbm_panda_dir() +
                                                "/problems/box_panda/scene0001.yaml");
    QVERIFY(panel_->load_scene_file(yaml).isEmpty());
    QCOMPARE(document_->scene().obstacles().size(), std::size_t{7});
    QVERIFY(document_->scene().has_obstacle("Can1"));
  }

  void mesh_file_errors_are_shown() {
    QTemporaryDir dir;
    const QString bogus = dir.filePath(QStringLiteral("bogus.stl"));
    QFile file(bogus);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("not a mesh");
    file.close();
    const QString error = panel_->add_mesh(bogus);
    QVERIFY2(error.contains(QStringLiteral("bogus.stl")), qPrintable(error));
    QVERIFY(document_->scene().obstacles().empty());
    QCOMPARE(panel_->last_error(), error);
  }

  void link_names_are_refused_for_scene_objects() {
    // The checker keeps pairs by name: an obstacle called 'link3' silently hid other collisions.
    QVERIFY(panel_->add_primitive(Shape::Type::Box).isEmpty());
    const QString box = panel_->selected();
    const QString error = panel_->rename_selected(QStringLiteral("link3"));
    QVERIFY2(error.contains(QStringLiteral("'link3' is the name of one of the robot's links")),
             qPrintable(error));
    QVERIFY(document_->scene().has_obstacle(box.toStdString()));
    QVERIFY(!document_->scene().has_obstacle("link3"));
    // A scene file naming an object after a link is not loaded.
    QTemporaryDir dir;
    kinetic::PlanningScene named;
    named.add_obstacle("base_link", Shape::sphere(0.1), Pose::Identity());
    const QString path = dir.filePath(QStringLiteral("named.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(kinetic::scene_to_json(named)));
    file.close();
    const QString refused = panel_->load_scene_file(path);
    QVERIFY2(refused.contains(QStringLiteral("'base_link' has the name of a link of robot 'ur5e'")),
             qPrintable(refused));
    QVERIFY(document_->scene().has_obstacle(box.toStdString()));
  }

  void a_mesh_in_millimetres_is_added_with_a_note_on_its_scale() {
    // A 100 x 60 x 40 box drawn in millimetres: read as metres, 100 m across.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("part mm.stl"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const double v[8][3] = {{0, 0, 0},   {0, 0, 40},   {0, 60, 0},   {0, 60, 40},
                            {100, 0, 0}, {100, 0, 40}, {100, 60, 0}, {100, 60, 40}};
    const int faces[12][3] = {{0, 1, 3}, {0, 3, 2}, {4, 6, 7}, {4, 7, 5}, {0, 4, 5}, {0, 5, 1},
                              {2, 3, 7}, {2, 7, 6}, {0, 2, 6}, {0, 6, 4}, {1, 5, 7}, {1, 7, 3}};
    QByteArray text = "solid part\n";
    for (const auto& f : faces) {
      text += " facet normal 0 0 0\n  outer loop\n";
      for (int i : f)
        text +=
            QStringLiteral("   vertex %1 %2 %3\n").arg(v[i][0]).arg(v[i][1]).arg(v[i][2]).toUtf8();
      text += "  endloop\n endfacet\n";
    }
    text += "endsolid part\n";
    file.write(text);
    file.close();
    QSignalSpy errors(panel_.get(), &ScenePanel::errorOccurred);
    QCOMPARE(panel_->add_mesh(path), QString());
    QCOMPARE(document_->scene().obstacles().size(), std::size_t{1});  // added as read
    QVERIFY2(panel_->note().contains(QStringLiteral("'part_mm1' is 100.0 m across")) &&
                 panel_->note().contains(QStringLiteral("0.001")),
             qPrintable(panel_->note()));
    QCOMPARE(errors.count(), 0);  // a note, not an error
    // The next action clears it.
    QCOMPARE(panel_->add_primitive(Shape::Type::Box), QString());
    QVERIFY(panel_->note().isEmpty());
  }

 private:
  std::unique_ptr<StudioDocument> document_;
  std::unique_ptr<ScenePanel> panel_;
};

QTEST_MAIN(ScenePanelTest)
#include "scene_panel_test.moc"
