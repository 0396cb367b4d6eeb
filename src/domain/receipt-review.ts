// Receipt review: the ordered rule table that turns the facts of an uploaded receipt into the next status of an
// awaiting_confirmation payment (spec §2.3 rules 1–3, §4.5). Pure: the facts come from emulator/receipts/inspect.ts.
import { money, toScale2 } from './money.js';
import type { ReceiptFacts } from './receipt-facts.js';

/** The part of the receipt facts the review reads. */
export type ReviewFacts = Pick<ReceiptFacts, 'kind' | 'amounts' | 'forgery' | 'in_progress'>;

/**
 * Where the payment goes. `reason: null` means no internal reason: the API shows it as potential_fake
 * (spec §2.3 rule 3); that mapping belongs to the HTTP layer.
 */
export type ReviewOutcome =
  | { to: 'completed'; amount: string; rule: string }
  | { to: 'manual_check'; reason: 'potential_fake' | 'not_terminal' | null; rule: string };

interface Rule {
  rule: string;
  when: string;
  outcome: string;
  decide(facts: ReviewFacts, expected: string): ReviewOutcome | null;
}

const manual = (rule: string, reason: 'potential_fake' | 'not_terminal' | null): ReviewOutcome => ({
  to: 'manual_check',
  reason,
  rule,
});

/** In order; the first rule that decides wins. The last rule always decides. */
const RULES: readonly Rule[] = [
  {
    rule: 'not_pdf',
    when: 'the file is not a PDF (no %PDF- magic)',
    outcome: 'manual_check, not_terminal (a non-PDF is never a fraud signal)',
    decide: (f) => (f.kind === 'not_pdf' ? manual('not_pdf', 'not_terminal') : null),
  },
  {
    rule: 'unreadable_pdf',
    when: 'the PDF cannot be parsed, has too many pages or takes too long',
    outcome: 'manual_check, not_terminal (could not be validated)',
    decide: (f) => (f.kind === 'unreadable_pdf' ? manual('unreadable_pdf', 'not_terminal') : null),
  },
  {
    rule: 'forgery_signal',
    when: 'any forgery signal (editor in Producer/Creator, ModDate after CreationDate, incremental update, FORGED marker)',
    outcome: 'manual_check, potential_fake',
    decide: (f) => (f.forgery.length > 0 ? manual('forgery_signal', 'potential_fake') : null),
  },
  {
    rule: 'in_progress',
    when: 'the receipt says the transfer is still being processed',
    outcome: 'manual_check, not_terminal',
    decide: (f) => (f.in_progress ? manual('in_progress', 'not_terminal') : null),
  },
  {
    rule: 'no_amount',
    when: 'no money amount found in the text',
    outcome: 'manual_check, potential_fake',
    decide: (f) => (f.amounts.length === 0 ? manual('no_amount', 'potential_fake') : null),
  },
  {
    rule: 'amount_matches',
    when: 'the expected amount is among the amounts found',
    outcome: 'completed for the expected amount',
    decide: (f, expected) =>
      f.amounts.some((a) => sameAmount(a, expected))
        ? { to: 'completed', amount: toScale2(expected), rule: 'amount_matches' }
        : null,
  },
  {
    rule: 'amount_differs',
    when: 'otherwise (only other amounts found)',
    outcome: 'manual_check, reason null (shown as potential_fake, §2.3 rule 3)',
    decide: () => manual('amount_differs', null),
  },
];

/** Exact decimal equality: "1500" equals "1500.00"; nothing is rounded, so "1500.001" equals no receipt amount. */
function sameAmount(found: string, expected: string): boolean {
  try {
    return money(found).eq(money(expected));
  } catch {
    return false;
  }
}

/** The review rules in order, for docs: rule id (the `rule` of the outcome), when it applies, what it decides. */
export const REVIEW_RULES: readonly { rule: string; when: string; outcome: string }[] = RULES.map(
  ({ rule, when, outcome }) => ({ rule, when, outcome }),
);

/** Review an uploaded receipt against the payment's expected amount (scale 2, e.g. "1500.00"). */
export function reviewReceipt(facts: ReviewFacts, expected: { amount: string }): ReviewOutcome {
  for (const r of RULES) {
    const outcome = r.decide(facts, expected.amount);
    if (outcome) return outcome;
  }
  // unreachable: the last rule always decides
  return manual('amount_differs', null);
}
