#pragma once
// Processes a child leaves behind. A program kopt measures may start a process and detach it
// (setsid, a double fork) so that it outlives the program and acts while the next step runs:
// rewrites a result, touches the reference's files, keeps the GPU busy. With kopt made the
// "child subreaper" of its descendants, such a process becomes kopt's own child when its
// parent ends, instead of init's, and kopt can find and end it before it reads anything.

#include <functional>
#include <string>
#include <vector>

namespace kopt {

// Children this process started itself are not orphans: kill_adopted_orphans leaves them alone
// from their start until release_own_child (call it once the child is reaped). A child of
// another thread, e.g. ncu exporting a report while a comparison runs, must never be taken for
// a process the measured program left running. Thread-safe.
//
// start_own_child runs `start` (which starts a child and returns its pid, or <= 0) with the
// record of own children locked and keeps the child it started: no scan can see the new child
// before it is kept.
int start_own_child(const std::function<int()>& start);
void release_own_child(int pid);

// Kills (SIGKILL) every process of process group `group` and reaps those that are or become
// this process's children (a member whose parent died first is adopted), until none is left
// or 2 s have passed: a group ended this way leaves no zombie behind to be taken later for a
// process somebody else left running. Call it after reaping the group's leader.
void end_process_group(int group);

// Makes every orphaned descendant of this process its child (PR_SET_CHILD_SUBREAPER).
void adopt_orphans();

// Kills (SIGKILL) and reaps every child of this process that was adopted as an orphan, and
// their own children as they are adopted in turn; "4242 sleep 60" for each, except those of
// process group `killed_group` (kopt ended that group itself: a timeout, a cancellation; 0:
// none). Call it when this process has no child of its own running other than those kept.
std::vector<std::string> kill_adopted_orphans(int killed_group = 0);

}  // namespace kopt
