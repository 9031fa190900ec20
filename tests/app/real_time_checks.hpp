#pragma once
// Qt Test form of a real-time check (tests/support/stall_watch.hpp says why): evaluates
// `condition` once and fails as QVERIFY2 does, unless the watch saw the machine stall the process,
// in which case the test is skipped with the stall's length.
#include <QTest>

#include "support/stall_watch.hpp"

#define KINETIC_VERIFY_IN_REAL_TIME(watch, condition, message)                              \
  do {                                                                                      \
    const bool kinetic_held_in_real_time = static_cast<bool>(condition);                    \
    if (!kinetic_held_in_real_time && (watch).stalled()) QSKIP((watch).reason().c_str());   \
    if (!QTest::qVerify(kinetic_held_in_real_time, #condition, static_cast<const char*>(message), \
                        __FILE__, __LINE__))                                                \
      return;                                                                               \
  } while (false)
