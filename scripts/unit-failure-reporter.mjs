// A node:test reporter that records what failed, for the summary block that
// scripts/run-unit-tests.mjs prints at the very end of a red run (the run's own output is
// thousands of lines; a failure named only somewhere in the middle is easily missed).
//
// It writes one JSON line per failing test to its destination (a file the runner reads
// after node --test exits): the test's file, its name with the names of the suites around
// it, and the first line of its error. A suite that failed only because a test inside it
// failed is left out (the test itself is listed). Errors raised outside any test (an
// uncaught exception after a test ended, a file whose import threw) reach node as
// diagnostics or as the file's stderr; they are recorded too, so a file that failed as a
// whole is named with its reason.

/** The first line of an error that says something: node wraps test errors in ERR_TEST_FAILURE with the real one as cause. */
function firstLine(error) {
  let e = error;
  if (e && typeof e === 'object' && e.code === 'ERR_TEST_FAILURE' && e.cause !== undefined) e = e.cause;
  const text = e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e ?? '');
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? ''
  );
}

const ERROR_LINE = /\b(Error|Exception|exception|Rejection|rejection)\b/;

export default async function* unitFailureReporter(source) {
  /** Names of the tests currently started, by file and nesting level. */
  const open = new Map();
  /** The first error-like stderr line of each file (a file that failed as a whole has its reason there). */
  const stderrOf = new Map();
  for await (const event of source) {
    const data = event.data ?? {};
    if (event.type === 'test:start') {
      const names = open.get(data.file) ?? [];
      names.length = data.nesting;
      names[data.nesting] = data.name;
      open.set(data.file, names);
    } else if (event.type === 'test:stderr') {
      const line = String(data.message ?? '')
        .split('\n')
        .map((l) => l.trim())
        .find((l) => ERROR_LINE.test(l));
      if (line && data.file && !stderrOf.has(data.file)) stderrOf.set(data.file, line);
    } else if (event.type === 'test:diagnostic') {
      const message = String(data.message ?? '');
      if (/^\w*Error\b|uncaughtException|unhandledRejection/.test(message))
        yield `${JSON.stringify({ kind: 'diagnostic', message: message.split('\n')[0] })}\n`;
    } else if (event.type === 'test:fail') {
      const error = data.details?.error;
      if (error?.failureType === 'subtestsFailed') continue;
      const suites = (open.get(data.file) ?? []).slice(0, data.nesting);
      let message = firstLine(error);
      // A file that failed as a whole says only "test failed": its reason is on its stderr.
      if (message === 'test failed' && stderrOf.has(data.file)) message = stderrOf.get(data.file);
      yield `${JSON.stringify({ kind: 'test', file: data.file, name: [...suites, data.name].join(' › '), failureType: error?.failureType, message })}\n`;
    }
  }
}
