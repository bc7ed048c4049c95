// Ends the run with one plain line, "tests: N passed, N failed[, N skipped]", that CI reads.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failedSuites = results.numFailedTestSuites + results.numRuntimeErrorTestSuites;
    const failed = results.numFailedTests + (results.numFailedTests === 0 ? failedSuites : 0);
    process.stdout.write(
      `\ntests: ${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
    );
  }
}
module.exports = SummaryReporter;
