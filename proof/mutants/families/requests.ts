/**
 * `request-refused`: a request element a statement names (the stated maximum of a page, a
 * parameter, a header, a request body field), refused with 400. Stated: the specification
 * says the operation takes it (Versioning: "removing a request parameter from path or body"
 * is breaking; a deprecated element is not removed).
 */
import { type OperationInfo, resolveRef } from '../../../contracts/index.ts';
import { resolveEncoding, type TraceRow } from '../../../spec/trace.ts';
import { type Docs, fieldPathOf, isObj, type Obj } from '../documents.ts';
import { type Builder, type Generation, quote } from '../generation.ts';
import { opRef, parseOpRef } from '../model.ts';
import { maxPageOps } from './answers.ts';

export function requestRefusedMutants(g: Generation): void {
  const pageRows = g.rowsOf('lim.rpp-1000');
  for (const { ref } of maxPageOps(g)) {
    g.b.add(
      {
        id: `request-refused:${parseOpRef(ref).key} records_per_page=1000`,
        family: 'request-refused',
        expect: 'killed',
        statement: `${quote(pageRows, 'records_per_page (max 1000)')} (the maximum itself is a valid value)`,
        section: 'Limits',
        rows: pageRows.map((r) => r.id),
        ops: [ref],
        change: { kind: 'refuse-request', ops: [ref], query: 'records_per_page', queryValue: '1000' },
      },
      undefined,
    );
  }
  requestElements(g.docs, g.rows, g.b);
}

/**
 * Request elements a trace row names (a parameter, a header, a request body field): a
 * request carrying one answered 400. Stated: the specification says the operation takes it
 * (Versioning: "removing a request parameter from path or body" is breaking; a deprecated
 * element is not removed).
 */
function requestElements(docs: Docs, rows: TraceRow[], b: Builder): void {
  // Parameters a row encodes, by (in, name) and where (an operation's own, or a shared component).
  const statedParams: Array<{ name: string; in: string; row: TraceRow; path?: string }> = [];
  const statedBody: Array<{ component?: string; opPath?: string; method?: string; field: string[]; row: TraceRow }> = [];
  for (const row of rows) {
    if (row.not_shown) continue;
    for (const ref of row.encoded_in) {
      if (!ref.startsWith('spec/platform.openapi.yaml#')) continue;
      const pointer = ref.slice(ref.indexOf('#') + 1);
      let node: unknown;
      try {
        node = resolveEncoding(ref);
      } catch {
        continue;
      }
      const pm = /^\/paths\/([^/]+)\/(get|put|post|delete)\/parameters\/\d+$/.exec(pointer) ?? /^\/components\/parameters\/[^/]+$/.exec(pointer);
      if (pm && isObj(node)) {
        let p = node;
        if (typeof p.$ref === 'string') {
          const t = resolveRef(p.$ref, new URL('../../../spec/platform.openapi.yaml', import.meta.url).href);
          if (t && isObj(t.value)) p = t.value;
        }
        if (typeof p.name === 'string' && (p.in === 'query' || p.in === 'header'))
          statedParams.push({ name: p.name, in: p.in, row, ...(pm[1] ? { path: pm[1].replace(/~1/g, '/') } : {}) });
        continue;
      }
      const cm = /^\/components\/schemas\/(MemberCreateRequest|WidgetUrlRequest|AchReturnCreate)\/properties\/(.+)$/.exec(pointer);
      if (cm) {
        const p = fieldPathOf(['properties', ...cm[2].split('/')]);
        if (p.path) statedBody.push({ component: cm[1], field: p.path, row });
        else if (cm[2].endsWith('/properties')) {
          const listed = isObj(node) ? Object.keys(node) : [];
          const parent = fieldPathOf(['properties', ...cm[2].split('/').slice(0, -1)]).path ?? [];
          for (const k of listed) statedBody.push({ component: cm[1], field: [...parent, k], row });
        }
        continue;
      }
      const om = /^\/paths\/([^/]+)\/(put|post)\/requestBody\/content\/application~1json\/schema\/properties\/(.+)$/.exec(pointer);
      if (om) {
        const p = fieldPathOf(['properties', ...om[3].split('/')]);
        if (p.path) statedBody.push({ opPath: om[1].replace(/~1/g, '/'), method: om[2].toUpperCase(), field: p.path, row });
      }
    }
  }
  const wrapperOf: Record<string, string[]> = { MemberCreateRequest: [], WidgetUrlRequest: [], AchReturnCreate: ['ach_return'] };
  const opsUsing = (component: string) => {
    const out: Array<{ op: OperationInfo; version?: string }> = [];
    for (const d of docs.ops) {
      if (d.api !== 'platform' || d.op.sunset) continue;
      const body = (d.op.operation.requestBody as Obj | undefined)?.content as Obj | undefined;
      const schema = isObj(body?.['application/json']) ? (body!['application/json'] as Obj).schema : undefined;
      if (!isObj(schema)) continue;
      const text = JSON.stringify(schema);
      if (text.includes(`#/components/schemas/${component}"`) || text.includes(`#/components/schemas/${component}Request"`)) out.push(d);
    }
    return out;
  };
  for (const d of docs.ops) {
    if (d.api !== 'platform' || d.op.sunset) continue;
    const params = (Array.isArray(d.op.operation.parameters) ? d.op.operation.parameters : []) as unknown[];
    for (const raw of params) {
      let p = raw as Obj;
      if (typeof p.$ref === 'string') {
        const m = /^#\/components\/parameters\/(.+)$/.exec(p.$ref);
        const doc = docs.contract.document('platform', d.version) as unknown as { components?: { parameters?: Record<string, Obj> } };
        p = (m && doc.components?.parameters?.[m[1]]) || p;
      }
      if (typeof p.name !== 'string' || (p.in !== 'query' && p.in !== 'header')) continue;
      if (p.in === 'header' && /^accept-version$/i.test(p.name)) continue; // Versioning: judged by the version scenarios
      if (p.name === 'page' || p.name === 'records_per_page') continue; // the stated maximum is its own mutant; paging is open
      const hit = statedParams.find((s) => s.name === p.name && s.in === p.in && (!s.path || s.path === d.op.path));
      if (!hit) continue;
      const ref = opRef('platform', d.op.key);
      b.add(
        {
          id: `request-refused:${d.op.key} ${p.in} ${p.name}`,
          family: 'request-refused',
          expect: 'killed',
          statement: `${hit.row.statement}; Versioning: "removing a request parameter from path or body" is breaking`,
          section: hit.row.section,
          rows: [hit.row.id],
          ops: [ref],
          change: { kind: 'refuse-request', ops: [ref], ...(p.in === 'query' ? { query: p.name } : { header: p.name.toLowerCase() }) },
        },
        d.version,
      );
    }
  }
  for (const s of statedBody) {
    const targets = s.component ? opsUsing(s.component) : docs.ops.filter((d) => d.api === 'platform' && d.op.path === s.opPath && d.op.method === s.method);
    for (const d of targets) {
      const ref = opRef('platform', d.op.key);
      const bodyPath = [...(s.component ? (wrapperOf[s.component] ?? []) : []), ...s.field];
      b.add(
        {
          id: `request-refused:${d.op.key} body ${bodyPath.join('.')}`,
          family: 'request-refused',
          expect: 'killed',
          statement: `${s.row.statement}; Versioning: "removing a request parameter from path or body" is breaking (a deprecated field is not removed)`,
          section: s.row.section,
          rows: [s.row.id],
          ops: [ref],
          change: { kind: 'refuse-request', ops: [ref], bodyPath },
        },
        d.version,
      );
    }
  }
}
