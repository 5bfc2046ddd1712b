/**
 * The viewer's message catalogues, compiled (issue 19). Sources are ICU MessageFormat strings in
 * JSON, one folder per language and one file per area of the viewer
 * (client/src/i18n/messages/{locale}/{area}.json); a message's id is `{area}.{key}`. They are
 * compiled here by lingui's maintained compiler (@lingui/message-utils) into the arrays that
 * client/src/i18n/format-message.ts reads, so no ICU parser is shipped to browsers.
 *
 * Only what that reader formats is allowed: plain arguments, `number`, `plural`,
 * `selectordinal` and `select`. Anything else (a `date` argument, a typo'd type) fails the build
 * here rather than showing a raw message to a visitor.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';

export const MESSAGES_DIR = fileURLToPath(new URL('../client/src/i18n/messages', import.meta.url));

const ALLOWED_TYPES = new Set([undefined, 'number', 'plural', 'selectordinal', 'select']);

/** The source catalogue of one language: id -> ICU message, every area's file merged. */
export function readSourceCatalogue(locale: string): Record<string, string> {
  const folder = path.join(MESSAGES_DIR, locale);
  const catalogue: Record<string, string> = {};
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json')).sort()) {
    const area = file.slice(0, -'.json'.length);
    const messages = JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as Record<string, unknown>;
    for (const [key, message] of Object.entries(messages)) {
      if (typeof message !== 'string') throw new Error(`${locale}/${file}: ${key} is not a string`);
      catalogue[`${area}.${key}`] = message;
    }
  }
  return catalogue;
}

/** The files (areas) of one language's catalogue, for bundlers watching them. */
export function sourceFiles(locale: string): string[] {
  const folder = path.join(MESSAGES_DIR, locale);
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .map((name) => path.join(folder, name));
}

function checkTokens(tokens: CompiledMessage, where: string): void {
  for (const token of tokens) {
    if (typeof token === 'string') continue;
    const [name, type, format] = token;
    if (!ALLOWED_TYPES.has(type)) throw new Error(`${where}: {${name}, ${type}} is not a type the viewer formats`);
    if ((type === 'plural' || type === 'selectordinal' || type === 'select') && format && typeof format === 'object') {
      for (const [choice, branch] of Object.entries(format as Record<string, unknown>)) {
        if (choice !== 'offset' && Array.isArray(branch)) checkTokens(branch as CompiledMessage, where);
      }
    }
  }
}

/** One message compiled; throws with the message's id on a syntax error or an unsupported type. */
export function compileViewerMessage(id: string, message: string): CompiledMessage {
  let compiled: CompiledMessage;
  try {
    compiled = compileMessageOrThrow(message);
  } catch (error) {
    throw new Error(`${id}: ${(error as Error).message}`, { cause: error });
  }
  checkTokens(compiled, id);
  return compiled;
}

/**
 * One language's compiled catalogue. A message with no argument is kept as its plain string
 * (smaller in the page than a one-element array; the reader takes both).
 */
export function compileCatalogue(locale: string): Record<string, string | CompiledMessage> {
  const compiled: Record<string, string | CompiledMessage> = {};
  for (const [id, message] of Object.entries(readSourceCatalogue(locale))) {
    const tokens = compileViewerMessage(`${locale}: ${id}`, message);
    compiled[id] = tokens.every((token) => typeof token === 'string') ? tokens.join('') : tokens;
  }
  return compiled;
}
