'use strict';
// Test module handed to the runner as --tests (workspace trust on, folder untrusted: restricted mode).
const { run } = require('../../runner/mochaInExtensionHost');

exports.run = () => run({ testsDir: __dirname, timeout: 30000 });
