/**
 * A streaming JSON tokenizer: text goes in line by line, events come out, nothing is held but the current token.
 * Accepts one document or several in a row (JSON Lines). Strings longer than STRING_CAP are cut for the
 * handler (their full length is reported), so a 50 MB string value costs no more than a short one.
 */

export type JsonScalar = string | number | boolean | null;

export interface JsonHandler {
  startObject(): void;
  endObject(): void;
  startArray(): void;
  endArray(): void;
  key(name: string): void;
  /** `length` is the string's full length when `value` was cut. */
  value(value: JsonScalar, length?: number): void;
  /** A top-level value ended (once per document; several for JSON Lines). */
  documentEnd?(): void;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} at line ${line}, column ${column}`);
  }
}

const STRING_CAP = 4096;
const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;
/** Characters of numbers and of true / false / null. */
const isLiteral = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 46 || c === 43 || c === 45;

export class JsonTokenizer {
  /** Container stack: `{` or `[`. */
  private stack: string[] = [];
  /** In an object, whether the next string is a key. */
  private expectKey = false;
  private inString = false;
  private escaped = false;
  private raw = '';
  private rawLength = 0;
  private literal = '';
  private line = 0;
  documents = 0;

  constructor(private readonly handler: JsonHandler) {}

  /** Feed one line (without its newline). */
  feedLine(text: string): void {
    this.line++;
    this.feed(text);
    this.feed('\n');
  }

  private fail(message: string, index: number): never {
    throw new JsonSyntaxError(message, this.line, index + 1);
  }

  feed(text: string): void {
    let i = 0;
    const n = text.length;
    while (i < n) {
      if (this.inString) {
        i = this.readString(text, i);
        continue;
      }
      const ch = text[i];
      const code = text.charCodeAt(i);
      if (this.literal !== '' && isLiteral(code)) {
        this.literal += ch;
        i++;
        continue;
      }
      if (this.literal !== '') this.flushLiteral(i);
      if (isSpace(code) || code === 58 /* : */) {
        i++;
        continue;
      }
      switch (ch) {
        case '{':
          this.handler.startObject();
          this.stack.push('{');
          this.expectKey = true;
          break;
        case '[':
          this.handler.startArray();
          this.stack.push('[');
          this.expectKey = false;
          break;
        case '}':
        case ']': {
          const top = this.stack.pop();
          if (top !== (ch === '}' ? '{' : '[')) this.fail(`unexpected "${ch}"`, i);
          if (ch === '}') this.handler.endObject();
          else this.handler.endArray();
          this.afterValue();
          break;
        }
        case ',':
          this.expectKey = this.stack[this.stack.length - 1] === '{';
          break;
        case '"':
          this.inString = true;
          this.raw = '';
          this.rawLength = 0;
          break;
        default:
          if (!/[-\d tfn]/.test(ch)) this.fail(`unexpected "${ch}"`, i);
          this.literal = ch;
      }
      i++;
    }
  }

  /** Call at the end of input: fails if a value is left open. */
  end(): void {
    if (this.literal !== '') this.flushLiteral(0);
    if (this.inString || this.stack.length > 0) throw new JsonSyntaxError('unexpected end of input', this.line, 1);
  }

  private readString(text: string, start: number): number {
    let i = start;
    if (this.escaped) {
      this.escaped = false;
      i++;
    }
    for (;;) {
      const quote = text.indexOf('"', i);
      const backslash = text.indexOf('\\', i);
      if (backslash >= 0 && (quote < 0 || backslash < quote)) {
        if (backslash + 1 >= text.length) {
          this.escaped = true;
          this.take(text.slice(start));
          return text.length;
        }
        i = backslash + 2;
        continue;
      }
      if (quote < 0) {
        this.take(text.slice(start));
        return text.length;
      }
      this.take(text.slice(start, quote));
      this.inString = false;
      this.endString();
      return quote + 1;
    }
  }

  private take(piece: string): void {
    this.rawLength += piece.length;
    if (this.raw.length < STRING_CAP) this.raw += piece.slice(0, STRING_CAP - this.raw.length);
  }

  private endString(): void {
    let value: string;
    try {
      value = JSON.parse(`"${this.raw}"`) as string;
    } catch {
      // Cut in the middle of an escape: drop the partial escape and decode the rest.
      const whole = this.raw.replace(/\\(?:u[0-9a-fA-F]{0,3})?$/, '');
      try {
        value = JSON.parse(`"${whole}"`) as string;
      } catch {
        value = whole;
      }
    }
    const cut = this.rawLength > this.raw.length ? this.rawLength : undefined;
    if (this.expectKey) {
      this.expectKey = false;
      this.handler.key(value);
    } else {
      this.handler.value(value, cut);
      this.afterValue();
    }
  }

  private flushLiteral(index: number): void {
    const text = this.literal;
    this.literal = '';
    let value: JsonScalar;
    if (text === 'true') value = true;
    else if (text === 'false') value = false;
    else if (text === 'null') value = null;
    else {
      value = Number(text);
      if (!/^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text)) this.fail(`invalid value "${text.slice(0, 20)}"`, index);
    }
    this.handler.value(value);
    this.afterValue();
  }

  private afterValue(): void {
    if (this.stack.length === 0) {
      this.documents++;
      this.handler.documentEnd?.();
    }
  }
}
