#pragma once
// ResultLabel: where a panel says what an action did (planned, failed, exported, validated). Every
// result shown is also announced (resultShown, as one line of plain text), so the main window says
// it in the status bar too: a result said only inside a dock can be out of sight. The layout test
// finds a window's results by this class.
#include <QLabel>

namespace kinetic::panels {

class ResultLabel : public QLabel {
  Q_OBJECT
 public:
  enum class Tone { Normal, Error };
  explicit ResultLabel(QWidget* parent = nullptr);

  // Shows `text` (rich text allowed) and announces it; an empty text clears the label silently.
  void show_result(const QString& text, Tone tone = Tone::Normal);
  Tone tone() const { return tone_; }
  // The text as one line of plain text ("" for none): what the status bar says.
  QString summary_line() const;

 signals:
  void resultShown(const QString& line, bool error);

 private:
  Tone tone_ = Tone::Normal;
};

}  // namespace kinetic::panels
