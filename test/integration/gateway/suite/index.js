'use strict';
// Test module handed to the runner as --tests: the workbench requires it in the extension host and calls run().
const { run } = require('../../runner/mochaInExtensionHost');

exports.run = () => run({ testsDir: __dirname, timeout: 60000 });
