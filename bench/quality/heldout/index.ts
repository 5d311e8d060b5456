import type { RepoSpec } from '../types';
import { courier } from './courier';
import { feedcheck } from './feedcheck';
import { ledger } from './ledger';
import { orders } from './orders';

// The held-out corpus: four repositories of ecosystems the learner was not improved against, written from their own
// design (never from how the learner words its rules). It is measured, never tuned against.

export const HELDOUT_REPOS: readonly RepoSpec[] = [ledger, orders, feedcheck, courier];

/** What the sloppy model gets wrong on purpose in the held-out sessions, by session key. */
export const HELDOUT_SLOPPY_EXTRAS: Readonly<Record<string, Array<{ section: string; content: string }>>> = {
  // a falsehood: installing a gem into the system Ruby where the team runs everything through bundler
  'ledger-01': [{ section: 'Build and test', content: 'Install missing gems with `gem install <name>`.' }],
  // a falsehood: a system Gradle where the team only uses the wrapper
  'orders-01': [{ section: 'Build and test', content: 'Run the tests with `gradle test`.' }],
  // one that contradicts the team's rule to format before committing
  'feed-01': [{ section: 'Conventions', content: 'Skip `deno fmt` before committing: CI formats the code.' }],
};
