#pragma once
// A worker's outcome records why its work failed: the engine's error code, message and hint, or
// the message of any other exception. Call from a catch (...) block with std::current_exception().
#include <QString>
#include <exception>

#include "engine/core/error.hpp"

namespace kinetic::app {

template <typename Outcome>
void record_failure(Outcome& outcome, const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const Error& error) {
    outcome.error_code = error.code();
    outcome.error = QString::fromStdString(error.message());
    outcome.hint = QString::fromStdString(error.hint());
  } catch (const std::exception& error) {
    outcome.error = QString::fromUtf8(error.what());
  } catch (...) {
    outcome.error = QStringLiteral("an unknown error");
  }
}

}  // namespace kinetic::app
