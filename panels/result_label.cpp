#include "panels/result_label.hpp"

#include <QTextDocumentFragment>

namespace kinetic::panels {

ResultLabel::ResultLabel(QWidget* parent) : QLabel(parent) {
  setWordWrap(true);
  setTextInteractionFlags(Qt::TextSelectableByMouse);
}

void ResultLabel::show_result(const QString& text, Tone tone) {
  tone_ = text.isEmpty() ? Tone::Normal : tone;
  setText(text);
  setStyleSheet(tone_ == Tone::Error ? QStringLiteral("color: #b00020;") : QString());
  if (!text.isEmpty()) emit resultShown(summary_line(), tone_ == Tone::Error);
}

QString ResultLabel::summary_line() const {
  const QString plain =
      Qt::mightBeRichText(text()) ? QTextDocumentFragment::fromHtml(text()).toPlainText() : text();
  // Rich text's line breaks come back as U+2028 or '\n'. A status bar has one line: the first,
  // with "…" where more follows (as a reported problem is said there).
  QString all = plain;
  all.replace(QChar(0x2028), QLatin1Char('\n'));
  const QStringList lines = all.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  if (lines.isEmpty()) return {};
  return lines.size() > 1 ? lines.first().simplified() + QStringLiteral(" …")
                          : lines.first().simplified();
}

}  // namespace kinetic::panels
