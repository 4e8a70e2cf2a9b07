import path from 'node:path';

/** The first line of an error message, without terminal colours, at most 300 characters. */
const firstLine = (text) =>
  String(text ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '')
    .trim()
    .split('\n')[0]
    .slice(0, 300);

/**
 * One line per failed test of vitest's JSON report and per failed or flaky (passed only when retried) journey of
 * Playwright's, with where it is and its error's first line. Either report may be null (its step did not run).
 */
export function namedFailures(vitest, playwright, root) {
  const lines = [];
  for (const file of vitest?.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      lines.push(
        `✗ vitest: ${path.relative(root, file.name)} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`,
      );
    }
  }
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
        const error = test.results?.find((result) => result.error)?.error?.message;
        const mark = test.status === 'flaky' ? '~ instável (passou ao repetir)' : '✗';
        lines.push(
          `${mark} playwright [${test.projectName}]: ${file}:${spec.line} › ${spec.title}: ${firstLine(error)}`,
        );
      }
    }
    for (const child of suite.suites ?? []) walk(child, file);
  };
  for (const suite of playwright?.suites ?? []) walk(suite, suite.file);
  return lines;
}
