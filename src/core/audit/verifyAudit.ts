import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { GENESIS, hashLine, linkOf, type ChainLink } from './auditChain';
import { headPath, type AuditHead } from './auditFiles';

/** `unanchored`: nothing outside the file (its head, a later file) holds its last record, so records removed from its end would go unnoticed. */
export type AuditProblemKind = 'altered' | 'removed' | 'inserted' | 'unanchored';

export interface AuditProblem {
  readonly file: string;
  /** 1-based line of the file the problem is at (for `removed`: the line after the gap). */
  readonly line: number;
  readonly kind: AuditProblemKind;
  readonly message: string;
}

export interface FileVerification {
  readonly file: string;
  readonly records: number;
  readonly firstSeq?: number;
  readonly lastSeq?: number;
  /** Written before records were chained: nothing to verify. */
  readonly unchained: boolean;
  /** The end of the file is anchored by its head or by the next file's first record. */
  readonly anchored: boolean;
  readonly problems: readonly AuditProblem[];
}

interface Line {
  readonly text: string;
  readonly hash: string;
  readonly link?: ChainLink;
}

/**
 * Check the chain of one audit file's text. `before` is where the previous file ended (when it is
 * verified too); `head` the file's head, if it has one. Every break is reported as the line altered,
 * the records removed or the line inserted that explains it.
 */
export function verifyAuditText(file: string, text: string, o: { before?: { prev: string; seq: number }; head?: AuditHead } = {}): FileVerification & { end?: { prev: string; seq: number } } {
  const raw = text.split('\n');
  const cutOff = raw[raw.length - 1] !== '';
  if (!cutOff) raw.pop();
  const lines: Line[] = raw.map((t) => {
    let link: ChainLink | undefined;
    try {
      link = linkOf(JSON.parse(t));
    } catch {
      link = undefined;
    }
    return { text: t, hash: hashLine(t), ...(link ? { link } : {}) };
  });
  const name = basename(file);
  if (lines.length > 0 && !lines.some((l) => l.link)) return { file, records: lines.length, unchained: true, anchored: false, problems: [] };

  const problems: AuditProblem[] = [];
  const at = (i: number, kind: AuditProblemKind, message: string) => problems.push({ file, line: i + 1, kind, message: `${name}:${i + 1}: ${message}` });
  const first = lines[0]?.link;
  let expect = o.before ?? (first?.prevFile !== undefined ? { prev: first.prev, seq: first.seq } : { prev: GENESIS, seq: 1 });
  let beforeLast: { prev: string; seq: number } | undefined;

  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    const next = lines[i + 1]?.link;
    const link = l.link;
    if (link && link.prev === expect.prev && link.seq === expect.seq) {
      beforeLast = expect;
      expect = { prev: l.hash, seq: link.seq + 1 };
      continue;
    }
    if (next && next.prev === expect.prev) {
      at(i, 'inserted', `this line was inserted (the next line links to the line before it)`);
      continue;
    }
    if (link && beforeLast && link.prev === beforeLast.prev && link.seq === beforeLast.seq) {
      at(i - 1, 'inserted', `this line was inserted (the next line links to the line before it)`);
    } else if (!link) {
      at(i, 'altered', 'this line was altered (it is not a chained audit record)');
    } else if (link.seq === expect.seq) {
      // This line is intact when the next line (or, for the last line, the head) holds its hash.
      const intact = next ? next.prev === l.hash : o.head ? o.head.seq === link.seq && o.head.hash === l.hash : true;
      const prevAnchored = !!o.head && i > 0 && o.head.seq === link.seq - 1 && o.head.hash === lines[i - 1].hash;
      if (prevAnchored && !next) at(i, 'inserted', `this line was added after the file's head (record ${link.seq - 1}) and does not link to it`);
      else if (!intact || i === 0) at(i, 'altered', i === 0 && o.before ? 'this line does not link to the end of the previous file (the previous file\'s last record, or this one, was altered)' : 'this line was altered (its link to the previous line is wrong)');
      else at(i - 1, 'altered', `this line was altered (record ${link.seq - 1} no longer matches the hash the next line holds)`);
    } else if (link.seq > expect.seq) {
      const gap = link.seq - expect.seq;
      at(i, 'removed', `${gap === 1 ? `record ${expect.seq} was` : `records ${expect.seq}–${link.seq - 1} were`} removed before this line${i === 0 ? (o.before ? ' (at the end of the previous file)' : ' (at the start of the file)') : ''}`);
    } else {
      at(i, 'inserted', `this line was inserted (record ${link.seq} comes again, after record ${expect.seq - 1})`);
      continue;
    }
    beforeLast = expect;
    expect = { prev: l.hash, seq: (link?.seq ?? expect.seq) + 1 };
  }
  if (cutOff && lines.length) at(lines.length - 1, 'altered', 'the last line is cut off (no newline at its end)');

  const last = lines.length ? lines[lines.length - 1] : undefined;
  const lastSeq = expect.seq - 1;
  const head = o.head;
  if (head && last) {
    if (head.seq > lastSeq) {
      problems.push({ file, line: lines.length, kind: 'removed', message: `${name}:${lines.length}: ${head.seq - lastSeq === 1 ? `record ${head.seq} was` : `records ${lastSeq + 1}–${head.seq} were`} removed from the end of the file (its head names record ${head.seq})` });
    } else {
      const idx = lines.findIndex((l) => l.link?.seq === head.seq);
      if (idx >= 0 && lines[idx].hash !== head.hash) at(idx, 'altered', `this line was altered (the file's head holds another hash for record ${head.seq})`);
    }
  }
  return {
    file,
    records: lines.length,
    ...(first ? { firstSeq: first.seq } : {}),
    ...(last?.link ? { lastSeq: last.link.seq } : {}),
    unchained: false,
    anchored: !!head,
    problems,
    ...(last ? { end: expect } : {}),
  };
}

