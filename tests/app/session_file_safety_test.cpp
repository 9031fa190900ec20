// Qt Test: what is not a session file, and saving without losing work (issue 41). A FIFO, a
// device or a file over the size limit is refused at once, saying what it is, and changes
// nothing; Save keeps the file's permissions, writes through a symbolic link to its target, and
// removes the temporaries a killed save left beside it.
#include <sys/stat.h>
#include <utime.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>
#include <string>

#include "app/document/studio_document.hpp"
#include "app/session/save_leftovers.hpp"
#include "app/session/session_file.hpp"

using kinetic::app::StudioDocument;

namespace {

std::string snapshot(const StudioDocument& document) {
  return kinetic::app::session_to_json(document);
}

QByteArray contents(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A file whose modification time is `seconds` ago.
bool make_file_aged(const QString& path, int seconds) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write("partial") != 7) return false;
  file.close();
  const time_t then = ::time(nullptr) - seconds;
  const struct utimbuf times { then, then };
  return ::utime(QFile::encodeName(path).constData(), &times) == 0;
}

}  // namespace

class SessionFileSafetyTest : public QObject {
  Q_OBJECT
 private slots:
  // A FIFO blocked the studio forever (no window ever appeared) and was said not to exist;
  // /dev/zero was read until memory ran out.
  void a_fifo_or_a_device_is_refused_at_once_and_changes_nothing() {
    QTemporaryDir dir;
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    const std::string before = snapshot(document);
    const QString fifo = dir.filePath(QStringLiteral("pipe.kinetic-session"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    for (const auto& [path, what] :
         {std::pair{fifo, QStringLiteral("is a FIFO (named pipe), not a regular file")},
          std::pair{QStringLiteral("/dev/zero"),
                    QStringLiteral("is a character device, not a regular file")}}) {
      QElapsedTimer timer;
      timer.start();
      const auto result = kinetic::app::load_session(document, path);
      QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
      QVERIFY(!result.ok());
      QVERIFY2(result.error.contains(QStringLiteral("'%1' %2").arg(path, what)),
               qPrintable(result.error));
      QVERIFY2(!result.error.contains(QStringLiteral("does not exist")), qPrintable(result.error));
      QCOMPARE(snapshot(document), before);
    }
  }

  void a_session_over_its_size_limit_is_refused_naming_the_limit() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("huge.kinetic-session"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.resize(65 * 1024 * 1024));  // sparse: nothing is written
    file.close();
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    const std::string before = snapshot(document);
    QElapsedTimer timer;
    timer.start();
    const auto result = kinetic::app::load_session(document, path);
    QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    QVERIFY2(
        result.error.contains(QStringLiteral("is 65.0 MB; a session file may be at most 64.0 MB")),
        qPrintable(result.error));
    QCOMPARE(snapshot(document), before);
  }

  // Save changed a private session to 0644 and replaced a symbolic link by a file, so the real
  // session never got the changes.
  void save_keeps_permissions_and_writes_through_a_symbolic_link() {
    QTemporaryDir dir;
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    const QString real = dir.filePath(QStringLiteral("real.kinetic-session"));
    QVERIFY(kinetic::app::save_session(document, real).isEmpty());
    QVERIFY(QFile::setPermissions(real, QFile::ReadOwner | QFile::WriteOwner));
    const QString link = dir.filePath(QStringLiteral("link.kinetic-session"));
    QVERIFY(QFile::link(real, link));
    document.set_joints(document.robot()->mid_configuration());
    QVERIFY(kinetic::app::save_session(document, link).isEmpty());
    QVERIFY(QFileInfo(link).isSymLink());
    QCOMPARE(contents(real), QByteArray::fromStdString(snapshot(document)));
    QCOMPARE(
        QFileInfo(real).permissions() & (QFile::ReadUser | QFile::WriteUser | QFile::ReadGroup |
                                         QFile::WriteGroup | QFile::ReadOther | QFile::WriteOther),
        QFile::ReadUser | QFile::WriteUser);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System).size(), 2);
  }

  // A kill between writing a save's temporary and renaming it left the temporary for good; the
  // next save of that session (here through a link, so beside its target) removes it. One a few
  // seconds old may be another studio's save in progress and stays, as do other files' ones.
  void a_save_removes_the_temporaries_a_killed_save_left() {
    QTemporaryDir dir;
    const QString real = dir.filePath(QStringLiteral("work [1].kinetic-session"));
    const QString link = dir.filePath(QStringLiteral("link.kinetic-session"));
    const QString stale = dir.filePath(QStringLiteral(".work [1].kinetic-session.tmp-a1B2c3"));
    const QString recent = dir.filePath(QStringLiteral(".work [1].kinetic-session.tmp-d4E5f6"));
    const QString other = dir.filePath(QStringLiteral(".work.kinetic-session.tmp-a1B2c3"));
    const QString longer =
        dir.filePath(QStringLiteral(".work [1].kinetic-session.tmp-a1B2c3.keep"));
    QVERIFY(make_file_aged(stale, 3600));
    QVERIFY(make_file_aged(recent, 2));
    QVERIFY(make_file_aged(other, 3600));
    QVERIFY(make_file_aged(longer, 3600));
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    QVERIFY(kinetic::app::save_session(document, real).isEmpty());
    QVERIFY(!QFile::exists(stale));
    QVERIFY(QFile::exists(recent) && QFile::exists(other) && QFile::exists(longer));

    QVERIFY(make_file_aged(stale, 3600));
    QVERIFY(QFile::link(real, link));
    QVERIFY(kinetic::app::save_session(document, link).isEmpty());
    QVERIFY(!QFile::exists(stale));
    QVERIFY(QFile::exists(recent));
    QCOMPARE(kinetic::app::remove_save_leftovers(real), 0);
  }
};

QTEST_GUILESS_MAIN(SessionFileSafetyTest)
#include "session_file_safety_test.moc"
