// One run seed replays every check: each check's fast-check seed is derived from it and the check id,
// so adding a check does not change the inputs of the others.
export function newRunSeed(): number {
  return (Math.random() * 0x7fffffff) | 0;
}

export function checkSeed(runSeed: number, checkId: string): number {
  let h = 0x811c9dc5;
  for (const c of checkId) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return (runSeed ^ h) | 0;
}
