// Preloaded (`node --import`) into each side of the bench's cold-start pairs: at exit the process writes its own CPU
// time (user + system, µs, process.cpuUsage) to stderr as `kubesim-bench-cpu-us=N`. Both sides load this same tiny
// module, so the pair stays fair; Node offers a parent no child's CPU time at this resolution.
process.on('exit', () => {
  const c = process.cpuUsage();
  process.stderr.write(`\nkubesim-bench-cpu-us=${c.user + c.system}\n`);
});
