/**
 * The secret rule set, as data, in the style of gitleaks: one entry per known credential format (a provider's
 * prefix and alphabet), plus the generic rules for credentials written as headers, URLs, XML elements and
 * name–value pairs. `apply.ts` runs them; nothing else knows a pattern.
 *
 * Every pattern is bounded (no unbounded run before a fixed suffix), so a hostile line costs linear time.
 * `secret` names the capture group that holds the secret: only that part is replaced, so `password: "…"` keeps
 * its name and quotes and stays valid code.
 */

export interface SecretRule {
  /** Stable id, written in the placeholder `[REDACTED:id]` and in the manifest. */
  id: string;
  description: string;
  /** Global regex; `secret` (a named group) is what gets replaced, else the whole match. */
  re: RegExp;
  /** Extra check on the secret part (entropy, placeholders); false keeps the text as it is. */
  accept?: (secret: string, match: RegExpExecArray) => boolean;
  /**
   * Strings in lower case of which every match holds one (in any case): a text whose lower case holds none is not
   * searched with this rule's pattern. Keep them in step with `re` (the corpus test checks every secret spelling).
   */
  hint: readonly string[];
  /**
   * Where a match can start, in increasing order, when that is known to be a few places of the text: the pattern is
   * then tried at those places alone (as a sticky pattern), which finds what its global search would. Without it,
   * the pattern searches the whole text.
   */
  starts?: (text: string) => number[];
}

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** Template variables, masks, examples and code: values that are not a literal secret. */
const PLACEHOLDER = /^(?:\$|\{|%|<|\*|\.\.\.|…|x{3,}|X{3,}|\[REDACTED|your[-_]|example|sample|dummy|changeme|placeholder|redacted|none|null|nil|undefined|true|false|required|optional|todo|string|secret|password|passwd|token|bearer|basic|env\b)/i;
/** Documentation values: `ghp_exampletoken`, `my-dummy-key`, `sk-your-key-here`. */
const EXAMPLE = /example|sample|dummy|placeholder|changeme|your[-_]|x{4,}|X{4,}/i;
/** The value is read from somewhere else (a call, a member, an index, an interpolation) or is a regex literal. */
const EXPRESSION = /[()[\]{}]|^[!\\]|^\/\^|\\[sdwbSDWB]|^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+!?$|^process\.env|^os\.environ|^ENV\[/;

const hasDigit = (s: string) => /\d/.test(s);
const hasLetter = (s: string) => /[A-Za-z]/.test(s);
const identifierShaped = (s: string) => /^[A-Za-z_$][\w$]*!?$/.test(s);

/** A known-format token: enough entropy to be random (rules out `sk-this-is-a-sentence-of-words`-like text). */
const random = (min: number) => (s: string) => entropy(s) >= min && hasDigit(s) && hasLetter(s);

/**
 * The value of a secret-looking name is a literal secret: not a placeholder, not an expression, and random
 * enough. Quoted literals are judged on length and entropy; an unquoted value shaped like an identifier is a
 * variable in code unless it carries digits (`DB_PASS=hunter22`) or is long and random.
 */
/**
 * Paths, URLs and namespaced keys (`/oauth2/v2.0/token`, `msal.cache.encryption`): names of things, not secrets; so is
 * a reverse-DNS name with a path or an id after it (`com.apple.xpc.activity/4505:`, the stream a macOS log names).
 */
const REFERENCE = /^(?:\.{0,2}\/|[a-z][a-z0-9+.-]*:\/\/)|^[A-Za-z][A-Za-z0-9]*(?:[.:][A-Za-z][A-Za-z0-9]*)+$|^[a-z][a-z0-9]*(?:\.[a-z][a-z0-9-]*){2,}(?:\/[\w.-]+)+:?$/;

/**
 * Names of code as runtimes print them, never secrets: an object id (`android.os.BinderProxy@2bd79ce`, `Foo@1a2b3c`),
 * a generated or inner class (`Foo$$EnhancerBySpringCGLIB$$1a2b3c4d`, `MainActivity$1`). A class name (capitalised,
 * optionally package-qualified), then `$` parts, then an identity hash of 5 to 8 hex digits holding a letter (so
 * `Admin@123` stays a password).
 */
const CODE_NAME = /^(?:[a-z_][a-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*(?:\$\$?(?:[A-Z][A-Za-z0-9_]*|[0-9a-f]+))*(?:@(?=[0-9]{0,7}[a-f])[0-9a-f]{5,8})?$/;
export const codeName = (s: string): boolean => /[$@]/.test(s) && CODE_NAME.test(s);

export function literalSecret(value: string, quoted: boolean): boolean {
  if (value.length < 6 || PLACEHOLDER.test(value) || EXAMPLE.test(value) || REFERENCE.test(value) || /\s/.test(value) || codeName(value)) return false;
  const h = entropy(value);
  if (h < 2.3) return false;
  if (quoted) return hasDigit(value) || /[^A-Za-z0-9]/.test(value) || /[a-z]/.test(value) === /[A-Z]/.test(value) ? value.length >= 6 : value.length >= 12;
  if (EXPRESSION.test(value)) return false;
  if (identifierShaped(value)) return hasDigit(value) && hasLetter(value) && h >= 2.5;
  return h >= 2.5;
}

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
/** `GRANT_TYPE_REFRESH_TOKEN = 'refresh_token'`: the value only names what the key is. */
const namesItself = (value: string, name = '') => squash(value).length > 0 && squash(name).endsWith(squash(value));

/**
 * After an unquoted value shaped like an identifier: the end of the line, a comment, the next `key=` pair or a
 * query-string `&` (env files, YAML, properties, logfmt, URLs). In code it is an operator or a separator:
 * `apiKey: tokenProvider ?? apiKey,` is a variable.
 */
const after = (m: RegExpExecArray) => m.input.slice(m.index + m[0].length, m.index + m[0].length + 80);
function configTail(m: RegExpExecArray): boolean {
  return /^(?:[ \t]*(?:\r?\n|$)|[ \t]+#|[ \t]+[A-Za-z_][\w.-]*=|&|["'<>])/.test(after(m));
}

/**
 * After an unquoted value: more words of a log line or a shell command (`password=V from 10.0.0.1`, `pwd=V user bob`,
 * `PGPASSWORD=V psql`, `api_key=V (invalid)`, `pass:V -out f`). Not an operator or a keyword of code (`x = key2 if ok else y`,
 * `token = t1 as string`, `WHERE pwd = h1 AND`), which make the value an expression.
 */
function proseTail(m: RegExpExecArray): boolean {
  return /^[ \t]+(?!(?:if|else|or|and|not|in|is|as|instanceof|typeof|satisfies|then|unless|when)\b)(?:[A-Za-z0-9([]|--?[A-Za-z])/i.test(after(m));
}

/** Punctuation that ends a value in a log (`token: V,`, `secret=V;`, `(key=V)`). */
const punctTail = (m: RegExpExecArray) => /^[,;)]/.test(after(m));

/**
 * An identifier-shaped value that is random rather than a name: letters and at least two separate runs of digits
 * (`hunter2Xy9`, `S3cr3tPass`, `Pa55w0rd1`), the way generated and leet passwords look and variable names
 * (`token1`, `base64Key`, `sha256Digest`) do not.
 */
const randomIdentifier = (s: string) => s.length >= 8 && hasLetter(s) && (s.match(/\d+/g) ?? []).length >= 2;

/**
 * A test runner's status, not a key: `--- PASS: TestCases/1_+_2_=_3 (0.40s)` (go test), `PASS: test_x` (automake,
 * TAP harnesses). The bare word `pass` then a colon and a space; openssl's `pass:V` (no space) stays a secret.
 */
const testStatus = (m: RegExpExecArray) => /^pass$/i.test(m.groups?.name ?? '') && /^pass:[ \t]/i.test(m[0]);

/** The unquoted value of a secret-named key: a literal secret, judged with what follows it when it could be code. */
function unquotedSecret(s: string, m: RegExpExecArray): boolean {
  if (!literalSecret(s, false) || namesItself(s, m.groups?.name) || testStatus(m)) return false;
  if (!/^[A-Za-z_$][\w$]*!?$/.test(s)) return true;
  return configTail(m) || proseTail(m) || (randomIdentifier(s) && punctTail(m));
}

/** Credential words too short or too common in prose to take a value after a space only: `pass 12 tests`, `pw`, `sas`. */
const SHORT_WORD = /(?:^|[^A-Za-z])(?:pass|pw|sas|key_base|credentials?)$/i;

/**
 * A value given after a name and a space only (`client_secret V rejected`, `wrong password V for root`): prose as
 * much as a key-value pair, so the value must look generated. Letters and digits, not a word with a number
 * (`Manager2`), not a hash, a UUID, a date, a version or a path (those are what log lines name after `token`).
 */
function spacedSecret(s: string, m: RegExpExecArray): boolean {
  if (SHORT_WORD.test(m.groups?.name ?? '') || /[(=:]/.test(s) || /^[&"'<>]/.test(after(m))) return false;
  if (!literalSecret(s, false) || namesItself(s, m.groups?.name) || !hasDigit(s) || !hasLetter(s)) return false;
  if (/^(?:0x)?[0-9a-f]+$/i.test(s) || /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(s) || /^\d{4}-\d\d-\d\d|^v?\d+(?:\.\d+)+/.test(s)) return false;
  if (s.includes('/') && (/\.[A-Za-z]{1,5}$/.test(s) || /^[a-z0-9_.-]+(?:\/[a-z0-9_.-]+)+$/.test(s))) return false;
  if (/^[ \t]*[=(:.[{]/.test(after(m))) return false;
  return /^[A-Za-z_$][\w$]*$/.test(s) ? randomIdentifier(s) : true;
}

/** A command-line value: a literal (not `$VAR`, `-h`, `"$(…)"`, a placeholder), of at least 4 characters. */
const commandValue = (s: string) => s.length >= 4 && !/^-/.test(s) && !PLACEHOLDER.test(s) && !EXAMPLE.test(s) && !EXPRESSION.test(s);

/** A case-insensitive spelling of a word without the `i` flag (the rest of the pattern stays case-sensitive). */
const ci = (word: string) => word.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
const SECRET_WORDS = ['password', 'passwd', 'passphrase', 'pass', 'pwd', 'pw', 'secret', 'token', 'apikey', 'api_key', 'api-key', 'credentials', 'credential', 'private_key', 'signing_key', 'secret_key', 'key_base', 'sas'];
const KEY_QUALIFIERS = ['api', 'access', 'secret', 'private', 'signing', 'encryption', 'client', 'master', 'auth', 'app', 'license', 'account', 'storage', 'subscription', 'service'];
const CAMEL = ['Password', 'Passwd', 'Passphrase', 'Pwd', 'Secret', 'Token', 'Credentials', 'Credential', ...KEY_QUALIFIERS.map((q) => `${q[0].toUpperCase()}${q.slice(1)}Key`)];
/**
 * A name that holds a secret: its last part (split on `_ - .` and camelCase) is a credential word, or a key
 * qualified as one (`api_key`, `secretKey`, `AccessKey`). `token_type`, `tokenizer`, `passwordField`, `cacheKey` are not.
 */
/** Shell variables glue the credential word to a prefix in capitals: `PGPASSWORD`, `MYSQLPWD`, `CSRFTOKEN`. */
const GLUED = ['PASSWORD', 'PASSWD', 'PWD', 'SECRET', 'TOKEN', 'APIKEY'];
const NAME = `[A-Za-z0-9_.-]{0,48}?(?:(?<![A-Za-z])(?:${[...SECRET_WORDS, ...KEY_QUALIFIERS.map((q) => `${q}[_.-]?key`)].map(ci).join('|')})|(?<=[a-z0-9])(?:${CAMEL.join('|')})|(?:${GLUED.join('|')})(?<=[A-Z0-9](?:${GLUED.join('|')})))`;

/**
 * A value ends at a JSON escape (`\n`, `\t`, `\"`, `\u…`): a serialized request or manifest is redacted as text
 * too, and the next line's first word is not part of the value. Another backslash is part of it (`Pa\ss`).
 */
const JSON_ESCAPE = '\\\\[nrtbfu"\\\\/]';
const LONE_BACKSLASH = '\\\\(?![nrtbfu"\\\\/])';

/** The start of a command in a shell line or a log of one: the line's start, a space, a path, or a shell operator. */
const CMD = '(?:^|(?<=[\\s/;|&(`\'"]))';

/** What every credential name of NAME holds in lower case: `pass`word, `pw`d, `secret`, `token`, api`key`, `credential`s, `sas`. */
const NAME_HINT = ['pass', 'pw', 'secret', 'token', 'key', 'credential', 'sas'];

/** The characters of a NAME (`[A-Za-z0-9_.-]`), by code. */
const NAME_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-') NAME_CHAR[c.charCodeAt(0)] = 1;
const isNameChar = (code: number) => code < 128 && NAME_CHAR[code] === 1;
/** NAME_HINT in any ASCII case: the spellings NAME's words are made of (`ci`, CAMEL and GLUED are ASCII). */
const NAME_HINT_RE = new RegExp(NAME_HINT.join('|'), 'gi');

/**
 * Where a match of an assigned-secret pattern can start. Its name is made of NAME characters only and is preceded
 * by none (the lookbehind), so it starts a run of them; and it holds a credential word, so that run holds one of
 * NAME_HINT. Each run holding a hint is found once (the search goes on past its end), so this is linear. With
 * `quoted`, the quote right before such a run too (the pattern's optional opening quote).
 */
function nameStarts(text: string, quoted: boolean): number[] {
  const starts: number[] = [];
  const re = NAME_HINT_RE;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let start = m.index;
    while (start > 0 && isNameChar(text.charCodeAt(start - 1))) start--;
    let end = m.index + m[0].length;
    while (end < text.length && isNameChar(text.charCodeAt(end))) end++;
    re.lastIndex = end;
    const before = start > 0 ? text[start - 1] : '';
    if (quoted && (before === '"' || before === "'")) starts.push(start - 1);
    starts.push(start);
  }
  return starts;
}

const isPlainValue = (v: string) => !PLACEHOLDER.test(v) && !EXPRESSION.test(v) && v.length >= 8;

/**
 * A text that matches none of these cannot match any rule (each rule needs one of them): the pass skips it after
 * one cheap scan. Keep it in step with RULES (the corpus test checks every secret spelling against it). Each word
 * added costs every line of every log: the command names here (`mysql`, `sqlcmd`, `curl`, `cli -a`) are the ones
 * measured to keep the pre-check within a few percent; `login` or `redis-cli` made it twice as slow.
 */
export const HINT = /key|token|pass|pwd|pw|secret|credential|sas|authorization|bearer|mysql|mariadb|sqlcmd|curl|cli -a|:\/\/|A(?:KIA|SIA|BIA|CCA|3T)|gh[pousr]_|github_pat_|gl(?:pat|ptt|rt|dt)-|xox|_live_|_test_|whsec_|sk-|AIza|GOCSPX|npm_|pypi-|hf_|SG\.|_v1_|shp|eyJ/i;

export const RULES: SecretRule[] = [
  {
    id: 'private-key',
    hint: ['private key'],
    description: 'PEM / OpenSSH / PGP private key block',
    re: /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,20000}?-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g,
    // A key has a body; documentation that writes the markers around `...` does not.
    accept: (s) => (s.replace(/-----[A-Z0-9 ]+-----/g, '').match(/[A-Za-z0-9+/]/g) ?? []).length >= 16,
  },
  { id: 'aws-access-key', description: 'AWS access key id', re: /\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b/g, hint: ['akia', 'asia', 'abia', 'acca', 'a3t'] },
  { id: 'github-token', description: 'GitHub token (classic, OAuth, app, refresh)', re: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}\b/g, hint: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'] },
  { id: 'github-pat', description: 'GitHub fine-grained personal access token', re: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g, hint: ['github_pat_'] },
  { id: 'gitlab-token', description: 'GitLab personal, project or runner token', re: /\b(?:glpat|glptt|glrt|gldt)-[A-Za-z0-9_-]{20,64}\b/g, hint: ['glpat-', 'glptt-', 'glrt-', 'gldt-'] },
  { id: 'slack-webhook', description: 'Slack incoming webhook URL', re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/_-]{20,200}/g, hint: ['hooks.slack.com'] },
  { id: 'slack-token', description: 'Slack bot, user, app or config token', re: /\bxox[abposre]-[A-Za-z0-9-]{10,250}/g, accept: random(2.5), hint: ['xox'] },
  { id: 'stripe-key', description: 'Stripe secret or restricted key', re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,247}\b/g, hint: ['_live_', '_test_'] },
  { id: 'stripe-webhook-secret', description: 'Stripe webhook signing secret', re: /\bwhsec_[A-Za-z0-9]{24,128}\b/g, hint: ['whsec_'] },
  { id: 'anthropic-key', description: 'Anthropic API key', re: /\bsk-ant-[A-Za-z0-9_-]{20,200}/g, hint: ['sk-ant-'] },
  { id: 'openai-key', description: 'OpenAI API key (legacy, project, service account, admin)', re: /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,200}/g, accept: random(3.2), hint: ['sk-'] },
  { id: 'google-api-key', description: 'Google API key', re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, hint: ['aiza'] },
  { id: 'google-oauth-secret', description: 'Google OAuth client secret', re: /\bGOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/g, hint: ['gocspx-'] },
  { id: 'npm-token', description: 'npm access token', re: /\bnpm_[A-Za-z0-9]{36}\b/g, hint: ['npm_'] },
  { id: 'pypi-token', description: 'PyPI upload token', re: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,300}/g, hint: ['pypi-'] },
  { id: 'huggingface-token', description: 'Hugging Face access token', re: /\bhf_[A-Za-z0-9]{34,40}\b/g, hint: ['hf_'] },
  { id: 'sendgrid-key', description: 'SendGrid API key', re: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g, hint: ['sg.'] },
  { id: 'digitalocean-token', description: 'DigitalOcean token', re: /\bdo[por]_v1_[a-f0-9]{64}\b/g, hint: ['_v1_'] },
  { id: 'shopify-token', description: 'Shopify access token', re: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g, hint: ['shp'] },
  { id: 'jwt', description: 'JSON Web Token', re: /\beyJ[A-Za-z0-9_-]{8,2000}\.eyJ[A-Za-z0-9_-]{8,4000}\.[A-Za-z0-9_-]{8,2000}/g, hint: ['eyj'] },
  {
    id: 'url-credentials',
    description: 'password in a URL (scheme://user:password@host)',
    hint: ['://'],
    re: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:@/?#"'<>]{0,128}:(?<secret>[^\s@/?#"'<>]{1,256})@/gi,
    accept: (s) => !PLACEHOLDER.test(s) && !/^\{.*\}$|^\$/.test(s),
  },
  {
    id: 'bearer-token',
    description: 'Bearer / Token credential (Authorization header or similar)',
    hint: ['bearer', 'token'],
    re: /\b(?:Bearer|Token)\s+(?<secret>[A-Za-z0-9._~+/-]{16,4096}=*)/gi,
    accept: (s) => hasDigit(s) && hasLetter(s) && entropy(s) >= 3,
  },
  { id: 'basic-auth', description: 'HTTP Basic credentials', re: /\bAuthorization["']?\s*[:=]\s*["']?Basic\s+(?<secret>[A-Za-z0-9+/]{8,1024}={0,2})/gi, hint: ['authorization'] },
  {
    id: 'api-key-header',
    description: 'API key header (X-Api-Key, Api-Key, X-Auth-Token, Private-Token, …)',
    hint: ['api-key', 'auth-token', 'access-token', 'private-token', 'subscription-key'],
    re: /\b(?:X-Api-Key|Api-Key|X-Auth-Token|X-Access-Token|Private-Token|X-Goog-Api-Key|Ocp-Apim-Subscription-Key)["']?\s*:\s*["']?(?<secret>[^\s"',;]{8,512})/gi,
    accept: isPlainValue,
  },
  {
    id: 'xml-secret',
    description: 'secret in an XML element (<password>…</password>)',
    hint: ['pass', 'pwd', 'secret', 'key', 'token'],
    re: /<(?<tag>password|passwd|pwd|secret|api[_-]?key|apikey|token|access[_-]?token|client[_-]?secret|private[_-]?key)>(?<secret>[^<\n]{1,512})<\/\k<tag>>/gi,
    accept: (s) => s.trim().length >= 4 && !PLACEHOLDER.test(s.trim()),
  },
  {
    id: 'command-line-secret',
    description: 'a credential given as a command-line option (`--password V`, `--api-key=V`, `-storepass V`)',
    hint: ['pass', 'pwd', 'token', 'secret', 'key'],
    re: /(?<![\w-])(?:--(?:[a-z]+-){0,3}(?:password|passwd|pass|pwd|passphrase|token|secret|api-?key)|-(?:storepass|keypass|srcstorepass|deststorepass|passin|passout))(?:=|[ \t]+)(?<q>["']?)(?<secret>[^\s"'`]{1,512})\k<q>(?=$|[\s;|&)])/g,
    accept: (s) => commandValue(s) && literalSecret(s, false),
  },
  {
    id: 'command-line-secret',
    description: 'a MySQL / MariaDB client password glued to -p (`mysql -u root -pS3cr3t db`); `-p` alone prompts',
    hint: ['mysql', 'mariadb'],
    re: new RegExp(`[ \\t]-p(?=["']?[^\\s"'\`-])(?<=${CMD}(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mysqlslap|mysqlbinlog|mysqlsh|mariadb|mariadb-dump|mariadb-admin)[ \\t][^\\n]{0,256}-p)(?<q>["']?)(?<secret>[^\\s"'\`]{1,256})\\k<q>(?=$|[\\s;|&)])`, 'gm'),
    accept: commandValue,
  },
  {
    id: 'command-line-secret',
    description: 'a password given to a client as its option (`redis-cli -a V`, `sshpass -p V`, `sqlcmd -P V`)',
    hint: ['redis-cli', 'sshpass', 'sqlcmd'],
    re: new RegExp(
      `[ \\t]-[apP](?=[ \\t]+["']?[^\\s"'\`-])(?<=${CMD}(?:redis-cli[ \\t][^\\n]{0,256}-a|sshpass[ \\t](?:[^\\n]{0,64}[ \\t])?-p|sqlcmd[ \\t][^\\n]{0,256}-P))[ \\t]+(?<q>["']?)(?<secret>[^\\s"'\`]{1,256})\\k<q>(?=$|[\\s;|&)])`,
      'gm',
    ),
    accept: commandValue,
  },
  {
    id: 'command-line-secret',
    description: 'the password of curl\'s user option (`curl -u user:V`, `--user user:V`)',
    hint: ['curl'],
    re: new RegExp(`[ \\t](?:-u|--user)(?:[ \\t]+|=)(?<=${CMD}curl[ \\t][^\\n]{0,512})(?<q>["']?)[^\\s:"'\`]{1,128}:(?<secret>[^\\s"'\`]{1,256})\\k<q>(?=$|[\\s;|&)])`, 'gm'),
    accept: commandValue,
  },
  {
    id: 'assigned-secret',
    description: 'a credential-named key given a quoted literal value',
    hint: NAME_HINT,
    starts: (text) => nameStarts(text, true),
    re: new RegExp(`(?<![A-Za-z0-9_.-])(?<q1>["']?)(?<name>${NAME})\\k<q1>\\s*(?::=|=>|=(?![=>~])|:(?![:=]))\\s*(?<q>["'\`])(?<secret>[^"'\`\\n]{1,512})\\k<q>`, 'g'),
    accept: (s, m) => literalSecret(s, true) && !namesItself(s, m.groups?.name),
  },
  {
    id: 'assigned-secret',
    description: 'a credential-named key given an unquoted literal value (env, YAML, properties, logfmt, query strings, logs), or its value after a space',
    hint: NAME_HINT,
    starts: (text) => nameStarts(text, false),
    // One pattern for both: a second would scan every text again for the same names (the costly part).
    re: new RegExp(
      `(?<![A-Za-z0-9_.-])(?<name>${NAME})(?::=| *=(?![=>~]) *|:(?![:=]) *|(?<spaced>[ \\t]+))(?<secret>(?:[^\\s"'\`,;&)<>\\\\]|${LONE_BACKSLASH}){1,512})(?=$|[\\s&"'<>,;)]|${JSON_ESCAPE})`,
      'gm',
    ),
    accept: (s, m) => (m.groups?.spaced === undefined ? unquotedSecret(s, m) : spacedSecret(s, m)),
  },
];
