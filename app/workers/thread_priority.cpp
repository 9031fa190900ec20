#include "app/workers/thread_priority.hpp"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace kinetic::app {

void lower_current_thread_priority() {
#ifdef __linux__
  // On Linux a nice value set for a thread id applies to that thread only.
  const auto thread_id = static_cast<id_t>(syscall(SYS_gettid));
  const int current = getpriority(PRIO_PROCESS, thread_id);
  if (current < 10) setpriority(PRIO_PROCESS, thread_id, 10);
#endif
}

}  // namespace kinetic::app
