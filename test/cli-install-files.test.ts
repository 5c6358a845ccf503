// The file handling under `toolwire install`: the JSON/JSONC document editor checked against JSON.parse on random
// documents (fast-check), and the atomic replace racing a second writer (a host saving its config meanwhile).

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { commitFile } from '../src/cli/config-write.js';
import {
  insertMember,
  nodeValue,
  parseJsonDocument,
  replaceMemberValue,
  type ObjectNode,
} from '../src/cli/json-document.js';

const scratch = mkdtempSync(join(tmpdir(), 'toolwire-install-files-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;
const freshDir = (): string => {
  const dir = join(scratch, `case-${++counter}`);
  mkdirSync(dir);
  return dir;
};

describe('toolwire install: a config another program writes while toolwire merges', () => {
  it('a change another program makes during the merge is merged again, not overwritten', () => {
    const home = freshDir();
    const file = join(home, 'config.json');
    writeFileSync(file, '{"mcpServers": {}}');
    let raced = false;
    const commit = commitFile(
      file,
      (before) => {
        const text = before ?? '{}';
        const root = parseJsonDocument(text, { jsonc: false }) as ObjectNode;
        const servers = root.members.find((member) => member.key === 'mcpServers')?.value as ObjectNode;
        return insertMember(text, servers, 'ours', { command: 'o' });
      },
      {
        beforeReplace: () => {
          if (raced) return;
          raced = true; // the host saves its own change once, between our read and our rename
          writeFileSync(file, '{"mcpServers": {"theirs": {"command": "t"}}}');
        },
      },
    );
    assert.equal(commit.changed, true);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), {
      mcpServers: { theirs: { command: 't' }, ours: { command: 'o' } },
    });
  });

  it('a file that changes on every attempt is given up on, unchanged', () => {
    const home = freshDir();
    const file = join(home, 'config.json');
    writeFileSync(file, '{}');
    let n = 0;
    assert.throws(
      () =>
        commitFile(file, (before) => (before ?? '') + ' ', {
          beforeReplace: () => writeFileSync(file, `{"n": ${++n}}`),
        }),
      {
        message: `${file} kept changing while toolwire merged it (3 tries); close the program writing it and run again`,
      },
    );
    assert.equal(readFileSync(file, 'utf8'), '{"n": 3}');
    assert.deepEqual(readdirSync(home), ['config.json']);
  });
});

describe('toolwire install: editing keeps the document (property)', () => {
  // "__proto__" is left out only because the test's own expected objects are built by assignment.
  const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== '__proto__');
  const objects = fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 });
  const indents = fc.constantFrom<string | number>(0, 2, 4, '\t');

  it('the parser reads what JSON.parse reads', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), indents, (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const node = parseJsonDocument(text, { jsonc: false });
        assert.ok(node !== undefined);
        assert.deepEqual(nodeValue(node), JSON.parse(text));
      }),
    );
  });

  it('inserting a member into the root or into a nested servers object adds exactly that member', () => {
    fc.assert(
      fc.property(
        objects,
        objects,
        indents,
        key,
        // As JSON carries it (-0 is written as 0): an entry is always something JSON can hold.
        fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown),
        (rest, servers, indent, name, entry) => {
          const document = { ...rest, mcpServers: servers };
          const text = JSON.stringify(document, null, indent);
          const root = parseJsonDocument(text, { jsonc: false }) as ObjectNode;
          const container = root.members.filter((member) => member.key === 'mcpServers').at(-1)
            ?.value as ObjectNode;
          if (container.members.some((member) => member.key === name)) return;
          const edited = insertMember(text, container, name, entry);
          const expected = JSON.parse(text) as Record<string, Record<string, unknown>>;
          (expected.mcpServers as Record<string, unknown>)[name] = entry;
          assert.deepEqual(JSON.parse(edited), expected);
          assert.ok(edited.startsWith(text.slice(0, container.start)), 'nothing before the container moved');
          // And a new key at the top level, after everything that is there.
          const added = `${name}!`;
          if (Object.hasOwn(document, added)) return;
          const top = insertMember(text, root, added, entry);
          assert.deepEqual(JSON.parse(top), { ...(JSON.parse(text) as object), [added]: entry });
        },
      ),
    );
  });
});

describe('toolwire install: editing a minified file', () => {
  it('a file on one line stays on one line, whether the entry is added or replaced', () => {
    const text = '{"a":1,"mcpServers":{}}';
    const servers = () =>
      (parseJsonDocument(edited, { jsonc: false }) as ObjectNode).members[1]?.value as ObjectNode;
    let edited = text;
    edited = insertMember(edited, servers(), 'x', { command: 'c', args: ['1'] });
    assert.equal(edited, '{"a":1,"mcpServers":{"x": {"command":"c","args":["1"]}}}');
    edited = insertMember(edited, servers(), 'y', { command: 'd' });
    assert.equal(edited, '{"a":1,"mcpServers":{"x": {"command":"c","args":["1"]}, "y": {"command":"d"}}}');
    const x = servers().members[0];
    assert.ok(x !== undefined);
    edited = replaceMemberValue(edited, x, { command: 'e' });
    assert.equal(edited, '{"a":1,"mcpServers":{"x": {"command":"e"}, "y": {"command":"d"}}}');
  });
});
