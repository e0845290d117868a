// @no-test-database
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link and #anchor in README.md and docs/*.md resolves: the file exists and, for a
 * markdown file, the anchor is the slug of one of its headings as GitHub makes them.
 */

const root = path.resolve(__dirname, '../..');

function markdownFiles(): string[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(root, 'docs', name));
  return [path.join(root, 'README.md'), ...docs];
}

/** The text outside fenced code blocks, line by line (fenced lines become empty). */
function outsideFences(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const opener = /^\s*(```+|~~~+)/.exec(line);
    if (fence === undefined) {
      if (opener) {
        fence = opener[1]![0]!;
        return '';
      }
      return line;
    }
    if (opener && opener[1]![0] === fence) fence = undefined;
    return '';
  });
}

/** GitHub's heading anchor: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
export function githubSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown file's headings, repeats numbered as GitHub numbers them. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of outsideFences(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = githubSlug(heading[1]!);
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

/** Inline links `[text](target)` outside code, with the line they start on. */
export function linksOf(text: string): { target: string; line: number }[] {
  const lines = outsideFences(text).map((line) =>
    line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length)),
  );
  const joined = lines.join('\n');
  const links: { target: string; line: number }[] = [];
  for (const match of joined.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const line = joined.slice(0, match.index).split('\n').length;
    links.push({ target: match[1]!, line });
  }
  return links;
}

function brokenLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const problems: string[] = [];
  for (const { target, line } of linksOf(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
    const where = `${path.relative(root, file)}:${line} ${target}`;
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    const resolved = pathPart ? path.resolve(path.dirname(file), decodeURI(pathPart)) : file;
    if (!existsSync(resolved)) {
      problems.push(`${where}: no such file`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!resolved.endsWith('.md') || statSync(resolved).isDirectory()) {
      problems.push(`${where}: an anchor into a file that is not markdown`);
      continue;
    }
    if (!anchorsOf(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor))) {
      problems.push(`${where}: no heading with that anchor in ${path.relative(root, resolved)}`);
    }
  }
  return problems;
}

describe('links in README.md and docs/', () => {
  it('makes anchors as GitHub does', () => {
    expect(githubSlug('Speed: `npm run bench`')).toBe('speed-npm-run-bench');
    expect(githubSlug('Fairness: `npm run bench:fairness`')).toBe('fairness-npm-run-benchfairness');
    expect(githubSlug('One product: `GET /api/products/{id}` (extension)')).toBe(
      'one-product-get-apiproductsid-extension',
    );
    expect(githubSlug('Profiles, styles and shipping')).toBe('profiles-styles-and-shipping');
    expect([...anchorsOf('# A\n## A\n```\n# not a heading\n```\n## b_c')]).toEqual([
      'a',
      'a-1',
      'b_c',
    ]);
  });

  it('finds links outside code only', () => {
    expect(linksOf('[a](x.md#y) `[b](no.md)`\n```\n[c](no.md)\n```\n[d\ne](z.md)')).toEqual([
      { target: 'x.md#y', line: 1 },
      { target: 'z.md', line: 5 },
    ]);
  });

  it.each(markdownFiles().map((file) => [path.relative(root, file), file]))(
    '%s: every relative link and anchor resolves',
    (_name, file) => {
      expect(brokenLinks(file)).toEqual([]);
    },
  );
});
