/** verify's answer for an operator: what was compared, and where and how two deployments differ. */
import type { FieldDifference, RowDifference, TypeDifference, VerifyResult } from './compare';

/** What exit code a result gives: 0 agree, 1 differ, 2 could not compare. */
export function exitCodeOf(result: VerifyResult): 0 | 1 | 2 {
  return result.outcome === 'agree' ? 0 : result.outcome === 'differ' ? 1 : 2;
}

const VALUE_CHARS = 160;

function shown(text: string | undefined): string {
  if (text === undefined) return '(unset)';
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS)}… (${text.length} chars)` : text;
}

function fieldLines(fields: FieldDifference[], indent: string): string[] {
  return fields.flatMap((f) => [`${indent}${f.field}:`, `${indent}  A ${shown(f.a)}`, `${indent}  B ${shown(f.b)}`]);
}

function rowLines(row: RowDifference, height: number): string[] {
  if (row.missing === 'both') return [`    ${row.id}: held by neither store now`];
  if (row.missing) return [`    ${row.id}: not held by ${row.missing.toUpperCase()} now (removed after ${height})`];
  if (row.asWritten.a && row.asWritten.b)
    return [
      `    ${row.id}: as ${height} wrote it in both stores, fields that differ:`,
      ...fieldLines(row.fields, '      '),
    ];
  const rewritten = [!row.asWritten.a && 'A', !row.asWritten.b && 'B'].filter(Boolean).join(' and ');
  return [
    `    ${row.id}: rewritten after ${height} in ${rewritten}; fields that differ now:`,
    ...fieldLines(row.fields, '      '),
  ];
}

function typeLines(t: TypeDifference, height: number): string[] {
  const lines = [`  ${t.type}: root A ${t.rootA ?? '(no rows)'}, B ${t.rootB ?? '(no rows)'}`];
  if (t.rowsUnavailable !== undefined && t.rows.length === 0 && !t.onlyA.length && !t.onlyB.length) {
    lines.push(`    rows not compared: ${t.rowsUnavailable}`);
    return lines;
  }
  const ids = (xs: string[]) => xs.slice(0, 5).join(', ') + (xs.length > 5 ? `, … (${xs.length})` : '');
  if (t.differing.length) lines.push(`    written by both, differently: ${ids(t.differing)}`);
  if (t.onlyA.length) lines.push(`    written only by A: ${ids(t.onlyA)}`);
  if (t.onlyB.length) lines.push(`    written only by B: ${ids(t.onlyB)}`);
  for (const row of t.rows) lines.push(...rowLines(row, height));
  if (t.rowsUnavailable !== undefined) lines.push(`    rows not compared: ${t.rowsUnavailable}`);
  return lines;
}

/** The report as lines of text. */
export function renderReport(result: VerifyResult, labels: [string, string]): string[] {
  const lines = [`A: ${labels[0]}`, `B: ${labels[1]}`];
  if (result.outcome === 'cannot') return [...lines, `cannot verify: ${result.reason}`];
  lines.push(`common heights: ${result.from}..${result.to} (A indexed ${result.heads[0]}, B ${result.heads[1]})`);
  if (result.outcome === 'agree') {
    lines.push(
      `agree: the proofs at ${result.to} are equal, and each proof chains every height before it: ` +
        `heights ${result.from}..${result.to} wrote the same rows in both (${result.probes} probe)`,
    );
    return lines;
  }
  const d = result.diagnosis;
  lines.push(`DIFFER: the first height whose proofs differ is ${result.firstDiffering} (${result.probes} probes)`);
  lines.push(`  proof A ${d.a.hash}`, `  proof B ${d.b.hash}`);
  if (d.blockHashDiffers)
    lines.push(`  the block hashes differ (A ${d.a.blockHash}, B ${d.b.blockHash}): the two indexed different chains`);
  if (!d.entitiesRootDiffers && !d.blockHashDiffers && d.previousDiffers)
    lines.push('  only the previous proofs differ: the chains start from different proofs');
  if (d.entitiesRootDiffers)
    lines.push(
      `  entity types whose root differs at ${d.height}: ${d.types.map((t) => t.type).join(', ')}`,
      ...d.types.flatMap((t) => typeLines(t, d.height)),
    );
  return lines;
}
