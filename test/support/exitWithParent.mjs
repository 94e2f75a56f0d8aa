// Preloaded (node --import) into the API and worker processes that the fault tests start: a
// process whose parent (the test process) is gone kills itself, so even a test process killed
// without its clean-up leaves no service process running.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL');
}, 500).unref();
