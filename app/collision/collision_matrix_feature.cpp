#include "app/collision/collision_matrix_feature.hpp"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>

#include "app/collision/collision_matrix_job.hpp"
#include "app/document/studio_document.hpp"
#include "engine/collision/acm_config_file.hpp"
#include "engine/core/atomic_file.hpp"
#include "engine/model/robot_loader.hpp"

namespace kinetic::app {

namespace {

QMenu* tools_menu(QMainWindow& window) {
  for (QAction* action : window.menuBar()->actions())
    if (action->menu() && action->text().remove(QLatin1Char('&')) == QStringLiteral("Tools"))
      return action->menu();
  auto* menu = new QMenu(QObject::tr("&Tools"), window.menuBar());
  QAction* before = nullptr;  // Help stays last
  for (QAction* action : window.menuBar()->actions())
    if (action->menu() && action->text().remove(QLatin1Char('&')) == QStringLiteral("Help"))
      before = action;
  before ? window.menuBar()->insertMenu(before, menu) : window.menuBar()->addMenu(menu);
  return menu;
}

bool same_file(const QString& a, const QString& b) {
  return !a.isEmpty() && !b.isEmpty() &&
         QFileInfo(a).absoluteFilePath() == QFileInfo(b).absoluteFilePath();
}

}  // namespace

QString robot_config_file(const StudioDocument& document) {
  if (!document.robot_config().isEmpty()) return document.robot_config();
  for (const BuiltinRobotInfo& info : builtin_robots())
    if (QString::fromStdString(info.name) == document.robot_reference())
      return QString::fromStdString(builtin_robot_directory() + "/" + info.name + "/kinetic.toml");
  return {};
}

QString save_collision_matrix(StudioDocument& document, const AcmGeneratorResult& result,
                              const QString& path) {
  try {
    const QString seed = robot_config_file(document);
    if (!QFileInfo::exists(path) && !seed.isEmpty() && QFileInfo::exists(seed))
      write_file_atomically(path.toStdString(), read_text_file(seed.toStdString()));
    save_generated_skip_pairs(path.toStdString(), result);
  } catch (const std::exception& e) {
    return QObject::tr("Could not save the collision matrix into %1: %2")
        .arg(path, QString::fromStdString(e.what()));
  }
  if (same_file(path, document.robot_config())) return document.reload_robot();
  return {};
}

QAction* install_collision_matrix_feature(
    QMainWindow& window, StudioDocument& document,
    std::function<void(const QString&, const QString&)> report_error) {
  auto* job = new CollisionMatrixJob(&window);
  QAction* action = tools_menu(window)->addAction(QObject::tr("Generate &collision matrix…"));
  action->setToolTip(QObject::tr(
      "Find the link pairs that never (or always) collide and skip them in every check"));

  QObject::connect(action, &QAction::triggered, &window, [&window, &document, job] {
    if (!document.robot() || job->running()) return;
    bool ok = false;
    const int samples = QInputDialog::getInt(&window, QObject::tr("Generate collision matrix"),
                                             QObject::tr("Random configurations to sample:"), 10000,
                                             100, 1000000, 1000, &ok);
    if (!ok) return;
    auto* dialog =
        new QProgressDialog(QObject::tr("Sampling %1 configurations on every core…").arg(samples),
                            QObject::tr("Cancel"), 0, samples, &window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->setMinimumDuration(0);
    QObject::connect(dialog, &QProgressDialog::canceled, job, &CollisionMatrixJob::cancel);
    QObject::connect(job, &CollisionMatrixJob::progress, dialog, [dialog](int done, int total) {
      dialog->setMaximum(total);
      dialog->setValue(done);
    });
    QObject::connect(job, &CollisionMatrixJob::finished, dialog, &QProgressDialog::close);
    job->start(document.robot(), samples);
  });

  QObject::connect(
      job, &CollisionMatrixJob::finished, &window,
      [&window, &document, job, report_error](bool ok, const QString& error) {
        if (!ok) {
          if (error != CollisionMatrixJob::tr("cancelled"))
            report_error(QObject::tr("Collision matrix"),
                         QObject::tr("The collision matrix could not be generated: %1").arg(error));
          return;
        }
        if (job->robot() != document.robot())
          return;  // the robot changed meanwhile: the pairs would not fit
        const QString own = document.robot_config();
        QMessageBox box(QMessageBox::Information, QObject::tr("Collision matrix"),
                        describe_collision_matrix(job->result()), QMessageBox::Close, &window);
        QPushButton* save =
            own.isEmpty()
                ? nullptr
                : box.addButton(QObject::tr("Save into %1").arg(QFileInfo(own).fileName()),
                                QMessageBox::AcceptRole);
        QPushButton* save_as = box.addButton(QObject::tr("Save as…"), QMessageBox::ActionRole);
        box.exec();
        QString path;
        if (save && box.clickedButton() == save) {
          path = own;
        } else if (box.clickedButton() == save_as) {
          path = QFileDialog::getSaveFileName(
              &window, QObject::tr("Save the collision matrix into"),
              QStringLiteral("kinetic.toml"), QObject::tr("kinetic.toml (*.toml)"));
        }
        if (path.isEmpty()) return;
        const QString failure = save_collision_matrix(document, job->result(), path);
        if (!failure.isEmpty()) report_error(QObject::tr("Collision matrix"), failure);
      });
  return action;
}

}  // namespace kinetic::app