function readHead(file: string): AuditHead | undefined {
  try {
    const h = JSON.parse(readFileSync(headPath(file), 'utf8')) as AuditHead;
    return Number.isSafeInteger(h.seq) && typeof h.hash === 'string' ? h : undefined;
  } catch {
    return undefined;
  }
}

export interface VerifyOptions {
  /**
   * A chained file whose end nothing anchors (no head file, no later file continuing its chain) is
   * a problem unless this is set: with the head gone, records removed from the file's end leave no
   * trace. Set it for a file known to have no head (a copy of the records alone).
   */
  readonly allowUnanchored?: boolean;
}

/**
 * Verify audit files given oldest first (rotated files, then the current one): each file's chain,
 * each link from one file to the next (`prevFile`), the head of each file that has one, and that
 * every chained file's end is anchored (see VerifyOptions).
 */
export function verifyAuditFiles(files: readonly string[], options: VerifyOptions = {}): { ok: boolean; files: FileVerification[] } {
  const out: FileVerification[] = [];
  let end: { name: string; prev: string; seq: number } | undefined;
  for (const file of files) {
    if (!existsSync(file)) {
      out.push({ file, records: 0, unchained: false, anchored: false, problems: [{ file, line: 0, kind: 'removed', message: `${file}: the file does not exist` }] });
      end = undefined;
      continue;
    }
    const text = readFileSync(file, 'utf8');
    const firstLine = text.slice(0, text.indexOf('\n') >>> 0);
    let prevFile: string | undefined;
    try {
      prevFile = linkOf(JSON.parse(firstLine))?.prevFile;
    } catch {
      prevFile = undefined;
    }
    const before = end && prevFile === end.name ? { prev: end.prev, seq: end.seq } : undefined;
    const v = verifyAuditText(file, text, { before, head: readHead(file) });
    const next = v.end ? { name: basename(file), ...v.end } : undefined;
    if (out.length && before) out[out.length - 1] = { ...out[out.length - 1], anchored: true };
    out.push({ file: v.file, records: v.records, firstSeq: v.firstSeq, lastSeq: v.lastSeq, unchained: v.unchained, anchored: v.anchored, problems: v.problems });
    end = next;
  }
  if (!options.allowUnanchored) {
    for (let i = 0; i < out.length; i++) {
      const f = out[i];
      if (f.unchained || f.anchored || !existsSync(f.file)) continue;
      const name = basename(f.file);
      const problem: AuditProblem = {
        file: f.file,
        line: f.records,
        kind: 'unanchored',
        message: `${name}: its end is not anchored: the head file ${name}.head is missing and no later file continues its chain, so records removed from its end (with the head file) cannot be found`,
      };
      out[i] = { ...f, problems: [...f.problems, problem] };
    }
  }
  return { ok: out.every((f) => f.problems.length === 0), files: out };
}
