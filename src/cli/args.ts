import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;
import { InputError } from '../core/errors';

/** A subcommand's flags and positionals, strictly parsed; a bad flag is an InputError that repeats the usage line. */
export function parseCommand<O extends Options>(command: string, usage: string, argv: string[], options: O) {
  try {
    return parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: O }>({ args: argv, allowPositionals: true, strict: true, options });
  } catch (e) {
    throw new InputError(`${command}: ${(e as Error).message} (usage: ${usage})`);
  }
}
