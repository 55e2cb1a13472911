// A journal on disk: gzip of its JSON lines, scrubbed of the run's keys once more before compressing
// (the recorder never writes a key; a key echoed in a header or body is caught here if not there).
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ConfigError, errorMessage } from '../../core/errors.ts';
import { redactText } from '../../core/redact.ts';
import { journalText, parseJournal, type Journal } from './format.ts';

export const journalBytes = (journal: Journal, secrets: readonly string[]): Buffer =>
  gzipSync(redactText(journalText(journal), secrets), { level: 9 });

const GZIP_MAGIC = [0x1f, 0x8b];

/** Reads a journal file (gzip, or its JSON lines unpacked); anything unreadable is a ConfigError naming `field`. */
export function readJournal(path: string, field = '--rejudge'): Journal {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new ConfigError(`cannot read ${path}: ${errorMessage(error)}`, field);
  }
  let text: string;
  try {
    text = (bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1] ? gunzipSync(bytes) : bytes).toString('utf8');
  } catch (error) {
    throw new ConfigError(`${path} is not a readable gzip file: ${errorMessage(error)}`, field);
  }
  return parseJournal(text, `${field} ${path}`);
}
