import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { changedPaths, treeState, useMemoryTmp } from './global-setup.js';

// The guard that fails a test run which wrote into the repository, on a git repository of its own.
const repo = mkdtempSync(join(tmpdir(), 'tree-guard-'));
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.test', '-c', 'user.name=t', ...args], { cwd: repo, stdio: 'ignore' });
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('the working-tree guard', () => {
  it('names a tracked file rewritten, a file created and a file deleted, and leaves earlier changes alone', () => {
    git('init', '-q');
    writeFileSync(join(repo, 'picture.png'), 'one');
    writeFileSync(join(repo, 'doc.md'), 'doc');
    git('add', '.');
    git('commit', '-qm', 'start');
    writeFileSync(join(repo, 'work-in-progress.md'), 'mine');
    const before = treeState(repo)!;
    expect(changedPaths(before, treeState(repo)!)).toEqual([]);
    writeFileSync(join(repo, 'picture.png'), 'two');
    writeFileSync(join(repo, 'left-behind.log.txt'), 'x');
    rmSync(join(repo, 'doc.md'));
    expect(changedPaths(before, treeState(repo)!)).toEqual(['doc.md', 'left-behind.log.txt', 'picture.png']);
  });

  it('sees a second change to a file that was already changed', () => {
    const before = treeState(repo)!;
    writeFileSync(join(repo, 'picture.png'), 'three');
    expect(changedPaths(before, treeState(repo)!)).toEqual(['picture.png']);
  });

  it('has nothing to compare outside a git repository', () => {
    expect(treeState(mkdtempSync(join(tmpdir(), 'no-git-')))).toBeNull();
  });
});

describe('the run\'s temporary folder', () => {
  it('is made on the memory file system when TMPDIR is not set, and TMPDIR names it', () => {
    const base = mkdtempSync(join(tmpdir(), 'memory-base-'));
    const env: NodeJS.ProcessEnv = {};
    const dir = useMemoryTmp(env, base);
    expect(dir).not.toBeNull();
    expect(dir!.startsWith(join(base, 'qa-tests-'))).toBe(true);
    expect(env.TMPDIR).toBe(dir);
    rmSync(base, { recursive: true, force: true });
  });

  it('leaves a TMPDIR that was given, and a base that is not there, alone', () => {
    const given: NodeJS.ProcessEnv = { TMPDIR: '/somewhere/else' };
    expect(useMemoryTmp(given, tmpdir())).toBeNull();
    expect(given.TMPDIR).toBe('/somewhere/else');
    const none: NodeJS.ProcessEnv = {};
    expect(useMemoryTmp(none, join(tmpdir(), 'no-such-base'))).toBeNull();
    expect(none.TMPDIR).toBeUndefined();
  });
});
