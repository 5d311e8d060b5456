// What one session says about each playbook rule: the module the rest of the code imports it from. The session's
// signals, the rules' commands and the judge each live in a file of their own.
export { COUNTERPARTS, ruleCommands } from './ruleText';
export { isCounterpartOf, matchesCommand, sameJob } from './commandMatch';
export { sessionSignals, type SessionSignals } from '../sessionSignals';
export { ruleEvidence, type EvidenceTag, type RuleEvidence, type RuleInPlay } from './ruleJudge';
