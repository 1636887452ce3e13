/**
 * The vocabulary of the no-model summariser and of the summary validation: plain data, one list per class of
 * wording. Phrases are matched whole (word boundaries), case-insensitively, inflections listed explicitly. Each
 * class holds general markers, never phrases copied from one session: a test removes single phrases and checks
 * the corpus (test/fixtures/sessions) still gets the same summaries through the other markers.
 */
export const VOCABULARY = {
  /** A question or an unconfirmed claim: the clause is a hypothesis (a "?" ending a word does it too). */
  uncertain: [
    'may', 'might', 'maybe', 'perhaps', 'possibly', 'probably', 'presumably', 'likely', 'unlikely', 'not confirmed', 'not yet confirmed',
    'unconfirmed', 'unverified', 'hypothesis', 'hypotheses', 'unclear', 'suspect', 'suspects', 'suspected', 'doubt', 'doubts', 'wonder',
    'assume', 'assumes', 'assumed', 'assumption', 'open question', 'stays open', 'remains open', 'still open', 'open:', 'not sure',
    'whether', 'to be checked', 'to be confirmed', 'to be verified',
  ],
  /** A plan, a draft or a next step: the clause is a proposal. */
  proposal: [
    'propose', 'proposes', 'proposed', 'proposal', 'draft', 'suggest', 'suggests', 'suggested', 'suggestion', 'should', 'could', 'would',
    'will', 'shall', 'plan to', 'plans to', 'planned to', 'going to', 'intend to', 'intends to', 'intended to', 'next', "let's", 'lets',
    "i'll", "we'll", 'todo', 'to do',
  ],
  /** A request to the agent: never an open question or a decision, however it is worded. Matched at the start. */
  request: ['can you', 'could you', 'would you', 'will you', 'please'],
  /** A user's directive: the clause is a decision. */
  userDecision: [
    'must', 'keep', 'never', "don't", 'dont', 'do not', 'no,', 'not in', 'forget', 'stop', 'belongs', 'belong', 'only', 'instead',
    'decided', 'decision', 'agreed',
  ],
  /** A user clause that opens with a directive (a negation or an imperative verb): a decision. Matched at the start. */
  directiveStart: [
    'no', 'not', 'never', "don't", 'do not', 'use', 'keep', 'leave', 'put', 'give', 'point', 'fix', 'add', 'move', 'link', 'make',
    'go with', 'stick with', 'switch', 'avoid', 'skip', 'drop', 'remove', 'rename', 'prefer',
  ],
  /** An assistant acknowledging a directive or saying what it keeps or abandons: the clause is a decision. */
  assistantDecision: [
    'dropping', 'abandon', 'abandoned', 'abandoning', 'decided', 'no revert', 'will keep', 'keeping', 'understood', 'agreed',
    'got it', 'ok,', 'okay,', 'switching to', 'sticking with', 'going with', 'will not', "won't",
  ],
  /** An assistant statement that reports evidence: the clause is an established fact. */
  fact: [
    'confirmed', 'verified', 'established', 'reproduced', 'show', 'shows', 'is required', 'does not send', 'do not send', 'return',
    'returns', 'reject', 'rejects', 'because', 'cause', 'added', 'removed', 'fail', 'fails', 'failed', 'all', 'marked',
  ],
  /** The first line of a tool result that says the call failed. Matched at the start. */
  failure: [
    'error', 'fatal', 'failed',
  ],
  /** Words that carry no content for matching one statement against another. */
  stopWords: (
    'a an the and or but of to in on at for from by with as is are was were be been being it its this that these those there ' +
    'i we you he she they me us my our your so if then than also just not no yet do does did has have had may might maybe ' +
    'perhaps possibly probably could would should will shall can must need about into out up which who what when where why ' +
    'how all any some more very confirmed unconfirmed e.g etc now'
  ).split(' '),
} as const;

export type Vocabulary = { readonly [K in keyof typeof VOCABULARY]: readonly string[] };

/** A compiled class: tests a clause (or, for `request` and `failure`, its start). */
export interface Matcher {
  test(text: string): boolean;
}

export interface Lexicon {
  uncertain: Matcher;
  proposal: Matcher;
  request: Matcher;
  userDecision: Matcher;
  directiveStart: Matcher;
  assistantDecision: Matcher;
  fact: Matcher;
  failure: Matcher;
  stopWords: ReadonlySet<string>;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One class as a whole-phrase matcher; `anchored` matches at the start of the text only. */
export function phraseMatcher(phrases: readonly string[], anchored = false): RegExp {
  if (phrases.length === 0) return /(?!)/;
  const parts = [...phrases]
    .sort((a, b) => b.length - a.length)
    .map((p) => `${/^\w/.test(p) ? '\\b' : ''}${escape(p).replace(/'/g, "['’]")}${/\w$/.test(p) ? '\\b' : ''}`);
  return new RegExp(`${anchored ? '^' : ''}(?:${parts.join('|')})`, 'i');
}

/** A "?" that ends a word or a sentence: the clause asks something, whatever the vocabulary says. */
const QUESTION = /\?(?=\s|$|["')\]])/;

export function compileVocabulary(v: Vocabulary): Lexicon {
  const uncertain = phraseMatcher(v.uncertain);
  return {
    uncertain: { test: (text) => QUESTION.test(text) || uncertain.test(text) },
    proposal: phraseMatcher(v.proposal),
    request: phraseMatcher(v.request, true),
    userDecision: phraseMatcher(v.userDecision),
    directiveStart: phraseMatcher(v.directiveStart, true),
    assistantDecision: phraseMatcher(v.assistantDecision),
    fact: phraseMatcher(v.fact),
    failure: phraseMatcher(v.failure, true),
    stopWords: new Set(v.stopWords),
  };
}

/** The built-in vocabulary, compiled once. */
export const LEXICON = compileVocabulary(VOCABULARY);
