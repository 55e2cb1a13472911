// A journal on disk: gzip of its JSON lines, scrubbed of the run's keys once more before compressing
// (the recorder never writes a key; a key echoed in a header or body is caught here if not there).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ConfigError, errorMessage } from '../../core/errors.ts';
import { redactText } from '../../core/redact.ts';
import type { Report } from '../../report/model.ts';
import { JOURNAL_FILE, journalText, parseJournal, type Journal } from './format.ts';

/** SHA-256 (hex) of a journal's JSON lines: what report.json records of the journal written beside it. */
export const journalDigest = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** The file's bytes, and the digest of the lines they hold (scrubbed, before gzip). */
export function journalFile(journal: Journal, secrets: readonly string[]): { bytes: Buffer; sha256: string } {
  const text = redactText(journalText(journal), secrets);
  return { bytes: gzipSync(text, { level: 9 }), sha256: journalDigest(text) };
}

export const journalBytes = (journal: Journal, secrets: readonly string[]): Buffer =>
  journalFile(journal, secrets).bytes;

/** The report naming the journal written beside it and the digest of its lines, and the file to write there. */
export function boundToJournal(
  report: Report,
  journal: Journal | undefined,
  secrets: readonly string[],
): { report: Report; beside: Record<string, Uint8Array> } {
  if (!journal) return { report, beside: {} };
  const { bytes, sha256 } = journalFile(journal, secrets);
  return {
    report: { ...report, journal: { file: JOURNAL_FILE, sha256 } } as Report,
    beside: { [JOURNAL_FILE]: bytes },
  };
}

const GZIP_MAGIC = [0x1f, 0x8b];

/** Reads a journal file (gzip, or its JSON lines unpacked); anything unreadable is a ConfigError naming `field`. */
export function readJournal(path: string, field = '--rejudge'): Journal {
  return readDigestedJournal(path, field).journal;
}

/** A journal file and the digest of its lines (journalDigest), to check against the report it came with. */
export function readDigestedJournal(path: string, field = '--rejudge'): { journal: Journal; sha256: string } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new ConfigError(`cannot read ${path}: ${errorMessage(error)}`, field);
  }
  let lines: Buffer;
  try {
    lines = bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1] ? gunzipSync(bytes) : bytes;
  } catch (error) {
    throw new ConfigError(`${path} is not a readable gzip file: ${errorMessage(error)}`, field);
  }
  return { journal: parseJournal(lines.toString('utf8'), `${field} ${path}`), sha256: journalDigest(lines) };
}
