/**
 * How an audit record becomes a span, loaded when telemetry first exports. In the bundles,
 * esbuild.js maps this require to the separate file dist/spans.js (built from auditRecordSpan.ts);
 * under tsx and mocha it is the source.
 */
export function loadAuditRecordSpan(): typeof import('./auditRecordSpan').auditRecordSpan {
  // A require, not import(): the bundles' CommonJS output keeps it as a plain require of ./spans.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./auditRecordSpan') as typeof import('./auditRecordSpan')).auditRecordSpan;
}
