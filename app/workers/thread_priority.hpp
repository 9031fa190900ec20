#pragma once
// Long background work (planning) runs at a lower CPU priority than the interface, so on a
// machine with few cores the viewport keeps its frame rate while a plan runs (on lavapipe the
// renderer itself needs the cores). The planner still gets every cycle the interface leaves idle.
namespace kinetic::app {

// Lowers the calling thread's priority (Linux: nice +10 for this thread only); a no-op elsewhere
// or when the system refuses.
void lower_current_thread_priority();

}  // namespace kinetic::app
