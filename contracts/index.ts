/**
 * contracts/: the machine-readable contract built from spec/ (../shared/DESIGN.md,
 * "Checks and failures"). The one door: outside contracts/, every file imports this one
 * and no other file of contracts/ (tests/import-rules.test.ts keeps it so), so the
 * contract's insides can change without touching the suites.
 *
 *   const contract = loadContract();
 *   const failures = contract.check({ api: 'platform', version: 'v20250224', request, response });
 *   if (hasErrors(failures)) ...
 */
export type { ApiName } from './load.ts';
export {
  DEFAULT_SPEC_DIR,
  discoverDocuments,
  follow,
  inlineRefs,
  loadDocument,
  locateNode,
  pointerOf,
  readDocument,
  parseYamlFile,
  readYamlFile,
  resolveRef,
} from './load.ts';
export type { Failure, Tier } from './failure.ts';
export {
  FAILURE_TEXT_FIELDS,
  failureText,
  formatFailure,
  hasErrors,
  tierOf,
  severityOfTier,
  countByTier,
  TIER_ANNOTATION,
} from './failure.ts';
export type { Contract, ReceivedExchange, CheckedExchange } from './contract.ts';
export { loadContract, CHECK_TIMING_SINK } from './contract.ts';
export { decodeBody, printable, readJsonText, MAX_JSON_DEPTH, JSON_TEXT_CHECK, JSON_TEXT_RULES } from './json-text.ts';
export type { Exchange, CheckOptions } from './registry.ts';
export { registerCheck, registeredChecks, exchangeCheck } from './registry.ts';
export type { NotShown, OperationInfo } from './model.ts';
export { notShownOf } from './model.ts';
export type { Difference, DifferenceKind } from './classifier.ts';
export { diffSchemas, diffDocuments, diffObservations, KINDS } from './classifier.ts';
export { createAjv, compileAt } from './compile.ts';
export { recordsAt, responseRecords, type RecordSite } from './records.ts';
export { STATED_PLATFORM_RULES } from './stated-platform.ts';
export { PARTNER_RULES, PROCESSOR_TOKEN_LIFETIME_S } from './stated-partners.ts';
export { STATED_FIELDS } from './stated-fields.ts';
export type { GeneratedCase } from './generated.ts';
export { GENERATED_CHECKS, FUZZ_CHECKS, GENERATED_RULES } from './generated.ts';
export * from './delivery.ts';
export { REQUEST_CHECKS, REQUEST_RULES, WIDGET_TYPES } from './requests.ts';
export { RunLedger, judgeRun, INVARIANT_RULES, orderFreeJson } from './invariants.ts';
export type { Observation, ObservedRecord, InvariantOptions } from './invariants.ts';
export { servedOf, identifierForm, type ServedKind } from './served.ts';
export { normaliseLocation } from './failure.ts';
export type { Disagreement, ReferenceReport } from './reference.ts';
export {
  DISAGREEMENT_KINDS,
  DISAGREEMENT_TITLES,
  examineReference,
  readReferenceDocument,
  referenceContradictionsOf,
  ReferenceInputError,
} from './reference.ts';
export type { NearMiss, NearMissRequest } from './near-miss.ts';
export {
  bodyNearMisses,
  brokenRequestRules,
  firstPerRule,
  pageNearMisses,
  requestRules,
  TIER_REASONS,
  versionNearMisses,
} from './near-miss.ts';
