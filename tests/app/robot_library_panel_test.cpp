// Qt Test: the robot library panel — listing, search by name / maker / DOF, the load signal.
#include <QLineEdit>
#include <QSignalSpy>
#include <QTreeWidget>
#include <QtTest>

#include "panels/robot_library_panel.hpp"

using kinetic::panels::RobotLibraryPanel;

class RobotLibraryPanelTest : public QObject {
  Q_OBJECT
 private slots:
  void lists_every_builtin_robot() {
    RobotLibraryPanel panel;
    const auto robots = kinetic::builtin_robots();
    QVERIFY(robots.size() >= 10);
    QCOMPARE(panel.visible_names().size(), static_cast<qsizetype>(robots.size()));
    QCOMPARE(panel.list()->columnCount(), 4);
  }

  void number_finds_arms_with_that_many_joints() {
    RobotLibraryPanel panel;
    panel.search_box()->setText(QStringLiteral("7"));
    const QStringList names = panel.visible_names();
    QVERIFY(!names.isEmpty());
    for (const auto& robot : kinetic::builtin_robots()) {
      const bool seven = robot.dof == 7;
      QCOMPARE(names.contains(QString::fromStdString(robot.name)), seven);
    }
    QVERIFY(names.contains(QStringLiteral("panda")));
    QVERIFY(names.contains(QStringLiteral("iiwa7")));
    QVERIFY(!names.contains(QStringLiteral("ur5e")));
  }

  void maker_search_ignores_case() {
    RobotLibraryPanel panel;
    panel.set_filter(QStringLiteral("kuka"));
    QStringList names = panel.visible_names();
    names.sort();
    QCOMPARE(names, (QStringList{QStringLiteral("iiwa14"), QStringLiteral("iiwa7"),
                                 QStringLiteral("kr6_r700_sixx")}));
    // Words combine: KUKA arms with 6 joints.
    panel.set_filter(QStringLiteral("KUKA 6"));
    QCOMPARE(panel.visible_names(), QStringList{QStringLiteral("kr6_r700_sixx")});
    panel.set_filter(QStringLiteral("universal"));
    QCOMPARE(panel.visible_names().size(), 4);
    panel.set_filter(QStringLiteral("no such maker"));
    QVERIFY(panel.visible_names().isEmpty());
    QVERIFY(panel.current_name().isEmpty());
  }

  void load_button_and_double_click_request_the_robot() {
    RobotLibraryPanel panel;
    QSignalSpy spy(&panel, &RobotLibraryPanel::loadRequested);
    panel.set_filter(QStringLiteral("franka"));
    QCOMPARE(panel.current_name(), QStringLiteral("panda"));  // the first match is current
    panel.load_current();
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.takeFirst().first().toString(), QStringLiteral("panda"));
    panel.set_filter({});
    panel.set_current_name(QStringLiteral("ur10e"));
    emit panel.list()->itemActivated(panel.list()->currentItem(), 0);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.takeFirst().first().toString(), QStringLiteral("ur10e"));
  }
};

QTEST_MAIN(RobotLibraryPanelTest)
#include "robot_library_panel_test.moc"
