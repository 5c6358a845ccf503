// replaceFile (the gateway's status file, the CLI's era memory): a link somebody planted at the temporary name or at
// the file's own name is never followed, so toolwire cannot be made to overwrite another file through it.

import assert from 'node:assert/strict';
import { lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { replaceFile } from './replace-file.js';

describe('replaceFile', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolwire-replace-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces the file whole, mode 0600, and leaves no temporary file', () => {
    const file = join(dir, 'plain.json');
    writeFileSync(file, 'old\n', { mode: 0o644 });
    replaceFile(file, 'new\n');
    assert.equal(readFileSync(file, 'utf8'), 'new\n');
    assert.equal(lstatSync(file).mode & 0o777, 0o600);
    assert.throws(() => lstatSync(`${file}.${process.pid}.tmp`), { code: 'ENOENT' });
  });

  it('overwrites neither the target of a link at its temporary name nor that of a link at its name', () => {
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'precious\n');
    const file = join(dir, 'status.json');
    symlinkSync(victim, `${file}.${process.pid}.tmp`);
    symlinkSync(victim, file);
    replaceFile(file, 'status\n');
    assert.equal(readFileSync(victim, 'utf8'), 'precious\n');
    assert.equal(lstatSync(file).isSymbolicLink(), false);
    assert.equal(readFileSync(file, 'utf8'), 'status\n');
  });
});
