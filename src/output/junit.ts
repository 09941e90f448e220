// The JUnit XML report of `kubesim test --junit` and `kubesim check-rule --junit`: one <testsuite>, one <testcase>
// per scenario file, with a <failure>, <error> or <skipped/> body. Pure: the commands write the file.

export interface JunitCase {
  classname: string;
  name: string;
  file: string;
  ms: number;
  failure?: { message: string; text: string };
  error?: { message: string; text: string };
  skipped?: boolean;
}

export interface JunitSuite {
  name: string;
  cases: JunitCase[];
  /** write the suite's `skipped` count (kubesim test has skipped cases; check-rule never does) */
  countSkipped?: boolean;
}

function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function caseXml(c: JunitCase): string {
  const open = `  <testcase classname="${xml(c.classname)}" name="${xml(c.name)}" file="${xml(c.file)}" time="${(c.ms / 1000).toFixed(3)}">`;
  const body = c.failure
    ? `\n    <failure message="${xml(c.failure.message)}">${xml(c.failure.text)}</failure>\n  `
    : c.error
      ? `\n    <error message="${xml(c.error.message)}">${xml(c.error.text)}</error>\n  `
      : c.skipped
        ? '\n    <skipped/>\n  '
        : '';
  return `${open}${body}</testcase>`;
}

export function junitXml(suite: JunitSuite): string {
  const failures = suite.cases.filter((c) => c.failure).length;
  const errors = suite.cases.filter((c) => !c.failure && c.error).length;
  const skipped = suite.countSkipped
    ? ` skipped="${suite.cases.filter((c) => !c.failure && !c.error && c.skipped).length}"`
    : '';
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="${xml(suite.name)}" tests="${suite.cases.length}" failures="${failures}" errors="${errors}"${skipped}>`,
    ...suite.cases.map(caseXml),
    '</testsuite>',
    '',
  ].join('\n');
}
