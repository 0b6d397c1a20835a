'use strict';
// tap loads this plugin in its runner and in every test process; it acts only in the runner, the
// process that starts one per spec file. tap's processinfo hook reads each module a test process
// loads and measures its lines, for coverage that this suite turns off (`disable-coverage`): about
// 1.4 s of CPU a process. The exclusion pattern the runner hands each process now matches every file.
exports.plugin = (_t, options) => {
  if (options && options.context === Symbol.for('tap.isRunner'))
    process.env._TAPJS_PROCESSINFO_EXCLUDE_ = '/./';
  return {};
};
