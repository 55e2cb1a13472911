// Node side of the plans file: read, parse JSON, validate (spec/plans.ts), with errors naming the file.
import { readFileSync } from 'node:fs';
import { ConfigError, errorMessage } from '../core/errors.ts';
import { parsePlansFile, specPlanTable, type PlanTable } from './plans.ts';

export function loadPlansFile(path: string | undefined): PlanTable {
  if (path === undefined) return specPlanTable();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read plans file: ${errorMessage(error)}`, path);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`is not valid JSON: ${errorMessage(error)}`, path);
  }
  return parsePlansFile(value, path);
}
