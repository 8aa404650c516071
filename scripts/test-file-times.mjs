// A node:test reporter that writes one line per test file: its wall time (the file's subprocess from start to end,
// as the runner reports it) and its tests' pass/fail counts (tests, not suites), slowest first. scripts/test.mjs writes it to
// test-output/<suite>.files.txt beside the suite's TAP file, so a slow file is found without running files one by one.
import { relative } from 'node:path';

export default async function* fileTimes(source) {
  const files = new Map();
  const of = (file) => {
    if (!files.has(file)) files.set(file, { ms: 0, pass: 0, fail: 0, skip: 0 });
    return files.get(file);
  };
  for await (const event of source) {
    const d = event.data;
    if (!d?.file) continue;
    if (event.type === 'test:complete' && d.name === d.file && d.nesting === 0) of(d.file).ms = d.details?.duration_ms ?? 0;
    else if (event.type === 'test:pass' && d.details?.type !== 'suite') {
      if (d.skip || d.todo) of(d.file).skip += 1;
      else of(d.file).pass += 1;
    } else if (event.type === 'test:fail' && d.details?.type !== 'suite' && d.name !== d.file) of(d.file).fail += 1;
  }
  const rows = [...files].sort((a, b) => b[1].ms - a[1].ms);
  const total = rows.reduce((s, [, f]) => s + f.ms, 0);
  yield `# per-file wall time (s), slowest first; sum ${(total / 1000).toFixed(1)} s over ${rows.length} files\n`;
  for (const [file, f] of rows) {
    yield `${(f.ms / 1000).toFixed(1).padStart(7)}  ${relative(process.cwd(), file)}  (${f.pass} passed${f.fail ? `, ${f.fail} failed` : ''}${f.skip ? `, ${f.skip} skipped` : ''})\n`;
  }
}
