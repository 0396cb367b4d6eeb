// The conformance checker (issue 27): every exchange with the gateway against the contract, the state table and the
// spec's rules, with stable rule ids; its reports. Used by `paygate proxy` and `paygate verify`.
export type * from './types.js';
export { RULES, renderRules, sectionOf } from './catalogue.js';
export { createConformanceChecker, type CheckerOptions } from './checker.js';
export { reportJson, reportJunit } from './report.js';
