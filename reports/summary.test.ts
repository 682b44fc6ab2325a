/**
 * The reports' HTML pages (reports/summary.ts markdownToHtml): what the writers lay out in
 * Markdown comes out as the same page structure, and a target's own words in a cell are text
 * on the page, never markup.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markdownToHtml } from './summary.ts';

test('headings, lists, tables, bold and code render; raw HTML and an escaped pipe stay text in their cell', () => {
  const md = [
    '# Nightly **FAIL**',
    'Gate: `npm test` failed.',
    '| check | received |',
    '|---|---|',
    '| `response_schema_conformance` | <img src=x onerror=alert(1)> a \\| b |',
    '',
    '- one',
    '- **two**',
    '',
    '_No full nightly recorded yet._',
  ].join('\n');
  const page = markdownToHtml(md, 'svc <nightly>');
  assert.match(page, /<title>svc &lt;nightly&gt;<\/title>/);
  assert.match(page, /<h1>Nightly <strong>FAIL<\/strong><\/h1>/);
  assert.match(page, /<p>Gate: <code>npm test<\/code> failed.<\/p>/);
  assert.match(page, /<td><code>response_schema_conformance<\/code><\/td>\s*<td>&lt;img src=x onerror=alert\(1\)&gt; a \| b<\/td>/);
  assert.doesNotMatch(page, /<img/);
  assert.match(page, /<li>one<\/li>\s*<li><strong>two<\/strong><\/li>/);
  assert.match(page, /<p><em>No full nightly recorded yet.<\/em><\/p>/);
});
